"""Reference assistants (oracle, silent, wrong) and the factory that names every assistant."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interactiveworld.agents.base import AssistantBrief, AssistantObservation, AssistantReply
from interactiveworld.agents.blind import BlindAssistant
from interactiveworld.agents.config import ASSISTANT_VIEWS
from interactiveworld.agents.llm_assistant import NO_VIEW_SUFFIX, LLMAssistant
from interactiveworld.agents.scripted_human import ScriptedHuman
from interactiveworld.agents.llm_human import LLMHuman
from reacthuman.core.presets import model_name

if TYPE_CHECKING:
    from reacthuman.core.model_spec import ModelSpec

# The references of the `--models` grammar (name -> what it does); any other assistant or human is a model.
REFERENCE_ASSISTANTS = {
    "oracle": "speaks the task's reference instructions",
    "silent": "never helps",
    "wrong": "speaks the task's wrong instructions",
    "early": "all the reference help at once, at handoff",
    "blind": "no images, only the human's words",
}
REFERENCE_HUMANS = {"scripted": "follows instructions exactly, else its own plan"}
MODEL_PREFIX = "llm:"  # how run folders, results and reports name a model agent


def agent_name(spec: "ModelSpec") -> str:
    """The name the bench records for an assistant or human spec: a reference's own name, `llm:<name>` for a
    model. Run folders and results have always spelled models that way; keeping it lets old runs resume and
    old and new rows share one report (the command line no longer needs the prefix). A model's `?options`
    stay on it, since the client is built from this name (they name environment variables, never keys);
    results name the model without them (`recorded_name`, the agents' `name`)."""
    return MODEL_PREFIX + spec.entry if spec.is_llm else spec.name


def recorded_name(name: str) -> str:
    """An agent name (`agent_name`) as results record it: a model without its `?options`."""
    return MODEL_PREFIX + model_name(name[len(MODEL_PREFIX) :]) if name.startswith(MODEL_PREFIX) else name


class ScriptedAssistant:
    """Speaks a fixed list of turns (speech, or None to stay quiet), then declares done (or, `then="wait"`,
    stays quiet to the turn limit)."""

    def __init__(self, name: str, turns: tuple[str | None, ...], then: str = "done") -> None:
        self.name = name
        self.turns = turns
        self.then = then
        self._i = 0

    def reset(self, brief: AssistantBrief) -> None:
        self._i = 0

    def act(self, obs: AssistantObservation) -> AssistantReply:
        if self._i >= len(self.turns):
            return AssistantReply(self.then)
        say = self.turns[self._i]
        self._i += 1
        return AssistantReply("wait") if say is None else AssistantReply("speak", say)


class SilentAssistant:
    """Never helps: waits every turn (the human's own plan, if any, runs on), never declares done."""

    name = "silent"

    def reset(self, brief: AssistantBrief) -> None:
        pass

    def act(self, obs: AssistantObservation) -> AssistantReply:
        return AssistantReply("wait")


def make_assistant(name: str, pack, memory: bool = False):
    """A bench agent name (`agent_name` of a `--models` spec): 'oracle' | 'silent' | 'wrong' | 'early' | 'blind' |
    'llm:<model>' (any model name `reacthuman.llm.make_client` takes) | 'llm:<model>+noview' (frames withheld)."""
    if name == "oracle":
        return ScriptedAssistant("oracle", pack.oracle)
    if name == "wrong":
        return ScriptedAssistant("wrong", pack.wrong)
    if name == "early":
        # the early-help control: all of the reference help at once, at handoff, then quiet to the turn limit
        # (it watches nothing, so it cannot tell when the task is done)
        return ScriptedAssistant("early", (" ".join(t for t in pack.oracle if t),), then="wait")
    if name == "silent":
        return SilentAssistant()
    if name == "blind":
        return BlindAssistant()
    if name.startswith("llm:"):
        model = name[4:]
        if model.endswith(NO_VIEW_SUFFIX):  # `--assistant-view none`: the same model with its frames withheld
            return LLMAssistant(model[: -len(NO_VIEW_SUFFIX)], memory=memory, view="none")
        return LLMAssistant(model, memory=memory)
    raise ValueError(f"unknown assistant {name!r} (oracle, silent, wrong, early, blind or llm:<model>)")


def viewed_assistant(name: str, view: str) -> str:
    """The bench name of assistant `name` under `--assistant-view` `view`: `llm:<model>+noview` when its frames
    are withheld. A reference assistant under `none` is refused (it is not a model; the ablation means nothing)."""
    if view not in ASSISTANT_VIEWS:
        raise ValueError(f"assistant view must be one of {ASSISTANT_VIEWS}, got {view!r}")
    if view == "frames":
        return name
    if not name.startswith("llm:"):
        raise ValueError(f"--assistant-view none: {name!r} is a reference assistant, not a model")
    return name + NO_VIEW_SUFFIX


def make_human(name: str):
    """A bench agent name (`agent_name` of a `--human` spec): 'scripted' | 'llm:<model>'."""
    if name == "scripted":
        return ScriptedHuman()
    if name.startswith("llm:"):
        return LLMHuman(name[4:])
    raise ValueError(f"unknown human {name!r} (scripted or llm:<model>)")
