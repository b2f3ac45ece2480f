"""`physment report RUN_DIR`: report.md, report.html, plots/*.png and tables/*.csv (the suite's report
conventions), from RUN_DIR/results.jsonl alone (older ledgers included: see physment.record).

In the paper's layout first: Table 2 (accuracy per model x budget, under the paper's Eq. 4 and the strict
matcher side by side), Figure 2 (the category heatmap in the paper's colour buckets and cell order), Tables
3/5 (the six dimensions and the Final Score averaged over budgets). Then this project's: the dimensions per
budget, accuracy per problem type, failure modes, the normalisation classes and accuracy against budget."""

from __future__ import annotations

import collections
import os
from pathlib import Path

from typing import TYPE_CHECKING

from reacthuman.core.plotting import figure, matplotlib_agg

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from physment.metrics import HELD_OUT_CATEGORIES, final_score
from physment.paper_tables import (
    PAPER_BUDGETS,
    accuracy_by_budget,
    category_table,
    dimensions_table,
    model_label,
    normalisation_table,
)
from physment.runner import read_results
from physment.scoring import REGRADE_RULES
from reacthuman.core.atomic import atomic_path
from reacthuman.core.report_html import (
    Heading,
    Image,
    Paragraph,
    atomic_write_text,
    render_html,
    render_markdown,
    table_csv,
)
from reacthuman.core.tables import Table

FAILURE_MODES = (
    "premature_answer",
    "insufficient_simulation_time",
    "answer_format_mismatch",
    "object_id_confusion",
    "wrong_parameter_substitution",
    "trusting_anomalous_simulation",
    "budget_exhausted",
    "api_error",
    "unparsed_reply",
)
BUCKETS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0001)
BUCKET_COLOURS = ("#d73027", "#fee08b", "#d9ef8b", "#66bd63", "#1a9850")  # <20, 20-39, 40-59, 60-79, >=80 %
DPI = 110


class ReportError(ValueError):
    pass


_model = model_label


def _groups(rows: list[dict], key) -> dict:
    out: dict = collections.defaultdict(list)
    for r in rows:
        out[key(r)].append(r)
    return dict(sorted(out.items()))


def scores_table(rows: list[dict]) -> Table:
    cols = ["model", "budget", "episodes", "accuracy", "after regrade", "C", "E", "G", "V", "R", "G'", "Final Score"]
    body = []
    for (model, budget), rs in _groups(rows, lambda r: (_model(r), int(r["budget"]))).items():
        s = final_score(rs)
        body.append(
            [
                model,
                budget,
                s["episodes"],
                s["accuracy"],
                s["accuracy_after_regrade"],
                s["correctness"],
                s["efficiency"],
                s["groundedness"],
                s["validity"],
                s["diversity"],
                None if s["generalisation"] != s["generalisation"] else s["generalisation"],
                s["final_score"],
            ]
        )
    fmts = {c: "f2" for c in ("C", "E", "G", "V", "R", "G'", "Final Score")}
    fmts.update({"accuracy": "pct", "after regrade": "pct", "budget": "int", "episodes": "int"})
    return Table(
        "scores",
        "Accuracy, the six dimensions and the Final Score per model and budget",
        cols,
        body,
        formats=fmts,
        best={"accuracy": "max", "Final Score": "max"},
        note="C graded correctness, E efficiency, G groundedness, V action validity, R reasoning "
        f"diversity, G' accuracy on held-out categories ({', '.join(HELD_OUT_CATEGORIES)}); "
        "FS = 100 (0.40 C + 0.15 E + 0.15 G + 0.10 V + 0.10 R + 0.10 G').",
    )


def problem_type_table(rows: list[dict]) -> Table:
    types = ("comparison", "calculation", "computation", "observation")
    body = []
    for model, rs in _groups(rows, _model).items():
        by_type = _groups(rs, lambda r: r["problem_type"])
        body.append(
            [model] + [sum(x["correct"] for x in by_type[t]) / len(by_type[t]) if t in by_type else None for t in types]
        )
    return Table(
        "problem_types",
        "Accuracy per problem type (averaged over budgets)",
        ["model", *types],
        body,
        formats={t: "pct" for t in types},
    )


def _count_table(rows: list[dict], name: str, title: str, labels: tuple[str, ...], count) -> Table:
    body = [
        [model] + [sum(count(r, label) for r in rs) for label in labels] for model, rs in _groups(rows, _model).items()
    ]
    return Table(name, title, ["model"] + list(labels), body, formats={lab: "int" for lab in labels})


