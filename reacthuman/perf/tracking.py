"""The bench's tracking section: does the body do what a plan says?

A grid of plans (walking commands x durations, hand targets across the workspace, standing and walking, a
crouch), each run by the spine on the G1 on a plane in Genesis (one scene, the robot put back at its start
pose between runs). Per plan: each hand's distance from where the plan puts it (the freeze-time frame of
`reacthuman.plan.plan.planned_hand_path_robot`) at each keyframe time and 0.5 s later, the base displacement
against the commanded one, the heading change against the commanded one, the lowest pelvis height, and
whether the robot fell. Goals (issue "the body does what the plan says"): hands within 5 cm standing and
10 cm walking, displacement within 10% of commanded, no falls.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from reacthuman.spine.base_tracking import Pose, planned_pose
from reacthuman.spine.locomotion import VelocityCommand
from reacthuman.spine.robot_state import RobotState
from reacthuman.spine.spine import Spine, default_config
from reacthuman.plan.plan import Keyframe, Plan, Pose2D, planned_hand_path_robot
from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M
from reacthuman.sim_bridge.engine import RobotSpec, make_engine
from reacthuman.spine.g1_assets import G1_JOINT_NAMES, default_pose_geometry, g1_mjcf_path, read_policy_metadata
from reacthuman.sim_bridge.scene_setup import START_CLEARANCE_M, hand_points
from reacthuman.sim_bridge.engine import quat_rotate_wxyz
from reacthuman.core.plotting import pyplot

Vec3 = tuple[float, float, float]
PLANE_MJCF = '<mujoco model="plane"><worldbody><geom name="floor" type="plane" size="0 0 0.05"/></worldbody></mujoco>'
FALL_PELVIS_M = 0.5
SETTLE_S = 1.5  # simulated after the plan's last walking or keyframe time
HELD_AFTER_S = 0.5  # the hands are measured again this long after each keyframe time
CATCH_HOLD_S = 1.0
STANDING_HAND_GOAL_M = 0.05
WALKING_HAND_GOAL_M = 0.10
DISPLACEMENT_GOAL = 0.10  # relative


@dataclass(frozen=True)
class TrackingCase:
    """One plan of the grid. Hands are absolute targets in the freeze-time robot frame (both given, or
    none: rest), reached at t_hands_s."""

    name: str
    walking_cmd: Vec3 = (0.0, 0.0, 0.0)
    walking_duration_s: float = 0.0
    left_m: Vec3 | None = None
    right_m: Vec3 | None = None
    t_hands_s: float = 1.0
    knee_bend: float = 0.0

    def plan(self) -> Plan:
        frames: tuple[Keyframe, ...] = ()
        if self.left_m is not None and self.right_m is not None:
            walked = min(self.t_hands_s, self.walking_duration_s)
            bx, by = self.walking_cmd[0] * walked, self.walking_cmd[1] * walked
            left = (
                self.left_m[0] - bx - REST_LEFT_HAND_M[0],
                self.left_m[1] - by - REST_LEFT_HAND_M[1],
                self.left_m[2] - REST_LEFT_HAND_M[2],
            )
            right = (
                self.right_m[0] - bx - REST_RIGHT_HAND_M[0],
                self.right_m[1] - by - REST_RIGHT_HAND_M[1],
                self.right_m[2] - REST_RIGHT_HAND_M[2],
            )
            frames = (Keyframe(self.t_hands_s, left, right, self.knee_bend),)
        elif self.knee_bend:
            zero = (0.0, 0.0, 0.0)
            frames = (Keyframe(self.t_hands_s, zero, zero, self.knee_bend),)
        return Plan("bench", self.name, 1.0, self.walking_cmd, self.walking_duration_s, CATCH_HOLD_S, frames)

    @property
    def walking(self) -> bool:
        return self.walking_duration_s > 0 and any(self.walking_cmd)


CHEST_FRONT = ((0.40, 0.08, 0.90), (0.40, -0.08, 0.90))  # 0.4 m in front of the chest, hands cupped


def grid(quick: bool) -> tuple[TrackingCase, ...]:
    chest_l, chest_r = CHEST_FRONT
    if quick:
        return (
            TrackingCase("reach chest front", left_m=chest_l, right_m=chest_r),
            TrackingCase("walk 0.5 m/s 2 s", (0.5, 0.0, 0.0), 2.0),
            TrackingCase(
                "side step 0.7 m/s 1.5 s, hands up", (0.0, 0.7, 0.0), 1.5, (0.35, 1.13, 0.95), (0.35, 0.97, 0.95), 1.5
            ),
        )
    return (
        TrackingCase("reach chest front", left_m=chest_l, right_m=chest_r),
        TrackingCase("reach high", left_m=(0.30, 0.15, 1.25), right_m=(0.30, -0.15, 1.25)),
        TrackingCase("reach wide left", left_m=(0.20, 0.55, 0.90), right_m=(0.25, 0.05, 0.85)),
        TrackingCase("reach low, crouched", left_m=(0.35, 0.12, 0.50), right_m=(0.35, -0.12, 0.50), knee_bend=0.25),
        TrackingCase("crouch", knee_bend=0.25),
        TrackingCase("walk 0.5 m/s 1 s", (0.5, 0.0, 0.0), 1.0),
        TrackingCase("walk 0.5 m/s 2 s", (0.5, 0.0, 0.0), 2.0),
        TrackingCase("walk 1.0 m/s 1.5 s", (1.0, 0.0, 0.0), 1.5),
        TrackingCase("back 0.5 m/s 1.5 s", (-0.5, 0.0, 0.0), 1.5),
        TrackingCase("side step 0.7 m/s 1.5 s", (0.0, 0.7, 0.0), 1.5),
        TrackingCase("side step -0.7 m/s 1.5 s", (0.0, -0.7, 0.0), 1.5),
        TrackingCase("turn 0.5 rad/s 2 s", (0.0, 0.0, 0.5), 2.0),
        TrackingCase(
            "walk 0.5 m/s 2 s, hands to the chest front",
            (0.5, 0.0, 0.0),
            2.0,
            (1.40, 0.08, 0.90),
            (1.40, -0.08, 0.90),
            2.0,
        ),
        TrackingCase(
            "side step 0.7 m/s 1.5 s, hands up", (0.0, 0.7, 0.0), 1.5, (0.35, 1.13, 0.95), (0.35, 0.97, 0.95), 1.5
        ),
    )


class PlaneRig:
    """The G1 on a plane in Genesis, driven by a JointCommand source with PD torques every physics step."""

    def __init__(self, world_mjcf: str = PLANE_MJCF) -> None:
        geo = default_pose_geometry()
        self.spec = RobotSpec(
            g1_mjcf_path(),
            G1_JOINT_NAMES,
            (0.0, 0.0, geo.pelvis_height_m + START_CLEARANCE_M),
            0.0,
            read_policy_metadata().default_pose_rad,
        )
        self.engine = make_engine("genesis")
        self.engine.build(world_mjcf, self.spec, ())
        self.limits = self.engine.torque_limits_nm()
        self.hands = hand_points()

    def reset(self) -> None:
        self.engine.place_robot(self.spec)

    def state(self) -> RobotState:
        s = self.engine.robot_state()
        return RobotState(
            q=tuple(s.joint_pos_rad),
            dq=tuple(s.joint_vel_radps),
            base_quat_wxyz=tuple(s.base.quat_wxyz),
            base_ang_vel_body=tuple(s.gyro_radps),
            base_pos_world=tuple(s.base.pos_m),
            base_lin_vel_world=tuple(s.base.lin_vel_mps),
            stamp_s=self.engine.time_s,
        )

    def hands_world(self) -> tuple[np.ndarray, np.ndarray]:
        out = []
        for link, offset in self.hands:
            b = self.engine.body_state(link)
            out.append(b.pos_m + quat_rotate_wxyz(b.quat_wxyz, offset))
        return out[0], out[1]

    def step(self, spine: Spine) -> RobotState:
        s = self.engine.robot_state()
        cmd = spine.command(self.engine.time_s, self.state())
        tau = np.asarray(cmd.torques(s.joint_pos_rad, s.joint_vel_radps))
        self.engine.set_joint_torques(np.clip(tau, -self.limits, self.limits))
        self.engine.step()
        return self.state()

    def close(self) -> None:
        self.engine.close()


@dataclass(frozen=True)
class TrackingResult:
    name: str
    walking: bool
    hand_error_m: list[float]  # per hand (left, right) at the keyframe time; empty without hand targets
    hand_error_held_m: list[float]  # the same HELD_AFTER_S later
    commanded_displacement_m: list[float]  # x, y in the start frame
    displacement_m: list[float]
    displacement_error_rel: float | None  # |measured - commanded| / |commanded|; None when standing
    yaw_commanded_rad: float
    yaw_change_rad: float
    min_pelvis_m: float
    fell: bool
    wall_s: float


def run_case(rig: PlaneRig, case: TrackingCase, spine: Spine) -> TrackingResult:
    rig.reset()
    plan = case.plan()
    spine.reset(plan)
    start_state = rig.state()
    start = Pose2D(start_state.base_pos_world[0], start_state.base_pos_world[1], start_state.yaw_rad())
    path = {t: (left, right) for t, left, right in planned_hand_path_robot(plan)} if plan.keyframes else {}
    probes = sorted({round(t, 6) for t in path} | {round(t + HELD_AFTER_S, 6) for t in path})
    end_s = max(plan.walking_duration_s, max(path, default=0.0) + HELD_AFTER_S) + SETTLE_S
    dt = rig.engine.dt_s
    wall, t0 = time.perf_counter(), rig.engine.time_s
    errors: dict[float, list[float]] = {}
    yaw, last_yaw, min_z = 0.0, start.yaw_rad, math.inf
    for k in range(int(round(end_s / dt))):
        s = rig.step(spine)
        t = rig.engine.time_s - t0
        min_z = min(min_z, s.base_pos_world[2])
        y = s.yaw_rad()
        yaw += math.remainder(y - last_yaw, 2 * math.pi)
        last_yaw = y
        for probe in probes:
            if probe not in errors and t >= probe - 1e-9:
                key = max(pt for pt in path if pt <= probe + 1e-9)
                left_w, right_w = rig.hands_world()
                errors[probe] = [
                    math.dist(start.to_robot(tuple(h)), target) for h, target in zip((left_w, right_w), path[key])
                ]
    end = rig.state()
    measured = start.to_robot((end.base_pos_world[0], end.base_pos_world[1], 0.0))[:2]
    goal = planned_pose(
        Pose(0.0, 0.0, 0.0), VelocityCommand(*plan.walking_cmd), plan.walking_duration_s, plan.walking_duration_s
    )
    commanded = (goal.x_m, goal.y_m)
    norm = math.hypot(*commanded)
    rel = math.dist(measured, commanded) / norm if norm > 0.05 else None
    kf_t = [round(t, 6) for t in sorted(path)]
    return TrackingResult(
        name=case.name,
        walking=case.walking,
        hand_error_m=[round(v, 4) for v in errors.get(kf_t[-1], [])] if kf_t else [],
        hand_error_held_m=[round(v, 4) for v in errors.get(round(kf_t[-1] + HELD_AFTER_S, 6), [])] if kf_t else [],
        commanded_displacement_m=[round(v, 4) for v in commanded],
        displacement_m=[round(v, 4) for v in measured],
        displacement_error_rel=None if rel is None else round(rel, 4),
        yaw_commanded_rad=round(plan.walking_cmd[2] * plan.walking_duration_s, 4),
        yaw_change_rad=round(yaw, 4),
        min_pelvis_m=round(min_z, 4),
        fell=min_z < FALL_PELVIS_M,
        wall_s=round(time.perf_counter() - wall, 2),
    )


def summarize(results: list[TrackingResult]) -> dict:
    standing = [e for r in results if not r.walking for e in r.hand_error_m]
    walking = [e for r in results if r.walking for e in r.hand_error_m]
    rels = [r.displacement_error_rel for r in results if r.displacement_error_rel is not None]
    return {
        "max_hand_error_standing_m": max(standing, default=None),
        "max_hand_error_walking_m": max(walking, default=None),
        "max_displacement_error_rel": max(rels, default=None),
        "falls": sum(r.fell for r in results),
        "goals": {
            "hand_standing_m": STANDING_HAND_GOAL_M,
            "hand_walking_m": WALKING_HAND_GOAL_M,
            "displacement_rel": DISPLACEMENT_GOAL,
            "falls": 0,
        },
    }


def plot(results: list[TrackingResult], path: Path, walking_policy: str | None = None) -> Path:
    """Bars: each plan's worst hand error and relative displacement error, goals as lines; the title names the
    walking policy, so plots of two policies can be told apart."""
    plt = pyplot()

    names = [r.name for r in results]
    hand = [max(r.hand_error_m, default=0.0) * 100 for r in results]
    disp = [(r.displacement_error_rel or 0.0) * 100 for r in results]
    fig, axes = plt.subplots(1, 2, figsize=(12, 0.35 * len(results) + 1.5), sharey=True)
    ypos = np.arange(len(results))
    axes[0].barh(ypos, hand, color=["tab:red" if r.fell else "tab:blue" for r in results])
    axes[0].axvline(STANDING_HAND_GOAL_M * 100, color="k", ls="--", lw=1)
    axes[0].axvline(WALKING_HAND_GOAL_M * 100, color="grey", ls=":", lw=1)
    axes[0].set_xlabel("worst hand error at its keyframe time (cm)")
    axes[1].barh(ypos, disp, color="tab:green")
    axes[1].axvline(DISPLACEMENT_GOAL * 100, color="k", ls="--", lw=1)
    axes[1].set_xlabel("base displacement error (% of commanded)")
    axes[0].set_yticks(ypos, names)
    axes[0].invert_yaxis()
    policy = f", walking policy {walking_policy}" if walking_policy else ""
    fig.suptitle(f"Tracking: the G1 in Genesis following plans{policy} (red: fell)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def tracking_section(quick: bool, plot_path: Path | None = None, walking_policy: str | None = None) -> dict:
    """The grid on the spine of config/spine.yaml, or with another of g1_assets.WALKING_POLICIES."""
    config = default_config(**({} if walking_policy is None else {"walking_policy": walking_policy}))
    rig = PlaneRig()
    try:
        spine = Spine(config)
        results = [run_case(rig, case, spine) for case in grid(quick)]
    finally:
        rig.close()
    out = {
        "walking_policy": config.walking_policy,
        "cases": [asdict(r) for r in results],
        "summary": summarize(results),
    }
    if plot_path is not None:
        out["plot"] = str(plot(results, plot_path, config.walking_policy))
    return out
