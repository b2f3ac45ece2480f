"""The spine's ROS-free core without a simulator: policy I/O, IK, hand paths, safety behaviour."""

from __future__ import annotations

import dataclasses

import math

import numpy as np
import pytest

from reacthuman.spine.arm_ik import ArmIK
from reacthuman.spine.hand_path import build_hand_path
from reacthuman.spine.locomotion import LocomotionPolicy, VelocityCommand
from reacthuman.spine.robot_state import RobotState
from reacthuman.spine.spine import Spine, default_config
from reacthuman.spine.watchdog import CommandWatchdog, WatchdogConfig
from reacthuman.spine.joint_command import JointCommand, Mode
from reacthuman.plan.plan import REST_LEFT_HAND_M, Keyframe, Plan
from reacthuman.spine.g1_assets import G1_JOINT_NAMES, default_pose_geometry, read_policy_metadata


@pytest.fixture(scope="module")
def meta():
    return read_policy_metadata()


@pytest.fixture(scope="module")
def spine():
    return Spine(default_config())


def standing_state(meta, stamp_s: float = 0.0, **kw) -> RobotState:
    return RobotState(q=meta.default_pose_rad, dq=(0.0,) * 29, stamp_s=stamp_s, **kw)


def walk_plan(vx: float = 0.5, duration_s: float = 2.0, keyframes: tuple[Keyframe, ...] = ()) -> Plan:
    return Plan("ball", "catch", 0.8, (vx, 0.0, 0.0), duration_s, keyframes=keyframes)


def test_robot_state_projected_gravity_and_validation():
    upright = RobotState(q=(0.0,) * 29, dq=(0.0,) * 29)
    assert upright.projected_gravity() == pytest.approx((0.0, 0.0, -1.0))
    half = math.sqrt(0.5)  # pitched 90 deg nose-down about y: gravity points along body +x
    pitched = RobotState(q=(0.0,) * 29, dq=(0.0,) * 29, base_quat_wxyz=(half, 0.0, half, 0.0))
    assert pitched.projected_gravity() == pytest.approx((1.0, 0.0, 0.0), abs=1e-9)
    with pytest.raises(ValueError, match="RobotState.q"):
        RobotState(q=(0.0,) * 28, dq=(0.0,) * 29)
    with pytest.raises(ValueError, match="NaN"):
        RobotState(q=(math.nan,) + (0.0,) * 28, dq=(0.0,) * 29)


def test_observation_layout_follows_metadata(meta):
    policy = LocomotionPolicy(1 / 48, meta)
    state = RobotState(
        q=tuple(d + 0.1 for d in meta.default_pose_rad), dq=(2.0,) * 29, base_ang_vel_body=(4.0, 0.0, 0.0)
    )
    obs = policy.observation(state, VelocityCommand(0.3, -0.2, 0.1))[0]
    assert obs.shape == (meta.obs_size,)
    offsets, start = {}, 0
    for term in meta.obs_terms:
        offsets[term] = slice(start, start + meta.obs_dims[term])
        start += meta.obs_dims[term]
    assert obs[offsets["base_ang_vel"]][0] == pytest.approx(4.0 * meta.obs_scales["base_ang_vel"])
    assert obs[offsets["command_lin_vel"]] == pytest.approx([0.3, -0.2])
    assert obs[offsets["dof_pos"]] == pytest.approx([0.1] * 29, abs=1e-6)
    assert obs[offsets["dof_vel"]] == pytest.approx([2.0 * meta.obs_scales["dof_vel"]] * 29)
    assert obs[offsets["projected_gravity"]] == pytest.approx([0.0, 0.0, -1.0])


def test_phase_clock_stands_and_restarts(meta):
    policy = LocomotionPolicy(1 / 48, meta)
    state = standing_state(meta)
    policy.step(state, VelocityCommand(0.0, 0.0, 0.0))
    assert policy.phase == pytest.approx([math.pi, math.pi])
    policy.step(state, VelocityCommand(0.5, 0.0, 0.0))
    assert policy.phase == pytest.approx([0.0, math.pi])
    for _ in range(47):
        policy.step(state, VelocityCommand(0.5, 0.0, 0.0))
    # 48 ticks at 48 Hz: one gait period, back where it started (mod 2 pi)
    assert abs(math.remainder(policy.phase[0] - 2 * math.pi * 47 / 48, 2 * math.pi)) < 1e-9


def test_command_clipped_to_metadata_ranges(meta):
    policy = LocomotionPolicy(1 / 48, meta)
    clipped = policy.clip_command(VelocityCommand(5.0, -5.0, 9.0))
    assert clipped.vx_mps == meta.command_ranges["lin_vel_x"][1]
    assert clipped.vy_mps == meta.command_ranges["lin_vel_y"][0]
    assert clipped.yaw_rate_radps == meta.command_ranges["ang_vel_yaw"][1]


