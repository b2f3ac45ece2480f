"""The freeze-and-predict rules, the outcome tracker and the adapter's geometry, without a simulator or ROS."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from reacthuman.sim_bridge.engine import Contact
from reacthuman.sim_bridge.freeze import EpisodePhase, FreezeConfig, FreezeGate, GateState, Phase, PhaseError, Verdict
from reacthuman.sim_bridge.outcome import OutcomeConfig, OutcomeTracker, StepObservation


def gate(timeout_s: float = 10.0) -> FreezeGate:
    return FreezeGate("scene_a", FreezeConfig(plan_timeout_s=timeout_s), frozen_at_s=100.0)


def test_plan_for_this_scene_releases_the_freeze():
    g = gate()
    assert g.poll(105.0) is GateState.WAITING
    assert not g.released
    assert g.offer("scene_a", 106.5) is Verdict.ACCEPTED
    assert g.released
    assert g.record.plan_received
    assert not g.record.plan_late
    assert g.record.wait_s == pytest.approx(6.5)


def test_plan_for_another_scene_is_ignored_and_logged(caplog):
    g = gate()
    with caplog.at_level(logging.WARNING):
        assert g.offer("scene_b", 101.0) is Verdict.WRONG_SCENE
    assert "scene_b" in caplog.text
    assert "scene_a" in caplog.text
    assert not g.released
    assert g.record.wrong_scene_ids == ["scene_b"]
    assert not g.record.plan_received


def test_timeout_releases_without_a_plan_and_a_later_plan_is_late_not_executed():
    g = gate(timeout_s=10.0)
    assert g.poll(110.0) is GateState.WAITING  # exactly at the deadline: still waiting
    assert g.poll(110.01) is GateState.TIMED_OUT
    assert g.released
    assert g.record.timed_out
    assert not g.record.plan_received
    assert g.offer("scene_a", 112.0) is Verdict.LATE
    assert g.record.plan_late
    assert not g.record.plan_received
    assert g.record.late_by_s == pytest.approx(2.0)


def test_plan_after_deadline_is_late_even_before_a_poll():
    g = gate(timeout_s=1.0)
    assert g.offer("scene_a", 101.5) is Verdict.LATE
    assert g.state is GateState.TIMED_OUT
    assert g.record.plan_late


def test_second_plan_is_a_duplicate():
    g = gate()
    g.offer("scene_a", 101.0)
    assert g.offer("scene_a", 102.0) is Verdict.DUPLICATE
    assert g.record.duplicates == 1


def test_bad_timeout_is_refused_naming_the_field():
    with pytest.raises(ValueError, match="plan_timeout_s"):
        FreezeConfig(plan_timeout_s=0.0)


def test_episode_phases_run_in_order():
    p = EpisodePhase()
    with pytest.raises(PhaseError):
        p.advance(Phase.EXECUTING)
    for nxt in (Phase.LOADED, Phase.FROZEN, Phase.EXECUTING, Phase.DONE, Phase.LOADED):
        p.advance(nxt)
    with pytest.raises(PhaseError, match="LOADED"):
        p.require(Phase.FROZEN)


# --- the outcome tracker -----------------------------------------------------------------------------------
ROBOT = frozenset({"pelvis", "torso_link", "left_wrist_yaw_link", "right_wrist_yaw_link"})
HANDS = frozenset({"left_wrist_yaw_link", "right_wrist_yaw_link"})


def obs(
    t: float,
    hazard_z: float,
    contacts: list[Contact],
    speed: float = 1.0,
    base_z: float = 0.75,
    gravity=(0.0, 0.0, -1.0),
) -> StepObservation:
    return StepObservation(
        t_s=t,
        dt_s=0.01,
        left_hand_m=np.array([0.3, 0.2, 1.0]),
        right_hand_m=np.array([0.3, -0.2, 1.0]),
        hazard_pos_m={"hazard": np.array([0.3, 0.0, hazard_z])},
        hazard_speed_mps={"hazard": speed},
        hazard_ang_speed_radps={"hazard": 0.0},
        contacts=contacts,
        base_pos_m=np.array([0.0, 0.0, base_z]),
        projected_gravity=np.array(gravity),
    )


def tracker() -> OutcomeTracker:
    return OutcomeTracker(OutcomeConfig(), frozenset({"hazard"}), ROBOT, HANDS)


def links() -> np.ndarray:
    return np.array([[0.0, 0.0, 0.75], [1.0, 0.0, 1.0]])


def finish(tr: OutcomeTracker):
    return tr.outcome(
        scene_id="s",
        engine="test",
        controller_fault=None,
        plan_received=True,
        plan_late=False,
        plan_executed=True,
        wrong_scene_plans=(),
    )


def test_a_hand_touch_that_does_not_stop_it_is_deflected_and_distance_is_tracked():
    tr = tracker()
    tr.update(obs(0.0, 1.5, []), links)
    tr.update(obs(0.1, 1.0, [Contact("hazard", "left_wrist_yaw_link", (0.3, 0.1, 1.0), 5.0)]), links)
    tr.update(obs(0.2, 0.05, [Contact("world", "hazard", (0.5, 0.0, 0.0), 50.0)]), links)
    o = finish(tr)
    assert not o.caught
    assert o.deflected
    assert o.hand_contact
    assert o.catch_time_s == pytest.approx(0.1)
    assert not o.struck
    assert o.strike_link is None
    assert o.min_hand_object_distance_m == pytest.approx(np.hypot(0.2, 0.0))  # hand at y=±0.2, z=1.0
    assert o.min_distance_time_s == pytest.approx(0.1)
    assert o.reached_floor
    assert o.time_to_floor_s == pytest.approx(0.2)
    assert o.clearance_from_impact_m == pytest.approx(0.5)


def test_held_off_the_floor_in_the_hands_is_caught_and_rest_waits_for_the_verdict():
    tr = tracker()
    hold = [Contact("hazard", "right_wrist_yaw_link", (0.3, 0.0, 1.0), 5.0)]
    for k in range(8):  # touched at 0.0, held at rest in the hand until 0.7 s
        tr.update(obs(0.1 * k, 1.0, hold, speed=0.0), links)
        if k == 3:  # at rest for 0.3 s, but the hold (0.5 s) is not judged yet: the episode must go on
            assert not tr.at_rest(0.3)
    assert tr.at_rest(0.7)
    o = finish(tr)
    assert o.caught
    assert not o.deflected
    assert o.catch_time_s == pytest.approx(0.0)


def test_off_the_floor_but_no_longer_touching_an_arm_is_not_held():
    tr = tracker()
    tr.update(obs(0.0, 1.0, [Contact("hazard", "left_wrist_yaw_link", (0.3, 0.1, 1.0), 5.0)]), links)
    for k in range(1, 8):  # bounced up and away, still in the air at the hold time
        tr.update(obs(0.1 * k, 1.2, []), links)
    o = finish(tr)
    assert not o.caught
    assert o.deflected


def test_hand_contact_after_the_floor_is_no_catch():
    tr = tracker()
    tr.update(obs(0.0, 0.02, [Contact("hazard", "world", (0.3, 0.0, 0.0), 5.0)]), links)
    tr.update(obs(0.1, 0.1, [Contact("hazard", "right_wrist_yaw_link", (0.3, 0.0, 0.1), 5.0)]), links)
    o = finish(tr)
    assert not o.caught
    assert not o.hand_contact
    assert not o.deflected


def test_body_contact_is_a_strike_with_its_impulse_and_a_resting_load_is_not_counted():
    tr = tracker()
    tr.update(obs(0.0, 1.2, [Contact("torso_link", "hazard", (0.1, 0.0, 1.2), 300.0)]), links)
    tr.update(obs(0.05, 1.2, [Contact("torso_link", "hazard", (0.1, 0.0, 1.2), 100.0)]), links)
    tr.update(obs(0.5, 1.2, [Contact("torso_link", "hazard", (0.1, 0.0, 1.2), 20.0)]), links)  # past the window
    o = finish(tr)
    assert o.struck
    assert o.strike_link == "torso_link"
    assert o.strike_time_s == pytest.approx(0.0)
    assert o.strike_impulse_ns == pytest.approx(4.0)  # (300 + 100) N x 0.01 s


def test_fall_and_rest_are_detected():
    tr = tracker()
    tr.update(obs(0.0, 1.0, [], speed=0.0), links)
    assert not tr.at_rest(0.1)
    tr.update(obs(0.3, 1.0, [], speed=0.0, gravity=(-0.9, 0.0, -0.3)), links)
    assert tr.at_rest(0.3)
    o = finish(tr)
    assert o.fell
    assert o.fall_time_s == pytest.approx(0.3)
    assert not o.reached_floor
    assert o.clearance_from_impact_m is None


def test_quaternion_rotation_matches_the_rotation_matrix():
    from reacthuman.sim_bridge.engine import quat_rotate_inverse_wxyz, quat_rotate_wxyz

    rng = np.random.default_rng(7)
    for _ in range(50):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        w, x, y, z = q
        matrix = np.array(
            [
                [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
            ]
        )
        v = rng.normal(size=3)
        assert np.allclose(quat_rotate_wxyz(q, v), matrix @ v)
        assert np.allclose(quat_rotate_inverse_wxyz(q, v), matrix.T @ v)
