"""The same closed loop as `episode.run_episode`, as four ROS 2 nodes talking over typed topics, plus a
rosbag2 recorder. The in-process path stays the default (faster); this one exists so the loop can be
observed, recorded and replaced piece by piece (a real person's speech, a remote model) on a ROS graph.
The nodes are the suite's contract nodes (`reacthuman.nodes.runtime`); their topics and types are
`interactiveworld.graph`'s contracts.

Each node is configured by ROS parameters (declared with descriptions, validated) and builds what it needs
from them: world `task`, `body`, `autostart`; human `task`, `human`; assistant `task`, `assistant`; recorder
`bag_path`; the judge has none. `task` is a task pack file (.json) or a task id of interactiveworld/tasks;
`human` and `assistant` take one entry of the suite's `--models` grammar. `run_ros_episode` composes them in one
process (parameter overrides); each also runs as a process of its own, a refused parameter ending it with one
line and status 2:

    python -m interactiveworld.ros_graph world|human|assistant|judge|recorder --ros-args -p task:=finding-moved-1
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy
from reacthuman_msgs.msg import Speech
from sensor_msgs.msg import Image
from std_msgs.msg import String

from interactiveworld.actions.entities import Catalog
from interactiveworld.agents.assistants import (REFERENCE_ASSISTANTS, REFERENCE_HUMANS, agent_name, make_assistant,
                                                make_human)
from interactiveworld.agents.base import AssistantBrief, AssistantObservation, Frame, HumanView, select_frames
from interactiveworld.bench.taskpack import TaskPack, TaskPackError, default_tasks_dir, load_pack
from interactiveworld.episode import Episode, _human_report, visible_names
from interactiveworld.graph import (ASSISTANT, COMMANDS, EYE, HUMAN, JUDGE, JUDGE_NODE, QOS_DEPTH, RECORDER, REPORT,
                                    SPEECH, STATE, WORLD)
from interactiveworld.world.cache import build_world
from interactiveworld.world.predicates import evaluate
from interactiveworld.world.sim import BODIES
from reacthuman.core.model_spec import ModelSpecError, parse_models
from reacthuman.nodes.runtime import ContractNode, one_of, run

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


def task_path(task: str | Path) -> Path:
    """The pack file a `task` parameter names: a path (`<tasks>/<id>.json`, as the CLI's --tasks and --task
    resolve it), or a bare task id of the suite's task folder."""
    text = str(task)
    return Path(text) if text.endswith(".json") or "/" in text else default_tasks_dir() / f"{text}.json"


def _task_reason(value: str) -> str | None:
    if not value:
        return "no task given: a task pack file (.json) or a task id of interactiveworld/tasks"
    try:
        load_pack(task_path(value))
    except TaskPackError as exc:
        return str(exc)
    return None


def _declare_task(node: ContractNode) -> TaskPack:
    return load_pack(task_path(node.declare(
        "task", "", "the task: a task pack file (.json) or a task id of interactiveworld/tasks", _task_reason)))


def _agent_reason(option: str, references: dict[str, str]):
    """Refuses a value that is not one entry of the `--models` grammar (the reason names the entry)."""
    def reason(value: str) -> str | None:
        try:
            specs = parse_models(value, references, option)
        except ModelSpecError as exc:
            return str(exc).removeprefix(f"{option}: ")
        return None if len(specs) == 1 else f"takes one entry, got {len(specs)}"
    return reason


def _declare_agent(node: ContractNode, option: str, default: str, references: dict[str, str], what: str) -> str:
    """The bench agent name (`agent_name`) of the node's agent parameter."""
    value = node.declare(option, default, f"{what}: one entry of the --models grammar: a reference "
                         f"({', '.join(references)}), a preset of config/models.yaml or "
                         "openai-compatible:<model_id>@<base_url>", _agent_reason(option, references))
    return agent_name(parse_models(value, references, option)[0])


def _close(agent) -> None:
    getattr(agent, "close", lambda: None)()


