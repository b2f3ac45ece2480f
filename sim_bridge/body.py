"""The body: one episode's physical side, ROS-free.

    body = Body(default_config(engine="genesis"))
    body.load(spec)                                   # validate, build scene + G1 at the observer pose
    frames = body.simulate_window(spine.command)      # t = 0 .. t0 + window; then time is frozen
    body.offer_plan(plan_scene_id, now_s)             # the freeze gate decides (freeze.py)
    body.poll(now_s)                                  # ... until body.released (plan accepted or timeout)
    outcome = body.execute(spine.command)             # resume: physics-rate PD until rest or horizon

A command source is `callable(sim_time_s, RobotState) -> JointCommand | None` (the spine's `command`): it
is called every physics step; None keeps the previous command. The body applies
    torque = kp (q - q_measured) + kd (dq - dq_measured) + tau
clipped to each actuator's limit, like Unitree's low-level command. A source that raises ValueError (a NaN
command cannot be built), or returns a command naming other joints, is a controller fault: the command is
rejected, the robot drops to damping and the episode ends with the fault recorded.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np

from reacthuman.spine.robot_state import RobotState
from reacthuman.spine.watchdog import damping_command, default_damping_kd
from reacthuman.core.config import config_with
from reacthuman.core.physics import GRAVITY_MPS2
from reacthuman.core.validate import require_positive
from reacthuman.spine.joint_command import JointCommand
from reacthuman.scenes.mass_centre import centre_local_m
from reacthuman.scenes.spec import SceneSpec, SpecError, window_frame_times_s
from reacthuman.sim_bridge.engine import (
    BodyState,
    CameraSpec,
    PhysicsEngine,
    SimRobotState,
    make_engine,
    prepare_engine,
    quat_rotate_inverse_wxyz,
    quat_rotate_wxyz,
    default_config as engine_config,
)
from reacthuman.sim_bridge.freeze import EpisodePhase, FreezeConfig, FreezeGate, GateState, Phase, PhaseError, Verdict
from reacthuman.sim_bridge.outcome import (
    Outcome,
    OutcomeConfig,
    OutcomeTracker,
    StepObservation,
    arm_links,
    default_config as outcome_config,
)
from reacthuman.sim_bridge.scene_setup import (
    hand_points,
    robot_spec_for,
    set_initial_velocities,
    validate_for_body,
    world_for,
)
from reacthuman.sim_bridge.video import VideoRecorder, VideoConfig

log = logging.getLogger(__name__)

STANDARD_GRAVITY_MPS2 = np.array([0.0, 0.0, GRAVITY_MPS2])  # what an accelerometer at rest reads, world frame
CommandSource = Callable[[float, RobotState], "JointCommand | None"]


@dataclass(frozen=True)
class BodyConfig:
    engine: str = "genesis"
    frame_count: int = 5  # frames per view over the window, evenly spaced from t0 to t0 + window
    frame_width_px: int | None = None  # None: the scene's camera size (1280x720)
    frame_height_px: int | None = None
    observation_window_s: float | None = None  # None: the scene's (0.6 s by default)
    horizon_s: float = 6.0  # execution ends at rest or this long after the freeze
    freeze: FreezeConfig = field(default_factory=FreezeConfig)
    outcome: OutcomeConfig = field(default_factory=outcome_config)  # config/outcome.yaml
    video: VideoConfig = field(default_factory=VideoConfig)
    damping_kd: float = field(default_factory=default_damping_kd)  # config/watchdog.yaml unless set

    def __post_init__(self) -> None:
        if self.frame_count < 1:
            raise ValueError(f"BodyConfig.frame_count must be >= 1, got {self.frame_count}")
        if (self.frame_width_px is None) != (self.frame_height_px is None):
            raise ValueError("BodyConfig.frame_width_px and frame_height_px must be set together")
        if self.frame_width_px is not None and (self.frame_width_px < 16 or self.frame_height_px < 16):
            raise ValueError("BodyConfig.frame_width_px/frame_height_px must be >= 16")
        if self.observation_window_s is not None and not 0.05 <= self.observation_window_s <= 5.0:
            raise ValueError(f"BodyConfig.observation_window_s must be in [0.05, 5], got {self.observation_window_s}")
        if not (math.isfinite(self.horizon_s) and 0 < self.horizon_s <= 60):
            raise ValueError(f"BodyConfig.horizon_s must be in (0, 60], got {self.horizon_s}")
        require_positive(self, ("damping_kd",), "BodyConfig.", allow_zero=True)


def default_config(**overrides: object) -> BodyConfig:
    """config/body.yaml with `overrides` applied."""
    return config_with(BodyConfig, overrides)


# The body as the graph runs it: the body node's parameter defaults, and what the benchmark's and the tests'
# in-process episodes use to be the graph's episode (brain views at 640x360, a 0.6 s window, a 4 s horizon).
# An override set over config/body.yaml (the library's defaults: the scene's camera size and window), kept here
# rather than in a second file naming BodyConfig's fields: each value has one place, and a run changes it
# through the body node's parameters, declared from it.
GRAPH_BODY_DEFAULTS: dict[str, object] = {
    "observation_window_s": 0.6,
    "frame_width_px": 640,
    "frame_height_px": 360,
    "frame_count": 5,
    "horizon_s": 4.0,
}


def graph_config(**overrides: object) -> BodyConfig:
    return default_config(**(GRAPH_BODY_DEFAULTS | overrides))


@dataclass(frozen=True)
class FrameSet:
    t_s: float  # since t0
    sim_time_s: float
    images: dict[str, np.ndarray]  # camera name -> HxWx3 uint8 RGB


@dataclass(frozen=True)
class BodySnapshot:
    """Everything the body publishes about the present instant (world frame)."""

    sim_time_s: float
    robot: RobotState
    joint_names: tuple[str, ...]
    base: BodyState
    imu_gyro_radps: np.ndarray  # body frame
    imu_accel_mps2: np.ndarray  # body frame specific force (what an accelerometer reads: 9.81 up at rest)
    imu_projected_gravity: np.ndarray
    hazards: dict[str, BodyState]
    left_hand_m: np.ndarray
    right_hand_m: np.ndarray


class Body:
    def __init__(self, config: BodyConfig | None = None) -> None:
        self.config = config or default_config()
        self._phase = EpisodePhase()
        self._engine: PhysicsEngine | None = None
        self.spec: SceneSpec | None = None
        self.gate: FreezeGate | None = None
        self.video: VideoRecorder | None = None

    # --- load ---------------------------------------------------------------------------------------
    def prepare(self) -> None:
        """Import and initialise the physics engine now rather than in the first load() (Genesis: about 4 s
        here), e.g. while the rest of a graph starts."""
        prepare_engine(self.config.engine)

    def load(self, spec: SceneSpec) -> None:
        """Validate the spec (SpecError before anything is built), then build scene + G1 at the observer."""
        if not isinstance(spec, SceneSpec):
            raise SpecError(f"expected a SceneSpec, got {type(spec).__name__}")
        validate_for_body(spec)
        self.close()
        self._phase = EpisodePhase()  # EMPTY until the build below succeeds
        self.spec = spec
        self._window_s = self.config.observation_window_s or spec.observation_window_s
        self._robot = robot_spec_for(spec)
        self._cameras = self._camera_specs(spec)
        engine = make_engine(self.config.engine, engine_config(dt_s=spec.dt_s))
        engine.build(world_for(spec), self._robot, self._cameras)
        self._engine = engine
        set_initial_velocities(engine, spec)
        names = self._robot.joint_names
        self._names = names
        self._limits = engine.torque_limits_nm()
        self._hands = hand_points()
        self._robot_links = frozenset(engine.robot_body_names())
        self._hazards = tuple(spec.hazard_bodies)
        self._centres = {h: centre_local_m(spec, h) for h in self._hazards}  # a hinged hazard's origin is its pivot
        self._tracker = OutcomeTracker(
            self.config.outcome,
            frozenset(self._hazards),
            self._robot_links,
            frozenset(link for link, _ in self._hands),
            arm_links(self._robot_links),
        )
        self._cmd: tuple[np.ndarray, ...] | None = None
        self._order_cache: dict[tuple[str, ...], np.ndarray] = {}
        self._fault: str | None = None
        self._step_reads = None  # see _read_hands_and_hazards; a new scene counts its steps from 0 again
        self._state = engine.robot_state()
        self._accel = quat_rotate_inverse_wxyz(self._state.base.quat_wxyz, STANDARD_GRAVITY_MPS2)
        self._exec_start_s: float | None = None
        self._source: CommandSource | None = None
        self.gate = None
        self._frame_hooks: list[Callable[[float], None]] = []
        self._step_hooks: list[Callable[[int], None]] = []
        self.video = VideoRecorder(self.config.video, spec, engine) if self.config.video.enabled else None
        self._phase.advance(Phase.LOADED)

    def _camera_specs(self, spec: SceneSpec) -> tuple[CameraSpec, ...]:
        w, h = self.config.frame_width_px, self.config.frame_height_px
        cams = tuple(CameraSpec(c.name, c.pos, c.lookat, c.fov_deg, w or c.width, h or c.height) for c in spec.cameras)
        if self.config.video.enabled:
            cams += VideoRecorder.camera_specs(self.config.video, spec)
        return cams

    @property
    def engine(self) -> PhysicsEngine:
        if self._engine is None:
            raise PhaseError("no scene is loaded")
        return self._engine

    @property
    def phase(self) -> Phase:
        return self._phase.phase

    @property
    def sim_time_s(self) -> float:
        return self.engine.time_s

    # --- observation window and freeze ----------------------------------------------------------------
    def frame_times_s(self) -> tuple[float, ...]:
        """Frame times since t0 (scenes.spec.window_frame_times_s): the last at the freeze."""
        return window_frame_times_s(self._window_s, self.config.frame_count)

    def add_frame_hook(self, hook: Callable[[float], None]) -> None:
        """Call hook(sim_time_s) at each frame the window renders, after rendering and before the next step, so
        what is read from the simulator then is exactly the state the cameras showed (until the next load)."""
        self._phase.require(Phase.LOADED)
        self._frame_hooks.append(hook)

    def add_step_hook(self, hook: Callable[[int], None]) -> None:
        """Call hook(steps) after every physics step (window and execution) until the next load, with the
        engine's step count; what it reads from the simulator is the state after that step (the closed loop's
        hazard path and its later observation windows)."""
        self._phase.require(Phase.LOADED)
        self._step_hooks.append(hook)

    def render_views(self) -> FrameSet:
        """Every view of the scene as the cameras show it now (frame hooks are not called)."""
        t = self.engine.time_s
        return FrameSet(
            t_s=t - self.spec.t0_s, sim_time_s=t, images={c.name: self.engine.render(c.name) for c in self.spec.cameras}
        )

    def simulate_window(self, command_source: CommandSource, now_s: float | None = None) -> list[FrameSet]:
        """Simulate from 0 to t0 + window under `command_source`, rendering every view at the frame times;
        then freeze: nothing advances until the gate releases (a plan for this scene, or the timeout)."""
        self._phase.require(Phase.LOADED)
        spec, dt = self.spec, self.engine.dt_s
        t0_steps = int(round(spec.t0_s / dt))
        frame_steps = [t0_steps + int(round(t / dt)) for t in self.frame_times_s()]
        end_steps = t0_steps + int(round(self._window_s / dt))
        self._source = command_source
        frames: list[FrameSet] = []
        while True:
            if self.engine.steps in frame_steps:
                frames.append(self._render_frameset(spec))
            if self.engine.steps >= end_steps or self._fault is not None:
                break
            self._physics_step(track=self.engine.steps >= t0_steps)
        self._phase.advance(Phase.FROZEN)
        self.gate = FreezeGate(spec.scene_id, self.config.freeze, time.monotonic() if now_s is None else now_s)
        return frames

    def _render_frameset(self, spec: SceneSpec) -> FrameSet:
        t = self.engine.time_s
        images = {c.name: self.engine.render(c.name) for c in spec.cameras}
        for hook in self._frame_hooks:
            hook(t)
        return FrameSet(t_s=t - spec.t0_s, sim_time_s=t, images=images)

    def offer_plan(self, plan_scene_id: str, now_s: float | None = None) -> Verdict:
        if self.gate is None:
            log.warning("ignoring a plan for scene %r: no episode is frozen", plan_scene_id)
            return Verdict.WRONG_SCENE
        return self.gate.offer(plan_scene_id, time.monotonic() if now_s is None else now_s)

    def poll(self, now_s: float | None = None) -> GateState:
        self._phase.require(Phase.FROZEN, Phase.EXECUTING, Phase.DONE)
        return self.gate.poll(time.monotonic() if now_s is None else now_s)

    @property
    def released(self) -> bool:
        return self.gate is not None and self.gate.released

    # --- execution ----------------------------------------------------------------------------------
    def begin_execution(self, command_source: CommandSource) -> None:
        """Resume time: requires the gate released (plan accepted, or timed out: the source then stands)."""
        self._phase.require(Phase.FROZEN)
        if not self.gate.released:
            raise PhaseError("time is frozen: no plan accepted for this scene and the timeout has not passed")
        self._source = command_source
        self._exec_start_s = self.engine.time_s
        self._phase.advance(Phase.EXECUTING)

    def execute_step(self) -> bool:
        """One physics step of execution; False (and the episode DONE) once it has ended."""
        self._phase.require(Phase.EXECUTING)
        if self._done():
            self._phase.advance(Phase.DONE)
            return False
        self._physics_step(track=True)
        return True

    def execute(self, command_source: CommandSource, horizon_s: float | None = None) -> Outcome:
        if horizon_s is not None:
            self.config = replace(self.config, horizon_s=horizon_s)
        self.begin_execution(command_source)
        while self.execute_step():
            pass
        return self.outcome()

    def _done(self) -> bool:
        now = self.engine.time_s
        if self._fault is not None:
            return True
        if now - self._exec_start_s >= self.config.horizon_s - 1e-9:
            return True
        return self._tracker.at_rest(now - self.spec.t0_s)

    # --- the physics step -----------------------------------------------------------------------------
    def _control_state(self, s: SimRobotState) -> RobotState:
        return RobotState(
            q=tuple(s.joint_pos_rad),
            dq=tuple(s.joint_vel_radps),
            base_quat_wxyz=tuple(s.base.quat_wxyz),
            base_ang_vel_body=tuple(s.gyro_radps),
            base_pos_world=tuple(s.base.pos_m),
            base_lin_vel_world=tuple(s.base.lin_vel_mps),
            stamp_s=self.engine.time_s,
        )

    def _take_command(self, control_state: RobotState) -> None:
        try:
            cmd = self._source(self.engine.time_s, control_state)
        except ValueError as exc:  # a JointCommand with NaN cannot be constructed
            self._controller_fault(f"joint command rejected: {exc}")
            return
        if cmd is None:
            return
        if not isinstance(cmd, JointCommand):
            self._controller_fault(f"command source returned {type(cmd).__name__}, not a JointCommand")
            return
        values = np.array([cmd.q, cmd.dq, cmd.kp, cmd.kd, cmd.tau], dtype=np.float64)
        if not np.all(np.isfinite(values)):
            self._controller_fault("joint command rejected: it has a NaN or infinite entry")
            return
        order = self._order_cache.get(cmd.names)
        if order is None:
            if sorted(cmd.names) != sorted(self._names):
                self._controller_fault("joint command rejected: its joint names differ from the G1's")
                return
            order = np.array([cmd.names.index(n) for n in self._names])
            self._order_cache[cmd.names] = order
        self._cmd = tuple(values[:, order])

    def _controller_fault(self, reason: str) -> None:
        log.error("scene %s: controller fault at t=%.3f s: %s", self.spec.scene_id, self.engine.time_s, reason)
        self._fault = reason
        self._cmd = None

    def _physics_step(self, track: bool) -> None:
        s = self._state
        if self._fault is None:
            self._take_command(self._control_state(s))
            if self._fault is not None:
                return  # the episode ends on the rejected command: no step runs on it
        if self._cmd is None:
            damp = damping_command(self._names, tuple(s.joint_pos_rad), self.config.damping_kd)
            q, dq, kp, kd, tau = (np.array(v, dtype=np.float64) for v in (damp.q, damp.dq, damp.kp, damp.kd, damp.tau))
        else:
            q, dq, kp, kd, tau = self._cmd
        torque = kp * (q - s.joint_pos_rad) + kd * (dq - s.joint_vel_radps) + tau
        self.engine.set_joint_torques(np.clip(torque, -self._limits, self._limits))
        self.engine.step()
        self._state = self.engine.robot_state()
        accel_world = (self._state.base.lin_vel_mps - s.base.lin_vel_mps) / self.engine.dt_s + STANDARD_GRAVITY_MPS2
        self._accel = quat_rotate_inverse_wxyz(self._state.base.quat_wxyz, accel_world)
        if track:
            self._track()
            if self.video is not None:
                self.video.capture(self.engine.time_s)
        for hook in self._step_hooks:
            hook(self.engine.steps)

    def _hand_positions(self) -> tuple[np.ndarray, np.ndarray]:
        out = []
        for link, offset in self._hands:
            b = self.engine.body_state(link)
            out.append(b.pos_m + quat_rotate_wxyz(b.quat_wxyz, offset))
        return out[0], out[1]

    def _read_hands_and_hazards(self):
        """(left hand, right hand, hazard states) at this step, read once: the step's tracking and the control
        tick's snapshot that follows it (before the next step) see the same state."""
        if self._step_reads is None or self._step_reads[0] != self.engine.steps:
            left, right = self._hand_positions()
            self._step_reads = (self.engine.steps, left, right, {h: self.engine.body_state(h) for h in self._hazards})
        return self._step_reads[1:]

    def _track(self) -> None:
        e = self.engine
        left, right, states = self._read_hands_and_hazards()
        obs = StepObservation(
            t_s=e.time_s - self.spec.t0_s,
            dt_s=e.dt_s,
            left_hand_m=left,
            right_hand_m=right,
            hazard_pos_m={h: s.pos_m + quat_rotate_wxyz(s.quat_wxyz, self._centres[h]) for h, s in states.items()},
            hazard_speed_mps={h: float(np.linalg.norm(s.lin_vel_mps)) for h, s in states.items()},
            hazard_ang_speed_radps={h: float(np.linalg.norm(s.ang_vel_radps)) for h, s in states.items()},
            contacts=e.contacts(frozenset(self._hazards)),
            base_pos_m=self._state.base.pos_m,
            projected_gravity=self._state.projected_gravity,
        )
        self._tracker.update(obs, lambda: np.array([e.body_state(n).pos_m for n in self._robot_links]))

    # --- what the body reports ------------------------------------------------------------------------
    def snapshot(self) -> BodySnapshot:
        s = self._state
        left, right, hazards = self._read_hands_and_hazards()
        return BodySnapshot(
            sim_time_s=self.engine.time_s,
            robot=self._control_state(s),
            joint_names=self._names,
            base=s.base,
            imu_gyro_radps=s.gyro_radps,
            imu_accel_mps2=self._accel,
            imu_projected_gravity=s.projected_gravity,
            hazards=dict(hazards),
            left_hand_m=left,
            right_hand_m=right,
        )

    def outcome(self) -> Outcome:
        self._phase.require(Phase.FROZEN, Phase.EXECUTING, Phase.DONE)
        rec = self.gate.record
        return self._tracker.outcome(
            scene_id=self.spec.scene_id,
            engine=self.config.engine,
            controller_fault=self._fault,
            plan_received=rec.plan_received,
            plan_late=rec.plan_late,
            plan_executed=rec.plan_received and self._phase.phase is not Phase.FROZEN and self._fault is None,
            wrong_scene_plans=tuple(rec.wrong_scene_ids),
        )

    def save_videos(self, folder: Path) -> dict[str, Path]:
        """Write folder/video_thirdperson.mp4 and folder/video_egocentric.mp4 (from t0 to the episode's end)."""
        if self.video is None:
            raise PhaseError("video recording is off (BodyConfig.video.enabled)")
        return self.video.save(folder)

    def close(self) -> None:
        if self.video is not None:
            self.video.discard()
            self.video = None
        if self._engine is not None:
            self._engine.close()
            self._engine = None
