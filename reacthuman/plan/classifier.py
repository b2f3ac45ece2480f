"""The fixed rule that turns a reaction plan into the action the body would perform.

The model never names an action; we classify what its motor plan would make the body do (paper, sec. 3.1
and 4). The rule, exactly (all quantities in the freeze-time robot frame of `reacthuman.plan.plan`, planar x/y):

1. Walk. d = plan.walk_displacement_m() = (vx, vy) * walking_duration (the yaw rate is ignored, as in
   `reacthuman.plan.plan`). The plan walks when |d| >= walk_min_m.
2. If it walks, the walking direction relative to the hazard decides, whatever the hands do (the page notes:
   stepping back with hands forward and low is a dodge):
   - hazard at the robot (|h| < hazard_at_robot_m, h = hazard_robot_xy): any walk leaves the hazard's path
     -> DODGE;
   - otherwise, with theta the angle between d and h: theta <= walk_toward_max_angle_deg -> CATCH (walking
     toward where the hazard is heading), else -> DODGE (stepping back or sideways, out of its path).
3. If it does not walk, the hands decide. For each keyframe and each hand, the hand's planar position is
   its rest position plus the keyframe offset (arm motion only: the body stays put). reach gain =
   planar distance rest->h minus the smallest planar distance keyframe hand->h, over both hands and all
   keyframes. reach gain >= hand_reach_min_m -> CATCH (hands move toward the hazard's path), else
   -> NO_ACTION (the body stays where it is, hands at rest or not reaching for the hazard).

knee_bend and catch_duration do not change the class: neither moves the body out of the hazard's path nor
brings the hands toward it.

The four thresholds are the fields of `ClassifierConfig`, read from config/classifier.yaml.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from reacthuman.core.config import config_with
from reacthuman.core.validate import require_positive
from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M, Action, Plan


@dataclass(frozen=True)
class ClassifierConfig:
    """The rule's thresholds (config/classifier.yaml). Changing one changes which action a plan is classified
    as, and so the scores; the reference brains' plans are built against the same values (brain.motion)."""

    # Below this planar walking displacement the body counts as staying put: the walking policy drifts a few
    # centimetres when told to stand (STACK.md), so smaller commands are not a deliberate step.
    walk_min_m: float = 0.15
    # Walking within this angle of the hazard's heading point approaches it; 60 deg still closes half of the
    # walked distance toward the hazard (cos 60 = 0.5), beyond that the step is mostly sideways or back.
    walk_toward_max_angle_deg: float = 60.0
    # A hazard heading this close to the pelvis has no meaningful direction: it comes down on the robot itself.
    hazard_at_robot_m: float = 0.10
    # Hands must close at least this much planar distance on the hazard to count as reaching for it; smaller
    # offsets are posture adjustments, not a reach.
    hand_reach_min_m: float = 0.10

    def __post_init__(self) -> None:
        require_positive(
            self,
            ("walk_min_m", "hazard_at_robot_m", "hand_reach_min_m", "walk_toward_max_angle_deg"),
            "ClassifierConfig.",
        )
        if not self.walk_toward_max_angle_deg < 180.0:
            raise ValueError(
                "ClassifierConfig.walk_toward_max_angle_deg must be below 180 (every walk would "
                f"approach), got {self.walk_toward_max_angle_deg!r}"
            )


def default_config(**overrides: Any) -> ClassifierConfig:
    return config_with(ClassifierConfig, overrides)


def _planar_distance_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def hand_reach_gain_m(plan: Plan, hazard_robot_xy: tuple[float, float]) -> float:
    """How much closer (planar, m) the arms alone bring the nearer hand to the hazard than the rest pose."""
    best_gain_m = 0.0
    for rest, side in ((REST_LEFT_HAND_M, "left_hand"), (REST_RIGHT_HAND_M, "right_hand")):
        rest_distance_m = _planar_distance_m((rest[0], rest[1]), hazard_robot_xy)
        for kf in plan.keyframes:
            offset = getattr(kf, side)
            hand_xy = (rest[0] + offset[0], rest[1] + offset[1])
            best_gain_m = max(best_gain_m, rest_distance_m - _planar_distance_m(hand_xy, hazard_robot_xy))
    return best_gain_m


def walk_angle_to_hazard_deg(
    plan: Plan, hazard_robot_xy: tuple[float, float], config: ClassifierConfig | None = None
) -> float | None:
    """Angle (deg, 0..180) between the walk and the direction to the hazard; None if either is undefined."""
    cfg = config or default_config()
    dx, dy = plan.walk_displacement_m()
    hx, hy = hazard_robot_xy
    walk_m, hazard_m = math.hypot(dx, dy), math.hypot(hx, hy)
    if walk_m < cfg.walk_min_m or hazard_m < cfg.hazard_at_robot_m:
        return None
    cos_angle = (dx * hx + dy * hy) / (walk_m * hazard_m)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos_angle))))


def classify_plan(plan: Plan, hazard_robot_xy: tuple[float, float], config: ClassifierConfig | None = None) -> Action:
    """Classify `plan` as CATCH, DODGE or NO_ACTION by the rule in this module's docstring.

    hazard_robot_xy: where the hazard is heading (the predicted impact point, or the object's position at
    the freeze when none is predicted), planar, in the freeze-time robot frame (m). config: the thresholds
    (default: config/classifier.yaml).
    """
    cfg = config or default_config()
    hx, hy = float(hazard_robot_xy[0]), float(hazard_robot_xy[1])
    if not (math.isfinite(hx) and math.isfinite(hy)):
        raise ValueError(f"hazard_robot_xy must be finite, got {hazard_robot_xy!r}")
    dx, dy = plan.walk_displacement_m()
    if math.hypot(dx, dy) >= cfg.walk_min_m:
        if math.hypot(hx, hy) < cfg.hazard_at_robot_m:
            return Action.DODGE
        angle_deg = walk_angle_to_hazard_deg(plan, (hx, hy), cfg)
        assert angle_deg is not None  # both lengths were checked above
        return Action.CATCH if angle_deg <= cfg.walk_toward_max_angle_deg else Action.DODGE
    if hand_reach_gain_m(plan, (hx, hy)) >= cfg.hand_reach_min_m:
        return Action.CATCH
    return Action.NO_ACTION
