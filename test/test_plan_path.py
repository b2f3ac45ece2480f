"""The whole plan, scored: the base integrated from walking_cmd with its yaw rate over walking_duration, the
hands carried and turned by it, to where the plan leaves them (paper sec. 4, d_end and HDE)."""

import math

import pytest

from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M, Keyframe, Plan, Pose2D
from reacthuman.plan.plan_path import base_pose_at, full_hand_path_robot, plan_end_s
from reacthuman.scoring.metrics import hand_geometry

REACH = Keyframe(0.3, (0.2, 0.0, 0.1), (0.2, 0.0, 0.1))


def _plan(walking_cmd=(0.0, 0.0, 0.0), walking_duration_s=0.0, keyframes=(REACH,)):
    return Plan("ball", "catch it", 0.5, walking_cmd, walking_duration_s, 0.0, tuple(keyframes))


def _final_left(plan):
    return full_hand_path_robot(plan)[-1][1]


def test_walking_half_a_metre_forward_moves_the_final_hand_by_half_a_metre():
    still, walk = _plan(), _plan((0.5, 0.0, 0.0), 1.0)  # the walk outlasts the last keyframe (0.3 s)
    moved = [b - a for a, b in zip(_final_left(still), _final_left(walk))]
    assert moved == pytest.approx([0.5, 0.0, 0.0], abs=1e-12)
    assert plan_end_s(walk) == 1.0
    assert full_hand_path_robot(walk)[-1][0] == 1.0


def test_d_end_follows_the_walk_to_an_impact_point_ahead():
    observer = Pose2D(2.0, -1.0, math.pi / 2)  # facing world +y
    still, walk = _plan(), _plan((0.5, 0.0, 0.0), 1.0)
    hand = _final_left(still)
    impact = observer.to_world((hand[0] + 0.5, hand[1], hand[2]))  # half a metre ahead of the still hand
    assert hand_geometry(still, observer, impact).d_end_m == pytest.approx(0.5)
    assert hand_geometry(walk, observer, impact).d_end_m == pytest.approx(0.0, abs=1e-12)


def test_turning_90_degrees_turns_the_hands_with_the_body():
    turn = _plan((0.0, 0.0, math.pi / 2), 1.0)
    x, y, z = (r + o for r, o in zip(REST_LEFT_HAND_M, REACH.left_hand))
    assert _final_left(turn) == pytest.approx((-y, x, z), abs=1e-12)  # left hand now ahead-left -> behind-left
    rx, ry, rz = (r + o for r, o in zip(REST_RIGHT_HAND_M, REACH.right_hand))
    assert full_hand_path_robot(turn)[-1][2] == pytest.approx((-ry, rx, rz), abs=1e-12)
    pose = base_pose_at(turn, 5.0)  # the command stops at walking_duration
    assert (pose.x_m, pose.y_m, pose.yaw_rad) == pytest.approx((0.0, 0.0, math.pi / 2))


def test_walking_while_turning_follows_the_arc():
    # 0.5 m/s forward while turning 90 degrees in 1 s: a quarter circle of radius 0.5 / (pi/2).
    arc = _plan((0.5, 0.0, math.pi / 2), 1.0)
    radius = 0.5 / (math.pi / 2)
    pose = base_pose_at(arc, 1.0)
    assert (pose.x_m, pose.y_m, pose.yaw_rad) == pytest.approx((radius, radius, math.pi / 2))
    half = base_pose_at(arc, 0.5)
    assert math.hypot(half.x_m, half.y_m - radius) == pytest.approx(radius)  # on the circle
    g = hand_geometry(arc, Pose2D(0.0, 0.0, 0.0), (radius, radius, 0.0))
    assert g.body_to_impact_m == pytest.approx(0.0, abs=1e-12)  # the body ends on the arc's end point


def test_hde_counts_the_walk_after_the_last_keyframe():
    walk = _plan((0.5, 0.0, 0.0), 1.0)
    hand = full_hand_path_robot(walk)
    assert [t for t, _, _ in hand] == [0.3, 1.0]
    target = (hand[-1][1][0], hand[-1][1][1], hand[-1][1][2])
    g = hand_geometry(walk, Pose2D(0.0, 0.0, 0.0), target)
    assert g.d_first_m == pytest.approx(0.5 - 0.5 * 0.3)  # at the keyframe the body has walked 0.15 m
    assert g.d_min_m == pytest.approx(0.0, abs=1e-12)
    assert g.closing_m == pytest.approx(0.35)
