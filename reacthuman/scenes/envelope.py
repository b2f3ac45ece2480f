"""What this body can do, measured, and whether a scene's correct action is within it.

The figures are the spine on the G1 in Genesis (docs/spine-and-body.md, "Tracking" and "The hands' reachable
workspace"; `reacthuman bench --sections tracking` measures them again): both hands end within about 5 cm of a
target straight ahead, 0.3-0.45 m from the body's axis at 0.8-1.15 m high (0.3-0.35 m, crouched, below that down to
0.6 m), sent over 0.5 s; a step forward or back starts about 0.3 s after the freeze and covers 0.4 m/s in its first
second; sideways the gait covers only about 0.25 m/s. Nothing moves before the freeze: the plan starts there. The
reference brains plan their reaches with the same figures (`brain.motion.plan_reach`): one model of the body.

Judged on the object's simulated path (`path_verdict`, what the labeller stores in the ground truth):
- CATCH: the first point of the path the hands can meet: at a time when the arms have risen and the walk
  has brought the point within arm's reach, at a height the hands can go to (crouched at the lowest), and
  before the object has struck the body elsewhere (a swinging bob that reaches the torso in the window).
  None: no plan of this body catches it.
- DODGE: a step that keeps the body (legs and torso as two cylinders about its axis) off the moving
  object's path from t0 to the end of the track: staying put, or one of eight directions at the speeds the
  gait covers in them. None: every step is struck.
Scenes labelled before the path judgement carry none; `feasibility` judges those from the ground truth's
impact point and times alone, as it did before (a coarser, conservative test).
NO_ACTION needs nothing. Pure functions, no simulation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from reacthuman.core.config import config_with
from reacthuman.core.validate import require_positive
from reacthuman.scenes.label_config import load_label_config


def _labeller_moving_mps() -> float:
    return load_label_config().moving_mps


@dataclass(frozen=True)
class BodyEnvelope:
    """The body's measured figures and the profile the judgement uses (config/envelope.yaml)."""

    # The hands' workspace, measured on the tracking rig (docs/spine-and-body.md, "The hands' reachable
    # workspace"): where and how soon both hands end within about 5 cm of a target straight ahead (sent over 0.3 s
    # they end 10-40 cm off).
    arm_travel_s: float = 0.5  # rest to a target in the workspace
    arm_reach_m: float = 0.45  # planar, from the pelvis axis, at chest height
    crouch_reach_m: float = 0.35  # the same below crouch_hand_m, crouched
    crouch_hand_m: float = 0.8  # targets lower than this need the crouch (0.45 m ahead at 0.75 m: 11 cm off)
    crouch_knee_bend: float = 0.25  # the plan's knee_bend for them (the deepest the spine carries out)
    min_reach_m: float = 0.3  # hands meet an object in front of the chest (rest: 0.15 m ahead of the axis)
    # The first second of a step, which is what a dodge or a late catch has: an executed oracle dodge (0.7 m/s
    # back commanded) had gone 0.01, 0.06, 0.14, 0.23 m at 0.3, 0.5, 0.7, 0.9 s after the freeze. The closed
    # loop makes the distance up later (0.5 m/s for 1 s ends 0.55 m on), which this figure leaves out.
    walk_speed_mps: float = 0.4  # forward or back
    walk_lag_s: float = 0.3
    side_speed_mps: float = 0.25  # sustained (bench tracking); its start was not measured apart
    dodge_step_m: float = 0.3  # out of the footprint of an object landing at the robot
    lowest_hand_m: float = 0.6  # crouched; at 0.5 m the hands end 12 cm off or more
    highest_hand_m: float = 1.15  # at 1.25 m they end 17-33 cm off
    # The G1 seen from above: legs and feet below the hips, shoulders and arms above (fitted on 24 executed
    # oracle dodges: heads passed 2-3 cm outside a 0.25 m cylinder were struck, feet 1-9 cm inside it were not).
    leg_radius_m: float = 0.18
    torso_radius_m: float = 0.30
    hip_height_m: float = 0.8
    body_height_m: float = 1.32
    dodge_max_m: float = 1.2  # the longest step a dodge plan takes
    dodge_margin_m: float = 0.05  # the gap a dodge must keep: the profile is a sketch and the step lags its plan
    # slower points cannot strike: the labeller's moving_mps (config/ground_truth.yaml), one value for both
    moving_mps: float = field(default_factory=_labeller_moving_mps)

    def __post_init__(self) -> None:
        require_positive(self, tuple(self.__dict__), "BodyEnvelope.")
        if not self.min_reach_m < self.crouch_reach_m <= self.arm_reach_m:
            raise ValueError(
                f"BodyEnvelope: min_reach_m < crouch_reach_m <= arm_reach_m, got {self.min_reach_m}, "
                f"{self.crouch_reach_m}, {self.arm_reach_m}"
            )
        if not self.lowest_hand_m < self.crouch_hand_m < self.highest_hand_m:
            raise ValueError(
                f"BodyEnvelope: lowest_hand_m < crouch_hand_m < highest_hand_m, got {self.lowest_hand_m}, "
                f"{self.crouch_hand_m}, {self.highest_hand_m}"
            )

    def reach_m(self, height_m):
        """Planar reach from the pelvis axis of hands at height_m (a float or an array): shorter crouched."""
        return np.where(np.asarray(height_m) < self.crouch_hand_m, self.crouch_reach_m, self.arm_reach_m)


