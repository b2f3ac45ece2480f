"""Motor plans the reference brains build: reach a point (walking only as far as the arms cannot reach),
step clear of a point, or stay. All in the freeze-time robot frame of `reacthuman.plan.plan`.

How they plan (catch hold, dodge speed and clearances) is the reference brains' config (`ReferenceBrainConfig`,
config/reference_brains.yaml), passed in as `config`; where the hands can go and how soon is the body's
(`scenes.envelope.BodyEnvelope`, config/envelope.yaml)."""

from __future__ import annotations

import math

from reacthuman.brain.schema import DURATION_LIMIT_S
from reacthuman.brain.prompt import COMFORT_WALK_SPEED_MPS
from reacthuman.brain.reference_config import ReferenceBrainConfig
from reacthuman.plan.classifier import default_config as classifier_config
from reacthuman.scenes.envelope import BodyEnvelope, default_config as default_envelope
from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M, Keyframe, Plan

Vec3 = tuple[float, float, float]

MAX_WALK_S = DURATION_LIMIT_S  # the plan schema's limit on walking_duration (a protocol fact, not a tunable)
REST: Vec3 = (0.0, 0.0, 0.0)


def _hand_offsets(target: Vec3, base_xy: tuple[float, float], spread_m: float) -> tuple[Vec3, Vec3]:
    tx, ty, tz = target
    left = (
        tx - base_xy[0] - REST_LEFT_HAND_M[0],
        ty + spread_m - base_xy[1] - REST_LEFT_HAND_M[1],
        tz - REST_LEFT_HAND_M[2],
    )
    right = (
        tx - base_xy[0] - REST_RIGHT_HAND_M[0],
        ty - spread_m - base_xy[1] - REST_RIGHT_HAND_M[1],
        tz - REST_RIGHT_HAND_M[2],
    )
    return left, right


def plan_reach(
    target_robot: Vec3,
    arrival_s: float | None,
    label: str,
    confidence: float,
    *,
    config: ReferenceBrainConfig,
    body: BodyEnvelope | None = None,
) -> Plan:
    """Walk toward the target only as far as needed for the arms to reach it, then hold the hands there. The
    hands' workspace (reach by height, heights, crouch, arm travel time) is the body's measured one, the
    same that judges a scene's catch reachable (`scenes.envelope`)."""
    body = body or default_envelope()
    tx, ty, tz = target_robot
    tz = min(max(tz, body.lowest_hand_m), body.highest_hand_m)
    horizontal_reach_m = float(body.reach_m(tz))
    distance_m = math.hypot(tx, ty)
    walk_m = max(0.0, distance_m - horizontal_reach_m)
    walk_min_m = classifier_config().walk_min_m
    if 0.0 < walk_m < walk_min_m:
        # A smaller step is posture drift, not a step. Short by less than half of one, the arms stay short: the
        # object's own size closes the gap, and a step could run the body into the furniture it moves over.
        walk_m = 0.0 if walk_m < walk_min_m / 2 else walk_min_m
    walk_m = min(walk_m, COMFORT_WALK_SPEED_MPS * MAX_WALK_S)
    ux, uy = (tx / distance_m, ty / distance_m) if distance_m > 1e-9 else (1.0, 0.0)
    duration_s = walk_m / COMFORT_WALK_SPEED_MPS
    walk_cmd = (COMFORT_WALK_SPEED_MPS * ux, COMFORT_WALK_SPEED_MPS * uy, 0.0) if walk_m > 0 else (0.0, 0.0, 0.0)
    knee = body.crouch_knee_bend if tz < body.crouch_hand_m else 0.0
    t_reach_s = max(body.arm_travel_s, min(duration_s, arrival_s) if arrival_s is not None else duration_s)
    frames = [Keyframe(0.0, REST, REST, 0.0)]

    def base_at(t_s: float) -> tuple[float, float]:
        walked_m = walk_m * min(t_s, duration_s) / duration_s if duration_s > 0 else 0.0
        return ux * walked_m, uy * walked_m

    def hands_toward_target(t_s: float) -> tuple[Vec3, Vec3]:
        # Out of reach (before the walk ends, or too far to walk to): extend toward it, within reach.
        bx, by = base_at(t_s)
        gap_m = math.hypot(tx - bx, ty - by)
        scale = min(1.0, horizontal_reach_m / gap_m) if gap_m > 1e-9 else 1.0
        return _hand_offsets((bx + (tx - bx) * scale, by + (ty - by) * scale, tz), (bx, by), config.catch_hand_spread_m)

    frames.append(Keyframe(t_reach_s, *hands_toward_target(t_reach_s), knee))
    if duration_s > t_reach_s:  # the hands stay on the target while the walk finishes
        frames.append(Keyframe(duration_s, *hands_toward_target(duration_s), knee))
    intent = f"Catch it ({label}): reach for it where it will arrive" + (
        ", walking toward it first." if walk_m > 0 else "."
    )
    # hold until the object has arrived and a catch has had time to hold (the hands return to rest after it)
    arrival_after_last_s = (arrival_s - frames[-1].t_s) if arrival_s is not None else 0.0
    hold_s = min(DURATION_LIMIT_S, config.catch_hold_s + max(0.0, arrival_after_last_s))
    return Plan(label, intent, confidence, walk_cmd, duration_s, hold_s, tuple(frames))


