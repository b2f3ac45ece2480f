"""The same closed loop as `episode.run_episode`, as four ROS 2 nodes talking over typed topics, plus a
rosbag2 recorder. The in-process path stays the default (faster); this one exists so the loop can be
observed, recorded and replaced piece by piece (a real person's speech, a remote model) on a ROS graph.
The nodes are the suite's contract nodes (`reacthuman.nodes.runtime`); their topics and types are
`interactiveworld.graph`'s contracts."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import QoSProfile, ReliabilityPolicy
from reacthuman_msgs.msg import Speech
from sensor_msgs.msg import Image
from std_msgs.msg import String

from interactiveworld.agents.base import AssistantBrief, AssistantObservation, Frame, HumanView, select_frames
from interactiveworld.bench.taskpack import TaskPack
from interactiveworld.episode import Episode, _human_report, visible_names
from interactiveworld.graph import (ASSISTANT, COMMANDS, EYE, HUMAN, JUDGE, JUDGE_NODE, QOS_DEPTH, RECORDER, REPORT,
                                    SPEECH, STATE, WORLD)
from interactiveworld.world.predicates import evaluate
from reacthuman.nodes.runtime import ContractNode

DONE_TEXT = "[done]"
_QOS = QoSProfile(depth=QOS_DEPTH, reliability=ReliabilityPolicy.RELIABLE)


def _qos(_topic: str) -> QoSProfile:
    """Every topic of the loop has the same QoS (the contract's docstring says why)."""
    return _QOS


def _json_msg(d: dict) -> String:
    return String(data=json.dumps(d, sort_keys=True))


def _image_array(msg: Image) -> np.ndarray:
    """An rgb8 Image message as uint8 [H, W, 3]."""
    return np.frombuffer(bytes(msg.data), dtype=np.uint8).reshape(msg.height, msg.width, 3)


class WorldNode(ContractNode):
    """Owns the simulator: runs the opening, executes the human's commands, publishes frames and reports."""

    def __init__(self, pack: TaskPack, body: str = "capsule") -> None:
        super().__init__(WORLD, {COMMANDS: self._on_commands}, qos=_qos)
        self.pack = pack
        self.ep = Episode(pack, render=True, body=body)
        self.n_actions, self.goals_at_handoff, self.finished = 0, [], False
        self.n_frames = 0  # published since the last report

    def _stamp(self):
        t = self.ep.world.machine.clock_s
        return rclpy.time.Time(seconds=int(t), nanoseconds=int((t % 1) * 1e9)).to_msg()

    def _flush_frames(self) -> None:
        self.n_frames += len(self.ep.pending)
        for f in self.ep.pending:
            msg = Image(height=f.image.shape[0], width=f.image.shape[1], encoding="rgb8", step=3 * f.image.shape[1],
                        data=f.image.tobytes())
            msg.header.stamp, msg.header.frame_id = self._stamp(), "human_eye"
            self.pub[EYE].publish(msg)
        self.ep.pending = []

    def start(self) -> None:
        self.ep.run_opening()
        self.goals_at_handoff = [evaluate(g, self.ep.world) for g in self.pack.goals]
        self.ep._on_frame("handoff")
        self._flush_frames()
        self._publish_report(0, self.pack.handoff, ())

    def _publish_report(self, turn: int, report: str, last: tuple) -> None:
        vis = list(visible_names(self.ep.world, self.ep.catalog, self.ep.knowledge))
        self.pub[REPORT].publish(_json_msg({"turn": turn, "report": report, "visible": vis,
                                            "last_results": list(last), "n_frames": self.n_frames}))
        self.n_frames = 0

    def _on_commands(self, msg: String) -> None:
        d = json.loads(msg.data)
        if self.finished:
            return
        if d.get("done"):
            return self._finish()
        self.ep.hear(d.get("heard", ""))
        results = [self.ep.execute(t) for t in d["commands"]]
        self.n_actions += len(results)
        events = [e for r in results for e in r.events]
        text = " ".join(s for s in (d.get("speech", ""), _human_report(results, events)) if s) or "(waits)"
        self._flush_frames()
        if d["turn"] + 1 >= self.pack.max_turns:
            return self._finish()
        self._publish_report(d["turn"] + 1, text, tuple(r.message for r in results))

    def _finish(self) -> None:
        self.finished = True
        goals = [evaluate(g, self.ep.world) for g in self.pack.goals]
        self.pub[STATE].publish(_json_msg({"task_id": self.pack.task_id, "goals_final": goals,
                                           "goals_at_handoff": self.goals_at_handoff, "n_actions": self.n_actions,
                                           "digest": self.ep.world.digest()}))


class HumanNode(ContractNode):
    """Speaks the world's reports; turns the assistant's speech into commands for the world. It sees through
    its own eyes: the frames of the turn (as in process, none when blind) go with its view to the model."""

    def __init__(self, human, pack: TaskPack, catalog) -> None:
        callbacks = {REPORT: self._on_report, SPEECH: self._on_speech} | ({} if pack.blind else {EYE: self._on_eye})
        super().__init__(HUMAN, callbacks, qos=_qos)  # a blind human's eye topic is taken and ignored
        self.human, self.pack = human, pack
        human.reset(pack.private_plan, pack.blind, catalog)
        self.turn, self.visible, self.last = 0, (), ()
        self.frames: list[Frame] = []  # since its last decision: what the assistant saw this turn too
        self.expected_frames = 0  # the world's count for this turn: topics are not ordered with each other
        self.waiting: Speech | None = None  # the assistant spoke before all of this turn's frames came

    def _on_eye(self, msg: Image) -> None:
        self.frames.append(Frame(_image_array(msg), "view"))
        if self.waiting is not None and len(self.frames) >= self.expected_frames:
            speech, self.waiting = self.waiting, None
            self._on_speech(speech)

    def _on_report(self, msg: String) -> None:
        d = json.loads(msg.data)
        self.turn, self.visible, self.last = d["turn"], tuple(d["visible"]), tuple(d["last_results"])
        self.expected_frames = 0 if self.pack.blind else d["n_frames"]
        out = Speech(speaker="human", text=d["report"])
        out.header.stamp = self.get_clock().now().to_msg()
        self.pub[SPEECH].publish(out)

    def _on_speech(self, msg: Speech) -> None:
        if msg.speaker != "assistant":
            return
        if msg.text == DONE_TEXT:
            self.pub[COMMANDS].publish(_json_msg({"turn": self.turn, "commands": [], "done": True}))
            return
        if len(self.frames) < self.expected_frames:  # decide once its eyes have caught up
            self.waiting = msg
            return
        frames, self.frames = select_frames(self.frames), []
        decision = self.human.decide(msg.text or None, HumanView(self.pack.blind, frames, self.visible, self.last))
        self.pub[COMMANDS].publish(_json_msg({"turn": self.turn, "commands": decision.commands,
                                              "speech": decision.speech, "heard": msg.text or "",
                                              "from_assistant": decision.from_assistant,
                                              "done": bool(decision.error)}))


class AssistantNode(ContractNode):
    """Sees only first-person frames and the human's speech; answers with speech, silence or done. It acts
    on a turn once it has the human's words and all of the turn's frames (the world's report counts them),
    so it sees what the in-process assistant sees."""

    def __init__(self, assistant, pack: TaskPack) -> None:
        super().__init__(ASSISTANT, {EYE: self._on_eye, SPEECH: self._on_speech, REPORT: self._on_report}, qos=_qos)
        self.assistant = assistant
        assistant.reset(AssistantBrief(pack.family, pack.task_id, pack.max_turns))
        self.frames: list[Frame] = []
        self.turn = 0
        self.frames_of_turn: dict[int, int] = {}
        self.heard: str | None = None

    def _on_eye(self, msg: Image) -> None:
        self.frames.append(Frame(_image_array(msg), "view"))
        self._act_when_ready()

    def _on_report(self, msg: String) -> None:
        d = json.loads(msg.data)
        self.frames_of_turn[d["turn"]] = d["n_frames"]
        self._act_when_ready()

    def _on_speech(self, msg: Speech) -> None:
        if msg.speaker != "human":
            return
        self.heard = msg.text
        self._act_when_ready()

    def _act_when_ready(self) -> None:
        expected = self.frames_of_turn.get(self.turn)
        if self.heard is None or expected is None or len(self.frames) < expected:
            return
        heard, self.heard = self.heard, None
        reply = self.assistant.act(AssistantObservation(self.turn, select_frames(self.frames), heard))
        self.frames, self.turn = [], self.turn + 1
        text = {"speak": reply.text, "wait": "", "done": DONE_TEXT}[reply.mode]
        out = Speech(speaker="assistant", text=text)
        out.header.stamp = self.get_clock().now().to_msg()
        self.pub[SPEECH].publish(out)


class JudgeNode(ContractNode):
    """Reads the world's final state (never the assistant's claims) and publishes the verdict."""

    def __init__(self) -> None:
        super().__init__(JUDGE_NODE, {STATE: self._on_state}, qos=_qos)
        self.verdict: dict | None = None

    def _on_state(self, msg: String) -> None:
        d = json.loads(msg.data)
        scored = [ok for ok, before in zip(d["goals_final"], d["goals_at_handoff"]) if not before]
        self.verdict = {"task_id": d["task_id"], "passed": bool(scored) and all(scored),
                        "completion": sum(scored) / len(scored) if scored else 0.0, "goals": d["goals_final"],
                        "n_actions": d["n_actions"], "digest": d["digest"]}
        self.pub[JUDGE].publish(_json_msg(self.verdict))


class RecorderNode(ContractNode):
    """Records the graph's topics as raw CDR into a rosbag2 folder (reacthuman's bag writer)."""

    def __init__(self, path: Path) -> None:
        from reacthuman.recording.bag import BagWriter

        self.writer = BagWriter(Path(path))
        super().__init__(RECORDER, {t: (lambda raw, t=t: self._write(t, raw)) for t in RECORDER.subscribes},
                         raw=True, qos=_qos)

    def _write(self, topic: str, raw: bytes) -> None:
        self.writer.write(topic, self.contract.subscribes[topic], self.get_clock().now().nanoseconds, raw)


def run_ros_episode(pack: TaskPack, assistant, human, bag_path: Path | None = None, timeout_s: float = 300.0,
                    body: str = "capsule") -> dict:
    """One episode through the node graph; returns the judge's verdict (raises TimeoutError if none)."""
    own_init = not rclpy.ok()
    if own_init:
        rclpy.init()
    world = WorldNode(pack, body)
    nodes = [world, HumanNode(human, pack, world.ep.catalog), AssistantNode(assistant, pack), JudgeNode()]
    if bag_path is not None:
        nodes.append(RecorderNode(bag_path))
    ex = SingleThreadedExecutor()
    for n in nodes:
        ex.add_node(n)
    try:
        deadline = time.monotonic() + timeout_s
        judge = nodes[3]
        # let discovery match every endpoint before the first message (reliable QoS keeps the rest)
        while not (world.count_subscribers(REPORT) and world.count_subscribers(EYE) and world.count_publishers(COMMANDS)
                   and judge.count_publishers(STATE) and nodes[1].count_publishers(SPEECH) >= 2):
            if time.monotonic() > deadline:
                raise TimeoutError("the node graph did not connect")
            ex.spin_once(timeout_sec=0.05)
        world.start()
        while judge.verdict is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"task {pack.task_id}: no verdict within {timeout_s:.0f} s")
            ex.spin_once(timeout_sec=0.1)
        for _ in range(20):  # let the recorder take the verdict
            ex.spin_once(timeout_sec=0.02)
        return judge.verdict
    finally:
        if bag_path is not None:
            nodes[-1].writer.close()
        world.ep.close()
        for n in nodes:
            ex.remove_node(n)
            n.destroy_node()
        if own_init:
            rclpy.shutdown()