def default_config(**overrides: Any) -> BodyEnvelope:
    """config/envelope.yaml with `overrides` applied."""
    return config_with(BodyEnvelope, overrides)


@dataclass(frozen=True)
class Feasibility:
    reachable: bool
    needed_s: float  # time the action needs after the freeze
    available_s: float | None  # time the scene leaves after the freeze (None: unbounded)
    reason: str


def _walk_time_s(distance_m: float, env: BodyEnvelope) -> float:
    return 0.0 if distance_m <= 0 else env.walk_lag_s + distance_m / env.walk_speed_mps


def feasibility(
    correct_action: str,
    impact_robot_xy: tuple[float, float] | None,
    freeze_s: float,
    impact_time_s: float | None,
    time_to_floor_s: float | None,
    env: BodyEnvelope | None = None,
    impact_height_m: float | None = None,
) -> Feasibility:
    """Can this body carry out `correct_action`? Times count from the event's start (like the ground truth);
    impact_robot_xy is the impact point in the freeze-time robot frame, impact_height_m its height."""
    env = env or default_config()
    floor_left = None if time_to_floor_s is None else time_to_floor_s - freeze_s
    impact_left = None if impact_time_s is None else impact_time_s - freeze_s
    if correct_action == "CATCH":
        distance = math.hypot(*impact_robot_xy) if impact_robot_xy is not None else 0.0
        needed = env.arm_travel_s + _walk_time_s(distance - env.arm_reach_m, env)
        if impact_height_m is not None and impact_height_m < env.lowest_hand_m:
            return Feasibility(
                False,
                needed,
                floor_left,
                f"the object arrives {impact_height_m:.2f} m high, below the hands' {env.lowest_hand_m:.2f} m",
            )
        if floor_left is None:
            return Feasibility(True, needed, None, "the object never reaches the floor")
        ok = floor_left >= needed
        return Feasibility(
            ok,
            needed,
            floor_left,
            f"the object lands {floor_left:.2f} s after the freeze; the hands need {needed:.2f} s",
        )
    if correct_action == "DODGE":
        needed = _walk_time_s(env.dodge_step_m, env)
        left = [t for t in (floor_left, impact_left) if t is not None and t > 0]
        available = max(left) if left else (floor_left if floor_left is not None else impact_left)
        if available is None:
            return Feasibility(True, needed, None, "no arrival time")
        ok = available >= needed
        return Feasibility(
            ok,
            needed,
            available,
            f"the object arrives {available:.2f} s after the freeze; a step clear needs {needed:.2f} s",
        )
    return Feasibility(True, 0.0, None, "no action needed")


