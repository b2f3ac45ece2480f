"""Every branch of the fixed plan -> action rule, on hand-made plans."""

from __future__ import annotations

import math

import pytest

from reacthuman.plan.classifier import classify_plan, default_config, hand_reach_gain_m
from reacthuman.plan.plan import Action, Keyframe, Plan

RULE = default_config()  # the thresholds of config/classifier.yaml

AHEAD_1M = (1.0, 0.0)
REST = (0.0, 0.0, 0.0)


def make_plan(walk=(0.0, 0.0, 0.0), duration_s=0.0, keyframes=()) -> Plan:
    return Plan("thing", "react", 0.5, walk, duration_s, 0.5, tuple(keyframes))


def reach(left, right, t_s=0.4, knee=0.0) -> Keyframe:
    return Keyframe(t_s, left, right, knee)


def test_page_example_step_back_with_hands_forward_low_is_dodge():
    plan = make_plan(
        (-0.7, 0.0, 0.0),
        0.7,
        [reach((0.10, 0.15, 0.00), (0.10, -0.15, 0.00), 0.0), reach((0.50, 0.12, -0.25), (0.50, -0.12, -0.25), 0.4)],
    )
    assert hand_reach_gain_m(plan, AHEAD_1M) >= RULE.hand_reach_min_m  # the hands alone would say catch
    assert classify_plan(plan, AHEAD_1M) is Action.DODGE


def test_walk_toward_hazard_is_catch_even_with_hands_at_rest():
    assert classify_plan(make_plan((0.5, 0.0, 0.0), 1.0, [reach(REST, REST)]), AHEAD_1M) is Action.CATCH


def test_walk_toward_hazard_off_axis_within_angle_is_catch():
    hazard = (1.0, 1.0)  # 45 deg to the left
    assert classify_plan(make_plan((0.5, 0.0, 0.0), 1.0), hazard) is Action.CATCH


def test_sidestep_out_of_path_is_dodge():
    assert classify_plan(make_plan((0.0, 0.5, 0.0), 1.0), AHEAD_1M) is Action.DODGE


def test_angle_threshold_both_sides():
    def walk_at(angle_deg: float) -> Plan:
        a = math.radians(angle_deg)
        return make_plan((0.5 * math.cos(a), 0.5 * math.sin(a), 0.0), 1.0)

    assert classify_plan(walk_at(RULE.walk_toward_max_angle_deg - 1.0), AHEAD_1M) is Action.CATCH
    assert classify_plan(walk_at(RULE.walk_toward_max_angle_deg + 1.0), AHEAD_1M) is Action.DODGE


def test_any_walk_under_a_hazard_heading_at_the_robot_is_dodge():
    at_robot = (0.02, -0.03)
    assert classify_plan(make_plan((0.5, 0.0, 0.0), 1.0), at_robot) is Action.DODGE
    assert classify_plan(make_plan((-0.5, 0.0, 0.0), 1.0), at_robot) is Action.DODGE


def test_standing_with_hands_reaching_toward_hazard_is_catch():
    plan = make_plan(keyframes=[reach(REST, REST, 0.0), reach((0.45, -0.1, 0.1), (0.45, 0.1, 0.1))])
    assert classify_plan(plan, AHEAD_1M) is Action.CATCH


def test_one_hand_reaching_is_enough():
    plan = make_plan(keyframes=[reach((0.0, 0.0, 0.0), (0.4, 0.0, 0.0))])
    assert classify_plan(plan, (1.0, -0.2)) is Action.CATCH


def test_standing_with_hands_at_rest_is_no_action():
    assert (
        classify_plan(make_plan(keyframes=[reach(REST, REST, 0.0), reach(REST, REST, 0.5)]), AHEAD_1M)
        is Action.NO_ACTION
    )
    assert classify_plan(make_plan(), AHEAD_1M) is Action.NO_ACTION  # no keyframes at all


def test_standing_with_hands_pulled_back_or_crouching_is_no_action():
    plan = make_plan(keyframes=[reach((-0.2, 0.0, 0.2), (-0.2, 0.0, 0.2), 0.3, knee=0.25)])
    assert classify_plan(plan, AHEAD_1M) is Action.NO_ACTION


def test_small_reach_below_threshold_is_no_action():
    small = RULE.hand_reach_min_m * 0.5
    assert classify_plan(make_plan(keyframes=[reach((small, 0, 0), (small, 0, 0))]), AHEAD_1M) is Action.NO_ACTION


def test_walk_below_threshold_counts_as_standing():
    tiny_back = make_plan((-RULE.walk_min_m * 0.5, 0.0, 0.0), 1.0, [reach((0.4, 0, 0), (0.4, 0, 0))])
    assert classify_plan(tiny_back, AHEAD_1M) is Action.CATCH
    tiny_back_rest = make_plan((-RULE.walk_min_m * 0.5, 0.0, 0.0), 1.0)
    assert classify_plan(tiny_back_rest, AHEAD_1M) is Action.NO_ACTION


def test_fast_walk_with_zero_duration_does_not_walk():
    assert classify_plan(make_plan((-1.0, 0.0, 0.0), 0.0), AHEAD_1M) is Action.NO_ACTION


def test_yaw_only_is_not_walking():
    assert classify_plan(make_plan((0.0, 0.0, 1.5), 1.0), AHEAD_1M) is Action.NO_ACTION


def test_non_finite_hazard_is_rejected():
    with pytest.raises(ValueError, match="hazard_robot_xy"):
        classify_plan(make_plan(), (math.nan, 0.0))


def test_each_threshold_moves_the_boundary_when_overridden():
    walk_02 = make_plan((0.2, 0.0, 0.0), 1.0)  # 0.2 m straight at the hazard, hands at rest
    assert classify_plan(walk_02, AHEAD_1M) is Action.CATCH
    assert classify_plan(walk_02, AHEAD_1M, default_config(walk_min_m=0.25)) is Action.NO_ACTION
    a = math.radians(50.0)
    walk_at_50 = make_plan((0.5 * math.cos(a), 0.5 * math.sin(a), 0.0), 1.0)
    assert classify_plan(walk_at_50, AHEAD_1M) is Action.CATCH
    assert classify_plan(walk_at_50, AHEAD_1M, default_config(walk_toward_max_angle_deg=45.0)) is Action.DODGE
    assert classify_plan(walk_02, (0.15, 0.0)) is Action.CATCH
    assert classify_plan(walk_02, (0.15, 0.0), default_config(hazard_at_robot_m=0.2)) is Action.DODGE
    reach_012 = make_plan(keyframes=[reach((0.12, 0, 0), (0.12, 0, 0))])
    assert classify_plan(reach_012, AHEAD_1M) is Action.CATCH
    assert classify_plan(reach_012, AHEAD_1M, default_config(hand_reach_min_m=0.15)) is Action.NO_ACTION
