"""The paper's tables from a results ledger alone: Table 2 (accuracy per model x budget 5/10/15/20, under each
matcher), Figure 2 (accuracy per category, averaged over budgets, the 13 cells in the paper's order) and
Tables 3/5 (the scoring dimensions with each component and the Final Score, averaged over the budgets).

Rows of older ledgers (before protocols) are upgraded on read (`physment.record`)."""

from __future__ import annotations

import collections
import math

from physment.cells import CATEGORIES
from physment.metrics import HELD_OUT_CATEGORIES, final_score
from physment.protocol import DEFAULT_PROTOCOL
from physment.scoring import REGRADE_RULES
from reacthuman.core.tables import Table

PAPER_BUDGETS = (5, 10, 15, 20)
DIMENSIONS = ("correctness", "efficiency", "groundedness", "validity", "diversity", "generalisation")


def model_label(row: dict) -> str:
    proto = row.get("protocol", DEFAULT_PROTOCOL)
    return f"{row['agent']} ({row['prompting']}" + ("" if proto == DEFAULT_PROTOCOL else f", {proto}") + ")"


def _groups(rows: list[dict], key) -> dict:
    out: dict = collections.defaultdict(list)
    for r in rows:
        out[key(r)].append(r)
    return dict(sorted(out.items()))


def _acc(rows: list[dict], field: str) -> float | None:
    return sum(bool(r[field]) for r in rows) / len(rows) if rows else None


def accuracy_by_budget(rows: list[dict], field: str, which: str) -> Table:
    """Table 2: one row per model, one column per paper budget (and any other budget run), plus the mean."""
    budgets = sorted(set(PAPER_BUDGETS) | {int(r["budget"]) for r in rows})
    cols = ["model"] + [f"I={b}" for b in budgets] + ["mean"]
    body = []
    for model, rs in _groups(rows, model_label).items():
        by_b = _groups(rs, lambda r: int(r["budget"]))
        cells = [_acc(by_b.get(b, []), field) for b in budgets]
        present = [c for c in cells if c is not None]
        body.append([model, *cells, sum(present) / len(present) if present else None])
    return Table(
        f"accuracy_{which}",
        f"Overall accuracy per model and iteration budget ({which} matcher)",
        cols,
        body,
        formats={c: "pct" for c in cols[1:]},
        best={"mean": "max"},
        note="Eq. 4: |p - t| <= abs + 0.05 |t|, or the normalised prediction contained in the truth."
        if which == "paper"
        else "Strict: tolerance for numbers, exact match after normalisation otherwise, no substring matching.",
    )


def category_table(rows: list[dict]) -> Table:
    """Figure 2's numbers: accuracy per category (the run's verdict), averaged over budgets."""
    present = {r["category"] for r in rows}
    cats = [c for c in CATEGORIES if c in present] + sorted(present - set(CATEGORIES))
    body = []
    for model, rs in _groups(rows, model_label).items():
        by_cat = _groups(rs, lambda r: r["category"])
        body.append([model] + [_acc(by_cat[c], "correct") if c in by_cat else None for c in cats])
    inferred = sum(r["category_source"] == "inferred" for r in rows)
    note = (
        f"{inferred} of {len(rows)} episodes are of scenes whose category was inferred from content."
        if inferred
        else ""
    )
    return Table(
        "categories",
        "Accuracy per category (averaged over budgets)",
        ["model"] + cats,
        body,
        formats={c: "pct" for c in cats},
        note=note,
    )


def dimensions_table(rows: list[dict]) -> Table:
    """Tables 3/5: each dimension and the Final Score per budget, then averaged over the budgets run."""
    cols = ["model", "budgets", "Acc (run)", "Acc (paper)", "Acc (strict)", "C", "E", "G", "V", "R", "G'", "FS"]
    body = []
    for model, rs in _groups(rows, model_label).items():
        per_budget = [final_score(b) for b in _groups(rs, lambda r: int(r["budget"])).values()]
        mean = {k: _mean([s[k] for s in per_budget]) for k in (*DIMENSIONS, "final_score")}
        body.append(
            [
                model,
                len(per_budget),
                _acc(rs, "correct"),
                _acc(rs, "correct_paper"),
                _acc(rs, "correct_strict"),
                *(mean[k] for k in DIMENSIONS),
                mean["final_score"],
            ]
        )
    fmts = {c: "f2" for c in ("C", "E", "G", "V", "R", "G'", "FS")}
    fmts.update({"budgets": "int", "Acc (run)": "pct", "Acc (paper)": "pct", "Acc (strict)": "pct"})
    return Table(
        "dimensions",
        "Per-model scores across the six dimensions, averaged over iteration budgets",
        cols,
        body,
        formats=fmts,
        best={"Acc (run)": "max", "FS": "max"},
        note="C correctness (graded), E efficiency 1 - k/I_max, G groundedness, V action validity, "
        f"R reasoning diversity, G' held-out category accuracy ({', '.join(HELD_OUT_CATEGORIES)}); "
        "FS = 100 (0.40 C + 0.15 E + 0.15 G + 0.10 V + 0.10 R + 0.10 G').",
    )


def normalisation_table(rows: list[dict]) -> Table:
    """Sec. 5.4: answers the strict matcher fails that fall into each class (cases and distinct scenes)."""
    cols = ["model"] + [f"{rule} (cases)" for rule in REGRADE_RULES] + [f"{rule} (scenes)" for rule in REGRADE_RULES]
    body = []
    for model, rs in _groups(rows, model_label).items():
        failed = [r for r in rs if r.get("answered") and not r["correct_strict"]]
        hits = {
            rule: [r for r in failed if (r["normalisation"] or {}).get(rule) or r.get("regrade_rule") == rule]
            for rule in REGRADE_RULES
        }
        body.append(
            [model]
            + [len(hits[rule]) for rule in REGRADE_RULES]
            + [len({r["scene"] for r in hits[rule]}) for rule in REGRADE_RULES]
        )
    return Table(
        "normalisation",
        "Strict failures in each answer-normalisation class",
        cols,
        body,
        formats={c: "int" for c in cols[1:]},
    )


def _mean(values: list[float]) -> float | None:
    defined = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return sum(defined) / len(defined) if defined else None
