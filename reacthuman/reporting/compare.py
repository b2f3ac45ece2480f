"""`reacthuman report RUN_A --compare RUN_B`: what changed from run A to run B, from the two ledgers alone.

Per model: each main metric in A and in B and the change (B - A; percentage points for SAA and Safety);
safety rule counts A -> B; then the decisions themselves, matched by (scene_id, model): how many exist only
in one run, how many changed action, gained or lost SAA, became unsafe or safe, and a list of the changed
decisions (the first MAX_CHANGES_LISTED). Writes compare-<B>.md and compare-<B>.html into OUT (default RUN_A).
"""

from __future__ import annotations

from pathlib import Path

from reacthuman.reporting.aggregate import Decisions, metric_means, select_decisions
from reacthuman.scoring.ledger import DecisionRecord, read_ledger
from reacthuman.scoring.metrics import RULES
from reacthuman.core.report_html import Block, Heading, Paragraph, atomic_write_text, render_html, render_markdown
from reacthuman.core.tables import Table

MAX_CHANGES_LISTED = 200


def _models(a: Decisions, b: Decisions) -> list[str]:
    return a.models + [m for m in b.models if m not in a.models]


def _metric_table(a: Decisions, b: Decisions, metrics: list[str], fmt: str, name: str, title: str) -> Table:
    columns = ["model"]
    for m in metrics:
        columns += [f"{m} A", f"{m} B", f"{m} change"]
    rows = []
    for model in _models(a, b):
        ma, mb = metric_means(a.by_model(model)), metric_means(b.by_model(model))
        row: list[object] = [model]
        for m in metrics:
            va, vb = ma[m][0], mb[m][0]
            row += [va, vb, None if va is None or vb is None else vb - va]
        rows.append(row)
    return Table(name, title, columns, rows, {c: fmt for c in columns[1:]})


def _rules_table(a: Decisions, b: Decisions) -> Table:
    rows = []
    for model in _models(a, b):
        cells = []
        for rule in RULES:
            na = sum(1 for r in a.by_model(model) if r.rule == rule)
            nb = sum(1 for r in b.by_model(model) if r.rule == rule)
            cells.append(f"{na} → {nb}")
        rows.append([model] + cells)
    return Table("compare_rules", "Safety violations by rule, A → B", ["model"] + list(RULES), rows)


def _changed(ra: DecisionRecord, rb: DecisionRecord) -> bool:
    return (ra.action, ra.saa, ra.safe, ra.rule) != (rb.action, rb.saa, rb.safe, rb.rule)


def _decision_blocks(a: Decisions, b: Decisions) -> list[Block]:
    ka = {r.key: r for r in a.scored}
    kb = {r.key: r for r in b.scored}
    both = [k for k in ka if k in kb]
    changed = [k for k in both if _changed(ka[k], kb[k])]
    counts = Table(
        "compare_counts",
        "Decisions matched by scene and model",
        ["measure", "n"],
        [
            ["only in A", sum(1 for k in ka if k not in kb)],
            ["only in B", sum(1 for k in kb if k not in ka)],
            ["in both", len(both)],
            ["changed action", sum(1 for k in both if ka[k].action != kb[k].action)],
            ["SAA gained (0 → 1)", sum(1 for k in both if ka[k].saa == 0 and kb[k].saa == 1)],
            ["SAA lost (1 → 0)", sum(1 for k in both if ka[k].saa == 1 and kb[k].saa == 0)],
            ["became unsafe", sum(1 for k in both if ka[k].safe == 1 and kb[k].safe == 0)],
            ["became safe", sum(1 for k in both if ka[k].safe == 0 and kb[k].safe == 1)],
        ],
        {"n": "int"},
    )
    rows = [
        [
            k[0],
            k[1],
            ka[k].correct_action,
            ka[k].action,
            kb[k].action,
            f"{ka[k].saa} → {kb[k].saa}",
            f"{ka[k].rule or '-'} → {kb[k].rule or '-'}",
        ]
        for k in changed[:MAX_CHANGES_LISTED]
    ]
    listed = Table(
        "compare_changes",
        f"Changed decisions ({len(changed)}; first {MAX_CHANGES_LISTED} listed)",
        ["scene_id", "model", "truth", "action A", "action B", "SAA", "rule"],
        rows,
    )
    return [counts, listed]


def write_comparison(run_a: str | Path, run_b: str | Path, out_dir: str | Path | None = None) -> tuple[Path, Path]:
    """Compare two runs; returns (markdown, html). Raises LedgerError if either ledger is unusable."""
    run_a, run_b = Path(run_a), Path(run_b)
    a, b = select_decisions(read_ledger(run_a)), select_decisions(read_ledger(run_b))
    out = Path(out_dir) if out_dir is not None else run_a
    blocks: list[Block] = [
        Paragraph(
            f"A = {run_a} ({len(a.scored)} decisions), B = {run_b} ({len(b.scored)} decisions). "
            "Changes are B - A; for SAA and Safety in percentage points."
        ),
        Heading("Per model"),
        _metric_table(a, b, ["SAA", "Safety"], "pct", "compare_rates", "SAA and Safety (%)"),
        _metric_table(a, b, ["d_end (m)", "d_min (m)"], "m", "compare_distances", "Distances (m)"),
        _metric_table(a, b, ["AIA"], "f2", "compare_aia", "Action-intent alignment"),
        _rules_table(a, b),
        Heading("Decisions"),
        *_decision_blocks(a, b),
    ]
    title = f"ReactHuman comparison: {run_a.name} → {run_b.name}"
    md, page = out / f"compare-{run_b.name}.md", out / f"compare-{run_b.name}.html"
    atomic_write_text(md, render_markdown(title, blocks))
    atomic_write_text(page, render_html(title, blocks))
    return md, page
