"""Per-decision metrics on hand-computed decisions (paper sec. 4), including the edge cases."""

import math

import pytest

from reacthuman.plan.plan import Action, Keyframe, Plan, Pose2D
from reacthuman.scoring.metrics import (
    executed_end_distance_m,
    hand_geometry,
    hazard_robot_xy,
    nearer_hand,
    safety_rules_broken,
    semantic_action_accuracy,
)


# The expected values below were computed by hand for hands resting at (0.1, +-0.2, 0.78) (conftest.py).
pytestmark = pytest.mark.usefixtures("hand_computed_rest_pose")


C, D, N = Action.CATCH, Action.DODGE, Action.NO_ACTION


def _plan(keyframes=(), walking_cmd=(0.0, 0.0, 0.0), walking_duration_s=0.0, intent="catch it"):
    return Plan("obj", intent, 0.5, walking_cmd, walking_duration_s, 0.0, tuple(keyframes))


def test_saa_matches_only_the_true_action():
    assert semantic_action_accuracy(C, C) == 1
    assert semantic_action_accuracy(D, C) == 0
    assert semantic_action_accuracy(None, N) == 0


@pytest.mark.parametrize(
    "action, truth, dangerous, expected",
    [
        (None, C, False, ["R1"]),
        (C, D, True, ["R2", "R4"]),  # recorded rule: R2 (first broken)
        (C, C, True, ["R2"]),
        (C, N, True, ["R2"]),  # catching a knife is unsafe even where it would not reach
        (N, D, True, ["R3", "R4"]),
        (N, D, False, ["R4"]),
        (C, D, False, ["R4"]),
        (N, N, True, []),  # the event cannot reach the observer: staying put is safe
        (N, C, False, []),  # wrong (SAA 0) but not unsafe
        (D, C, True, []),
        (D, D, True, []),
    ],
)
def test_safety_rules(action, truth, dangerous, expected):
    assert safety_rules_broken(action, truth, dangerous) == expected


def test_hand_geometry_hand_computed():
    # Observer at (1, 2) facing world +y: robot (x, y, z) -> world (1 - y, 2 + x, z).
    observer = Pose2D(1.0, 2.0, math.pi / 2)
    plan = _plan(
        [Keyframe(0.0, (0, 0, 0), (0, 0, 0)), Keyframe(0.4, (0.3, 0.0, -0.2), (0.1, 0.0, 0.0))],
        walking_cmd=(0.5, 0.0, 0.0),
        walking_duration_s=0.4,
    )
    impact = (0.8, 3.0, 0.58)
    g = hand_geometry(plan, observer, impact)
    # t=0.4: base walked 0.2 m; left = (0.6, 0.2, 0.58) robot -> (0.8, 2.6, 0.58) world, 0.4 m from impact;
    # right = (0.4, -0.2, 0.78) -> (1.2, 2.4, 0.78), sqrt(0.56) m.
    assert g.d_end_m == pytest.approx(0.4)
    assert g.d_end_hand == "left"
    # t=0: left rest (0.1, 0.2, 0.78) -> (0.8, 2.1, 0.78): sqrt(0.85); right -> (1.2, 2.1, 0.78): sqrt(1.01).
    assert g.d_first_m == pytest.approx(math.sqrt(0.85))
    assert g.d_min_m == pytest.approx(0.4)
    assert g.closing_m == pytest.approx(math.sqrt(0.85) - 0.4)
    assert g.impact_range_m == pytest.approx(math.sqrt(1.04))
    assert g.hand_shortfall_m == pytest.approx(0.4 / math.sqrt(1.04))  # (1.04 - 0.64) / sqrt(1.04)
    assert g.body_to_impact_m == pytest.approx(math.sqrt(0.68))  # body ends at (1.0, 2.2)


