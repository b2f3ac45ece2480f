"""The simulated human's node: speaks the world's reports, turns the assistant's words into commands."""

from __future__ import annotations

import json

from rclpy.parameter import Parameter
from reacthuman_msgs.msg import Speech
from sensor_msgs.msg import Image
from std_msgs.msg import String

from interactiveworld.actions.entities import Catalog
from interactiveworld.agents.assistants import REFERENCE_HUMANS, make_human
from interactiveworld.agents.base import Frame, HumanView, select_frames
from interactiveworld.ros_contract import COMMANDS, EYE, HUMAN, REPORT, SPEECH
from interactiveworld.nodes.common import (
    DONE_TEXT,
    close_agent,
    declare_agent,
    declare_task,
    image_array,
    json_msg,
    loop_qos,
)
from interactiveworld.world.cache import build_world
from reacthuman.nodes.runtime import ContractNode, run


class HumanNode(ContractNode):
    """Speaks the world's reports; turns the assistant's speech into commands for the world. It sees through
    its own eyes: the frames of the turn (as in process, none when blind) go with its view to the model.

    Its names of things come from its own catalogue of the task's world, built as the world node builds its
    world (the catalogue depends on the scene alone, not on the body or the meshes). `human`: an agent object
    to use instead of the one the parameter names (a test's instrumented reference); the caller closes it."""

    def __init__(self, human=None, *, parameter_overrides: list[Parameter] | None = None) -> None:
        self.own_agent = False  # destroy_node may run on a node refused half way
        callbacks = {REPORT: self._on_report, SPEECH: self._on_speech, EYE: self._on_eye}
        super().__init__(HUMAN, callbacks, qos=loop_qos, parameter_overrides=parameter_overrides)
        self.pack = pack = declare_task(self)
        name = declare_agent(self, "human", "scripted", REFERENCE_HUMANS, "the simulated human")
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
        self.frames.append(Frame(image_array(msg), "view"))
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
            self.pub[COMMANDS].publish(json_msg({"turn": self.turn, "commands": [], "done": True}))
            return
        if len(self.frames) < self.expected_frames:  # decide once its eyes have caught up
            self.waiting = msg
            return
        frames, self.frames = select_frames(self.frames), []
        decision = self.human.decide(msg.text or None, HumanView(self.pack.blind, frames, self.visible, self.last))
        self.pub[COMMANDS].publish(
            json_msg(
                {
                    "turn": self.turn,
                    "commands": decision.commands,
                    "speech": decision.speech,
                    "heard": msg.text or "",
                    "from_assistant": decision.from_assistant,
                    "done": bool(decision.error),
                }
            )
        )

    def destroy_node(self) -> None:
        if self.own_agent:
            close_agent(self.human)
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    return run(HumanNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
