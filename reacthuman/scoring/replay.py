"""The replay brain: the plans a decide run committed, published again as the brain's decisions, so that
`reacthuman eval --plans RUN` executes them through the graph without asking the model a second time.

A decide row stores the plan it scored (`plan`, in the schema's field names, with the model's own words
scrubbed as the row's are); with the row's parse outcome, tokens, latency and modality it is the decision
the scorer scores. Replayed, the graph's scorer therefore writes every scoring field of the decide row again,
and adds what the body did with the plan."""

from __future__ import annotations

import os
from typing import Any

from reacthuman.brain.base import Brain, BrainDecision
from reacthuman.brain.observation import Observation
from reacthuman.brain.schema import plan_from_dict, plan_to_dict
from reacthuman.plan.plan import Plan
from reacthuman.scoring.ledger import DecisionRecord, read_ledger, scrub_secrets

PLAN_FIELD = "plan"  # the ledger column holding the committed plan (null for an unparseable reply)
EXECUTED_FIELD = "executed"  # false on a decide row, true on the row of its executed plan; absent on eval's own rows


def stored_plan(plan: Plan | None) -> dict[str, Any] | None:
    """`plan` as a ledger row stores it: the schema's fields, the model's free text scrubbed of secrets."""
    if plan is None:
        return None
    data = plan_to_dict(plan)
    data["object_identified"] = scrub_secrets(data["object_identified"])
    data["intent"] = scrub_secrets(data["intent"])
    return data


def is_executed(record: DecisionRecord) -> bool:
    """Whether a row holds an executed outcome (a graph episode's row), as opposed to a decision-only row."""
    return record.extras.get(EXECUTED_FIELD, True) is not False


def decision_of_row(record: DecisionRecord) -> BrainDecision:
    """The decision a scored row with a stored plan was made from, as the graph's scorer receives it."""
    if PLAN_FIELD not in record.extras:
        raise ValueError(
            f"row {record.scene_id} x {record.model} stores no plan (decided by a suite that did not "
            f"store plans): run `reacthuman decide` again into a new folder"
        )
    if not record.scored:
        raise ValueError(f"row {record.scene_id} x {record.model} is an API error: there is no plan to execute")
    data = record.extras[PLAN_FIELD]
    return BrainDecision(
        brain=record.model,
        plan=plan_from_dict(data) if data is not None else None,
        raw_text=record.raw_text or "",
        parse_ok=bool(record.plan_parse_ok),
        parse_error=record.parse_error,
        latency_s=record.latency_s or 0.0,
        prompt_tokens=record.prompt_tokens,
        completion_tokens=record.completion_tokens,
        modality=record.modality or "",
        truncated=bool(record.truncated),
    )


def stored_decisions(run_dir: str | os.PathLike[str]) -> list[DecisionRecord]:
    """The decision of each (scene, model) of a run that stores plans: its last scored row with a plan (the
    decide row, or the executed row that superseded it; both hold the same decision)."""
    last: dict[tuple[str, str], DecisionRecord] = {}
    for record in read_ledger(run_dir):
        if record.scored and PLAN_FIELD in record.extras:
            last[record.key] = record
    return [last[key] for key in sorted(last)]  # the report's order (reporting.aggregate.select_decisions)


class ReplayBrain(Brain):
    """Publishes `model`'s stored decision for each scene of a decide run (RUN/ledger.jsonl); never calls a
    model. A scene the run did not decide is an error (the eval only asks for decided scenes). A scene not read
    yet is looked up again: a Ray worker's folder gains each task's decision as the task arrives."""

    def __init__(self, run_dir: str | os.PathLike[str], model: str) -> None:
        self.name, self.run_dir = model, str(run_dir)
        self._rows = self._read()
        if not self._rows:
            raise ValueError(f"{run_dir}: no decision of {model!r} with a stored plan to replay")
        self.modality = "replay"

    def _read(self) -> dict[str, DecisionRecord]:
        return {r.scene_id: r for r in stored_decisions(self.run_dir) if r.model == self.name}

    def plan(self, obs: Observation) -> BrainDecision:
        if obs.scene_id not in self._rows:
            self._rows = self._read()
        record = self._rows.get(obs.scene_id)
        if record is None:
            raise ValueError(f"{self.run_dir}: {self.name!r} has no stored decision for {obs.scene_id}")
        return decision_of_row(record)