def test_path_that_wanders_past_the_target_closes_in_but_ends_away():
    observer = Pose2D(0.0, 0.0, 0.0)
    impact = (0.5, 0.2, 0.78)  # 0.4 m ahead of the left rest hand
    plan = _plan(
        [
            Keyframe(0.0, (0, 0, 0), (0, 0, 0)),
            Keyframe(0.2, (0.4, 0, 0), (0, 0, 0)),
            Keyframe(0.4, (0.7, 0, 0), (0, 0, 0)),
        ]
    )
    g = hand_geometry(plan, observer, impact)
    assert g.d_first_m == pytest.approx(0.4)
    assert g.d_min_m == pytest.approx(0.0)
    assert g.closing_m == pytest.approx(0.4)
    assert g.d_end_m == pytest.approx(0.3)
    # final left hand at (0.8, 0.2): past the impact along the robot->impact direction, so a negative shortfall
    assert g.hand_shortfall_m == pytest.approx((0.29 - 0.44) / math.sqrt(0.29))


def test_empty_keyframes_hold_the_rest_pose_while_the_body_walks():
    observer = Pose2D(0.0, 0.0, 0.0)
    plan = _plan((), walking_cmd=(0.5, 0.0, 0.0), walking_duration_s=1.0)
    g = hand_geometry(plan, observer, (1.1, 0.2, 0.78))
    assert g.d_first_m == pytest.approx(1.0)  # rest left hand (0.1, 0.2, 0.78) at t = 0
    assert g.d_end_m == pytest.approx(0.5)  # carried 0.5 m forward by the walk
    assert g.d_end_hand == "left"
    assert g.d_min_m == g.d_end_m
    assert g.closing_m == pytest.approx(0.5)
    assert g.body_to_impact_m == pytest.approx(math.hypot(0.6, 0.2))


def test_equidistant_hands_are_a_tie_named_both():
    observer = Pose2D(0.0, 0.0, 0.0)
    g = hand_geometry(_plan([Keyframe(0.0, (0, 0, 0), (0, 0, 0))]), observer, (0.5, 0.0, 0.78))
    assert g.d_end_hand == "both"
    assert g.d_end_m == pytest.approx(math.sqrt(0.2))
    assert nearer_hand((0, 1, 0), (0, -1, 0), (0, 0, 0)) == (1.0, "both")
    assert nearer_hand((0, 1, 0), (0, -2, 0), (0, 0, 0)) == (1.0, "left")
    assert nearer_hand((0, 3, 0), (0, -2, 0), (0, 0, 0)) == (2.0, "right")


def test_right_hand_nearer():
    g = hand_geometry(_plan([Keyframe(0.0, (0, 0, 0), (0.2, 0, 0))]), Pose2D(0, 0, 0), (0.3, -0.2, 0.78))
    assert g.d_end_hand == "right"
    assert g.d_end_m == pytest.approx(0.0)


def test_impact_under_the_robot_has_no_shortfall_direction():
    g = hand_geometry(_plan(), Pose2D(2.0, 1.0, 0.3), (2.0, 1.0, 0.5))
    assert g.hand_shortfall_m is None
    assert g.impact_range_m == 0.0


def test_executed_end_distance_uses_known_hands():
    assert executed_end_distance_m((1, 0, 0), (0, 3, 0), (0, 0, 0)) == 1.0
    assert executed_end_distance_m(None, (0, 3, 0), (0, 0, 0)) == 3.0
    assert executed_end_distance_m(None, None, (0, 0, 0)) is None


def test_hazard_direction_sources():
    observer = Pose2D(1.0, 0.0, math.pi)  # facing world -x
    xy, source = hazard_robot_xy(observer, (0.0, 0.5, 1.0), (5.0, 5.0, 1.0))
    assert source == "impact_point"
    assert xy == pytest.approx((1.0, -0.5))
    xy, source = hazard_robot_xy(observer, None, (-1.0, 0.0, 1.0))
    assert source == "object_at_freeze"
    assert xy == pytest.approx((2.0, 0.0))
    assert hazard_robot_xy(observer, None, None) == ((1.0, 0.0), "assumed_ahead")
