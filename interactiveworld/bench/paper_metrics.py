"""The family measures the paper reports beside Pass and MCR, computed from each episode's row.

The paper names these measures but does not define them in full; the readings below are ours, stated so they can
be checked:
- **CFSS-StateScore** (Accessibility): the share of the task's core final-state predicates (those not already true
  at the handoff) that hold at termination, per episode, averaged over valid Accessibility episodes.
- **STG-CFSS** (Accessibility): the same state score, credited only when every critical transition gate of the
  task was passed: the task's `said`/`said_by` evaluation points, where the assistant names the exact step a blind
  human must take. A final state reached some other way scores 0.
- **C7 / C8 under WATCH-binary** (Prevention): each episode scores 1 or 0. C7 (intervention correctness) is 1 when
  every `intervention_correctness` point passed: the assistant stayed quiet on each correct step of the human's
  plan and gave the right correction. C8 (intervention timing) is 1 when every `intervention_timing` point passed:
  the correction came by the error's deadline. A point never observed counts as not passed.
"""

from __future__ import annotations

from dataclasses import dataclass

from interactiveworld.bench.record import TaskRecord

GATE_CHECKS = ("said", "said_by")


def cfss_state_score(r: TaskRecord) -> float:
    scored = [ok for ok, before in zip(r.goals_final, r.goals_at_handoff) if not before]
    return sum(scored) / len(scored) if scored else 0.0


def stg_cfss(r: TaskRecord) -> float:
    gates = [p for p in r.points if p.get("check") in GATE_CHECKS and p["cap"] != "task_completion"]
    return cfss_state_score(r) if all(p["status"] == "pass" for p in gates) else 0.0


def watch_binary(r: TaskRecord, cap: str) -> int:
    pts = [p for p in r.points if p["cap"] == cap]
    return int(bool(pts) and all(p["status"] == "pass" for p in pts))


@dataclass(frozen=True)
class PaperMetrics:
    cfss: float | None  # mean over valid Accessibility episodes (None: none in the run)
    stg_cfss: float | None
    c7: float | None  # mean over valid Prevention episodes
    c8: float | None
    n_accessibility: int
    n_prevention: int


def paper_metrics(rows: list[TaskRecord]) -> PaperMetrics:
    acc = [r for r in rows if not r.voided and r.family == "accessibility"]
    prev = [r for r in rows if not r.voided and r.family == "prevention"]

    def mean(xs: list[float]) -> float | None:
        return sum(xs) / len(xs) if xs else None

    return PaperMetrics(
        mean([cfss_state_score(r) for r in acc]),
        mean([stg_cfss(r) for r in acc]),
        mean([watch_binary(r, "intervention_correctness") for r in prev]),
        mean([watch_binary(r, "intervention_timing") for r in prev]),
        len(acc),
        len(prev),
    )
