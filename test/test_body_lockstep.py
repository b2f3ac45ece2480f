"""The body's side of the lockstep without a graph or a simulator: what one control tick publishes (the phase
as a field of the BaseState, each header in the frame of its data) and the wait for the spine's command of
exactly that tick's stamp, sent again until it comes. Real message classes, a stand-in node and body."""

from __future__ import annotations

import logging
import threading
from types import SimpleNamespace

import numpy as np
import pytest
from reacthuman_msgs.msg import BaseState, JointCommand

from reacthuman import ros_contract as graph
from reacthuman.spine.robot_state import RobotState
from reacthuman.nodes import conversions as conv
from reacthuman.nodes import body_lockstep
from reacthuman.nodes.body_lockstep import LockstepLost, LockstepSource, sim_stamp
from reacthuman.sim_bridge.engine import BodyState
from reacthuman.spine.g1_assets import G1_JOINT_NAMES

NAMES = G1_JOINT_NAMES
Q = tuple(0.01 * k for k in range(len(NAMES)))
DT_S = 1.0 / 240.0


class Publisher:
    def __init__(self, topic: str, on_publish) -> None:
        self.topic, self.sent, self.on_publish = topic, [], on_publish

    def publish(self, msg) -> None:
        self.sent.append(msg)
        self.on_publish(self.topic, msg)


class StandInBody:
    engine = SimpleNamespace(dt_s=DT_S)

    def snapshot(self):
        robot = RobotState(
            q=Q,
            dq=(0.0,) * len(Q),
            base_quat_wxyz=(1.0, 0.0, 0.0, 0.0),
            base_ang_vel_body=(0.0, 0.0, 0.2),
            base_pos_world=(0.5, 0.0, 0.79),
            base_lin_vel_world=(0.1, 0.0, 0.0),
        )
        mug = BodyState(np.array([1.0, 0.0, 1.2]), np.array([1.0, 0.0, 0.0, 0.0]), np.zeros(3), np.zeros(3))
        return SimpleNamespace(
            joint_names=NAMES,
            robot=robot,
            hazards={"mug": mug},
            left_hand_m=np.array([0.6, 0.2, 1.0]),
            right_hand_m=np.array([0.6, -0.2, 1.0]),
        )


def _lockstep(on_publish=lambda topic, msg: None, reply_timeout_s: float = 5.0) -> LockstepSource:
    node = SimpleNamespace(
        pub={t: Publisher(t, on_publish) for t in graph.NODES["body"].publishes},
        get_logger=lambda: logging.getLogger("body"),
    )
    return LockstepSource(node, StandInBody(), decimation=5, reply_timeout_s=reply_timeout_s)


def _answer(msg, kp: float = 40.0) -> JointCommand:
    n = len(NAMES)
    cmd = JointCommand(
        name=list(NAMES), q=list(msg.position), dq=[0.0] * n, kp=[kp] * n, kd=[1.0] * n, tau=[0.0] * n, mode=1
    )
    cmd.header.stamp = msg.header.stamp
    return cmd


def _sent(lockstep: LockstepSource, topic: str) -> list:
    return lockstep.node.pub[topic].sent


def test_a_tick_says_its_phase_in_the_base_state_and_each_header_names_the_frame_of_its_data():
    lockstep = _lockstep()
    for phase in (graph.StatePhase.WINDOW, graph.StatePhase.EXECUTION, graph.StatePhase.EXECUTION_WITHOUT_PLAN):
        lockstep.phase = phase
        lockstep.publish_state(sim_stamp(1.25))
    bases, joints = _sent(lockstep, graph.BASE_STATE), _sent(lockstep, graph.JOINT_STATES)
    assert [b.phase for b in bases] == [
        BaseState.PHASE_WINDOW,
        BaseState.PHASE_EXECUTION,
        BaseState.PHASE_EXECUTION_WITHOUT_PLAN,
    ]
    base, joint = bases[0], joints[0]
    assert base.header.stamp == joint.header.stamp
    assert conv.stamp_ns(base.header.stamp) == 1_250_000_000
    assert (base.header.frame_id, base.imu.header.frame_id, joint.header.frame_id) == ("world", "pelvis", "")
    assert base.imu.header.stamp == base.header.stamp
    assert _sent(lockstep, graph.HAND_POSITIONS)[0].header.frame_id == "world"
    assert _sent(lockstep, graph.HAZARD_STATE)[0].header.frame_id == "world"


