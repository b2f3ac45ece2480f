"""The ReactHuman brain: observation window in, committed reaction plan out.

    from reacthuman.brain import make_brain
    with make_brain("gpt-5.5") as brain:        # images by default; or "local" (text-only: state_text), "gpt-5.5", "oracle", "heuristic", ...
        decision = brain.plan(observation)                      # BrainDecision; decision.plan may be None

Names: any model preset of config/models.yaml or `openai-compatible:<model_id>@<base_url>` (an LLM brain),
or a reference brain: always_catch, always_dodge, freeze, random (seeded), heuristic, oracle.
"""

from __future__ import annotations

import logging
from typing import Any

from reacthuman.brain import reference as _reference  # noqa: F401  (registers the reference brains)
from reacthuman.brain.base import Brain, BrainDecision, reference_brain_names, reference_brains, reference_factory, register_brain
from reacthuman.brain.llm_brain import LLMBrain
from reacthuman.brain.observation import VIEW_DESCRIPTIONS, Observation, TrackSample, state_text
from reacthuman.brain.prompt import DEFAULT_MODALITY, MODALITIES, PRIVILEGED_MODALITY, SYSTEM_PROMPT, build_messages
from reacthuman.brain.schema import PLAN_SCHEMA, ParseOutcome, parse_reply, plan_from_dict, plan_to_dict
from reacthuman.llm.client import make_client

LOG = logging.getLogger(__name__)


def make_brain(name: str, *, modality: str = DEFAULT_MODALITY, seed: int = 0, text_only_fallback: bool = True,
               **client_overrides: Any) -> Brain:
    """The brain called `name`. modality applies to LLM brains (images | state_text | both). A text-only
    model asked for images runs on state_text (the privileged-state ablation; its decisions say so) when
    text_only_fallback, else it is refused. seed goes to `random`; client_overrides (temperature,
    max_tokens, ...) to the model client."""
    factory = reference_factory(name)
    if factory is not None:
        if client_overrides:
            raise ValueError(f"brain {name!r} is a reference brain; it takes no model options ({', '.join(client_overrides)})")
        return factory(seed=seed)
    client = make_client(name, **client_overrides)
    if text_only_fallback and modality in MODALITIES and modality != PRIVILEGED_MODALITY and not client.supports_images():
        LOG.warning("model %r is text-only: it runs on %s (the privileged-state ablation), not %s",
                    name, PRIVILEGED_MODALITY, modality)
        modality = PRIVILEGED_MODALITY
    return LLMBrain(client, modality=modality, name=name)


__all__ = [
    "Brain", "BrainDecision", "DEFAULT_MODALITY", "LLMBrain", "MODALITIES", "PRIVILEGED_MODALITY", "Observation", "PLAN_SCHEMA", "ParseOutcome",
    "SYSTEM_PROMPT", "TrackSample", "VIEW_DESCRIPTIONS", "build_messages", "make_brain", "parse_reply",
    "plan_from_dict", "plan_to_dict", "reference_brain_names", "reference_brains", "register_brain", "state_text",
]
