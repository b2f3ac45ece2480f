"""The report's "Open vs closed loop" section, from the closed-loop fields of the ledger's rows
(`scoring.closed_loop`): per model, the first decision (the paper's open-loop decision, on which the row's own
metrics are scored) beside the final one, how often a wrong first plan was recovered and a right one abandoned,
and what execution showed."""

from __future__ import annotations

from reacthuman.reporting.aggregate import Decisions
from reacthuman.scoring.ledger import DecisionRecord
from reacthuman.core.report_html import Block, Heading, Paragraph
from reacthuman.core.tables import Table, mean_n, share


def closed_loop_rows(rows: list[DecisionRecord]) -> list[DecisionRecord]:
    return [r for r in rows if r.extras.get("loop") == "closed"]


def loop_table(d: Decisions) -> Table:
    columns = [
        "model",
        "episodes",
        "re-plans / episode",
        "SAA first",
        "SAA final",
        "recovery",
        "regression",
        "caught",
        "struck",
        "fell",
        "d_end executed (m)",
    ]
    rows = []
    for model in d.models:
        rs = closed_loop_rows(d.by_model(model))
        if not rs:
            continue
        rows.append(
            [
                model,
                len(rs),
                mean_n(r.extras["replans"] for r in rs)[0],
                mean_n(r.saa for r in rs)[0],
                mean_n(r.extras["saa_final"] for r in rs)[0],
                share(r.extras["recovery"] for r in rs)[0],
                share(r.extras["regression"] for r in rs)[0],
                share(r.caught for r in rs)[0],
                share(r.struck for r in rs)[0],
                share(r.fell for r in rs)[0],
                mean_n(r.d_end_executed for r in rs)[0],
            ]
        )
    fmts = {
        "episodes": "int",
        "re-plans / episode": "f2",
        "SAA first": "pct",
        "SAA final": "pct",
        "recovery": "pct",
        "regression": "pct",
        "caught": "pct",
        "struck": "pct",
        "fell": "pct",
        "d_end executed (m)": "m",
    }
    return Table(
        "open_vs_closed_loop",
        "First (open-loop) and final (closed-loop) decisions, per model",
        columns,
        rows,
        fmts,
        note="recovery: a wrong first plan later corrected, the outcome safe (neither struck "
        "nor fallen); regression: a right first plan later abandoned for a wrong one; each re-plan is "
        "judged by the labeller's rule at its moment (docs/closed-loop.md)",
    )


def loop_blocks(d: Decisions) -> list[Block]:
    """The section, or nothing when the run has no closed-loop rows."""
    if not closed_loop_rows(d.scored):
        return []
    return [
        Heading("Open vs closed loop"),
        Paragraph(
            "Closed-loop rows: the row's metrics score the first decision, as the open loop does; the "
            "final decision is the last plan the brain committed before the episode ended."
        ),
        loop_table(d),
    ]