def test_the_phase_constants_of_the_message_are_the_cores_vocabulary():
    constants = {
        name[len("PHASE_") :]: getattr(BaseState, name) for name in dir(BaseState) if name.startswith("PHASE_")
    }
    assert constants == {p.name: p.value for p in graph.StatePhase}
    assert BaseState().phase == graph.StatePhase.UNSET  # a publisher that does not set it is not answered


def test_a_tick_returns_the_command_of_its_own_stamp_and_ignores_any_other():
    def spine(topic: str, msg) -> None:
        if topic != graph.JOINT_STATES:
            return
        n = len(NAMES)
        stale = JointCommand(
            name=list(NAMES), q=[9.0] * n, dq=[0.0] * n, kp=[1.0] * n, kd=[0.0] * n, tau=[0.0] * n, mode=1
        )
        stale.header.stamp.sec = 99  # another tick's answer: not this one
        mine = JointCommand(
            name=list(NAMES), q=list(msg.position), dq=[0.0] * n, kp=[40.0] * n, kd=[1.0] * n, tau=[0.0] * n, mode=1
        )
        mine.header.stamp = msg.header.stamp
        threading.Thread(target=lambda: (lockstep.on_command(stale), lockstep.on_command(mine))).start()

    lockstep = _lockstep(spine)
    lockstep.phase = graph.StatePhase.WINDOW
    assert lockstep(3 * DT_S, None) is None  # between control ticks the previous command holds
    command = lockstep(5 * DT_S, None)
    assert command.q == Q
    assert set(command.kp) == {40.0}
    assert abs(command.stamp_s - 5 * DT_S) < 1e-9


def test_a_tick_whose_answer_is_lost_is_sent_again_the_same_until_answered(monkeypatch):
    """The first command of an episode lost to DDS discovery: the tick goes out again, identical, and the
    answer to the second sending is the tick's command."""
    monkeypatch.setattr(body_lockstep, "RESEND_S", 0.05)
    states = []

    def spine(topic: str, msg) -> None:
        if topic == graph.JOINT_STATES:
            states.append(msg)
            if len(states) == 3:  # the first two sendings' answers were lost
                threading.Thread(target=lockstep.on_command, args=(_answer(msg),)).start()

    lockstep = _lockstep(spine)
    lockstep.phase = graph.StatePhase.WINDOW
    command = lockstep(0.0, None)
    assert command.q == Q
    assert lockstep.resent == 2
    assert len(states) == 3
    assert all(s == states[0] for s in states)
    assert len(_sent(lockstep, graph.BASE_STATE)) == len(_sent(lockstep, graph.CLOCK)) == 3


def test_a_spine_that_never_answers_loses_the_lockstep_not_a_controller_fault(monkeypatch):
    """Past the reply timeout the episode is an infrastructure failure (LockstepLost), which the body reports;
    a ValueError would have been taken for a controller fault and scored as the model's."""
    monkeypatch.setattr(body_lockstep, "RESEND_S", 0.05)
    lockstep = _lockstep(reply_timeout_s=0.3)
    lockstep.phase = graph.StatePhase.WINDOW
    with pytest.raises(LockstepLost, match="no joint command from the spine within 0.3 s at t=0.000 s"):
        lockstep(0.0, None)
    assert not issubclass(LockstepLost, ValueError)
    assert lockstep.resent >= 3
