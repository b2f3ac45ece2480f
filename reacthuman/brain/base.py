"""The Brain interface, its decision record, and the registry that makes every brain selectable by name."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable

from reacthuman.brain.observation import Observation
from reacthuman.brain.schema import plan_to_dict
from reacthuman.plan.plan import Plan


@dataclass(frozen=True)
class BrainDecision:
    """One committed decision. plan is None when the reply did not parse (parse_error says why) or the call
    failed (api_error says why)."""

    brain: str  # the brain's registry name (model preset / spec, or reference brain)
    plan: Plan | None
    raw_text: str
    parse_ok: bool
    parse_error: str | None = None
    api_error: str | None = None
    latency_s: float = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    retries: int = 0
    model_id: str = ""
    modality: str = ""
    truncated: bool = False  # the reply was cut at the model's token limit (finish_reason: length)

    @property
    def tokens(self) -> int | None:
        if self.prompt_tokens is None and self.completion_tokens is None:
            return None
        return (self.prompt_tokens or 0) + (self.completion_tokens or 0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record (brain_plan.json): the plan in the schema's field names."""
        return {
            "brain": self.brain,
            "model_id": self.model_id,
            "modality": self.modality,
            "plan": plan_to_dict(self.plan) if self.plan is not None else None,
            "raw_text": self.raw_text,
            "parse_ok": self.parse_ok,
            "parse_error": self.parse_error,
            "api_error": self.api_error,
            "latency_s": self.latency_s,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "truncated": self.truncated,
            "retries": self.retries,
        }


class Brain(ABC):
    """Observation in, committed decision out. Brains hold resources (a model client): close() them."""

    name: str = ""
    needs_ground_truth: bool = False  # reads observation.ground_truth (the oracle): a graph waits for it

    @abstractmethod
    def plan(self, obs: Observation) -> BrainDecision: ...

    def close(self) -> None:
        """Release held resources; the default holds none."""

    def __enter__(self) -> "Brain":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BrainFactory = Callable[..., Brain]
_REFERENCE_BRAINS: dict[str, BrainFactory] = {}
_DESCRIPTIONS: dict[str, str] = {}


def register_brain(name: str, factory: BrainFactory, description: str = "") -> None:
    """Make a brain selectable by `name` (a reference brain); model presets need no registration.
    `description` (a few words) is what `--help` of `reacthuman eval --models` says about it."""
    if name in _REFERENCE_BRAINS:
        raise ValueError(f"brain {name!r} is already registered")
    _REFERENCE_BRAINS[name] = factory
    _DESCRIPTIONS[name] = description or "a reference brain"


def reference_brain_names() -> list[str]:
    return sorted(_REFERENCE_BRAINS)


def reference_brains() -> dict[str, str]:
    """Name -> description of every reference brain, sorted by name: the references of the `--models` grammar."""
    return {name: _DESCRIPTIONS[name] for name in reference_brain_names()}


def reference_factory(name: str) -> BrainFactory | None:
    return _REFERENCE_BRAINS.get(name)


def reads_truth(name: str) -> bool:
    """Whether the brain called `name` reads the simulator's truth (a reference brain such as the oracle), so a
    graph sends it the truth of each re-plan's moment."""
    factory = reference_factory(name)
    return factory is not None and factory(seed=0).needs_ground_truth
