"""A model as the human executor: it hears the assistant, sees its own view (its own first-person frames as
images for a vision model, and the names of what is in sight; nothing when blind), keeps its own
conversation across turns, may ask to clarify, and must output exact commands without substituting objects,
destinations or actions. It carries on with its own private plan when one is given (Prevention), minus the
steps an instruction replaced (the same rule as the scripted human)."""

from __future__ import annotations

from interactiveworld.actions.parser import command_text
from interactiveworld.actions.primitives import PRIMITIVES
from interactiveworld.agents.base import HUMAN_COMMANDS_PER_TURN, HumanDecision, HumanView
from interactiveworld.agents.config import agent_config
from interactiveworld.agents.llm_common import LOG, ClientHolder, decode_json, json_format
from interactiveworld.actions.parser import Command, parse_command
from interactiveworld.agents.scripted_human import drop_replaced
from reacthuman.llm import image_part, text_part
from reacthuman.core.presets import model_name

MAX_COMMANDS = HUMAN_COMMANDS_PER_TURN  # the scripted human's limit
MAX_MEMORY_TURNS = 6  # earlier exchanges it keeps (its memory across turns)


def human_grammar() -> str:
    """One command form per primitive, all 36, from the table the parser reads."""
    forms = [command_text(p.name, "X", "Y", 2 if "N" in p.args else None) for p in PRIMITIVES]
    return "; ".join(f"'{f}'" for f in dict.fromkeys(forms))


SYSTEM = (
    "You are a person at home following an assistant's spoken guidance. Turn the guidance into exact commands, "
    "one per list item, in the order given, using only these forms (X and Y are names of things, places, rooms or "
    "people; N a number of seconds): " + human_grammar() + ". Use exactly the names the assistant used. Never "
    "replace an object, place or action by another. If the guidance is unclear, give no commands and ask in 'say'. "
    "If the assistant said nothing, follow your own plan (if any) one step at a time."
)
SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["say", "commands"],
    "properties": {
        "say": {"type": "string", "maxLength": 160},
        "commands": {"type": "array", "maxItems": MAX_COMMANDS, "items": {"type": "string", "maxLength": 80}},
    },
}


class LLMHuman:
    def __init__(self, model: str) -> None:
        self.name = f"llm:{model_name(model)}"  # results name the model without its ?options
        self.holder = ClientHolder(model)
        self.plan: list[str] = []
        self.blind = False
        self.malformed = 0
        self.catalog = None
        self.memory: list[dict] = []

    def reset(self, private_plan: tuple[str, ...], blind: bool, catalog) -> None:
        self.plan, self.blind, self.catalog, self.memory = list(private_plan), blind, catalog, []

    def close(self) -> None:
        self.holder.close()

    def _drop_replaced(self, commands: list[str]) -> None:
        for c in commands:
            parsed = parse_command(c, self.catalog) if self.catalog is not None else None
            if isinstance(parsed, Command):
                drop_replaced(self.plan, parsed, self.catalog)

    def _message(self, assistant_speech: str, view: HumanView) -> dict:
        sight = (
            "You cannot see."
            if view.blind
            else "You can see: " + (", ".join(n.replace("_", " ") for n in view.visible) or "nothing notable") + "."
        )
        lines = [
            f'The assistant says: "{assistant_speech}"',
            sight,
            "Your last results: " + ("; ".join(view.last_results) or "none") + ".",
            "Your own plan still to do: " + ("; ".join(self.plan) or "nothing") + ".",
            'Answer as JSON: {"say": ..., "commands": [...]}.',
        ]
        own = agent_config().human_frames_per_turn
        images = [f.image for f in view.frames[-own:] if f.image is not None] if not view.blind else []
        if images and self.holder.client.supports_images():
            return {"role": "user", "content": [text_part("\n".join(lines))] + [image_part(i) for i in images]}
        return {"role": "user", "content": "\n".join(lines)}

    def decide(self, assistant_speech: str | None, view: HumanView) -> HumanDecision:
        if not assistant_speech and self.plan:
            return HumanDecision(commands=[self.plan.pop(0)], from_assistant=False)
        if not assistant_speech:
            return HumanDecision()
        msg = self._message(assistant_speech, view)
        result = self.holder.client.chat(
            [{"role": "system", "content": SYSTEM}] + self.memory + [msg],
            response_format=json_format("human_turn", SCHEMA),
        )  # the preset's token limit
        if result.api_error:
            return HumanDecision(error=f"human model error: {result.api_error}")
        text_only = msg["content"] if isinstance(msg["content"], str) else msg["content"][0]["text"]
        self.memory = (
            self.memory + [{"role": "user", "content": text_only}, {"role": "assistant", "content": result.text or ""}]
        )[-2 * MAX_MEMORY_TURNS :]
        data = decode_json(result.text)
        if data is None or not isinstance(data.get("commands", []), list):
            self.malformed += 1
            LOG.warning("human model reply malformed: %r", (result.text or "")[:200])
            return HumanDecision(speech="Sorry, I did not understand. Could you say that again?")
        cmds = [str(c)[:80] for c in data.get("commands", [])[:MAX_COMMANDS] if isinstance(c, (str, int, float))]
        self._drop_replaced(cmds)
        return HumanDecision(commands=cmds, speech=str(data.get("say") or "")[:160])
