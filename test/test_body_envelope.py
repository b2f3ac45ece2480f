"""Without a simulator: the walking path the spine tracks, the body envelope's feasibility judgement, and the
report's executed-outcome tables on hand-built ledger rows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reacthuman.spine.base_tracking import BaseTracker, BaseTrackingConfig, Pose, planned_pose
from reacthuman.spine.crouch import crouch_angle_rad, crouch_offset_rad
from reacthuman.scenes.envelope import BodyEnvelope, feasibility, path_verdict
from reacthuman.spine.locomotion import VelocityCommand
from reacthuman.reporting.aggregate import select_decisions
from reacthuman.scoring.ledger import DecisionRecord
from reacthuman.reporting.outcomes import outcomes_by_action_table, outcomes_by_family_table
from reacthuman.spine.g1_assets import G1_JOINT_NAMES


def test_planned_pose_integrates_a_constant_twist_exactly():
    start = Pose(1.0, 2.0, math.pi / 2)  # facing world +y
    straight = planned_pose(start, VelocityCommand(0.5, 0.0, 0.0), 2.0, 5.0)  # held after the duration
    assert (straight.x_m, straight.y_m, straight.yaw_rad) == pytest.approx((1.0, 3.0, math.pi / 2))
    # a quarter circle of radius v/w = 1 m, turning left from facing +y: ends 1 m left (-x) and 1 m ahead (+y)
    arc = planned_pose(start, VelocityCommand(0.5, 0.0, 0.5), math.pi, math.pi)
    assert (arc.x_m, arc.y_m, arc.yaw_rad) == pytest.approx((0.0, 3.0, math.pi))


def test_base_tracker_corrects_lag_then_settles_and_stays_standing():
    tracker = BaseTracker(BaseTrackingConfig(gain_per_s=2.0, max_correction_mps=0.5, settle_tolerance_m=0.05))
    tracker.reset(Pose(0.0, 0.0, 0.0))
    cmd = VelocityCommand(0.5, 0.0, 0.0)
    lagging = tracker.command(cmd, 2.0, 1.0, Pose(0.3, 0.1, 0.0))  # 0.2 m behind, 0.1 m off to the left
    assert lagging.vx_mps == pytest.approx(0.5 + 0.4)
    assert lagging.vy_mps == pytest.approx(-0.2)
    after = tracker.command(cmd, 2.0, 2.2, Pose(0.8, 0.0, 0.0))  # walk over, still 0.2 m short: keep going
    assert after.vx_mps == pytest.approx(0.4)
    assert not tracker.settled
    done = tracker.command(cmd, 2.0, 2.4, Pose(0.98, 0.0, 0.0))
    assert done == VelocityCommand(0.0, 0.0, 0.0)
    assert tracker.settled
    assert tracker.command(cmd, 2.0, 2.6, Pose(0.8, 0.0, 0.0)) == VelocityCommand(0.0, 0.0, 0.0)


def test_crouch_folds_hip_knee_ankle_and_is_capped():
    assert crouch_angle_rad(0.25, 1.8, 0.45) == pytest.approx(0.45)
    assert crouch_angle_rad(0.5, 1.8, 0.45) == pytest.approx(0.45)
    assert crouch_angle_rad(-1.0, 1.8, 0.45) == 0.0
    offset = crouch_offset_rad(0.3)
    for side in ("left", "right"):
        assert offset[G1_JOINT_NAMES.index(f"{side}_knee_joint")] == pytest.approx(0.6)
        assert offset[G1_JOINT_NAMES.index(f"{side}_hip_pitch_joint")] == pytest.approx(-0.3)
        assert offset[G1_JOINT_NAMES.index(f"{side}_ankle_pitch_joint")] == pytest.approx(-0.3)
    assert sum(1 for v in offset if v != 0) == 6


def test_feasibility_separates_what_no_plan_of_this_body_could_do():
    freeze = 0.6
    landed = feasibility("CATCH", (0.4, 0.0), freeze, 0.1, 0.5, impact_height_m=1.0)
    assert not landed.reachable
    assert landed.available_s == pytest.approx(-0.1)
    in_time = feasibility("CATCH", (0.4, 0.0), freeze, 0.7, 1.5, impact_height_m=1.0)
    assert in_time.reachable
    far = feasibility("CATCH", (3.0, 0.0), freeze, 0.7, 1.5, impact_height_m=1.0)  # 2.45 m to walk in 0.9 s
    assert not far.reachable
    on_the_floor = feasibility("CATCH", (0.4, 0.0), freeze, 2.0, 2.5, impact_height_m=0.15)
    assert not on_the_floor.reachable
    assert "below" in on_the_floor.reason
    assert feasibility("DODGE", (0.3, 0.0), freeze, 0.5, 0.7).reachable is False  # lands 0.1 s after the freeze
    assert feasibility("DODGE", (0.3, 0.0), freeze, 1.2, 1.8).reachable
    assert feasibility("NO_ACTION", None, freeze, None, None).reachable


DT_S = 1 / 240


def _path(start, velocity, t_end_s=3.0, gravity=True, floor_z=0.0):
    """One point of an object flying from `start` (robot frame, at the event's start) until it lands."""
    t = np.arange(0.0, t_end_s, DT_S)
    g = 9.81 if gravity else 0.0
    pts = np.asarray(start)[None, :] + np.outer(t, velocity) - np.outer(0.5 * g * t**2, (0.0, 0.0, 1.0))
    pts[:, 2] = np.maximum(pts[:, 2], floor_z)
    return pts[:, None, :], np.zeros(1), t


def test_path_verdict_catches_where_and_when_the_hands_can_meet_the_path():
    freeze = 0.6
    # tossed up in front of the chest, back at chest height when the arms have risen: met then
    env = BodyEnvelope()
    rise_s = freeze + env.arm_travel_s
    pts, r, t = _path((0.4, 0.0, 0.9), (0.0, 0.0, 0.5 * 9.81 * rise_s))
    v = path_verdict("CATCH", pts, r, t, freeze)
    assert v.reachable
    assert v.intercept_time_s == pytest.approx(rise_s, abs=DT_S)
    assert env.lowest_hand_m <= v.intercept_point_robot[2] <= env.highest_hand_m
    dropped = path_verdict("CATCH", *_path((0.4, 0.0, 1.2), (0.0, 0.0, 0.0)), freeze)  # on the floor at 0.49 s
    assert not dropped.reachable
    # tossed high 0.7 m away: the walk brings it within reach before it comes down; 4 m away it does not
    walk_s = env.walk_lag_s + (0.7 - env.arm_reach_m) / env.walk_speed_mps
    near = path_verdict("CATCH", *_path((0.7, 0.0, 1.0), (0.0, 0.0, 8.0)), freeze)
    assert near.reachable
    assert near.intercept_time_s >= freeze + walk_s
    assert near.intercept_point_robot[2] <= env.highest_hand_m  # met on the way down, at a height hands go to
    assert not path_verdict("CATCH", *_path((4.0, 0.0, 1.0), (0.0, 0.0, 8.0)), freeze).reachable


def test_a_catch_is_beyond_the_body_when_the_object_strikes_it_before_the_hands_can_meet_it():
    freeze = 0.6
    # chest-high, at 1 m/s straight at the robot from 1.2 m: in the torso 0.9 s after the start, before the arms
    # have risen; its later points behind the robot are within the hands' radius, but it has struck by then
    into_the_chest = path_verdict("CATCH", *_path((1.2, 0.0, 1.0), (-1.0, 0.0, 0.0), gravity=False), freeze)
    assert not into_the_chest.reachable
    assert "strikes the body" in into_the_chest.reason
    # the same speed 0.4 m to the side passes the body: met on its way past
    past = path_verdict("CATCH", *_path((1.2, 0.4, 1.0), (-1.0, 0.0, 0.0), gravity=False), freeze)
    assert past.reachable
    assert past.intercept_time_s >= freeze + BodyEnvelope().arm_travel_s


def test_a_catch_waits_where_the_object_comes_to_the_hands_rather_than_stepping_to_meet_it_earlier():
    """A ball rolling at the robot along a table at chest height: a step would meet it about 2 s after the start,
    but it comes within the arms' own reach a second later. The hands wait for it (a step could run the body
    into the table the ball rolls on)."""
    freeze, env = 0.6, BodyEnvelope()
    v = path_verdict("CATCH", *_path((2.0, 0.0, 0.95), (-0.5, 0.0, 0.0), t_end_s=4.0, gravity=False), freeze)
    assert v.reachable
    assert v.intercept_point_robot[0] == pytest.approx(env.reach_m(0.95), abs=0.01)  # at arm's length, no step
    assert v.intercept_time_s == pytest.approx((2.0 - env.reach_m(0.95)) / 0.5, abs=2 * DT_S)
    # heading past 1.2 m to the side, the arms alone never reach it: a step does, at the first point it can
    past = path_verdict("CATCH", *_path((2.0, 1.2, 0.95), (-0.5, 0.0, 0.0), t_end_s=4.0, gravity=False), freeze)
    assert past.reachable
    assert math.hypot(*past.intercept_point_robot[:2]) > env.reach_m(0.95)


def test_walks_stop_at_the_furniture_in_their_way():
    """A catch a step forward would reach is beyond the body when a table stands right in front; a dodge whose
    clearing steps are all walled off is too."""
    freeze = 0.6

    def table_ahead(ux, uy):  # the table's edge 5 cm ahead: no step forward, the floor free elsewhere
        return np.where(np.asarray(ux) > 0.5, 0.05, np.inf)

    tossed = _path((0.7, 0.0, 1.0), (0.0, 0.0, 8.0))  # reachable with a step forward (the test above)
    assert path_verdict("CATCH", *tossed, freeze).reachable
    assert not path_verdict("CATCH", *tossed, freeze, room=table_ahead).reachable
    rolling = _path((2.5, 0.0, 0.1), (-1.0, 0.0, 0.0), 6.0, gravity=False)  # cleared by a step (the test below)
    assert path_verdict("DODGE", *rolling, freeze).reachable
    assert not path_verdict(
        "DODGE", *rolling, freeze, room=lambda ux, uy: np.zeros_like(np.asarray(ux, float))
    ).reachable


def test_path_verdict_dodges_by_the_step_that_keeps_the_body_off_the_path():
    freeze = 0.6
    # falls onto the head during the window: no step can help
    assert not path_verdict("DODGE", *_path((0.0, 0.0, 2.5), (0.0, 0.0, 0.0)), freeze).reachable
    # dropped from 18 m, it passes head height 1.27 s after the freeze, when a step back has cleared the torso
    env = BodyEnvelope()
    assert env.walk_speed_mps * (1.27 - env.walk_lag_s) > env.torso_radius_m + env.dodge_margin_m
    high = path_verdict("DODGE", *_path((0.0, 0.0, 18.0), (0.0, 0.0, 0.0)), freeze)
    assert high.reachable
    assert high.clear_step_robot != (0.0, 0.0)
    # from 12 m it passes 0.45 s sooner: the same step is still under it
    assert not path_verdict("DODGE", *_path((0.0, 0.0, 12.0), (0.0, 0.0, 0.0)), freeze).reachable
    # rolls along the floor at the robot from straight ahead, arriving 1.65 s after the freeze: a back
    # step does not clear a path along x (it follows the robot), a sideways one does
    rolling = path_verdict("DODGE", *_path((2.5, 0.0, 0.1), (-1.0, 0.0, 0.0), 6.0, gravity=False), freeze)
    assert rolling.reachable
    assert rolling.clear_step_robot[1] != 0.0
    # passes 1 m to the left: nothing comes near, any step is clear
    wide = path_verdict("DODGE", *_path((1.6, 1.0, 0.1), (-1.0, 0.0, 0.0), gravity=False), freeze)
    assert wide.reachable
    assert "clears" in wide.reason


def _row(scene, model, action, family, caught, struck, unreachable=False):
    return DecisionRecord(
        scene_id=scene,
        family=family,
        model=model,
        object="ball",
        correct_action=action,
        action=action,
        saa=1,
        safe=1,
        caught=caught,
        struck=struck,
        fell=False,
        extras={"physically_unreachable": unreachable},
    )


def test_outcome_tables_share_catches_held_and_dodges_clear_per_action_and_family():
    rows = [
        _row("a", "m", "CATCH", "object_drop", True, False),
        _row("b", "m", "CATCH", "rolling_ball", False, True),
        _row("c", "m", "DODGE", "object_drop", False, False),
        _row("d", "m", "DODGE", "ladder_slip", False, True),
        _row("e", "m", "DODGE", "ladder_slip", False, True, unreachable=True),
    ]  # left out
    d = select_decisions(rows)
    by_action = outcomes_by_action_table(d)
    catch = next(r for r in by_action.rows if r[1] == "CATCH")
    dodge = next(r for r in by_action.rows if r[1] == "DODGE")
    col = by_action.columns.index
    assert catch[col("executed")] == 2
    assert catch[col("catches held")] == 0.5
    assert catch[col("dodges clear")] is None
    assert dodge[col("executed")] == 2
    assert dodge[col("dodges clear")] == 0.5
    assert dodge[col("struck")] == 0.5
    by_family = outcomes_by_family_table(d)
    ladder = next(r for r in by_family.rows if r[1] == "ladder_slip")
    assert ladder[by_family.columns.index("executed")] == 1
    assert ladder[by_family.columns.index("dodges clear")] == 0.0


def test_bench_tracking_rows_judge_each_plan_against_its_goal():
    from reacthuman.perf.cli import SECTIONS
    from reacthuman.perf.table import rows

    case = dict(
        name="reach",
        walking=False,
        hand_error_m=[0.03, 0.02],
        hand_error_held_m=[0.01, 0.01],
        displacement_error_rel=None,
        yaw_commanded_rad=0.0,
        yaw_change_rad=0.05,
        min_pelvis_m=0.75,
        fell=False,
    )
    walk = dict(case, name="walk", walking=True, hand_error_m=[], hand_error_held_m=[], displacement_error_rel=0.25)
    section = {
        "cases": [case, walk],
        "summary": {"goals": {"hand_standing_m": 0.05, "hand_walking_m": 0.10, "displacement_rel": 0.10, "falls": 0}},
    }
    report = {name: {"skipped": "not in --sections"} for name in SECTIONS}
    report["tracking"] = section
    out = {r.stage: r for r in rows(report) if r.section == "tracking"}
    assert out["reach"].verdict == "meets goal"
    assert "hands 3.0 cm" in out["reach"].measured
    assert out["walk"].verdict == "misses goal"
    assert "displacement off 25%" in out["walk"].measured
