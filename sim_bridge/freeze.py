"""Freeze-and-predict: the episode's phases and the wait for a plan while simulated time holds.

Pure state machines: callers pass wall-clock times (`now_s`, any monotonic clock), so every rule is
testable without ROS or a simulator. Simulated time is frozen by the body not stepping; what ends the
freeze is decided here: the plan for this scene arrives (accepted), or the timeout passes (no plan).
A plan for another scene is ignored and logged; a plan after the timeout is recorded as late and never
executed; a second plan for the same scene is ignored.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from enum import Enum

from reacthuman.core.validate import require_positive

log = logging.getLogger(__name__)


class Phase(str, Enum):
    EMPTY = "EMPTY"  # nothing loaded
    LOADED = "LOADED"  # world built, time at 0
    FROZEN = "FROZEN"  # observation window simulated, time held, waiting for a plan
    EXECUTING = "EXECUTING"
    DONE = "DONE"


_NEXT = {
    Phase.EMPTY: {Phase.LOADED},
    Phase.LOADED: {Phase.FROZEN, Phase.LOADED},
    Phase.FROZEN: {Phase.EXECUTING, Phase.LOADED},
    Phase.EXECUTING: {Phase.DONE, Phase.LOADED},
    Phase.DONE: {Phase.LOADED},
}


class PhaseError(RuntimeError):
    """An episode step was asked for out of order (e.g. execute before the window)."""


@dataclass
class EpisodePhase:
    phase: Phase = Phase.EMPTY

    def advance(self, to: Phase) -> None:
        if to not in _NEXT[self.phase]:
            raise PhaseError(f"cannot go from {self.phase.value} to {to.value}")
        self.phase = to

    def require(self, *phases: Phase) -> None:
        if self.phase not in phases:
            wanted = " or ".join(p.value for p in phases)
            raise PhaseError(f"episode is {self.phase.value}, this needs {wanted}")


class GateState(str, Enum):
    WAITING = "WAITING"
    PLAN_ACCEPTED = "PLAN_ACCEPTED"
    TIMED_OUT = "TIMED_OUT"


class Verdict(str, Enum):
    ACCEPTED = "ACCEPTED"
    WRONG_SCENE = "WRONG_SCENE"
    LATE = "LATE"
    DUPLICATE = "DUPLICATE"


@dataclass(frozen=True)
class FreezeConfig:
    """BodyConfig.freeze: read from the `freeze:` block of config/body.yaml (no file of its own)."""

    plan_timeout_s: float = 300.0  # wall-clock seconds a brain may think while time is frozen

    def __post_init__(self) -> None:
        require_positive(self, ("plan_timeout_s",), "FreezeConfig.")


@dataclass
class FreezeRecord:
    """What happened while frozen; it goes into the episode's outcome."""

    scene_id: str
    plan_received: bool = False
    plan_late: bool = False
    timed_out: bool = False
    wait_s: float | None = None  # wall time from freeze to the accepted plan or the timeout
    late_by_s: float | None = None
    wrong_scene_ids: list[str] = field(default_factory=list)
    duplicates: int = 0


class FreezeGate:
    """Holds an episode frozen until the plan for `scene_id` arrives or `plan_timeout_s` passes."""

    def __init__(self, scene_id: str, config: FreezeConfig, frozen_at_s: float) -> None:
        if not scene_id:
            raise ValueError("FreezeGate needs a scene_id")
        self.scene_id = scene_id
        self.config = config
        self.frozen_at_s = frozen_at_s
        self.state = GateState.WAITING
        self.record = FreezeRecord(scene_id)

    @property
    def deadline_s(self) -> float:
        return self.frozen_at_s + self.config.plan_timeout_s

    def poll(self, now_s: float) -> GateState:
        """Advance the clock: a wait past the deadline becomes a timeout (the episode records no plan)."""
        if self.state is GateState.WAITING and now_s > self.deadline_s:
            self.state = GateState.TIMED_OUT
            self.record.timed_out = True
            self.record.wait_s = self.config.plan_timeout_s
            log.warning(
                "scene %s: no plan within %.1f s; resuming without one", self.scene_id, self.config.plan_timeout_s
            )
        return self.state

    def offer(self, plan_scene_id: str, now_s: float) -> Verdict:
        """A plan arrived for `plan_scene_id`; only an ACCEPTED plan may be executed."""
        if plan_scene_id != self.scene_id:
            self.record.wrong_scene_ids.append(plan_scene_id)
            log.warning("ignoring a plan for scene %r: this episode is scene %r", plan_scene_id, self.scene_id)
            return Verdict.WRONG_SCENE
        state = self.poll(now_s)
        if state is GateState.TIMED_OUT:
            self.record.plan_late = True
            self.record.late_by_s = now_s - self.deadline_s
            log.warning(
                "scene %s: plan arrived %.2f s after the timeout; recorded as late, not executed",
                self.scene_id,
                self.record.late_by_s,
            )
            return Verdict.LATE
        if state is GateState.PLAN_ACCEPTED:
            self.record.duplicates += 1
            log.warning("scene %s: a second plan arrived; ignored (the first is executed)", self.scene_id)
            return Verdict.DUPLICATE
        self.state = GateState.PLAN_ACCEPTED
        self.record.plan_received = True
        self.record.wait_s = now_s - self.frozen_at_s
        return Verdict.ACCEPTED

    @property
    def released(self) -> bool:
        """True once time may resume (a plan was accepted or the wait timed out)."""
        return self.state is not GateState.WAITING