def scene_feasibility(spec: "SceneSpec", env: BodyEnvelope | None = None) -> Feasibility:  # noqa: F821
    """Whether a labelled scene's correct action is within this body: the ground truth's path judgement
    (`body_reachable`), or for a scene labelled before it, feasibility() of its impact point and times."""
    gt = spec.ground_truth
    if gt.body_reachable is not None:
        return Feasibility(gt.body_reachable, 0.0, None, gt.body_reach_reason)
    xy = None
    if gt.impact_point is not None:
        xy = spec.observer.pose().to_robot(tuple(gt.impact_point))[:2]
    return feasibility(
        gt.correct_action,
        xy,
        spec.observation_window_s,
        gt.impact_time_s,
        gt.time_to_floor_s,
        env,
        None if gt.impact_point is None else gt.impact_point[2],
    )


def execution_extras(spec: "SceneSpec", deflected: bool) -> dict[str, bool]:  # noqa: F821
    """The ledger fields beside the scored ones that say what the body could and did do: the scorer node and
    the in-process episode both write exactly these, so their ledgers agree field for field.
    physically_unreachable separates "the model chose wrong" from "no plan of this body could succeed"
    (reacthuman.reporting.outcomes); deflected is a hand touch that did not hold the object."""
    return {"physically_unreachable": not scene_feasibility(spec).reachable, "deflected": bool(deflected)}


# (ux, uy) unit directions in the freeze-time robot frame -> how far (m) the body can walk along each before it
# meets the furniture (`scenes.reach.walk_room`); None: open floor.
WalkRoom = Callable[[np.ndarray, np.ndarray], np.ndarray]

