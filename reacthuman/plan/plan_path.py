"""The whole commanded path of a plan, in the freeze-time robot frame: the base integrated from walking_cmd
(with its yaw rate) over walking_duration, and the hands carried by the walking base.

Frames and units as in `reacthuman.plan.plan`: x forward, y left, z up, metres, seconds, radians. walking_cmd
(vx, vy, yaw_rate) is a body-frame velocity held for walking_duration_s, then the robot stands; hand
keyframes are offsets from each hand's rest position in the body's *current* frame, so the hands turn with
the body. The path ends when both the walk and the last keyframe are done: the last keyframe's offsets are
held while the walk finishes, which is where the plan leaves its hands (the point d_end measures).
Pure functions, no simulator.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M, Keyframe, Plan, Pose2D

Vec3 = tuple[float, float, float]
# Below this yaw rate (rad/s) the straight-line formula is used: the arc's 1/yaw_rate form loses precision.
_STRAIGHT_YAW_RPS = 1e-9


@dataclass(frozen=True)
class BasePose:
    """Where the plan has moved the base by some time: planar position and heading, freeze-time robot frame."""

    x_m: float
    y_m: float
    yaw_rad: float

    def carry(self, p_body: Vec3) -> Vec3:
        """A point fixed in the moving body frame, in the freeze-time robot frame."""
        c, s = math.cos(self.yaw_rad), math.sin(self.yaw_rad)
        x, y, z = p_body
        return (self.x_m + c * x - s * y, self.y_m + s * x + c * y, z)


def base_pose_at(plan: Plan, t_s: float) -> BasePose:
    """Exact integral of the body-frame walking command up to min(t, walking_duration): a circular arc when
    it turns, a straight line when it does not."""
    vx, vy, yaw_rate = plan.walking_cmd
    walked_s = min(max(t_s, 0.0), plan.walking_duration_s)
    theta = yaw_rate * walked_s
    if abs(yaw_rate) < _STRAIGHT_YAW_RPS:
        return BasePose(vx * walked_s, vy * walked_s, theta)
    sin_t, cos_t = math.sin(theta), math.cos(theta)
    x = (vx * sin_t + vy * (cos_t - 1.0)) / yaw_rate
    y = (vx * (1.0 - cos_t) + vy * sin_t) / yaw_rate
    return BasePose(x, y, theta)


def plan_end_s(plan: Plan) -> float:
    """When the plan is done: the walk has ended and the last keyframe has been reached."""
    return max([plan.walking_duration_s] + [k.t_s for k in plan.keyframes])


def full_hand_path_robot(plan: Plan) -> list[tuple[float, Vec3, Vec3]]:
    """(t, left, right) at each keyframe and, when the walk outlasts the last keyframe, at the walk's end
    (last offsets held), in the freeze-time robot frame. No keyframes: hands at rest, at t = 0 and at the
    walk's end. The last entry is where the plan leaves its hands."""
    frames = sorted(plan.keyframes, key=lambda k: k.t_s) or [Keyframe(0.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))]
    end_s = plan_end_s(plan)
    if frames[-1].t_s < end_s:
        last = frames[-1]
        frames.append(Keyframe(end_s, last.left_hand, last.right_hand, last.knee_bend))
    path = []
    for kf in frames:
        base = base_pose_at(plan, kf.t_s)
        left = base.carry(tuple(r + o for r, o in zip(REST_LEFT_HAND_M, kf.left_hand)))
        right = base.carry(tuple(r + o for r, o in zip(REST_RIGHT_HAND_M, kf.right_hand)))
        path.append((kf.t_s, left, right))
    return path


def final_base_pose(plan: Plan) -> BasePose:
    return base_pose_at(plan, plan.walking_duration_s)


# ---- drawing a stored plan (the viewer's markers, the report's overlays) ------------------------------------
PATH_STEP_S = 0.02  # spacing of the drawn base path's points


@dataclass(frozen=True)
class PlanGeometry:
    """World-frame points of a plan: the base path (pelvis on the floor) and the hands along
    `full_hand_path_robot` (each keyframe, then where the plan leaves them)."""

    base_path: list[Vec3]
    left_hands: list[Vec3]
    right_hands: list[Vec3]


def base_path_robot(plan: Plan, step_s: float = PATH_STEP_S) -> list[Vec3]:
    """The base on the floor every `step_s` of the walk and at its end, freeze-time robot frame (exact arcs)."""
    steps = max(0, int(math.ceil(plan.walking_duration_s / step_s)))
    poses = (base_pose_at(plan, min(k * step_s, plan.walking_duration_s)) for k in range(steps + 1))
    return [(p.x_m, p.y_m, 0.0) for p in poses]


def plan_of_stored(data: dict) -> Plan:
    """The plan's motion from its stored form (plan.json, or a ReactionPlan turned into that dict); the
    fields that do not move the robot are not needed."""
    keyframes = tuple(
        Keyframe(
            float(k["t"]),
            tuple(map(float, k["left_hand"])),
            tuple(map(float, k["right_hand"])),
            float(k.get("knee_bend") or 0.0),
        )
        for k in data.get("keyframes") or []
    )
    return Plan(
        "",
        "",
        0.0,
        tuple(map(float, data.get("walking_cmd") or (0.0, 0.0, 0.0))),
        float(data.get("walking_duration") or 0.0),
        0.0,
        keyframes,
    )


def plan_geometry(plan: dict, observer: Pose2D) -> PlanGeometry:
    """From the episode's plan.json (the ReactionPlan as a dict), placed in the world at the observer's pose."""
    motion = plan_of_stored(plan)
    hands = full_hand_path_robot(motion)
    return PlanGeometry(
        [observer.to_world(p) for p in base_path_robot(motion)],
        [observer.to_world(left) for _, left, _ in hands],
        [observer.to_world(right) for _, _, right in hands],
    )
