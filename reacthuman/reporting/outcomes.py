"""Outcome-level verification: did the executed plans do what they chose to do?

From the ledger's executed rows (those with `caught` recorded): per model and derived action, the share of
catches that connect (the object held: sim_bridge.outcome's `caught`), of dodges that clear (not struck),
strikes and falls; and the same per family. An action's own success column is blank for the other
actions (a NO_ACTION row neither catches nor dodges). Rows whose scene the ground truth marks physically
unreachable (`extras["physically_unreachable"]`) are counted apart, so "the model chose wrong" and "no plan
could succeed" do not mix.
"""

from __future__ import annotations

from reacthuman.plan.plan import Action
from reacthuman.reporting.aggregate import Decisions
from reacthuman.scoring.ledger import DecisionRecord
from reacthuman.core.tables import Table, share

COLUMNS = ["executed", "catches held", "dodges clear", "struck", "fell"]
FORMATS = {"executed": "int", "catches held": "pct", "dodges clear": "pct", "struck": "pct", "fell": "pct"}


def _executed(d: Decisions) -> list[DecisionRecord]:
    return [r for r in d.scored if r.caught is not None and not (r.extras or {}).get("physically_unreachable", False)]


def _cells(rows: list[DecisionRecord]) -> list:
    catches = [r for r in rows if r.action == Action.CATCH.value]
    dodges = [r for r in rows if r.action == Action.DODGE.value]
    return [
        len(rows),
        share(bool(r.caught) for r in catches)[0],
        share(not r.struck for r in dodges)[0],
        share(bool(r.struck) for r in rows)[0],
        share(bool(r.fell) for r in rows)[0],
    ]


def outcomes_by_action_table(d: Decisions) -> Table:
    rows = []
    executed = _executed(d)
    for model in d.models:
        mine = [r for r in executed if r.model == model]
        for action in Action:
            subset = [r for r in mine if r.action == action.value]
            if subset:
                rows.append([model, action.value, *_cells(subset)])
    return Table(
        "outcomes_by_action",
        "Executed outcomes per model and chosen action (% of executed decisions)",
        ["model", "action", *COLUMNS],
        rows,
        FORMATS,
        note="catches held: the object kept off the floor in the hands; dodges clear: not struck. "
        "Scenes marked physically unreachable are left out.",
    )


def outcomes_by_family_table(d: Decisions) -> Table:
    rows = []
    executed = _executed(d)
    families = sorted({r.family for r in executed})
    for model in d.models:
        for family in families:
            subset = [r for r in executed if r.model == model and r.family == family]
            if subset:
                rows.append([model, family, *_cells(subset)])
    return Table(
        "outcomes_by_family",
        "Executed outcomes per model and family (% of executed decisions)",
        ["model", "family", *COLUMNS],
        rows,
        FORMATS,
    )


def execution_tables(d: Decisions) -> list[Table]:
    """The report's hook: both tables."""
    return [outcomes_by_action_table(d), outcomes_by_family_table(d)]
