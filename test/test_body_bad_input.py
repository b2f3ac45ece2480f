"""Bad input to the body: plans for another scene, late plans, NaN joint commands, invalid specs. The rules
are engine-independent (freeze.py, body.py), so these run in MuJoCo, the cheaper engine to build."""

from __future__ import annotations

import logging
import math
from dataclasses import replace

import pytest

from reacthuman.spine.spine import Spine
from reacthuman.spine.joint_command import JointCommand
from reacthuman.plan.plan import Plan
from reacthuman.scenes.spec import BodySpec, GeomSpec, SpecError
from reacthuman.sim_bridge.body import Body, default_config
from reacthuman.evaluation.episode import run_plan_episode
from reacthuman.sim_bridge.freeze import FreezeConfig, GateState, Phase, PhaseError, Verdict
from reacthuman.spine.g1_assets import G1_JOINT_NAMES
from reacthuman.sim_bridge.probes import heavy_overhead_probe

STAND = Plan("box", "stand", 0.5, (0.0, 0.0, 0.0), 0.0)


@pytest.fixture(scope="module")
def body():
    b = Body(
        default_config(
            engine="mujoco",
            frame_count=2,
            frame_width_px=64,
            frame_height_px=48,
            horizon_s=1.0,
            freeze=FreezeConfig(plan_timeout_s=0.2),
        )
    )
    yield b
    b.close()


def test_plan_for_another_scene_is_ignored_and_logged(body, caplog):
    with caplog.at_level(logging.WARNING):
        result = run_plan_episode(body, heavy_overhead_probe(), STAND, plan_scene_id="some_other_scene")
    assert result.verdict is Verdict.WRONG_SCENE
    assert "some_other_scene" in caplog.text
    o = result.outcome
    assert not o.plan_received
    assert not o.plan_executed
    assert o.wrong_scene_plans == ("some_other_scene",)


def test_time_stays_frozen_until_a_plan_or_the_timeout(body):
    spine = Spine()
    spine.reset(None)
    body.load(heavy_overhead_probe())
    body.simulate_window(spine.command, now_s=1000.0)
    frozen_at = body.sim_time_s
    with pytest.raises(PhaseError, match="frozen"):
        body.begin_execution(spine.command)
    assert body.sim_time_s == frozen_at
    assert body.phase is Phase.FROZEN
    assert body.poll(now_s=1000.1) is GateState.WAITING
    assert body.poll(now_s=1000.3) is GateState.TIMED_OUT


def test_plan_after_the_timeout_is_recorded_late_and_not_executed(body):
    spine = Spine()
    spine.reset(None)
    body.load(heavy_overhead_probe())
    body.simulate_window(spine.command, now_s=0.0)
    assert body.poll(now_s=5.0) is GateState.TIMED_OUT
    assert body.offer_plan(body.spec.scene_id, now_s=6.0) is Verdict.LATE
    o = body.execute(spine.command)  # the spine was never given the plan: it stands
    assert o.plan_late
    assert not o.plan_received
    assert not o.plan_executed


def test_nan_joint_command_is_a_controller_fault(body):
    spine = Spine()
    spine.reset(None)
    body.load(heavy_overhead_probe())
    body.simulate_window(spine.command, now_s=0.0)
    body.offer_plan(body.spec.scene_id, now_s=0.0)
    n = len(G1_JOINT_NAMES)

    def nan_source(t_s, state):
        # what a body node does with a received message: build the command, which refuses NaN
        return JointCommand(G1_JOINT_NAMES, (math.nan,) * n, (0.0,) * n, (10.0,) * n, (1.0,) * n, (0.0,) * n)

    start = body.sim_time_s
    o = body.execute(nan_source)
    assert o.controller_fault is not None
    assert "NaN" in o.controller_fault
    assert not o.plan_executed
    assert body.sim_time_s == start  # rejected before a single step ran on it


def test_command_for_other_joints_is_a_controller_fault(body):
    spine = Spine()
    spine.reset(None)
    body.load(heavy_overhead_probe())
    body.simulate_window(spine.command, now_s=0.0)
    body.offer_plan(body.spec.scene_id, now_s=0.0)
    o = body.execute(lambda t, s: JointCommand(("elbow",), (0.0,), (0.0,), (1.0,), (0.0,), (0.0,)))
    assert o.controller_fault is not None
    assert "names" in o.controller_fault


def test_invalid_spec_is_refused_before_simulation(body):
    good = heavy_overhead_probe()
    before = body.spec
    clash = replace(
        good, bodies=good.bodies + (BodySpec("pelvis", (5.0, 5.0, 0.5), (GeomSpec("box", (0.1, 0.1, 0.1)),)),)
    )
    with pytest.raises(SpecError, match="pelvis"):
        body.load(clash)
    broken = replace(good)
    object.__setattr__(broken, "observation_window_s", -1.0)  # a spec corrupted after its own validation
    with pytest.raises(SpecError, match="observation_window_s"):
        body.load(broken)
    with pytest.raises(SpecError, match="dt_s"):
        body.load(replace(good, dt_s=0.01))
    assert body.spec is before  # nothing was loaded or built


def test_snapshot_carries_what_the_body_publishes(body):
    spine = Spine()
    spine.reset(None)
    body.load(heavy_overhead_probe())
    body.simulate_window(spine.command, now_s=0.0)
    snap = body.snapshot()
    assert snap.sim_time_s == pytest.approx(0.3)
    assert snap.joint_names == G1_JOINT_NAMES
    assert len(snap.robot.q) == len(G1_JOINT_NAMES)
    assert snap.robot.stamp_s == snap.sim_time_s
    assert set(snap.hazards) == {"hazard"}
    assert snap.hazards["hazard"].lin_vel_mps[2] < -2.0  # falling
    assert 9.0 < snap.imu_accel_mps2[2] < 10.6
    assert abs(snap.imu_projected_gravity[2] + 1.0) < 0.01  # standing
    assert snap.left_hand_m[1] > 0.1 > -0.1 > snap.right_hand_m[1]  # facing +x: left hand at +y