def test_ik_reaches_reachable_target_and_respects_limits():
    ik = ArmIK()
    geo = default_pose_geometry()
    ik.set_posture(ik.default_pose, (1.0, 0.0, 0.0, 0.0))
    left, right = ik.hand_positions()
    assert left == pytest.approx(geo.left_hand_m, abs=2e-3)
    target_l = (left[0] + 0.2, left[1], left[2] + 0.2)
    target_r = (right[0] + 0.15, right[1] + 0.05, right[2] + 0.1)
    sol = ik.solve(target_l, target_r)
    assert sol.left_error_m < 0.005
    assert sol.right_error_m < 0.005
    assert math.dist(sol.left_m, target_l) < 0.005
    far = ik.solve((3.0, 0.2, 0.8), None)
    q = np.asarray(far.q)
    assert far.left_error_m > 2.0
    assert np.all(q >= ik.limits[:, 0] - 1e-9)
    assert np.all(q <= ik.limits[:, 1] + 1e-9)
    assert any(abs(t) > 0.1 for t in far.gravity_tau)  # raised arms get gravity compensation


def test_hand_path_interpolates_and_records_clamps():
    ik = ArmIK()
    plan = dataclasses.replace(
        walk_plan(
            keyframes=(Keyframe(1.0, (0.2, 0.0, 0.2), (0.2, 0.0, 0.2)), Keyframe(2.0, (2.0, 0.0, 0.0), (0.2, 0.0, 0.2)))
        ),
        catch_duration_s=1.5,
    )
    path = build_hand_path(plan, ik, reach_tolerance_m=0.02, release_s=0.5)
    # catch_duration 1.5 s: held at the last keyframe until 3.5 s, back at rest 0.5 s later
    assert path.times_s == (0.0, 1.0, 2.0, 3.5, 4.0)
    assert path.targets_at(0.0)[0] == REST_LEFT_HAND_M
    mid = path.targets_at(0.5)[0]
    assert mid == pytest.approx(tuple(r + 0.1 * s for r, s in zip(REST_LEFT_HAND_M, (1, 0, 1))))
    assert [(c.keyframe_index, c.side) for c in path.clamps] == [(1, "left")]
    clamp = path.clamps[0]
    assert clamp.distance_m > 1.0
    assert path.targets_at(3.4)[0] == clamp.reachable_m
    assert path.targets_at(4.0)[0] == REST_LEFT_HAND_M
    assert build_hand_path(walk_plan(), ik, 0.02) is None


def test_spine_starts_damped_then_runs_policy_at_control_rate(spine, meta):
    spine.damp()
    cmd = spine.command(0.0, standing_state(meta))
    assert cmd.mode == Mode.DAMPING
    assert all(k == 0 for k in cmd.kp)
    assert all(k > 0 for k in cmd.kd)
    spine.reset(walk_plan())
    dt = spine.config.physics_dt_s
    first = spine.command(0.0, standing_state(meta, 0.0))
    assert first.mode == Mode.ACTIVE
    assert first.kp == tuple(meta.kp)
    assert first.names == G1_JOINT_NAMES
    # between policy ticks the same command is returned; the next tick comes after policy_decimation steps
    same = [spine.command(k * dt, standing_state(meta, k * dt)) for k in range(1, spine.config.policy_decimation)]
    assert all(c is first for c in same)
    nxt = spine.command(spine.config.policy_decimation * dt, standing_state(meta, spine.config.policy_decimation * dt))
    assert nxt is not first
    assert spine.status().walking


def test_spine_output_is_deterministic(spine, meta):
    def run() -> list[tuple[float, ...]]:
        spine.reset(walk_plan(keyframes=(Keyframe(0.5, (0.2, 0.0, 0.2), (0.1, 0.0, 0.1)),)))
        return [spine.command(k / 48, standing_state(meta, k / 48)).q for k in range(30)]

    assert run() == run()


def test_either_walking_policy_of_the_package_drives_the_spine_and_a_wrong_name_is_refused_by_field(meta):
    def walk(name: str) -> list[tuple[float, ...]]:
        spine = Spine(default_config(walking_policy=name))
        spine.reset(walk_plan())
        return [spine.command(k / 48, standing_state(meta, k / 48)).q for k in range(10)]

    ppo, fastsac = walk("ppo_g1_29dof"), walk("fastsac_g1_29dof")
    assert len(fastsac[-1]) == len(G1_JOINT_NAMES)
    assert all(map(math.isfinite, fastsac[-1]))
    assert ppo != fastsac  # another network answers
    with pytest.raises(ValueError, match="SpineConfig.walking_policy must be one of"):
        default_config(walking_policy="ppo")


