"""`reacthuman eval --plans RUN`: the verification pass of the two-step protocol. `reacthuman decide` wrote
RUN (decision-only rows, `executed: false`, each with its committed plan); this executes those plans through
the graph, whose brain node replays them (`reacthuman.scoring.replay`) instead of asking the model again.

How a row becomes executed, the ledger being append-only: the graph's row of an executed plan is appended to
RUN/ledger.jsonl with `executed: true` and the same `plan`. It equals the decide row in every scoring field
(the same reply scored against the same truth) and adds the execution columns. Every table is computed from
the last scored row of each (scene, model) (`scoring.aggregate.select_decisions`), so the executed row
supersedes its decide row, which stays in the file as it was written. A (scene, model) is executed when its
last scored row is; a rerun executes the rest. A decision lost to an API error has no plan and is not executed
(`reacthuman decide` on the same folder retries it; this pass executes it afterwards): such pairs are named on
the progress line, in the end summary and in the manifest (`no_plan_api_errors`), never skipped silently."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from reacthuman.scoring.replay import (
    EXECUTED_FIELD,
    PLAN_FIELD,
    is_executed,
    stored_decisions,
)
from reacthuman.evaluation.scene_set import SceneEntry
from reacthuman.scoring.ledger import DecisionRecord, ledger_path, read_ledger

DECIDE_RECORD = "decide.json"

Key = tuple[str, str]
NAMED = 10  # pairs a no-plan line names before it counts the rest


@dataclass(frozen=True)
class PlansRun:
    """The decisions of a decide run to execute: their rows by (scene, model), and the run's models."""

    run_dir: Path
    decisions: dict[Key, DecisionRecord]  # the last scored row of each (scene, model) with a stored plan
    models: list[str]
    no_plan: tuple[Key, ...] = ()  # (scene, model) of these scenes and models with API-error rows only

    @property
    def pairs(self) -> set[Key]:
        return set(self.decisions)

    def executed(self) -> set[Key]:
        """Pairs whose last scored row is an executed one (read again: the eval appends meanwhile)."""
        return {k for k, r in _latest(self.run_dir).items() if k in self.decisions and is_executed(r)}

    def executed_row(self, record: DecisionRecord) -> DecisionRecord:
        """The graph's row of a replayed plan, marked executed and carrying the plan it executed."""
        record.extras[PLAN_FIELD] = self.decisions[record.key].extras[PLAN_FIELD]
        record.extras[EXECUTED_FIELD] = True
        return record

    def no_plan_line(self) -> str:
        """'' when every decided pair has a plan, else one line naming the pairs lost to API errors."""
        if not self.no_plan:
            return ""
        names = ", ".join(f"{scene} x {model}" for scene, model in self.no_plan[:NAMED])
        more = f" and {len(self.no_plan) - NAMED} more" if len(self.no_plan) > NAMED else ""
        return (
            f"{len(self.no_plan)} pair(s) had no plan (API errors): {names}{more}; not executed "
            f"(`reacthuman decide` on the same folder retries them, then run this again)"
        )


def _latest(run_dir: Path) -> dict[Key, DecisionRecord]:
    return {r.key: r for r in stored_decisions(run_dir)}


def decide_record(run_dir: Path) -> dict:
    """RUN/decide.json, or a one-line error saying RUN is not a decide run."""
    path = run_dir / DECIDE_RECORD
    if not path.is_file() or not ledger_path(run_dir).is_file():
        raise ValueError(f"--plans: {run_dir} is not a `reacthuman decide` run (no {DECIDE_RECORD} and ledger.jsonl)")
    return json.loads(path.read_text())


def scenes_of(run_dir: Path, record: dict) -> Path:
    """The scene folder the run was decided on (`--scenes` overrides it; a run decided on an exported dataset
    has none: its scene folder must be given)."""
    scenes = Path(record.get("scenes") or "")
    if scenes.is_dir() and any(scenes.glob("*/spec.json")):
        return scenes
    raise ValueError(
        f"--plans: {run_dir} was decided on {scenes}, which is not a scene folder: give --scenes "
        f"(the scenes the dataset was exported from)"
    )


def load_plans(run_dir: Path, models: list[str] | None, scenes: list[SceneEntry]) -> PlansRun:
    """The decisions of `run_dir` (of `models` when given, else of every model of decide.json) on `scenes`;
    one-line errors for a model the run did not decide, or nothing to execute."""
    record = decide_record(run_dir)
    decided = list(record.get("models") or [])
    chosen = models or decided
    unknown = [m for m in chosen if m not in decided]
    if unknown:
        raise ValueError(f"--models: {unknown[0]!r} was not decided in {run_dir} (it decided {', '.join(decided)})")
    ids = {s.scene_id for s in scenes}
    rows = [r for r in stored_decisions(run_dir) if r.model in chosen]
    decisions = {r.key: r for r in rows if r.scene_id in ids}
    errors = {r.key for r in read_ledger(run_dir) if not r.scored and r.model in chosen and r.scene_id in ids}
    if not decisions:
        raise ValueError(
            f"--plans: {run_dir} has no decision with a stored plan on these scenes"
            + (f" (it decided {rows[0].scene_id}, which the scene folder lacks)" if rows else "")
            + (f"; {len(errors)} pair(s) had no plan (API errors)" if errors else "")
        )
    return PlansRun(run_dir, decisions, chosen, tuple(sorted(errors - set(decisions))))
