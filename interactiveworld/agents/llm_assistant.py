"""A model as the assistant: it gets chronological first-person frames as images (at most
`assistant_frames_per_turn` in one request, config/interactiveworld.yaml: 32 as in the paper) and the human's
speech - never simulator ids, private state, answer keys or score -
and answers with one mode per turn: speak, wait or done. With `memory`, it also returns new facts that are
appended to a chronological ledger and shown to it on every later turn (the memory-augmentation ablation).

`view="none"` withholds every frame (the perception ablation: the same model, eyes closed). With frames, a model
known to take no images is refused (`TextOnlyAssistant`), never silently sent words alone."""

from __future__ import annotations

from interactiveworld.actions.parser import command_text
from interactiveworld.actions.primitives import PRIMITIVES
from interactiveworld.agents.base import AssistantBrief, AssistantObservation, AssistantReply, select_frames
from interactiveworld.agents.config import ASSISTANT_VIEWS, agent_config
from interactiveworld.agents.llm_common import LOG, ClientHolder, decode_json, json_format
from reacthuman.llm import image_part, text_part
from reacthuman.core.presets import model_name

NO_VIEW_SUFFIX = "+noview"  # the bench name of a model assistant run with its frames withheld


class TextOnlyAssistant(ValueError):
    """A model assistant that takes no images was asked to run with frames."""


def command_grammar() -> str:
    """The sentences the human understands, one per primitive, from the same table the parser reads."""
    forms = [command_text(p.name, "X", "Y", 2 if "N" in p.args else None) for p in PRIMITIVES if p.name != "ask"]
    return "; ".join(f"'{f}'" for f in dict.fromkeys(forms))


SYSTEM = (
    "You are a disembodied assistant helping a person at home. You see what they see (first-person frames) and hear "
    "what they say; you cannot act. Each turn choose one mode: 'speak' to give guidance, 'wait' to stay quiet and "
    "watch, 'done' when the task is complete. Give exact, short commands the person can carry out, one per "
    "sentence, e.g. 'Open the fridge. Pick up the milk. Put the milk in the fridge.' Use the names of things as "
    "spoken in the home (colour + object, 'kitchen cabinet', 'left burner'). Do not guess: use what you saw and heard. "
    "The person knows only what they have seen or what you told them: say where a thing is ('The milk is on the "
    "counter.') before asking them to use something they have not seen. They understand these commands (X and Y "
    "are names of things, places or rooms; several commands may be joined by commas, 'and' or 'then', and 'it' "
    "means the last thing named): " + command_grammar() + "."
)
NO_VIEW = (
    " In this run you do not see the person's view: you only hear what they say. They say what they did, "
    "why they could not, and read texts aloud; they do not describe what they see."
)
MAX_TEXT_CHARS = 400
MAX_FACTS = 4


def reply_schema(memory: bool) -> dict:
    props = {
        "mode": {"type": "string", "enum": ["speak", "wait", "done"]},
        "text": {"type": "string", "maxLength": MAX_TEXT_CHARS},
    }
    if memory:
        props["facts"] = {"type": "array", "maxItems": MAX_FACTS, "items": {"type": "string", "maxLength": 120}}
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def keep_recent_images(history: list[dict], limit: int) -> list[dict]:
    """The conversation with only the `limit` most recent images left in it (older turns keep their words)."""
    out, left = [], limit
    for m in reversed(history):
        if isinstance(m["content"], list):
            parts = [m["content"][0]]
            images = m["content"][1:]
            kept = images[len(images) - min(left, len(images)) :] if left > 0 else []
            left -= len(kept)
            m = {**m, "content": parts + kept if kept else parts[0]["text"]}
        out.append(m)
    return out[::-1]