def _save(fig: Figure, path: Path) -> Path:
    with atomic_path(path, suffix=".png") as tmp:
        fig.savefig(tmp, dpi=DPI, format="png")
    return path


def heatmap(table: Table, path: Path) -> Path:
    cats, models = table.columns[1:], [r[0] for r in table.rows]
    values = [[float("nan") if v is None else v for v in r[1:]] for r in table.rows]
    fig = figure(figsize=(max(6.0, 0.7 * len(cats) + 2), 1.0 + 0.5 * len(models) + 1.5))
    ax = fig.add_subplot()
    colors = matplotlib_agg().colors
    cmap = colors.ListedColormap(BUCKET_COLOURS)
    ax.imshow(values, cmap=cmap, norm=colors.BoundaryNorm(BUCKETS, cmap.N), aspect="auto")
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            ax.text(j, i, "-" if v != v else f"{100 * v:.0f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(cats)), cats, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(models)), models, fontsize=8)
    ax.set_title("Accuracy (%) per category")
    fig.tight_layout()
    return _save(fig, path)


def accuracy_vs_budget(rows: list[dict], path: Path) -> Path:
    fig = figure(figsize=(6.0, 4.0))
    ax = fig.add_subplot()
    for model, rs in _groups(rows, _model).items():
        by_budget = _groups(rs, lambda r: int(r["budget"]))
        xs = list(by_budget)
        ax.plot(
            xs, [100 * sum(x["correct"] for x in by_budget[b]) / len(by_budget[b]) for b in xs], marker="o", label=model
        )
    ax.set_xticks(sorted(set(PAPER_BUDGETS) | {int(r["budget"]) for r in rows}))
    ax.set_xlabel("iteration budget I_max")
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(-2, 102)
    ax.legend(fontsize=8)
    ax.set_title("Accuracy against budget")
    fig.tight_layout()
    return _save(fig, path)


def write_report(run_dir: str | Path, out_dir: str | Path | None = None) -> Path:
    run_dir = Path(run_dir)
    rows = [r.to_dict() for r in read_results(run_dir)]
    if not rows:
        raise ReportError(f"{run_dir}: no results.jsonl rows to report")
    out = Path(out_dir) if out_dir else run_dir
    acc_paper, acc_strict = (
        accuracy_by_budget(rows, "correct_paper", "paper"),
        accuracy_by_budget(rows, "correct_strict", "strict"),
    )
    cats, dims = category_table(rows), dimensions_table(rows)
    ours = [
        scores_table(rows),
        problem_type_table(rows),
        _count_table(
            rows,
            "failure_modes",
            "Failure modes (episodes not fully correct)",
            FAILURE_MODES,
            lambda r, lab: lab in (r.get("failure_modes") or []),
        ),
        _count_table(
            rows,
            "regrade",
            "Regraded from fail to pass, per rule (first rule that applies)",
            REGRADE_RULES,
            lambda r, lab: r.get("regrade_rule") == lab,
        ),
        normalisation_table(rows),
    ]
    heat = heatmap(cats, out / "plots" / "category_heatmap.png")
    curve = accuracy_vs_budget(rows, out / "plots" / "accuracy_vs_budget.png")
    for t in [acc_paper, acc_strict, cats, dims, *ours]:
        atomic_write_text(out / "tables" / f"{t.name}.csv", table_csv(t))
    protocols = sorted({r["protocol"] for r in rows})
    blocks = [
        Paragraph(
            f"{len(rows)} episodes from {run_dir / 'results.jsonl'} (protocol: {', '.join(protocols)}). "
            "Each answer is scored by both matchers; `correct` is the run's protocol's verdict."
        ),
        Heading("Table 2: accuracy per model and budget"),
        acc_paper,
        acc_strict,
        Heading("Figure 2: accuracy per category"),
        cats,
        Image(os.path.relpath(heat, out), "Accuracy per category"),
        Heading("Tables 3 and 5: the scoring dimensions"),
        dims,
        Heading("Per budget"),
        ours[0],
        ours[1],
        Image(os.path.relpath(curve, out), "Accuracy against budget"),
        Heading("Failure modes"),
        ours[2],
        Heading("Answer normalisation"),
        ours[3],
        ours[4],
    ]
    atomic_write_text(out / "report.md", render_markdown("PhysMent report", blocks))
    atomic_write_text(out / "report.html", render_html("PhysMent report", blocks))
    return out / "report.md"
