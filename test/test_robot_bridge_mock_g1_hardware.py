"""The hardware path without hardware: robot_bridge + spine launched as real nodes, talking Unitree's
low-level DDS (CycloneDDS, rt/lowstate, rt/lowcmd, CRC) on loopback to a stand-in for the physical G1 that
replays a standing state (the physical robot cannot run here, hence 'mock_g1_hardware' in the name)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from reacthuman_msgs.msg import SceneAnnouncement

from reacthuman import ros_contract as graph
from reacthuman.spine.robot_state import RobotState
from reacthuman.spine.joint_command import Mode
from reacthuman.nodes.runtime import LATCHED
from reacthuman.spine.g1_assets import G1_JOINT_NAMES, read_policy_metadata
from reacthuman.sim_bridge.unitree_bridge import SimulatedG1Endpoint, UnitreeBridgeConfig
from ros_helpers import GraphClient

ROOT = Path(__file__).resolve().parent.parent
TICK_S = 0.01


def _serve(robot: SimulatedG1Endpoint, state: RobotState, seconds: float, first_tick: int) -> list:
    seen, tick = [], first_tick
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        robot.publish_state(state, tick)
        tick += 1
        time.sleep(TICK_S)
        cmd = robot.latest_command()
        if cmd is not None:
            seen.append(cmd)
    return seen


def test_spine_drives_the_robot_side_through_lowcmd_damped_until_an_episode_starts(ros_domain_id):
    dds_domain = 150 + os.getpid() % 50
    robot = SimulatedG1Endpoint(UnitreeBridgeConfig(network_interface="lo", domain_id=dds_domain))
    launcher = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "reacthuman.cli",
            "launch",
            str(ROOT / "launch" / "robot.launch.yaml"),
            "--domain-id",
            str(ros_domain_id),
            "network_interface:=lo",
            f"dds_domain:={dds_domain}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    client = GraphClient(ros_domain_id, "hardware_test")
    standing = RobotState(q=read_policy_metadata().default_pose_rad, dq=(0.0,) * len(G1_JOINT_NAMES))
    try:
        assert client.wait_for(lambda: {"spine", "robot_bridge"} <= set(client.node.get_node_names()), 90)
        damped = _serve(robot, standing, 3.0, 0)
        assert damped, "no LowCmd reached the robot side"
        assert all(c.mode is Mode.DAMPING or max(c.kp) == 0.0 for c in damped)  # nothing drives before an episode
        assert damped[-1].names == G1_JOINT_NAMES
        pub = client.node.create_publisher(SceneAnnouncement, graph.SCENE, LATCHED)
        assert client.wait_for(lambda: pub.get_subscription_count() > 0, 30)
        pub.publish(SceneAnnouncement(scene_id="hardware-check"))
        client.wait_for(lambda: False, 0.5)
        active = _serve(robot, standing, 3.0, 1000)
        assert any(max(c.kp) > 0 for c in active), "the spine never drove the robot after the episode started"
        assert robot.commands_rejected == 0
    finally:
        client.close()
        launcher.terminate()
        out, _ = launcher.communicate(timeout=60)
        robot.close()
    assert launcher.returncode == 0, out
