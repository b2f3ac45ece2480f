"""A model as the human executor: it hears the assistant, sees its own view (names of what is in sight;
nothing when blind), may ask to clarify, and must output exact commands without substituting objects,
destinations or actions. It also carries on with its own private plan when one is given (Prevention)."""

from __future__ import annotations

from interactiveworld.actions.primitives import PRIMITIVES
from interactiveworld.agents.base import HumanDecision, HumanView
from interactiveworld.agents.llm_common import LOG, ClientHolder, decode_json, json_format

MAX_COMMANDS = 4
SYSTEM = (
    "You are a person at home following an assistant's spoken guidance. Turn the guidance into exact commands, "
    "one per list item, using only these forms: 'go to the X', 'pick up the X', 'put the X in the Y', 'put the X on "
    "the Y', 'open the X', 'close the X', 'turn on the X', 'turn off the X', 'wait N seconds', 'fill the X', "
    "'pour water into the X', 'uncover the X', 'wipe the X with the Y', 'give the X to the Y', 'read the X', "
    "'search the X', 'look around'. Use exactly the names the assistant used. Never replace an object, place or "
    "action by another. If the guidance is unclear, give no commands and ask in 'say'. If the assistant said "
    "nothing, follow your own plan (if any) one step at a time."
)
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["say", "commands"],
          "properties": {"say": {"type": "string", "maxLength": 160},
                         "commands": {"type": "array", "maxItems": MAX_COMMANDS, "items": {"type": "string", "maxLength": 80}}}}
assert len(PRIMITIVES) == 36


class LLMHuman:
    def __init__(self, model: str) -> None:
        self.name = f"llm:{model}"
        self.holder = ClientHolder(model)
        self.plan: list[str] = []
        self.blind = False
        self.malformed = 0

    def reset(self, private_plan: tuple[str, ...], blind: bool, catalog) -> None:
        self.plan, self.blind = list(private_plan), blind

    def close(self) -> None:
        self.holder.close()

    def decide(self, assistant_speech: str | None, view: HumanView) -> HumanDecision:
        if not assistant_speech and self.plan:
            return HumanDecision(commands=[self.plan.pop(0)], from_assistant=False)
        if not assistant_speech:
            return HumanDecision()
        sight = "You cannot see." if view.blind else "You can see: " + (", ".join(n.replace("_", " ") for n in view.visible) or "nothing notable") + "."
        lines = [f"The assistant says: \"{assistant_speech}\"", sight,
                 "Your last results: " + ("; ".join(view.last_results) or "none") + ".",
                 "Answer as JSON: {\"say\": ..., \"commands\": [...]}."]
        result = self.holder.client.chat([{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(lines)}],
                                         response_format=json_format("human_turn", SCHEMA), max_tokens=200)
        if result.api_error:
            return HumanDecision(error=f"human model error: {result.api_error}")
        data = decode_json(result.text)
        if data is None or not isinstance(data.get("commands", []), list):
            self.malformed += 1
            LOG.warning("human model reply malformed: %r", (result.text or "")[:200])
            return HumanDecision(speech="Sorry, I did not understand. Could you say that again?")
        cmds = [str(c)[:80] for c in data.get("commands", [])[:MAX_COMMANDS] if isinstance(c, (str, int, float))]
        return HumanDecision(commands=cmds, speech=str(data.get("say") or "")[:160])
