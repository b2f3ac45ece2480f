"""The closed loop (`--loop closed`): after the first freeze and plan the body executes, and every
`replan_interval_s` of simulated time, up to `max_replans` times or until the hazard is at rest, time freezes
again and the brain decides anew on a fresh observation; its plan replaces the rest of the running one
(`Spine.take_over`).

A re-plan's observation is the first one's shape moved in time: the last window of all three views at the same
frame times relative to the new freeze and at the same size, the hazard's track at those instants in the robot
frame of that moment, the robot's pose and velocity, and the brain's own previous plan. The frames of a later
window are rendered while the body runs (a step hook: `Body.add_step_hook`), so they may fall inside the first
window or the execution alike; the hazard's path is recorded at every physics step, for the truth of each
decision (`scoring.closed_loop`).

The open loop (the paper's protocol) does not come through here: `episode.run_episode` is unchanged."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from reacthuman.brain.base import BrainDecision
from reacthuman.brain.observation import Observation
from reacthuman.core.config import config_with
from reacthuman.evaluation.episode import ControlTicks, EpisodeResult, score, simulate_window
from reacthuman.evaluation.observe import build_observation, ground_truth_dict, hazard_point, truth_dict
from reacthuman.evaluation.remaining_truth import remaining_truth
from reacthuman.plan.plan import Pose2D
from reacthuman.scenes.genesis_sim import Track
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scoring.closed_loop import DecisionPoint, closed_loop_fields, judge, path_track
from reacthuman.sim_bridge.body import Body, FrameSet
from reacthuman.sim_bridge.freeze import Phase

if TYPE_CHECKING:
    from reacthuman.brain.base import Brain
    from reacthuman.spine.spine import Spine


@dataclass(frozen=True)
class LoopConfig:
    replan_interval_s: float = 0.5  # simulated time between decisions
    max_replans: int = 4  # decisions after the first, at most

    def __post_init__(self) -> None:
        if not (math.isfinite(self.replan_interval_s) and 0.05 <= self.replan_interval_s <= 5.0):
            raise ValueError(f"LoopConfig.replan_interval_s must be in [0.05, 5], got {self.replan_interval_s}")
        if (
            isinstance(self.max_replans, bool)
            or not isinstance(self.max_replans, int)
            or not 0 <= self.max_replans <= 20
        ):
            raise ValueError(f"LoopConfig.max_replans must be an integer in [0, 20], got {self.max_replans!r}")


def default_config(**overrides: object) -> LoopConfig:
    """config/closed_loop.yaml with `overrides` applied."""
    return config_with(LoopConfig, overrides)


class LoopRecorder:
    """Registered on a loaded body before its window: renders every view at the frame steps of each re-plan's
    window and keeps the hazard's centre of mass there, and records every hazard body's state at every step
    from t = 0 (the path the decisions are judged on)."""

    def __init__(self, body: Body, spec: SceneSpec, config: LoopConfig, render: bool = True) -> None:
        self.body, self.spec, self.config, self.render = body, spec, config, render
        dt = spec.dt_s
        self._t0_steps = int(round(spec.t0_s / dt))
        self._frame_steps = tuple(int(round(t / dt)) for t in body.frame_times_s())
        self._interval_steps = int(round(config.replan_interval_s / dt))
        self._due: dict[int, int] = {}  # step -> decision index (the earliest that needs it)
        for k in range(config.max_replans, 0, -1):
            for step in self.window_steps(k):
                self._due[step] = k
        self.frames: dict[int, FrameSet] = {}
        self.samples: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.times_s: dict[int, float] = {}
        self._path: tuple[list, list, list, list] = ([], [], [], [])
        self._record(body.engine.steps)
        body.add_step_hook(self._on_step)

    @property
    def end_s(self) -> float:
        """Where the episode's execution ends at the latest (s from t = 0): its horizon after the first freeze."""
        return (self._t0_steps + self._frame_steps[-1]) * self.spec.dt_s + self.body.config.horizon_s

    def freeze_step(self, k: int) -> int:
        """The physics step at which decision k's time freezes."""
        return self._t0_steps + k * self._interval_steps + self._frame_steps[-1]

    def window_steps(self, k: int) -> tuple[int, ...]:
        return tuple(self._t0_steps + k * self._interval_steps + s for s in self._frame_steps)

    def _on_step(self, steps: int) -> None:
        self._record(steps)
        if steps in self._due:
            if self.render:
                self.frames[steps] = self.body.render_views()
            self.samples[steps] = self._hazard_now()
            self.times_s[steps] = self.body.sim_time_s - self.spec.t0_s  # as FrameSet.t_s is computed

    def _record(self, steps: int) -> None:
        hazards = self.body.snapshot().hazards
        for arrays, field in zip(self._path, ("pos_m", "quat_wxyz", "lin_vel_mps", "ang_vel_radps")):
            arrays.append([np.asarray(getattr(hazards[h], field), dtype=np.float64) for h in self.spec.hazard_bodies])

    def _hazard_now(self) -> tuple[np.ndarray, np.ndarray]:
        name = self.spec.hazard_bodies[0]
        h = self.body.snapshot().hazards[name]
        return hazard_point(self.spec, name, h.pos_m, h.quat_wxyz, h.lin_vel_mps, h.ang_vel_radps)

    def hazard_at_rest(self) -> bool:
        """Every hazard body slower than the outcome's rest thresholds now (config/outcome.yaml)."""
        cfg = self.body.config.outcome
        return all(
            float(np.linalg.norm(h.lin_vel_mps)) <= cfg.rest_speed_mps
            and float(np.linalg.norm(h.ang_vel_radps)) <= cfg.rest_ang_speed_radps
            for h in self.body.snapshot().hazards.values()
        )

    def path(self):
        return path_track(tuple(self.spec.hazard_bodies), self.spec.dt_s, *self._path)

    def observation(
        self, k: int, decision: BrainDecision, with_images: bool = True, remaining: bool = False
    ) -> tuple[Observation, Pose2D]:
        """Decision k's observation (k >= 1) and the robot's pose at its freeze. Its truth is the scene's, or
        with `remaining` (a brain that reads the truth: the oracle) the truth of this moment on the hazard's
        free run (`remaining_truth`)."""
        steps = self.window_steps(k)
        robot = self.body.snapshot().robot
        pose = Pose2D(float(robot.base_pos_world[0]), float(robot.base_pos_world[1]), robot.yaw_rad())
        c, s = math.cos(pose.yaw_rad), math.sin(pose.yaw_rad)
        vx, vy, vz = (float(v) for v in robot.base_lin_vel_world)
        velocity = (c * vx + s * vy, -s * vx + c * vy, vz)
        times = tuple(self.times_s[s] for s in steps)
        images = {}
        if self.render and with_images:
            frames = [self.frames[s] for s in steps]
            images = {name: [f.images[name] for f in frames] for name in frames[0].images}
        samples = dict(zip(times, (self.samples[s] for s in steps)))
        truth = (
            truth_dict(remaining_truth(self.spec, times[-1], pose, self.body.config.engine, self.end_s))
            if remaining
            else ground_truth_dict(self.spec)
        )
        obs = build_observation(
            self.spec,
            times,
            images,
            samples,
            truth,
            pose=pose,
            previous_plan=decision.plan,
            decision_index=k,
            robot_velocity_mps=velocity,
        )
        return obs, pose