def test_stale_state_drops_to_damping_until_reset(spine, meta):
    spine.reset(None)
    assert spine.command(1.0, standing_state(meta, 1.0)).mode == Mode.ACTIVE
    late = spine.command(1.5, standing_state(meta, 1.0))
    assert late.mode == Mode.DAMPING
    assert "stale" in spine.status().fault
    assert spine.command(1.6, standing_state(meta, 1.6)).mode == Mode.DAMPING  # latched
    spine.reset(None)
    assert spine.command(1.7, standing_state(meta, 1.7)).mode == Mode.ACTIVE
    assert spine.status().fault is None


def test_nan_plan_is_rejected_as_fault(spine, meta):
    plan = walk_plan(vx=0.5)
    object.__setattr__(plan, "walking_cmd", (math.nan, 0.0, 0.0))  # as a plan decoded without validation
    spine.reset(plan)
    status = spine.status()
    assert status.fault is not None
    assert "NaN" in status.fault
    cmd = spine.command(0.0, standing_state(meta))
    assert cmd.mode == Mode.ACTIVE
    assert not spine.status().walking
    assert all(math.isfinite(v) for v in cmd.q)
    spine.reset(walk_plan())
    with pytest.raises(ValueError) as undecodable:
        walk_plan(vx=math.inf)
    spine.reject_plan(str(undecodable.value))
    assert "NaN or infinite" in spine.status().fault
    assert spine.status().plan_time_s is None


def test_joint_targets_clamped_to_limits_and_knee_bend_folds_the_legs(spine, meta):
    plan = walk_plan(keyframes=(Keyframe(0.0, (5.0, 5.0, 5.0), (-5.0, -5.0, -5.0), knee_bend=0.3),))
    spine.reset(dataclasses.replace(plan, catch_duration_s=2.0))
    status = spine.status()
    assert {c.side for c in status.reach_clamps} == {"left", "right"}
    low, high = spine.ik.limits[:, 0], spine.ik.limits[:, 1]
    for k in range(10):
        cmd = spine.command(k / 48, standing_state(meta, k / 48))
        assert np.all(np.asarray(cmd.q) >= low)
        assert np.all(np.asarray(cmd.q) <= high)
    # knee_bend 0.3 asks past the measured range: clamped to crouch_max_rad
    assert spine.status().crouch_rad == pytest.approx(spine.config.crouch_max_rad)
    straight = Spine(default_config())
    straight.reset(walk_plan())
    knee = G1_JOINT_NAMES.index("left_knee_joint")
    bent_q, straight_q = cmd.q[knee], straight.command(0.0, standing_state(meta)).q[knee]
    assert bent_q - straight_q > spine.config.crouch_max_rad  # folded by about 2a (the policy adds its own)


def test_watchdog_damps_before_and_after_a_stream():
    names = G1_JOINT_NAMES
    dog = CommandWatchdog(names, WatchdogConfig(timeout_s=0.05))
    q = (0.1,) * 29
    assert dog.apply(0.0, q).mode == Mode.DAMPING
    cmd = JointCommand(names, (0.2,) * 29, (0.0,) * 29, (10.0,) * 29, (1.0,) * 29, (0.0,) * 29)
    dog.receive(cmd, 1.0)
    assert dog.apply(1.04, q) is cmd
    out = dog.apply(1.06, q)
    assert out.mode == Mode.DAMPING
    assert out.q == q
    assert dog.timeouts == 1
    assert dog.apply(1.07, q).mode == Mode.DAMPING


def test_stand_up_ramp_from_damping(meta):
    ramped = Spine(default_config(stand_up_ramp_s=0.5))
    limp = RobotState(q=(0.0,) * 29, dq=(0.0,) * 29, stamp_s=0.0)
    assert ramped.command(0.0, limp).mode == Mode.DAMPING
    ramped.reset(walk_plan())
    start = np.asarray(ramped.command(0.0, limp).q)
    assert np.allclose(start, np.clip(0.0, ramped.ik.limits[:, 0] + 0.01, ramped.ik.limits[:, 1] - 0.01))
    half = np.asarray(ramped.command(0.25, RobotState(q=(0.0,) * 29, dq=(0.0,) * 29, stamp_s=0.25)).q)
    assert np.allclose(half[3], 0.5 * meta.default_pose_rad[3], atol=0.02)  # knee halfway to its default
    assert ramped.status().plan_time_s is None  # the plan starts after the ramp
