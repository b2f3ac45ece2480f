"""The body's side of the lockstep with the spine: each control tick the body publishes the robot's state
(stamped with sim time) and blocks until the spine's JointCommand for exactly that stamp arrives. Between
ticks the previous command holds. Transport latency therefore changes wall time, never the simulation.

The BaseState's `phase` tells the spine which episode phase the tick belongs to (reacthuman.ros_contract.StatePhase):
in the window the robot stands; in execution it follows the plan, which the spine must hold before it
answers. Headers carry the frame of their data: world for the base, hands and hazards; none for joints.

A tick whose answer has not come within RESEND_S is published again, the same messages with the same stamp,
until the answer comes or `reply_timeout_s` has passed: the first tick of an episode can go out before the
spine's readers have matched the body's writers, or its answer before the body's reader has matched the
spine's writer (DDS discovery; a lost first command once held an episode for its whole timeout). The spine
answers a tick it has answered already with the same command, so a resent tick changes wall time only.
Past `reply_timeout_s` the lockstep is lost (LockstepLost): an infrastructure failure the body reports, never
a controller fault scored as the model's."""

from __future__ import annotations

import threading
import time

from geometry_msgs.msg import Pose, Quaternion, Twist, Vector3
from rosgraph_msgs.msg import Clock
from reacthuman_msgs.msg import BaseState, HandPositions, ObjectState
from sensor_msgs.msg import JointState

from reacthuman import ros_contract as graph
from reacthuman.evaluation.episode import is_control_tick, stamp_ns
from reacthuman.nodes import conversions as conv
from reacthuman.spine.g1_assets import BASE_BODY


RESEND_S = 2.0


class LockstepLost(RuntimeError):
    """The spine did not answer a tick within the reply timeout, resends included."""


def sim_stamp(t_s: float):
    ns = stamp_ns(t_s)
    clock = Clock()
    clock.clock.sec, clock.clock.nanosec = divmod(ns, 1_000_000_000)
    return clock.clock


class LockstepSource:
    def __init__(self, node, body, decimation: int, reply_timeout_s: float) -> None:
        self.node, self.body, self.decimation, self.reply_timeout_s = node, body, decimation, reply_timeout_s
        self.phase = graph.StatePhase.UNSET  # set by the body before each phase it simulates
        self.decision = 0  # the closed loop: the decision whose plan the ticks execute (BaseState.decision)
        self._reply = None
        self._want_ns = -1
        self._arrived = threading.Event()
        self.resent = 0  # ticks published again since the node started

    def on_command(self, msg) -> None:
        if conv.stamp_ns(msg.header.stamp) == self._want_ns:
            self._reply = msg
            self._arrived.set()

    def __call__(self, sim_time_s: float, state):
        if not is_control_tick(sim_time_s, self.body.engine.dt_s, self.decimation):
            return None
        stamp = sim_stamp(sim_time_s)
        self._want_ns, self._reply = conv.stamp_ns(stamp), None
        self._arrived.clear()
        self.publish_state(stamp)
        deadline_s = time.monotonic() + self.reply_timeout_s
        while not self._arrived.wait(max(0.0, min(RESEND_S, deadline_s - time.monotonic()))):
            if time.monotonic() >= deadline_s:
                raise LockstepLost(
                    f"no joint command from the spine within {self.reply_timeout_s:g} s at "
                    f"t={sim_time_s:.3f} s ({self.resent} ticks sent again so far)"
                )
            self.resent += 1
            self.node.get_logger().warning(
                f"tick t={sim_time_s:.3f} s sent again: no joint command for it within {RESEND_S:.0f} s"
            )
            self.publish_state(stamp)
        return conv.joint_command_from_msg(self._reply)

    def publish_state(self, stamp) -> None:
        snap, pub = self.body.snapshot(), self.node.pub
        pub[graph.CLOCK].publish(Clock(clock=stamp))
        joints = JointState(name=list(snap.joint_names), position=list(snap.robot.q), velocity=list(snap.robot.dq))
        joints.header.stamp = stamp  # no frame: joint positions are not spatial (ROS convention: empty)
        base = BaseState(phase=self.phase.value, decision=self.decision)
        base.header.stamp, base.header.frame_id = stamp, graph.WORLD_FRAME
        base.imu.header.stamp, base.imu.header.frame_id = stamp, BASE_BODY
        w, x, y, z = snap.robot.base_quat_wxyz
        base.pose = Pose(position=conv.point(snap.robot.base_pos_world), orientation=Quaternion(w=w, x=x, y=y, z=z))
        base.twist = Twist(linear=Vector3(**dict(zip("xyz", snap.robot.base_lin_vel_world))))
        base.imu.orientation = base.pose.orientation
        base.imu.angular_velocity = Vector3(**dict(zip("xyz", snap.robot.base_ang_vel_body)))
        hands = HandPositions(left=conv.point(snap.left_hand_m), right=conv.point(snap.right_hand_m))
        hands.header.stamp, hands.header.frame_id = stamp, graph.WORLD_FRAME
        for name, h in snap.hazards.items():
            hazard = ObjectState(name=name)
            hazard.header.stamp, hazard.header.frame_id = stamp, graph.WORLD_FRAME
            hazard.pose = Pose(
                position=conv.point(h.pos_m),
                orientation=Quaternion(
                    w=float(h.quat_wxyz[0]), x=float(h.quat_wxyz[1]), y=float(h.quat_wxyz[2]), z=float(h.quat_wxyz[3])
                ),
            )
            hazard.twist = Twist(
                linear=Vector3(**dict(zip("xyz", map(float, h.lin_vel_mps)))),
                angular=Vector3(**dict(zip("xyz", map(float, h.ang_vel_radps)))),
            )
            pub[graph.HAZARD_STATE].publish(hazard)
        pub[graph.HAND_POSITIONS].publish(hands)
        pub[graph.BASE_STATE].publish(base)
        pub[graph.JOINT_STATES].publish(joints)
