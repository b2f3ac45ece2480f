"""The Unitree low-level DDS path (rt/lowcmd, rt/lowstate, unitree_hg + CRC) that would drive a real G1,
exercised with Genesis standing in for the robot on loopback, in a DDS domain of its own."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from reacthuman.spine.robot_state import RobotState
from reacthuman.spine.joint_command import JointCommand, Mode
from reacthuman.spine.g1_assets import G1_JOINT_NAMES
from reacthuman.spine.watchdog import CommandWatchdog
from reacthuman.sim_bridge import unitree_bridge
from reacthuman.sim_bridge.unitree_bridge import (
    joint_command_to_lowcmd,
    lowcmd_to_joint_command,
    lowstate_to_robot_state,
    robot_state_to_lowstate,
)

HARNESS = Path(__file__).with_name("spine_harness.py")


def test_joint_command_round_trips_through_lowcmd_with_crc():
    cmd = JointCommand(
        G1_JOINT_NAMES,
        tuple(0.01 * i for i in range(29)),
        (0.0,) * 29,
        (40.0,) * 29,
        (2.0,) * 29,
        tuple(-0.5 + 0.03 * i for i in range(29)),
    )
    msg = joint_command_to_lowcmd(cmd, mode_machine=5, echo_tick=1234)
    back = lowcmd_to_joint_command(msg, 0.0)
    assert back.q == pytest.approx(cmd.q, abs=1e-6)
    assert back.tau == pytest.approx(cmd.tau, abs=1e-6)
    assert back.kp == pytest.approx(cmd.kp)
    assert back.mode == Mode.ACTIVE
    assert msg.mode_machine == 5
    assert msg.reserve[0] == 1234
    assert all(m.mode == 0 for m in msg.motor_cmd[29:])
    msg.motor_cmd[3].q += 0.1  # a corrupted message fails its CRC, as on the robot
    with pytest.raises(ValueError, match="CRC"):
        lowcmd_to_joint_command(msg, 0.0)


class _EndpointMissingTheFirstState:
    """A test double of SimulatedG1Endpoint whose first LowState is lost (published before the controller's
    reader matched): only a state sent again is answered."""

    def __init__(self) -> None:
        self.published: list[int] = []

    def publish_state(self, state: RobotState, tick: int) -> None:
        self.published.append(tick)

    def wait_command_for(self, tick: int, timeout_s: float) -> JointCommand | None:
        answered = self.published.count(tick) >= 2 or (self.published and self.published[-1] != self.published[0])
        return (
            JointCommand(G1_JOINT_NAMES, (0.0,) * 29, (0.0,) * 29, (0.0,) * 29, (1.0,) * 29, (0.0,) * 29)
            if answered
            else None
        )


def test_the_first_lowstate_is_sent_again_until_answered_and_the_stream_then_locksteps(monkeypatch):
    monkeypatch.setattr(unitree_bridge, "FIRST_STATE_RESEND_S", 0.01)
    endpoint, applied = _EndpointMissingTheFirstState(), []
    state = RobotState(q=(0.0,) * 29, dq=(0.0,) * 29)
    missed = unitree_bridge.serve_simulated_robot(
        endpoint,
        CommandWatchdog(G1_JOINT_NAMES),
        3,
        1 / 240,
        lambda now: state,
        applied.append,
        lambda: None,
        lockstep_timeout_s=1.0,
    )
    assert missed == 0
    assert endpoint.published == [0, 0, 1, 2]
    assert len(applied) == 3


def test_robot_state_round_trips_through_lowstate():
    half = math.sqrt(0.5)
    state = RobotState(
        q=tuple(0.02 * i for i in range(29)),
        dq=(0.5,) * 29,
        base_quat_wxyz=(half, 0.0, 0.0, half),
        base_ang_vel_body=(0.1, -0.2, 0.3),
    )
    back = lowstate_to_robot_state(robot_state_to_lowstate(state, tick=7), stamp_s=1.0)
    assert back.q == pytest.approx(state.q, abs=1e-6)
    assert back.dq == pytest.approx(state.dq, abs=1e-6)
    assert back.base_quat_wxyz == pytest.approx(state.base_quat_wxyz, abs=1e-6)
    assert back.base_ang_vel_body == pytest.approx(state.base_ang_vel_body, abs=1e-6)
    assert back.yaw_rad() == pytest.approx(math.pi / 2, abs=1e-6)


def _side(side: str, domain: int, seconds: float, extra: list[str]) -> subprocess.Popen:
    env = dict(
        os.environ,
        OMP_NUM_THREADS="1",
        PYTHONPATH=os.pathsep.join([str(HARNESS.parents[1]), os.environ.get("PYTHONPATH", "")]),
    )
    return subprocess.Popen(
        [sys.executable, str(HARNESS), side, "--domain", str(domain), "--seconds", str(seconds), *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_spine_walks_the_g1_over_unitree_dds_loopback(tmp_path):
    """Two processes: Genesis as the robot (publishes LowState, applies LowCmd through the command watchdog)
    and the spine as the controller, lockstepped on the LowState tick. It stands, then walks forward; when
    the controller stops, the robot side drops to damping."""
    domain = random.Random(os.getpid()).randrange(100, 230)  # its own domain: parallel runs never mix
    seconds = 4.0
    plan = {"walking_cmd": [0.5, 0.0, 0.0], "walking_duration_s": 3.0}
    out = tmp_path / "sim.json"
    sim = _side("dds-sim", domain, seconds, ["--out", str(out), "--plan", json.dumps(plan)])
    spine = _side("dds-spine", domain, seconds, ["--plan", json.dumps(plan)])
    try:
        spine_out, spine_err = spine.communicate(timeout=900)
        sim_out, sim_err = sim.communicate(timeout=120)
    finally:
        for proc in (sim, spine):
            if proc.poll() is None:
                proc.kill()
    assert spine.returncode == 0, spine_err[-3000:]
    assert sim.returncode == 0, sim_err[-3000:]
    controller = json.loads(spine_out.strip().splitlines()[-1])
    result = json.loads(out.read_text())
    print("unitree dds loopback:", json.dumps(result))
    assert controller["fault"] is None
    assert controller["rejected"] == 0
    assert controller["sent"] == round(seconds * 240)  # every LowState answered
    assert result["missed"] == 0
    assert result["rejected"] == 0
    assert result["timeouts"] == 0
    assert result["modes"] == [int(Mode.ACTIVE)]
    # after the controller exits its stream stops; the robot side's watchdog drops to damping, once
    assert result["missed_after_stop"] == 60
    assert result["timeouts_after_stop"] == 1
    assert result["final_mode"] == int(Mode.DAMPING)
    assert result["min_pelvis_z_m"] > 0.6  # never fell
    assert result["forward_m"] > 0.9  # 0.5 m/s for 3 s, from standing
    # the same plan driven in-process, as over ROS topics: the same walk (LowCmd/LowState carry float32,
    # so the two runs are close, not bit-identical)
    reference = result["in_process"]
    assert not reference["fell"]
    assert abs(result["forward_m"] - reference["forward_m"]) < 0.25
    assert abs(result["left_m"] - reference["left_m"]) < 0.25
