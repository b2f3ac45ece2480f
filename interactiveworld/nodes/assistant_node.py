"""The assistant's node: first-person frames and the human's words in, speech, silence or done out."""

from __future__ import annotations

import json

from rclpy.parameter import Parameter
from reacthuman_msgs.msg import Speech
from sensor_msgs.msg import Image
from std_msgs.msg import String

from interactiveworld.agents.assistants import REFERENCE_ASSISTANTS, make_assistant, viewed_assistant
from interactiveworld.agents.config import ASSISTANT_VIEWS
from interactiveworld.agents.base import AssistantBrief, AssistantObservation, Frame, select_frames
from interactiveworld.ros_contract import ASSISTANT, EYE, REPORT, SPEECH
from interactiveworld.nodes.common import DONE_TEXT, close_agent, declare_agent, declare_task, image_array, loop_qos
from reacthuman.nodes.runtime import ContractNode, run


class AssistantNode(ContractNode):
    """Sees only first-person frames and the human's speech; answers with speech, silence or done. It acts
    on a turn once it has the human's words and all of the turn's frames (the world's report counts them),
    so it sees what the in-process assistant sees. `assistant`: an agent object to use instead of the one the
    parameter names (a test's instrumented reference); the caller closes it."""

    def __init__(self, assistant=None, *, parameter_overrides: list[Parameter] | None = None) -> None:
        self.own_agent = False  # destroy_node may run on a node refused half way
        super().__init__(
            ASSISTANT,
            {EYE: self._on_eye, SPEECH: self._on_speech, REPORT: self._on_report},
            qos=loop_qos,
            parameter_overrides=parameter_overrides,
        )
        pack = declare_task(self)
        name = declare_agent(self, "assistant", "", REFERENCE_ASSISTANTS, "the assistant")
        view = self.declare(
            "assistant_view",
            "frames",
            "frames: a model assistant is sent its first-person "
            "frames; none: they are withheld (the perception ablation, `llm:<model>+noview`)",
            lambda v: None if v in ASSISTANT_VIEWS else f"one of {ASSISTANT_VIEWS}, got {v!r}",
        )
        name = viewed_assistant(name, view)
        self.own_agent = assistant is None
        self.assistant = make_assistant(name, pack) if assistant is None else assistant
        self.assistant.reset(AssistantBrief(pack.family, pack.task_id, pack.max_turns))
        self.frames: list[Frame] = []
        self.turn = 0
        self.frames_of_turn: dict[int, int] = {}
        self.heard: str | None = None

    def _on_eye(self, msg: Image) -> None:
        self.frames.append(Frame(image_array(msg), "view"))
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
            close_agent(self.assistant)
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    return run(AssistantNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
