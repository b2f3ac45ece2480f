"""The spine node as a real process, in lockstep with a test standing in for the body: it answers each tick
(the JointState and BaseState of one stamp) by the phase that tick's BaseState declares. In execution of an
accepted plan it holds the tick until it has the scene's plan; a state that does not say its phase is never
answered."""

from __future__ import annotations

import os
import subprocess
import sys

from reacthuman_msgs.msg import BaseState, JointCommand, ReactionPlan, SceneAnnouncement
from sensor_msgs.msg import JointState

from reacthuman import ros_contract as graph
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.body_lockstep import sim_stamp
from reacthuman.nodes.runtime import qos_for
from reacthuman.spine.g1_assets import G1_JOINT_NAMES, default_pose_geometry, read_policy_metadata
from ros_helpers import GraphClient

TICK_S = 5.0 / 240.0  # the graph's control tick
QUIET_S = 1.5  # how long a held tick must stay unanswered


class FakeBody:
    """Publishes ticks as the body does and collects the spine's answers by stamp."""

    def __init__(self, client: GraphClient) -> None:
        node = client.node
        self.client, self.answers = client, {}
        node.create_subscription(
            JointCommand,
            graph.JOINT_COMMAND,
            lambda m: self.answers.__setitem__(conv.stamp_ns(m.header.stamp), m),
            qos_for(graph.JOINT_COMMAND),
        )
        self.pub = {
            t: node.create_publisher(ty, t, qos_for(t))
            for t, ty in (
                (graph.SCENE, SceneAnnouncement),
                (graph.PLAN, ReactionPlan),
                (graph.BASE_STATE, BaseState),
                (graph.JOINT_STATES, JointState),
            )
        }
        self.q = read_policy_metadata().default_pose_rad
        self.pelvis_z_m = default_pose_geometry().pelvis_height_m
        self.tick = 0

    def connected(self) -> bool:
        return all(p.get_subscription_count() > 0 for p in self.pub.values())

    def base(self, stamp, phase: int) -> None:
        msg = BaseState(phase=phase)
        msg.header.stamp, msg.header.frame_id = stamp, graph.WORLD_FRAME
        msg.pose.position.z, msg.pose.orientation.w, msg.imu.orientation.w = self.pelvis_z_m, 1.0, 1.0
        self.pub[graph.BASE_STATE].publish(msg)

    def joints(self, stamp) -> None:
        msg = JointState(name=list(G1_JOINT_NAMES), position=list(self.q), velocity=[0.0] * len(self.q))
        msg.header.stamp = stamp
        self.pub[graph.JOINT_STATES].publish(msg)

    def send_tick(self, phase: int):
        """One tick's pair, base first as the body sends it; its stamp in ns."""
        self.tick += 1
        stamp = sim_stamp(self.tick * TICK_S)
        self.base(stamp, phase)
        self.joints(stamp)
        return conv.stamp_ns(stamp)

    def stands(self) -> bool:
        stamp = self.send_tick(BaseState.PHASE_WINDOW)
        return self.answered(stamp, 10) and max(self.answers[stamp].kp) > 0

    def answered(self, stamp_ns: int, within_s: float) -> bool:
        return self.client.wait_for(lambda: stamp_ns in self.answers, within_s)

    def announce(self, scene_id: str) -> None:
        self.pub[graph.SCENE].publish(SceneAnnouncement(scene_id=scene_id))

    def plan(self, scene_id: str) -> None:
        # unparsed: the spine keeps the robot standing, but it holds that scene's plan all the same
        self.pub[graph.PLAN].publish(ReactionPlan(scene_id=scene_id, parse_ok=False))


def test_the_spine_answers_each_tick_by_the_phase_of_its_own_base_state(ros_domain_id):
    env = dict(os.environ, ROS_DOMAIN_ID=str(ros_domain_id), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    spine = subprocess.Popen(
        [sys.executable, "-c", "from reacthuman.nodes.spine_node import main; main()"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    client = GraphClient(ros_domain_id, "spine_lockstep_test")
    body = FakeBody(client)
    try:
        assert client.wait_for(body.connected, 90), "the spine never subscribed"
        assert client.wait_for(lambda: client.node.count_publishers(graph.JOINT_COMMAND) > 0, 30)
        body.announce("scene-a")
        # the spine stands (kp > 0, no longer damped) once it has the announcement: the episode has begun
        assert any(body.stands() for _ in range(30)), "the spine never took the scene announcement"

        window = body.send_tick(BaseState.PHASE_WINDOW)
        assert body.answered(window, 10), "a window tick is answered at once"

        held = body.send_tick(BaseState.PHASE_EXECUTION)
        assert not body.answered(held, QUIET_S), "answered an execution tick before the plan arrived"
        body.plan("scene-other")  # not this scene's plan: still held
        assert not body.answered(held, QUIET_S)
        body.plan("scene-a")
        assert body.answered(held, 10), "the held tick was not answered once the plan arrived"
        assert body.answered(body.send_tick(BaseState.PHASE_EXECUTION), 10)  # the plan in hand: at once

        body.announce("scene-b")  # a new episode: no plan yet
        client.wait_for(lambda: False, 0.5)
        assert body.answered(body.send_tick(BaseState.PHASE_EXECUTION_WITHOUT_PLAN), 10)  # none is coming
        assert body.answered(body.send_tick(BaseState.PHASE_HARDWARE), 10)

        # The phase is the one of the tick's own stamp: a window base of the next stamp, seen first, does
        # not release an execution tick.
        body.tick += 1
        own, neighbour = sim_stamp(body.tick * TICK_S), sim_stamp((body.tick + 1) * TICK_S)
        body.base(neighbour, BaseState.PHASE_WINDOW)
        body.base(own, BaseState.PHASE_EXECUTION)
        body.joints(own)
        assert not body.answered(conv.stamp_ns(own), QUIET_S)
        body.plan("scene-b")
        assert body.answered(conv.stamp_ns(own), 10)
        body.tick += 1

        unset = body.send_tick(BaseState.PHASE_UNSET)
        assert not body.answered(unset, QUIET_S), "answered a state that does not say its phase"
        assert body.answered(body.send_tick(BaseState.PHASE_WINDOW), 10)  # and the spine goes on
    finally:
        client.close()
        spine.terminate()
        output, _ = spine.communicate(timeout=60)
    assert "robot state not answered: the state does not say its phase" in output, output