def run_closed_episode(
    spec: SceneSpec, brain: "Brain", body: Body, spine: "Spine", config: LoopConfig | None = None
) -> EpisodeResult:
    """One closed-loop episode with the brain called directly. The row is the first decision's, scored as the
    open loop scores it (against the executed outcome of the whole closed-loop run), with the closed-loop
    fields (`scoring.closed_loop.closed_loop_fields`) added; `decision` is the final committed decision."""
    return run_closed_episode_with_path(spec, brain, body, spine, config)[0]


def run_closed_episode_with_path(
    spec: SceneSpec, brain: "Brain", body: Body, spine: "Spine", config: LoopConfig | None = None
) -> tuple[EpisodeResult, Track]:
    """`run_closed_episode` and the hazard path it recorded (what `reacthuman rescore` judges again)."""
    config = config or default_config()
    timings: dict[str, float] = {"plan": 0.0}
    started = time.perf_counter()
    spine.reset(None)
    body.load(spec)
    recorder = LoopRecorder(body, spec, config, render=sees_images(brain))
    command = ControlTicks(spine.command, spec.dt_s, spine.config.policy_decimation)
    window = simulate_window(body, command)
    first = window.observation(ground_truth_dict(spec))
    clock = time.perf_counter()
    decision = brain.plan(first)
    timings["plan"] += time.perf_counter() - clock
    verdict = body.offer_plan(spec.scene_id)
    spine.set_plan(decision.plan)
    body.begin_execution(command)
    points = [
        DecisionPoint(
            0,
            first.freeze_time_s,
            spec.observer.pose(),
            decision.plan,
            tuple(float(v) for v in window.freeze_position_m),
        )
    ]
    running = decision
    for k in range(1, config.max_replans + 1):
        if not _run_until(body, recorder.freeze_step(k)) or recorder.hazard_at_rest():
            break
        obs, pose = recorder.observation(k, running, remaining=getattr(brain, "needs_ground_truth", False))
        clock = time.perf_counter()
        replanned = brain.plan(obs)
        timings["plan"] += time.perf_counter() - clock
        spine.take_over(replanned.plan)
        points.append(
            DecisionPoint(
                k,
                obs.freeze_time_s,
                pose,
                replanned.plan,
                tuple(float(v) for v in recorder.samples[recorder.freeze_step(k)][0]),
            )
        )
        if replanned.plan is not None:
            running = replanned
    while body.phase is Phase.EXECUTING and body.execute_step():
        pass
    outcome = body.outcome()
    record = score(spec, decision, window.freeze_position_m, outcome)
    path = recorder.path()
    record.extras.update(closed_loop_fields(judge(spec, path, tuple(points)), record))
    return EpisodeResult(
        True,
        record,
        outcome=outcome,
        frames=window.frames,
        verdict=verdict,
        decision=running,
        timings_s=timings,
        wall_s=time.perf_counter() - started,
    ), path


def sees_images(brain: "Brain") -> bool:
    """Whether a brain is shown camera frames: a model under images or both. The reference brains read the
    track or the truth and never an image, so their re-plans render nothing (rendering is most of a
    re-plan's cost)."""
    return getattr(brain, "modality", None) in ("images", "both")


def _run_until(body: Body, step: int) -> bool:
    """Execute until the engine has made `step` steps; False when the episode ended first."""
    while body.engine.steps < step:
        if not body.execute_step():
            return False
    return body.phase is Phase.EXECUTING
