"""robot_bridge: stands in for the body on a real Unitree G1. Each LowState from the robot (rt/lowstate)
is republished as JointState + BaseState; the spine's JointCommand goes out as LowCmd through a watchdog,
so a silent command stream turns into damping LowCmds. Unitree SDK on CycloneDDS 0.10, robot domain 0.

Safety (docs/real-g1.md): robot on a gantry, damping first; the spine starts damped."""

from __future__ import annotations

import time

from geometry_msgs.msg import Pose, Quaternion, Vector3
from reacthuman_msgs.msg import BaseState
from sensor_msgs.msg import JointState

from reacthuman import ros_contract as graph
from reacthuman.spine.watchdog import CommandWatchdog, default_config as watchdog_config
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.runtime import ContractNode, run
from reacthuman.spine.g1_assets import BASE_BODY, G1_JOINT_NAMES
from reacthuman.sim_bridge.unitree_bridge import G1LowLevelLink, default_config as bridge_config


class RobotBridgeNode(ContractNode):
    def __init__(self) -> None:
        super().__init__("robot_bridge", {graph.JOINT_COMMAND: self._on_command})
        link = self.declare_config(
            bridge_config(),
            {
                "network_interface": "NIC wired to the G1 (e.g. enp3s0); lo for a simulator on loopback",
                "domain_id": "CycloneDDS domain of the robot (the G1 talks on 0)",
                "clock": "stamp states on arrival (receipt, the real robot) or by tick (a simulator)",
            },
            names={"domain_id": "dds_domain"},
        )
        watchdog = self.declare_config(
            watchdog_config(),
            {
                "timeout_s": "joint-command silence (s) after which the robot is damped",
            },
            names={"timeout_s": "command_timeout_s"},
        )
        self.watchdog = CommandWatchdog(G1_JOINT_NAMES, watchdog)
        self.link = G1LowLevelLink(link, on_state=self._on_state)

    def _on_command(self, msg) -> None:
        try:
            self.watchdog.receive(conv.joint_command_from_msg(msg), time.monotonic())
        except ValueError as exc:
            self.get_logger().error(f"joint command rejected: {exc}")

    def _on_state(self, state, tick: int) -> None:
        """On the DDS listener thread: republish the state, then send whatever the watchdog allows."""
        stamp = self.get_clock().now().to_msg()
        joints = JointState(name=list(G1_JOINT_NAMES), position=list(state.q), velocity=list(state.dq))
        joints.header.stamp = stamp  # no frame: joint positions are not spatial (ROS convention: empty)
        # No odometry: the position stays 0 and the orientation is the IMU's (gravity-aligned, its yaw drifts).
        base = BaseState(phase=graph.StatePhase.HARDWARE.value)
        base.header.stamp, base.header.frame_id = stamp, graph.WORLD_FRAME
        base.imu.header.stamp, base.imu.header.frame_id = stamp, BASE_BODY
        w, x, y, z = state.base_quat_wxyz
        base.pose = Pose(orientation=Quaternion(w=w, x=x, y=y, z=z))
        base.imu.orientation = base.pose.orientation
        base.imu.angular_velocity = Vector3(**dict(zip("xyz", state.base_ang_vel_body)))
        self.pub[graph.BASE_STATE].publish(base)
        self.pub[graph.JOINT_STATES].publish(joints)
        self.link.send(self.watchdog.apply(time.monotonic(), state.q))

    def destroy_node(self) -> None:
        self.link.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    return run(RobotBridgeNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