class WorldNode(ContractNode):
    """Owns the simulator: runs the opening, executes the human's commands, publishes frames and reports."""

    def __init__(self, *, parameter_overrides: list[Parameter] | None = None) -> None:
        self.ep: Episode | None = None  # destroy_node may run on a node refused half way
        super().__init__(WORLD, {COMMANDS: self._on_commands}, qos=_qos, parameter_overrides=parameter_overrides)
        self.pack = _declare_task(self)
        body = self.declare("body", "capsule", "the human's body: primitives capsules or dm_control's CMU humanoid",
                            one_of(*BODIES))
        autostart = self.declare("autostart", True, "start the episode once the human, the assistant and the judge "
                                 "are on the graph; false: the composing process calls start()")
        self.ep = Episode(self.pack, render=True, body=body)
        self.n_actions, self.goals_at_handoff, self.finished = 0, [], False
        self.n_frames = 0  # published since the last report
        self.started, self._connected_at = False, None
        if autostart:
            self._start_timer = self.create_timer(0.25, self._start_when_connected)

    def _peers_connected(self) -> bool:
        """The human, the assistant and the judge are on the graph with the endpoints the loop needs."""
        def nodes(infos) -> set[str]:
            return {i.node_name for i in infos}

        pair = {HUMAN.name, ASSISTANT.name}
        return (pair <= nodes(self.get_subscriptions_info_by_topic(REPORT))
                and pair <= nodes(self.get_subscriptions_info_by_topic(EYE))
                and pair <= nodes(self.get_subscriptions_info_by_topic(SPEECH))
                and pair <= nodes(self.get_publishers_info_by_topic(SPEECH))
                and HUMAN.name in nodes(self.get_publishers_info_by_topic(COMMANDS))
                and JUDGE_NODE.name in nodes(self.get_subscriptions_info_by_topic(STATE)))

    def _start_when_connected(self) -> None:
        """Standalone start: once the peers are seen, and 0.5 s more for their own endpoints to match."""
        if self.started or not self._peers_connected():
            self._connected_at = None
            return
        now = time.monotonic()
        self._connected_at = self._connected_at or now
        if now - self._connected_at >= 0.5:
            self._start_timer.cancel()
            self.start()

    def destroy_node(self) -> None:
        if self.ep is not None:
            self.ep.close()
        super().destroy_node()

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
        self.started = True
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
    its own eyes: the frames of the turn (as in process, none when blind) go with its view to the model.

    Its names of things come from its own catalogue of the task's world, built as the world node builds its
    world (the catalogue depends on the scene alone, not on the body or the meshes). `human`: an agent object
    to use instead of the one the parameter names (a test's instrumented reference); the caller closes it."""

    def __init__(self, human=None, *, parameter_overrides: list[Parameter] | None = None) -> None:
        self.own_agent = False  # destroy_node may run on a node refused half way
        callbacks = {REPORT: self._on_report, SPEECH: self._on_speech, EYE: self._on_eye}
        super().__init__(HUMAN, callbacks, qos=_qos, parameter_overrides=parameter_overrides)
        self.pack = pack = _declare_task(self)
        name = _declare_agent(self, "human", "scripted", REFERENCE_HUMANS, "the simulated human")
        self.own_agent = human is None
        self.human = make_human(name) if human is None else human
        self.human.reset(pack.private_plan, pack.blind, Catalog(build_world(pack.scene)))
        self.turn, self.visible, self.last = 0, (), ()
        self.frames: list[Frame] = []  # since its last decision: what the assistant saw this turn too
        self.expected_frames = 0  # the world's count for this turn: topics are not ordered with each other
        self.waiting: Speech | None = None  # the assistant spoke before all of this turn's frames came

    def _on_eye(self, msg: Image) -> None:
        if self.pack.blind:  # a blind human's eye topic is taken and ignored
            return
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

    def destroy_node(self) -> None:
        if self.own_agent:
            _close(self.human)
        super().destroy_node()


class AssistantNode(ContractNode):
    """Sees only first-person frames and the human's speech; answers with speech, silence or done. It acts
    on a turn once it has the human's words and all of the turn's frames (the world's report counts them),
    so it sees what the in-process assistant sees. `assistant`: an agent object to use instead of the one the
    parameter names (a test's instrumented reference); the caller closes it."""

    def __init__(self, assistant=None, *, parameter_overrides: list[Parameter] | None = None) -> None:
        self.own_agent = False  # destroy_node may run on a node refused half way
        super().__init__(ASSISTANT, {EYE: self._on_eye, SPEECH: self._on_speech, REPORT: self._on_report}, qos=_qos,
                         parameter_overrides=parameter_overrides)
        pack = _declare_task(self)
        name = _declare_agent(self, "assistant", "", REFERENCE_ASSISTANTS, "the assistant")
        self.own_agent = assistant is None
        self.assistant = make_assistant(name, pack) if assistant is None else assistant
        self.assistant.reset(AssistantBrief(pack.family, pack.task_id, pack.max_turns))
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

    def destroy_node(self) -> None:
        if self.own_agent:
            _close(self.assistant)
        super().destroy_node()


class JudgeNode(ContractNode):
    """Reads the world's final state (never the assistant's claims) and publishes the verdict."""

    def __init__(self, *, parameter_overrides: list[Parameter] | None = None) -> None:
        super().__init__(JUDGE_NODE, {STATE: self._on_state}, qos=_qos, parameter_overrides=parameter_overrides)
        self.verdict: dict | None = None

    def _on_state(self, msg: String) -> None:
        d = json.loads(msg.data)
        scored = [ok for ok, before in zip(d["goals_final"], d["goals_at_handoff"]) if not before]
        self.verdict = {"task_id": d["task_id"], "passed": bool(scored) and all(scored),
                        "completion": sum(scored) / len(scored) if scored else 0.0, "goals": d["goals_final"],
                        "n_actions": d["n_actions"], "digest": d["digest"]}
        self.pub[JUDGE].publish(_json_msg(self.verdict))


def _new_bag_reason(value: str) -> str | None:
    if not value:
        return "no bag folder given"
    return f"{value} already exists" if Path(value).exists() else None


class RecorderNode(ContractNode):
    """Records the graph's topics as raw CDR into a rosbag2 folder (reacthuman's bag writer); the bag is
    complete once the node is destroyed (a standalone recorder: at Ctrl-C or SIGTERM)."""

    def __init__(self, *, parameter_overrides: list[Parameter] | None = None) -> None:
        from reacthuman.recording.bag import BagWriter

        self.closed = True  # destroy_node may run on a node refused half way
        super().__init__(RECORDER, {t: (lambda raw, t=t: self._write(t, raw)) for t in RECORDER.subscribes},
                         raw=True, qos=_qos, parameter_overrides=parameter_overrides)
        self.writer = BagWriter(Path(self.declare("bag_path", "", "the rosbag2 folder to write (must not exist)",
                                                  _new_bag_reason)))
        self.closed = False

    def _write(self, topic: str, raw: bytes) -> None:
        self.writer.write(topic, self.contract.subscribes[topic], self.get_clock().now().nanoseconds, raw)

    def destroy_node(self) -> None:
        if not self.closed:
            self.closed = True
            self.writer.close()
        super().destroy_node()


def _overrides(**values) -> list[Parameter]:
    return [Parameter(name, value=value) for name, value in values.items()]


def run_ros_episode(task: str | Path, assistant="oracle", human="scripted", bag_path: Path | None = None,
                    timeout_s: float = 300.0, body: str = "capsule") -> dict:
    """One episode through the node graph, its nodes composed in this process and configured by their ROS
    parameters; returns the judge's verdict (raises TimeoutError if none, ValueError for a refused parameter).
    task: a task pack file or a task id (the nodes' `task`). assistant, human: an entry of the `--models` grammar
    (the nodes' parameters), or an agent object the node takes instead (the caller keeps and closes it)."""
    own_init = not rclpy.ok()
    if own_init:
        rclpy.init()
    nodes = []
    try:
        nodes.append(WorldNode(parameter_overrides=_overrides(task=str(task), body=body, autostart=False)))
        specs = {"assistant": assistant if isinstance(assistant, str) else "oracle",
                 "human": human if isinstance(human, str) else "scripted"}  # an object: the default, unused
        nodes.append(HumanNode(None if isinstance(human, str) else human,
                               parameter_overrides=_overrides(task=str(task), human=specs["human"])))
        nodes.append(AssistantNode(None if isinstance(assistant, str) else assistant,
                                   parameter_overrides=_overrides(task=str(task), assistant=specs["assistant"])))
        nodes.append(JudgeNode())
        if bag_path is not None:
            nodes.append(RecorderNode(parameter_overrides=_overrides(bag_path=str(bag_path))))
        return _spin_episode(nodes, timeout_s)
    finally:
        for n in nodes:
            n.destroy_node()
        if own_init:
            rclpy.shutdown()


def _spin_episode(nodes: list[ContractNode], timeout_s: float) -> dict:
    world, human, _assistant, judge = nodes[:4]
    ex = SingleThreadedExecutor()
    for n in nodes:
        ex.add_node(n)
    try:
        deadline = time.monotonic() + timeout_s
        # let discovery match every endpoint before the first message (reliable QoS keeps the rest)
        while not (world.count_subscribers(REPORT) and world.count_subscribers(EYE) and world.count_publishers(COMMANDS)
                   and judge.count_publishers(STATE) and human.count_publishers(SPEECH) >= 2):
            if time.monotonic() > deadline:
                raise TimeoutError("the node graph did not connect")
            ex.spin_once(timeout_sec=0.05)
        world.start()
        while judge.verdict is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"task {world.pack.task_id}: no verdict within {timeout_s:.0f} s")
            ex.spin_once(timeout_sec=0.1)
        for _ in range(20):  # let the recorder take the verdict
            ex.spin_once(timeout_sec=0.02)
        return judge.verdict
    finally:
        for n in nodes:
            ex.remove_node(n)


NODES = {"world": WorldNode, "human": HumanNode, "assistant": AssistantNode, "judge": JudgeNode,
         "recorder": RecorderNode}


def main(argv: list[str] | None = None) -> int:
    """`python -m interactiveworld.ros_graph NODE --ros-args -p name:=value ...`: one node as its own process
    (the suite's standard main: clean shutdown at Ctrl-C or SIGTERM; a refused parameter: one line, status 2)."""
    argv = sys.argv if argv is None else argv
    if len(argv) < 2 or argv[1] not in NODES:
        sys.stderr.write(f"usage: python -m interactiveworld.ros_graph {{{'|'.join(NODES)}}} "
                         "[--ros-args -p NAME:=VALUE ...]\n")
        return 2
    return run(NODES[argv[1]], argv)


if __name__ == "__main__":
    raise SystemExit(main())