# A dodge tries staying put, then the eight directions of the robot frame (x forward, y left).
DODGE_DIRECTIONS = (
    (0.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
    (1.0, 0.0),
    (-0.7071, 0.7071),
    (-0.7071, -0.7071),
    (0.7071, 0.7071),
    (0.7071, -0.7071),
)


@dataclass(frozen=True)
class PathVerdict:
    """What this body can do against an object's simulated path (times after the event's start)."""

    reachable: bool
    reason: str
    intercept_point_robot: tuple[float, float, float] | None = None  # CATCH: where the hands first meet it
    intercept_time_s: float | None = None
    clear_step_robot: tuple[float, float] | None = None  # DODGE: unit direction that clears; (0, 0): staying put
    intercept_sample: tuple[int, int] | None = None  # CATCH: (sample, point) of the intercept in the given path


def _gait_speed_mps(ux: float, uy: float, env: BodyEnvelope) -> float:
    """Speed along a unit direction of the robot frame: an ellipse through the forward and sideways speeds."""
    if ux == 0.0 and uy == 0.0:
        return 0.0
    return 1.0 / math.sqrt((ux / env.walk_speed_mps) ** 2 + (uy / env.side_speed_mps) ** 2)


def _step_m(after_freeze_s: np.ndarray, env: BodyEnvelope) -> np.ndarray:
    """How far the gait has gone at unit speed by each time after the freeze (after its start-up lag)."""
    return np.maximum(0.0, after_freeze_s - env.walk_lag_s)


def catch_intercept(
    points_robot: np.ndarray,
    radii_m: np.ndarray,
    after_freeze_s: np.ndarray,
    env: BodyEnvelope | None = None,
    moving: np.ndarray | None = None,
    room: WalkRoom | None = None,
) -> tuple[int, int] | None:
    """(sample, point) of the first point of the path (points_robot (n, p, 3) in the freeze-time robot frame,
    radii (p,), sample times after the freeze (n,)) that the hands can meet before the object has struck the
    body elsewhere (`moving` (n, p) bool: the points that can strike; None: no strike test), or None. The first
    the arms reach without a step, if any; else the first a step brings within reach."""
    env = env or default_config()
    x, y, z = points_robot[..., 0], points_robot[..., 1], points_robot[..., 2]
    rho = np.hypot(x, y)
    need_m = np.maximum(0.0, rho - env.reach_m(z) - radii_m[None, :])  # to walk towards the point
    with np.errstate(invalid="ignore", divide="ignore"):
        ux, uy = np.where(rho > 0, x / rho, 1.0), np.where(rho > 0, y / rho, 0.0)
        speed = 1.0 / np.sqrt((ux / env.walk_speed_mps) ** 2 + (uy / env.side_speed_mps) ** 2)
    walked_m = speed * _step_m(after_freeze_s, env)[:, None]
    if room is not None:  # a walk stops at the table, wall or shelf in its way
        walked_m = np.minimum(walked_m, room(ux, uy))
    ok = (
        (after_freeze_s[:, None] >= env.arm_travel_s)
        & (need_m <= walked_m)
        & (rho >= env.min_reach_m)
        & (z + radii_m[None, :] >= env.lowest_hand_m)
        & (z - radii_m[None, :] <= env.highest_hand_m)
    )
    # Points the arms reach without a step come first: the hands wait where the object comes to them rather than
    # walk with raised arms (the gait drifts then: docs/spine-and-body.md, "Tracking").
    still = ok & (need_m <= 0.0)
    candidates = np.concatenate([np.unique(np.nonzero(still)[0]), np.unique(np.nonzero(ok & ~still)[0])])
    if moving is None:
        return (int(candidates[0]), int(np.nonzero(ok[candidates[0]])[0][0])) if len(candidates) else None
    standing = _strikes(points_robot, radii_m, moving, np.zeros((len(after_freeze_s), 2)), env)
    before_step = standing & (after_freeze_s <= env.walk_lag_s)
    if before_step.any():  # struck where it stands, before any step starts: no later meeting counts
        candidates = candidates[candidates <= int(np.argmax(before_step))]
    for k in candidates:
        p = int(np.nonzero(still[k] if still[k].any() else ok[k])[0][0])
        travel = np.minimum(need_m[k, p], speed[k, p] * _step_m(after_freeze_s[:k], env))
        body_xy = np.stack([ux[k, p] * travel, uy[k, p] * travel], axis=1)
        if not _strikes(points_robot[:k], radii_m, moving[:k], body_xy, env).any():
            return int(k), p
    return None


def _strikes(
    points_robot: np.ndarray, radii_m: np.ndarray, moving: np.ndarray, body_xy: np.ndarray, env: BodyEnvelope
) -> np.ndarray:
    """(n,): whether a moving point overlaps the body (the legs and torso cylinders about its axis, centred at
    body_xy (n, 2) in the freeze-time robot frame) at each sample: the hands cannot catch what has struck."""
    bottom_m = points_robot[..., 2] - radii_m[None, :]
    body_r = np.where(bottom_m < env.hip_height_m, env.leg_radius_m, env.torso_radius_m)
    gap = (
        np.hypot(points_robot[..., 0] - body_xy[:, :1], points_robot[..., 1] - body_xy[:, 1:])
        - radii_m[None, :]
        - body_r
    )
    return (moving & (bottom_m <= env.body_height_m) & (gap <= 0.0)).any(axis=1)


def dodge_clearance(
    points_robot: np.ndarray,
    radii_m: np.ndarray,
    after_freeze_s: np.ndarray,
    moving: np.ndarray,
    env: BodyEnvelope | None = None,
    room: WalkRoom | None = None,
) -> tuple[tuple[float, float], float] | None:
    """A step that keeps the body clear of every moving point of the path (moving (n, p) bool) by at least
    `dodge_margin_m`, with the smallest gap it leaves (m): the widest-gap step that moves, else staying put
    when that clears; None when every step is struck or passes too close. Samples before the freeze (negative times) find the body where it stands."""
    env = env or default_config()
    bottom_m = points_robot[..., 2] - radii_m[None, :]
    danger = moving & (bottom_m <= env.body_height_m)
    if not danger.any():
        return DODGE_DIRECTIONS[1], math.inf  # nothing moving comes low enough: stepping back is as good as any
    ks, ps = np.nonzero(danger)
    px, py, r = points_robot[ks, ps, 0], points_robot[ks, ps, 1], radii_m[ps]
    body_r = np.where(bottom_m[ks, ps] < env.hip_height_m, env.leg_radius_m, env.torso_radius_m)
    unit_step = _step_m(after_freeze_s[ks], env)
    gaps = {}
    for ux, uy in DODGE_DIRECTIONS:
        longest_m = env.dodge_max_m if room is None else min(env.dodge_max_m, float(room(np.array(ux), np.array(uy))))
        travel = np.minimum(longest_m, _gait_speed_mps(ux, uy, env) * unit_step)
        gaps[(ux, uy)] = float((np.hypot(px - ux * travel, py - uy * travel) - r - body_r).min())
    moves = [(gap, d) for d, gap in gaps.items() if d != DODGE_DIRECTIONS[0] and gap >= env.dodge_margin_m]
    if moves:
        gap, d = max(moves)
        return d, gap
    stay = gaps[DODGE_DIRECTIONS[0]]
    return (DODGE_DIRECTIONS[0], stay) if stay >= env.dodge_margin_m else None


def path_verdict(
    correct_action: str,
    points_robot: np.ndarray,
    radii_m: np.ndarray,
    times_s: np.ndarray,
    freeze_s: float,
    env: BodyEnvelope | None = None,
    room: WalkRoom | None = None,
) -> PathVerdict:
    """Can this body carry out `correct_action` against the object's path? points_robot (n, p, 3): the
    object's surface samples in the freeze-time robot frame at times_s (n,) after the event's start, from
    the start; radii (p,) inflate them (spheres, capsules). A catch may meet a bouncing object after a
    bounce: what counts is that the point is at a height the hands go to. `room`: how far the body can walk
    each way before the furniture stops it (None: open floor)."""
    env = env or default_config()
    times_s = np.asarray(times_s, dtype=np.float64)
    after = times_s - freeze_s
    speed = np.zeros(points_robot.shape[:2])
    if len(times_s) > 1:
        dt = np.diff(times_s)[:, None]
        speed[1:] = np.linalg.norm(np.diff(points_robot, axis=0), axis=-1) / dt
    moving = speed >= env.moving_mps
    if correct_action == "CATCH":
        hit = catch_intercept(points_robot, radii_m, after, env, moving, room)
        if hit is None:
            reason = (
                "it strikes the body before the hands can meet it"
                if catch_intercept(points_robot, radii_m, after, env, room=room) is not None
                else "no point of the object's path is within the hands' reach in time"
            )
            return PathVerdict(False, reason)
        k, p = hit
        point = tuple(round(float(c), 4) for c in points_robot[k, p])
        return PathVerdict(
            True,
            f"the hands can meet it {after[k]:.2f} s after the freeze",
            point,  # type: ignore[arg-type]
            round(float(times_s[k]), 6),
            intercept_sample=(k, p),
        )
    if correct_action == "DODGE":
        clear = dodge_clearance(points_robot, radii_m, after, moving, env, room)
        if clear is None:
            return PathVerdict(False, "every step this body can take is struck")
        (ux, uy), gap = clear
        where = "staying put" if (ux, uy) == (0.0, 0.0) else f"a step towards ({ux:+.2f}, {uy:+.2f})"
        return PathVerdict(
            True, f"{where} clears it" + ("" if math.isinf(gap) else f" by {gap:.2f} m"), clear_step_robot=(ux, uy)
        )
    return PathVerdict(True, "no action needed")
