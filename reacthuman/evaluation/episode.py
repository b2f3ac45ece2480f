"""The one episode engine: load -> window -> observation -> decision -> execution -> score, and the one
`EpisodeResult` every runner returns.

The steps are shared, not copied, by the two transports, so the episode cannot drift between them:
- direct calls (`run_episode` with a brain, `run_plan_episode` with a plan known in advance: the body's
  tests), the reference the benchmark compares the graph against and a quick way to debug a scene;
- the ROS 2 graph: the body node runs `simulate_window` and the execution, the brain node decides on the
  observation rebuilt from its message, the scorer scores with `scoring.episode.score_episode` on the reply
  `scoring.episode.reply_of` builds from the decision rebuilt from its message
  (`nodes/conversions.decision_from_msg`), and
  `graph_worker` answers with an `EpisodeResult` holding the ledger row.
Ground truth reaches a brain through one builder (`observe.ground_truth_dict`, its message twin in
`nodes/conversions`, tested equal)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from reacthuman.brain.base import BrainDecision
from reacthuman.brain.observation import Observation
from reacthuman.evaluation.observe import WindowTracker, build_observation, ground_truth_dict
from reacthuman.plan.plan import Plan
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scoring import ExecutedOutcome
from reacthuman.scoring.episode import reply_of, score_episode
from reacthuman.scoring.ledger import DecisionRecord
from reacthuman.sim_bridge.body import Body, CommandSource, FrameSet
from reacthuman.sim_bridge.freeze import Verdict
from reacthuman.sim_bridge.outcome import Outcome
from reacthuman.spine.spine import Spine

if TYPE_CHECKING:  # the body node runs the window without a brain or a spine of its own
    from reacthuman.brain.base import Brain
    from reacthuman.spine.spine import Spine


@dataclass(frozen=True)
class EpisodeResult:
    """One episode, whichever way it ran. In process every field is set; through the graph `record` (the
    ledger row, read back from the scorer's message) or `error` (an infrastructure failure, retried)."""

    ok: bool = True
    record: DecisionRecord | None = None
    error: str = ""
    outcome: Outcome | None = None
    frames: tuple[FrameSet, ...] = ()
    verdict: Verdict | None = None
    decision: BrainDecision | None = None
    timings_s: dict[str, float] = field(default_factory=dict)
    wall_s: float = 0.0


@dataclass(frozen=True)
class Window:
    """What the window left: the rendered frame-sets, the hazard's track at their instants, and its centre of
    mass and velocity at the freeze (world frame; what the scorer reads)."""

    spec: SceneSpec
    frames: tuple[FrameSet, ...]
    samples: dict[float, tuple[np.ndarray, np.ndarray]]
    freeze_position_m: np.ndarray
    freeze_velocity_mps: np.ndarray

    def observation(self, ground_truth: dict | None = None, with_images: bool = True) -> Observation:
        """What the brain is shown. `with_images` False: the frames travel apart (the body node's images)."""
        frames = self.frames
        images = {name: [f.images[name] for f in frames] for name in frames[0].images} if frames and with_images else {}
        return build_observation(self.spec, tuple(f.t_s for f in frames), images, self.samples, ground_truth)


def stamp_ns(sim_time_s: float) -> int:
    """Sim time as the nanosecond stamp a message carries (`builtin_interfaces/Time`)."""
    return int(round(sim_time_s * 1e9))


def is_control_tick(sim_time_s: float, dt_s: float, decimation: int) -> bool:
    """The spine is asked for a command at physics steps that are multiples of `decimation` (between them
    the body holds the last command), counted from the scene's start, in the window and in execution alike."""
    return int(round(sim_time_s / dt_s)) % decimation == 0


class ControlTicks:
    """A command source for direct calls that asks the spine exactly when, and with exactly what, the graph's
    lockstep (`nodes/body_lockstep.py`) does: at control ticks only, with time and the state's stamp as the
    nanosecond stamp they travel with. So a deterministic brain's episode is the same to the bit either way."""

    def __init__(self, command: CommandSource, dt_s: float, decimation: int) -> None:
        self.command, self.dt_s, self.decimation = command, dt_s, decimation

    def __call__(self, sim_time_s: float, state):
        if not is_control_tick(sim_time_s, self.dt_s, self.decimation):
            return None
        stamped_s = stamp_ns(sim_time_s) / 1e9
        return self.command(stamped_s, replace(state, stamp_s=stamped_s))


def simulate_window(body: Body, command: CommandSource) -> Window:
    """Simulate the loaded scene's window under `command` (the spine standing) and freeze."""
    tracker = WindowTracker(body, command, body.spec, body.frame_times_s())
    frames = tuple(body.simulate_window(tracker))
    position_m, velocity_mps = tracker.freeze_state()
    return Window(body.spec, frames, tracker.samples, position_m, velocity_mps)


def score(spec: SceneSpec, decision: BrainDecision, freeze_position_m, outcome: Outcome) -> DecisionRecord:
    return score_episode(
        spec,
        decision.brain,
        reply_of(decision),
        tuple(float(v) for v in freeze_position_m),
        ExecutedOutcome.from_sim_outcome(outcome),
        outcome.deflected,
        decision.modality or None,
    )


def run_episode(spec: SceneSpec, brain: "Brain", body: Body, spine: "Spine") -> EpisodeResult:
    """One episode with the brain called directly; timings per stage."""
    timings: dict[str, float] = {}
    clock = started = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = now - clock
        clock = now

    spine.reset(None)
    body.load(spec)
    lap("scene_build")
    command = ControlTicks(spine.command, spec.dt_s, spine.config.policy_decimation)
    window = simulate_window(body, command)
    observation = window.observation(ground_truth_dict(spec))
    lap("window")
    decision = brain.plan(observation)
    lap("plan")
    verdict = body.offer_plan(spec.scene_id)
    spine.set_plan(decision.plan)
    outcome = body.execute(command)
    lap("execution")
    record = score(spec, decision, window.freeze_position_m, outcome)
    lap("scoring")
    return EpisodeResult(
        True,
        record,
        outcome=outcome,
        frames=window.frames,
        verdict=verdict,
        decision=decision,
        timings_s=timings,
        wall_s=time.perf_counter() - started,
    )


def run_plan_episode(
    body: Body, spec: SceneSpec, plan: Plan | None, spine: "Spine | None" = None, plan_scene_id: str | None = None
) -> EpisodeResult:
    """One episode with a plan known in advance (the body's tests and benchmarks), offered for `plan_scene_id`
    (default the scene's) at the freeze. plan None: none is offered; the body waits out the freeze timeout on
    the wall clock (keep it short) and the spine stands. Not scored: `record` is None."""
    if spine is None:
        spine = Spine()
    spine.reset(None)
    started = time.perf_counter()
    body.load(spec)
    command = ControlTicks(spine.command, spec.dt_s, spine.config.policy_decimation)
    window = simulate_window(body, command)
    verdict = None
    if plan is not None:
        verdict = body.offer_plan(plan_scene_id or spec.scene_id)
        if verdict is Verdict.ACCEPTED:
            spine.set_plan(plan)
    while not body.released:
        time.sleep(0.01)
        body.poll()
    outcome = body.execute(command)
    return EpisodeResult(
        True, None, outcome=outcome, frames=window.frames, verdict=verdict, wall_s=time.perf_counter() - started
    )
