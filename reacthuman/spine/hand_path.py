"""A plan's hand keyframes as a time-continuous, reach-clamped path of hand targets.

Keyframe hand values are offsets from the rest positions (reacthuman.plan.plan), robot frame. The spine applies
them relative to the body's current heading frame (pelvis projected to the floor, x forward), so the hands
travel with the walking body exactly as `plan.planned_hand_path_robot` assumes. Targets are linear in time
between keyframes, start from the rest pose at t = 0 (unless a keyframe sits there), hold the last keyframe
for the plan's catch_duration and then return to the rest pose over `release_s` (a plan's hands do not stay
up for the rest of the episode unless it asks for that with catch_duration).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from reacthuman.spine.arm_ik import ArmIK
from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M, Plan

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class ReachClamp:
    """A keyframe hand target the arm cannot reach, replaced by the nearest point the IK could reach."""

    keyframe_index: int
    side: str
    t_s: float
    requested_m: Vec3
    reachable_m: Vec3
    distance_m: float


@dataclass(frozen=True)
class HandPath:
    times_s: tuple[float, ...]
    left_m: tuple[Vec3, ...]
    right_m: tuple[Vec3, ...]
    clamps: tuple[ReachClamp, ...]
    knee_bend: tuple[float, ...] = ()  # per time, like the hands (empty: straight legs throughout)

    def targets_at(self, t_s: float) -> tuple[Vec3, Vec3]:
        return _interpolate(self.times_s, self.left_m, t_s), _interpolate(self.times_s, self.right_m, t_s)

    def knee_bend_at(self, t_s: float) -> float:
        if not self.knee_bend:
            return 0.0
        return _interpolate(self.times_s, tuple((k, 0.0, 0.0) for k in self.knee_bend), t_s)[0]


def _interpolate(times: tuple[float, ...], points: tuple[Vec3, ...], t_s: float) -> Vec3:
    if t_s <= times[0]:
        return points[0]
    if t_s >= times[-1]:
        return points[-1]
    k = int(np.searchsorted(times, t_s, side="right"))
    t0, t1 = times[k - 1], times[k]
    a = (t_s - t0) / (t1 - t0) if t1 > t0 else 1.0
    p0, p1 = points[k - 1], points[k]
    return (p0[0] + a * (p1[0] - p0[0]), p0[1] + a * (p1[1] - p0[1]), p0[2] + a * (p1[2] - p0[2]))


def _add(a: Vec3, b: Vec3) -> Vec3:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def continue_path(path: HandPath | None, now: tuple[Vec3, Vec3, float], release_s: float) -> HandPath:
    """A re-plan's path starting from the running targets `now` (left, right, knee_bend): where the new path
    would start from rest, it starts from `now`; a plan without keyframes (path None) returns to rest over
    release_s. A keyframe the plan puts at t = 0 away from rest is its own request and is kept."""
    left, right, knee = now
    if path is None:
        return HandPath((0.0, release_s), (left, REST_LEFT_HAND_M), (right, REST_RIGHT_HAND_M), (), (knee, 0.0))
    if path.times_s[0] > 0.0 or (path.left_m[0], path.right_m[0]) != (REST_LEFT_HAND_M, REST_RIGHT_HAND_M):
        return path
    knees = ((knee,) + path.knee_bend[1:]) if path.knee_bend else ()
    return replace(path, left_m=(left,) + path.left_m[1:], right_m=(right,) + path.right_m[1:], knee_bend=knees)


def build_hand_path(
    plan: Plan,
    ik: ArmIK,
    reach_tolerance_m: float,
    release_s: float = 0.5,
    posture_for: Callable[[float], np.ndarray] | None = None,
) -> HandPath | None:
    """The plan's hand path, or None when it has no keyframes (the arms then follow the walking policy).

    Each keyframe target is solved once from the standing posture of that keyframe (`posture_for(knee_bend)`:
    the joint angles of the crouch it asks for; None: the default pose); a target the IK misses by more
    than reach_tolerance_m is replaced by the reached point and recorded as a ReachClamp.
    """
    if not plan.keyframes:
        return None
    frames = sorted(enumerate(plan.keyframes), key=lambda item: item[1].t_s)
    times: list[float] = []
    lefts: list[Vec3] = []
    rights: list[Vec3] = []
    knees: list[float] = []
    clamps: list[ReachClamp] = []
    if frames[0][1].t_s > 0.0:
        times.append(0.0)
        lefts.append(REST_LEFT_HAND_M)
        rights.append(REST_RIGHT_HAND_M)
        knees.append(0.0)
    for index, kf in frames:
        requested = {"left": _add(REST_LEFT_HAND_M, kf.left_hand), "right": _add(REST_RIGHT_HAND_M, kf.right_hand)}
        ik.set_posture(ik.default_pose if posture_for is None else posture_for(kf.knee_bend), (1.0, 0.0, 0.0, 0.0))
        solution = ik.solve(requested["left"], requested["right"])
        reached = {"left": solution.left_m, "right": solution.right_m}
        final = {}
        for side in ("left", "right"):
            distance = math.dist(requested[side], reached[side])
            if distance > reach_tolerance_m:
                clamps.append(ReachClamp(index, side, kf.t_s, requested[side], reached[side], distance))
                final[side] = reached[side]
            else:
                final[side] = requested[side]
        times.append(kf.t_s)
        lefts.append(final["left"])
        rights.append(final["right"])
        knees.append(kf.knee_bend)
    if (lefts[-1], rights[-1], knees[-1]) != (REST_LEFT_HAND_M, REST_RIGHT_HAND_M, 0.0):
        release_t_s = times[-1] + max(0.0, plan.catch_duration_s)
        times += [release_t_s, release_t_s + release_s]
        lefts += [lefts[-1], REST_LEFT_HAND_M]
        rights += [rights[-1], REST_RIGHT_HAND_M]
        knees += [knees[-1], 0.0]
    return HandPath(tuple(times), tuple(lefts), tuple(rights), tuple(clamps), tuple(knees))
