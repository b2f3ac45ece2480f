"""Where a plan puts the robot: the base path its walking command asks for and its hand keyframes, in the
world frame, from the plan as the episode folder and the bag store it (plan.json / ReactionPlan).

The walking command (vx, vy in the turning body frame, yaw rate) is integrated as a unicycle with lateral
speed for walking_duration; hand keyframes are offsets from the rest hand positions, carried along by the
base path at the keyframe's time (yaw ignored for the hands, as reacthuman.plan.planned_hand_path_robot
does). The freeze-time robot frame is placed in the world at the given pose.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reacthuman.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M, Pose2D

Vec3 = tuple[float, float, float]
PATH_STEP_S = 0.02


@dataclass(frozen=True)
class PlanGeometry:
    """World-frame points of a plan: the base path (pelvis on the floor) and each keyframe's hands."""

    base_path: list[Vec3]
    left_hands: list[Vec3]
    right_hands: list[Vec3]


def base_path_robot(walking_cmd: list[float], duration_s: float, step_s: float = PATH_STEP_S) -> list[Vec3]:
    """The walking command integrated as a unicycle with lateral speed: (vx, vy) in the turning body frame."""
    vx, vy, wz = (float(c) for c in walking_cmd)
    x = y = yaw = 0.0
    out = [(0.0, 0.0, 0.0)]
    steps = max(0, int(math.ceil(max(0.0, duration_s) / step_s)))
    for k in range(steps):
        dt = min(step_s, duration_s - k * step_s)
        x += (vx * math.cos(yaw) - vy * math.sin(yaw)) * dt
        y += (vx * math.sin(yaw) + vy * math.cos(yaw)) * dt
        yaw += wz * dt
        out.append((x, y, 0.0))
    return out


def plan_geometry(plan: dict, observer: Pose2D) -> PlanGeometry:
    """From the episode's plan.json (the ReactionPlan as a dict)."""
    cmd = plan.get("walking_cmd") or [0.0, 0.0, 0.0]
    duration = float(plan.get("walking_duration") or 0.0)
    path = base_path_robot(cmd, duration)
    lefts, rights = [], []
    for kf in sorted(plan.get("keyframes") or [], key=lambda k: float(k["t"])):
        walked = min(float(kf["t"]), duration)
        base = path[min(len(path) - 1, int(round(walked / PATH_STEP_S)))]
        lefts.append(tuple(b + r + o for b, r, o in zip(base, REST_LEFT_HAND_M, kf["left_hand"])))
        rights.append(tuple(b + r + o for b, r, o in zip(base, REST_RIGHT_HAND_M, kf["right_hand"])))
    return PlanGeometry([observer.to_world(p) for p in path], [observer.to_world(p) for p in lefts],
                        [observer.to_world(p) for p in rights])