def _off_path(
    object_xy: tuple[float, float], velocity_xy: tuple[float, float], config: ReferenceBrainConfig
) -> tuple[float, float, float] | None:
    """(ux, uy, walk_m) stepping perpendicular off a moving object's planar path, or None when it has none."""
    speed = math.hypot(*velocity_xy)
    if speed < config.path_min_speed_mps:
        return None
    nx, ny = -velocity_xy[1] / speed, velocity_xy[0] / speed  # the path's normal
    # signed distance of the robot (the origin) from the path line: step further to the side it is on
    side_m = -(nx * object_xy[0] + ny * object_xy[1])
    if side_m < 0:
        nx, ny, side_m = -nx, -ny, -side_m
    return nx, ny, max(2 * classifier_config().walk_min_m, config.path_clearance_m - side_m)


def plan_clear(
    hazard_robot_xy: tuple[float, float],
    away_from_xy: tuple[float, float] | None,
    label: str,
    confidence: float,
    object_velocity_xy: tuple[float, float] | None = None,
    *,
    config: ReferenceBrainConfig,
) -> Plan:
    """Step out of the hazard's way (at least two minimal steps).

    A hazard moving across the floor (`object_velocity_xy`, with `away_from_xy` where it is now): step off
    its path line, sideways, until `config.path_clearance_m` from it. Otherwise walk straight away from the hazard
    point until `config.dodge_clearance_m` from it; a hazard heading at the robot itself has no direction: then walk
    away from `away_from_xy`, else backward.
    """
    rule = classifier_config()  # the classifier's thresholds: the step must classify as a dodge
    speed_mps = config.dodge_walk_speed_mps
    hx, hy = hazard_robot_xy
    distance_m = math.hypot(hx, hy)
    off_path = _off_path(away_from_xy, object_velocity_xy, config) if away_from_xy and object_velocity_xy else None
    if off_path is not None and distance_m >= rule.hazard_at_robot_m:
        # stepping off the path must not walk toward where the object comes down: that is a catch approach
        cos_toward = (off_path[0] * hx + off_path[1] * hy) / distance_m
        if cos_toward >= math.cos(math.radians(rule.walk_toward_max_angle_deg)):
            off_path = None
    if off_path is not None:
        ux, uy, walk_m = off_path
        walk_m = min(walk_m, speed_mps * MAX_WALK_S)
        duration_s = walk_m / speed_mps
        cmd = (speed_mps * ux, speed_mps * uy, 0.0)
        intent = f"Step aside, out of its path ({label})."
        return Plan(label, intent, confidence, cmd, duration_s, 0.0, (Keyframe(0.0, REST, REST, 0.0),))
    if distance_m >= rule.hazard_at_robot_m:
        ux, uy = -hx / distance_m, -hy / distance_m
    elif away_from_xy is not None and math.hypot(*away_from_xy) > 1e-6:
        norm = math.hypot(*away_from_xy)
        ux, uy = -away_from_xy[0] / norm, -away_from_xy[1] / norm
    else:
        ux, uy = -1.0, 0.0
    walk_m = min(max(2 * rule.walk_min_m, config.dodge_clearance_m - distance_m), speed_mps * MAX_WALK_S)
    duration_s = walk_m / speed_mps
    cmd = (speed_mps * ux, speed_mps * uy, 0.0)
    intent = f"Step away from it ({label}) and get out of its path."
    return Plan(label, intent, confidence, cmd, duration_s, 0.0, (Keyframe(0.0, REST, REST, 0.0),))


def plan_step(
    direction_robot: tuple[float, float],
    distance_m: float,
    label: str,
    confidence: float,
    *,
    config: ReferenceBrainConfig,
) -> Plan:
    """Step `distance_m` along a unit direction of the robot frame, hands at rest (a dodge whose direction
    is known, e.g. from the ground truth's `clear_step`)."""
    ux, uy = direction_robot
    speed_mps = config.dodge_walk_speed_mps
    duration_s = min(distance_m / speed_mps, MAX_WALK_S)
    cmd = (speed_mps * ux, speed_mps * uy, 0.0)
    intent = f"Step out of its path ({label})."
    return Plan(label, intent, confidence, cmd, duration_s, 0.0, (Keyframe(0.0, REST, REST, 0.0),))


def plan_stay(label: str, confidence: float) -> Plan:
    """Stand still with the hands at rest."""
    intent = f"Stay put: it ({label}) will not reach me."
    return Plan(label, intent, confidence, (0.0, 0.0, 0.0), 0.0, 0.0, (Keyframe(0.0, REST, REST, 0.0),))