class LLMAssistant:
    def __init__(
        self, model: str, memory: bool = False, view: str = "frames", frames_per_turn: int | None = None
    ) -> None:
        if view not in ASSISTANT_VIEWS:
            raise ValueError(f"assistant view must be one of {ASSISTANT_VIEWS}, got {view!r}")
        frames_per_turn = agent_config().assistant_frames_per_turn if frames_per_turn is None else frames_per_turn
        if frames_per_turn < 1:
            raise ValueError(f"frames_per_turn must be >= 1, got {frames_per_turn}")
        self.name = (
            f"llm:{model_name(model)}" + (NO_VIEW_SUFFIX if view == "none" else "") + ("+memory" if memory else "")
        )
        self.memory = memory
        self.view = view
        self.frames_per_turn = frames_per_turn
        self.images_sent = 0
        self.holder = ClientHolder(model)
        self.history: list[dict] = []
        self.ledger: list[str] = []
        self.brief: AssistantBrief | None = None
        self.api_errors = 0

    def reset(self, brief: AssistantBrief) -> None:
        self.brief, self.history, self.ledger = brief, [], []

    def close(self) -> None:
        self.holder.close()

    def check_view(self) -> None:
        """Refuses a run with frames for a model known to take no images (asks its preset, else its server)."""
        if self.view == "frames" and not self.holder.client.supports_images():
            raise TextOnlyAssistant(
                f"assistant model {self.holder.model!r} takes no images (its preset or server says so): InteractiveWorld "
                "sends the assistant first-person frames; run it with --assistant-view none for the no-frames "
                "ablation, or name a vision model"
            )

    def _user_message(self, obs: AssistantObservation) -> dict:
        lines = [
            f"Turn {obs.turn + 1} of at most {self.brief.max_turns}.",
            f'The person says: "{obs.human_speech}"',
            f"{len(obs.frames)} new first-person frames since your last turn.",
        ]
        if self.memory:
            lines.append(
                "Your memory ledger (facts so far): "
                + ("; ".join(self.ledger) or "empty")
                + ". Add in 'facts' any new facts about objects, places and actions."
            )
        lines.append('Answer as JSON: {"mode": ..., "text": ...}.')
        if self.view == "none":
            lines[2] = "You do not see the person's view."
            return {"role": "user", "content": "\n".join(lines)}
        images = [f.image for f in select_frames(list(obs.frames), self.frames_per_turn) if f.image is not None]
        if images:
            self.check_view()
            return {"role": "user", "content": [text_part("\n".join(lines))] + [image_part(i) for i in images]}
        return {"role": "user", "content": "\n".join(lines)}

    def act(self, obs: AssistantObservation) -> AssistantReply:
        try:
            msg = self._user_message(obs)
        except TextOnlyAssistant as exc:  # a refusal, not a model failure: the episode is voided with it
            return AssistantReply("wait", error=str(exc))
        now = len(msg["content"]) - 1 if isinstance(msg["content"], list) else 0
        # at most frames_per_turn images in one request: this turn's, then the most recent earlier ones
        history = keep_recent_images(self.history, self.frames_per_turn - now)
        system = SYSTEM + (NO_VIEW if self.view == "none" else "")
        messages = [{"role": "system", "content": system}] + history + [msg]
        self.images_sent += sum(len(m["content"]) - 1 for m in messages if isinstance(m["content"], list))
        # the output token limit is the model preset's (`max_tokens` in config/models.yaml)
        result = self.holder.client.chat(
            messages, response_format=json_format("assistant_turn", reply_schema(self.memory))
        )
        if result.api_error:
            self.api_errors += 1
            LOG.warning("assistant model error: %s", result.api_error)
            return AssistantReply("wait", error=f"assistant model error: {result.api_error}")
        data = decode_json(result.text) or {}
        mode = data.get("mode") if data.get("mode") in ("speak", "wait", "done") else "wait"
        text = str(data.get("text") or "")[:MAX_TEXT_CHARS]
        if mode == "speak" and not text.strip():
            mode = "wait"
        facts = tuple(str(f)[:120] for f in (data.get("facts") or [])[:MAX_FACTS]) if self.memory else ()
        self.ledger += list(facts)
        self.history += [msg, {"role": "assistant", "content": result.text}]
        self.history = keep_recent_images(self.history, self.frames_per_turn)
        return AssistantReply(mode, text if mode == "speak" else "", facts)
