"""The spine driving the G1 in Genesis (dt = 1/240, PD torques every physics step): standing, walking,
turning, arms. One scene for the module; the robot is put back at its start pose before each test."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from reacthuman.spine.spine import Spine, default_config
from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M, Keyframe, Plan

from spine_harness import G1Harness


@pytest.fixture(scope="module")
def sim() -> G1Harness:
    harness = G1Harness()
    yield harness
    harness.engine.close()


@pytest.fixture(scope="module")
def spine() -> Spine:
    return Spine(default_config())


def walk(vx: float, vy: float, yaw_rate: float, duration_s: float, keyframes: tuple[Keyframe, ...] = ()) -> Plan:
    return Plan("test", "test", 1.0, (vx, vy, yaw_rate), duration_s, keyframes=keyframes)


def run(sim: G1Harness, spine: Spine, plan: Plan | None, duration_s: float):
    sim.reset()
    spine.reset(plan)
    trace = sim.run(spine.command, duration_s)
    assert spine.status().fault is None
    return trace


def test_stands_three_seconds_with_zero_command(sim, spine):
    trace = run(sim, spine, None, 3.0)
    assert not trace.fell
    assert abs(trace.min_pelvis_z_m - sim.nominal_pelvis_z_m) < 0.05
    assert abs(trace.max_pelvis_z_m - sim.nominal_pelvis_z_m) < 0.05
    assert math.hypot(trace.forward_m, trace.left_m) < 0.1


def test_walks_forward_half_a_metre_per_second(sim, spine):
    trace = run(sim, spine, walk(0.5, 0.0, 0.0, 6.0), 6.0)
    assert not trace.fell
    assert trace.forward_m >= 1.8


def test_walks_backwards_and_turns_the_right_way(sim, spine):
    back = run(sim, spine, walk(-0.3, 0.0, 0.0, 3.0), 3.0)
    assert not back.fell
    assert back.forward_m < -0.3
    left_turn = run(sim, spine, walk(0.0, 0.0, 0.5, 3.0), 3.0)
    assert not left_turn.fell
    assert left_turn.yaw_change_rad > 0.5
    right_turn = run(sim, spine, walk(0.0, 0.0, -0.5, 3.0), 3.0)
    assert not right_turn.fell
    assert right_turn.yaw_change_rad < -0.5


def test_hands_raised_forward_while_walking_does_not_fall(sim, spine):
    raised = (Keyframe(1.0, (0.25, 0.0, 0.3), (0.25, 0.0, 0.3)),)
    trace = run(sim, spine, walk(0.5, 0.0, 0.0, 5.0, raised), 5.0)
    assert not trace.fell
    assert trace.forward_m > 1.0
    assert trace.min_pelvis_z_m > sim.nominal_pelvis_z_m - 0.1


def test_reachable_hand_targets_reached_within_5cm(sim, spine):
    offsets = ((0.2, 0.0, 0.25), (0.15, -0.05, 0.1))
    # held for catch_duration (2 s) after the keyframe, then the hands would return to rest
    plan = dataclasses.replace(walk(0.0, 0.0, 0.0, 0.0, (Keyframe(1.0, offsets[0], offsets[1]),)), catch_duration_s=2.0)
    sim.reset()
    spine.reset(plan)
    assert spine.status().reach_clamps == ()
    sim.run(spine.command, 2.0)
    errors = []
    for _ in range(6):  # sampled over the next half second of holding
        sim.run(spine.command, 0.1)
        left, right = sim.hands_robot()
        errors.append(
            (
                np.linalg.norm(left - np.add(REST_LEFT_HAND_M, offsets[0])),
                np.linalg.norm(right - np.add(REST_RIGHT_HAND_M, offsets[1])),
            )
        )
    assert max(max(e) for e in errors) < 0.05, errors
