"""The spine: turns a reaction plan and the measured robot state into joint commands for the G1.

Legs (and waist) come from the walking policy, which tracks the plan's walking_cmd for walking_duration_s and
then a zero command (stand). Arms follow the plan's hand keyframes through inverse kinematics when the plan
has keyframes, otherwise the policy's own arm targets. knee_bend lowers the body: the legs fold by an angle
proportional to it (reacthuman.spine.crouch) and the policy balances the folded body.

Rates: the policy runs every `policy_decimation` physics steps (default 5 at 240 Hz: 48 Hz, the integer
decimation nearest the 50 Hz it was trained at; its gait clock is advanced by the real period). `command`
may be called at any rate; it recomputes only when a policy tick is due and otherwise returns the last
command, so the control rate is the policy rate.

Safety: the spine starts damped and only drives the robot after reset(); a robot state older than
state_timeout_s, or a plan with a NaN or infinite number, are faults recorded in the status (the first drops
to damping until the next reset, the second rejects the plan and keeps the robot standing).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from reacthuman.spine.arm_ik import ArmIK, ArmIKConfig, arm_joint_indices
from reacthuman.spine.base_tracking import BaseTracker, BaseTrackingConfig, Pose
from reacthuman.spine.crouch import crouch_angle_rad, crouch_offset_rad
from reacthuman.spine.hand_path import HandPath, ReachClamp, Vec3, build_hand_path, continue_path
from reacthuman.spine.locomotion import LocomotionPolicy, VelocityCommand
from reacthuman.spine.robot_state import RobotState
from reacthuman.spine.watchdog import damping_command, default_damping_kd
from reacthuman.core.config import config_with
from reacthuman.spine.joint_command import JointCommand, Mode
from reacthuman.plan.plan import Plan
from reacthuman.spine.g1_assets import (
    DEFAULT_WALKING_POLICY,
    G1_JOINT_NAMES,
    check_walking_policy,
    read_policy_metadata,
)

_ZERO = VelocityCommand(0.0, 0.0, 0.0)


@dataclass(frozen=True)
class SpineConfig:
    physics_dt_s: float = 1.0 / 240.0
    policy_decimation: int = 5
    state_timeout_s: float = 0.1
    damping_kd: float = field(default_factory=default_damping_kd)  # config/watchdog.yaml unless set
    # after reset from damping, joints ramp from where they are to the default pose before the policy starts
    # (the real robot hangs limp on its gantry; in simulation episodes start in the default pose: 0)
    stand_up_ramp_s: float = 0.0
    reach_tolerance_m: float = 0.02
    # after the last keyframe and the plan's catch_duration the hands return to rest over this long
    hand_release_s: float = 0.5
    # knee_bend -> leg fold angle (crouch.py); 1.8 maps the prompt's deep crouch (0.25) to 0.45 rad, a pelvis
    # about 0.19 m lower (measured); folds beyond crouch_max_rad are clamped (not measured stable)
    crouch_rad_per_knee_bend: float = 1.8
    crouch_max_rad: float = 0.45
    # while IK drives the arms the policy is shown them at its default pose (see LocomotionPolicy.observation)
    mask_ik_arms_in_policy: bool = True
    joint_limit_margin_rad: float = 0.01
    arm_ik: ArmIKConfig = field(default_factory=ArmIKConfig)
    # close the loop on the base position (base_tracking.py); off where the state has no world position
    # (a real G1 without odometry reports zeros)
    base_position_feedback: bool = True
    base_tracking: BaseTrackingConfig = field(default_factory=BaseTrackingConfig)
    walking_policy: str = DEFAULT_WALKING_POLICY  # g1_assets.WALKING_POLICIES

    def __post_init__(self) -> None:
        check_walking_policy(self.walking_policy, "SpineConfig.walking_policy")
        if not 0 < self.physics_dt_s <= 0.01:
            raise ValueError(f"SpineConfig.physics_dt_s must be in (0, 0.01], got {self.physics_dt_s}")
        if not 1 <= self.policy_decimation <= 20:
            raise ValueError(f"SpineConfig.policy_decimation must be in [1, 20], got {self.policy_decimation}")
        for name in ("state_timeout_s", "reach_tolerance_m", "hand_release_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"SpineConfig.{name} must be > 0, got {getattr(self, name)}")
        for name in (
            "damping_kd",
            "stand_up_ramp_s",
            "joint_limit_margin_rad",
            "crouch_rad_per_knee_bend",
            "crouch_max_rad",
        ):
            if not getattr(self, name) >= 0:
                raise ValueError(f"SpineConfig.{name} must be >= 0, got {getattr(self, name)}")

    @property
    def control_dt_s(self) -> float:
        return self.physics_dt_s * self.policy_decimation


def default_config(**overrides: object) -> SpineConfig:
    """config/spine.yaml with `overrides` applied."""
    return config_with(SpineConfig, overrides)


@dataclass(frozen=True)
class SpineStatus:
    mode: Mode
    fault: str | None
    plan_time_s: float | None  # time since the current plan started; None before the first tick
    walking: bool
    reach_clamps: tuple[ReachClamp, ...]
    crouch_rad: float  # the leg fold angle of the last tick (0: straight legs)
    hand_error_m: tuple[float, float]  # IK residual of the last tick (left, right); 0 when arms follow the policy


def plan_fault(plan: Plan) -> str | None:
    """Why a plan cannot be executed (a NaN or infinite number), or None."""
    numbers = [plan.confidence, plan.walking_duration_s, plan.catch_duration_s, *plan.walking_cmd]
    for kf in plan.keyframes:
        numbers += [kf.t_s, kf.knee_bend, *kf.left_hand, *kf.right_hand]
    if not all(math.isfinite(float(v)) for v in numbers):
        return "plan rejected: it has a NaN or infinite number"
    return None


class Spine:
    def __init__(self, config: SpineConfig | None = None) -> None:
        self.config = config or default_config()
        self.meta = read_policy_metadata(self.config.walking_policy)
        self.policy = LocomotionPolicy(self.config.control_dt_s, self.meta, self.config.walking_policy)
        self.ik = ArmIK(self.config.arm_ik)
        margin = self.config.joint_limit_margin_rad
        self._low = self.ik.limits[:, 0] + margin
        self._high = self.ik.limits[:, 1] - margin
        self._arms = np.array(arm_joint_indices("left") + arm_joint_indices("right"))
        self._kp = tuple(self.meta.kp)
        self._kd = tuple(self.meta.kd)
        self._mode = Mode.DAMPING
        self._fault: str | None = None
        self._plan: Plan | None = None
        self._path: HandPath | None = None
        self._plan_t0: float | None = None
        self._active_t0: float | None = None
        self._ramp_from: np.ndarray | None = None
        self._next_tick_s = -math.inf
        self._last: JointCommand | None = None
        self._last_plan_t: float | None = None
        self._hand_error = (0.0, 0.0)
        self._crouch_rad = 0.0
        self._base = BaseTracker(self.config.base_tracking)

    # --- episode control ----------------------------------------------------------------------------
    def reset(self, plan: Plan | None = None) -> None:
        """Start a new episode: leave damping, clear faults and the gait state, take `plan` (None: stand)."""
        # from damping the ramp (if any) starts at the next tick; an active robot needs none
        self._active_t0 = None if self._mode == Mode.DAMPING else -math.inf
        self._mode = Mode.ACTIVE
        self._fault = None
        self.policy.reset()
        self._next_tick_s = -math.inf
        self._last = None
        self.set_plan(plan)

    def set_plan(self, plan: Plan | None) -> bool:
        """Switch to a new plan mid-episode (gait state kept). Returns False if it was rejected as a fault."""
        self._plan, self._path, self._plan_t0, self._last_plan_t = None, None, None, None
        self._next_tick_s = -math.inf
        if plan is None:
            return True
        fault = plan_fault(plan)
        if fault is not None:
            self._fault = fault
            return False
        self._plan = plan
        self._path = build_hand_path(
            plan, self.ik, self.config.reach_tolerance_m, self.config.hand_release_s, self._crouched_pose
        )
        return True

    def take_over(self, plan: Plan | None) -> bool:
        """A re-plan replacing the rest of the running plan (the closed loop): like set_plan, but the new hand
        path starts from where the running one's targets are now rather than from rest, so the hands and the
        crouch move on from there at the plan's own pace; a plan without keyframes returns them to rest over
        hand_release_s. The walk starts again from the present pose (base tracking resets at the new plan's
        first tick) and the gait goes on. plan None: the running plan goes on."""
        if plan is None:
            return True
        now = self._hand_targets_now()
        if not self.set_plan(plan):
            return False
        if now is not None:
            self._path = continue_path(self._path, now, self.config.hand_release_s)
        return True

    def _hand_targets_now(self) -> tuple[Vec3, Vec3, float] | None:
        if self._path is None or self._last_plan_t is None:
            return None
        left, right = self._path.targets_at(self._last_plan_t)
        return left, right, self._path.knee_bend_at(self._last_plan_t)

    def _crouched_pose(self, knee_bend: float) -> np.ndarray:
        """The default pose with the legs folded for knee_bend (what the IK plans reaches from)."""
        angle = crouch_angle_rad(knee_bend, self.config.crouch_rad_per_knee_bend, self.config.crouch_max_rad)
        return self.policy.default_pose + crouch_offset_rad(angle)

    def reject_plan(self, reason: str) -> None:
        """A plan that could not even be decoded (a NaN in its message fails Plan's own checks): recorded as
        a controller fault, the current plan dropped, the robot kept standing."""
        self.set_plan(None)
        self._fault = f"plan rejected: {reason}"

    def damp(self, reason: str | None = None) -> None:
        """Drop to damping now (an operator stop, or a fault with its reason)."""
        self._mode = Mode.DAMPING
        if reason is not None:
            self._fault = reason

    def status(self) -> SpineStatus:
        plan = self._plan
        walking = (
            plan is not None
            and self._last_plan_t is not None
            and self._last_plan_t < plan.walking_duration_s
            and self._mode == Mode.ACTIVE
        )
        return SpineStatus(
            mode=self._mode,
            fault=self._fault,
            plan_time_s=self._last_plan_t,
            walking=walking,
            reach_clamps=self._path.clamps if self._path else (),
            crouch_rad=self._crouch_rad,
            hand_error_m=self._hand_error,
        )

    # --- the control tick -----------------------------------------------------------------------------
    def command(self, sim_time_s: float, state: RobotState) -> JointCommand:
        if self._mode == Mode.ACTIVE and sim_time_s - state.stamp_s > self.config.state_timeout_s:
            self.damp(f"robot state stale: {sim_time_s - state.stamp_s:.3f} s old at t={sim_time_s:.3f} s")
        if self._mode == Mode.DAMPING:
            self._last = None
            return damping_command(G1_JOINT_NAMES, state.q, self.config.damping_kd, sim_time_s)
        # a tick is due once per control period; the small slack absorbs float error in the caller's clock
        if self._last is not None and sim_time_s < self._next_tick_s - 1e-6:
            return self._last
        dt = self.config.control_dt_s
        # stay on the caller's grid; after a gap (or the first tick) restart the grid here
        self._next_tick_s = self._next_tick_s + dt if sim_time_s < self._next_tick_s + dt else sim_time_s + dt
        if self._active_t0 is None:
            self._active_t0 = sim_time_s
            self._ramp_from = np.asarray(state.q, dtype=np.float64)
        ramp_left = self.config.stand_up_ramp_s - (sim_time_s - self._active_t0)
        if self.config.stand_up_ramp_s > 0 and ramp_left > 0:
            target, tau = self._ramp_target(1.0 - ramp_left / self.config.stand_up_ramp_s), np.zeros(len(self._kp))
        else:
            target, tau = self._policy_target(sim_time_s, state)
        target = np.clip(target, self._low, self._high)
        n = len(G1_JOINT_NAMES)
        self._last = JointCommand(
            names=G1_JOINT_NAMES,
            q=tuple(float(v) for v in target),
            dq=(0.0,) * n,
            kp=self._kp,
            kd=self._kd,
            tau=tuple(float(v) for v in tau),
            mode=Mode.ACTIVE,
            stamp_s=sim_time_s,
        )
        return self._last

    def _ramp_target(self, fraction: float) -> np.ndarray:
        start = self._ramp_from if self._ramp_from is not None else self.policy.default_pose
        return start + (self.policy.default_pose - start) * min(max(fraction, 0.0), 1.0)

    def _policy_target(self, sim_time_s: float, state: RobotState) -> tuple[np.ndarray, np.ndarray]:
        """Joint targets and feed-forward torques for this tick."""
        pose = Pose(state.base_pos_world[0], state.base_pos_world[1], state.yaw_rad())
        if self._plan_t0 is None:
            self._plan_t0 = sim_time_s
            self._base.reset(pose)
        t = sim_time_s - self._plan_t0
        self._last_plan_t = t
        plan = self._plan
        if plan is None:
            cmd = _ZERO
        elif self.config.base_position_feedback:
            cmd = self._base.command(VelocityCommand(*plan.walking_cmd), plan.walking_duration_s, t, pose)
        else:
            cmd = VelocityCommand(*plan.walking_cmd) if t < plan.walking_duration_s else _ZERO
        masked = self._arms if self._path is not None and self.config.mask_ik_arms_in_policy else None
        knee_bend = self._path.knee_bend_at(t) if self._path is not None else 0.0
        self._crouch_rad = crouch_angle_rad(knee_bend, self.config.crouch_rad_per_knee_bend, self.config.crouch_max_rad)
        offset = crouch_offset_rad(self._crouch_rad) if self._crouch_rad > 0 else None
        target = self.policy.step(state, cmd, masked, offset)
        if self._path is None:
            self._hand_error = (0.0, 0.0)
            return target, np.zeros(len(target))
        seed = np.asarray(self._last.q) if self._last is not None else self.policy.default_pose
        self.ik.set_posture(state.q, state.base_quat_wxyz, arm_seed=seed)
        left, right = self._path.targets_at(t)
        solution = self.ik.solve(left, right)
        target[self._arms] = np.asarray(solution.q)[self._arms]
        self._hand_error = (solution.left_error_m, solution.right_error_m)
        return target, np.asarray(solution.gravity_tau)
