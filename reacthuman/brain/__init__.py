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
from reacthuman.brain.base import (
    Brain,
    BrainDecision,
    reference_brain_names,
    reference_brains,
    reference_factory,
    register_brain,
)
from reacthuman.brain.llm_brain import LLMBrain, ModalityChoice, choose_modality
from reacthuman.brain.observation import VIEW_DESCRIPTIONS, Observation, TrackSample, state_text
from reacthuman.brain.prompt import DEFAULT_MODALITY, MODALITIES, PRIVILEGED_MODALITY, SYSTEM_PROMPT, build_messages
from reacthuman.brain.schema import PLAN_SCHEMA, ParseOutcome, parse_reply, plan_from_dict, plan_to_dict
from reacthuman.llm.client import make_client

LOG = logging.getLogger(__name__)


def make_brain(
    name: str,
    *,
    modality: str = DEFAULT_MODALITY,
    seed: int = 0,
    text_only_fallback: bool = True,
    **client_overrides: Any,
) -> Brain:
    """The brain called `name` (a model may carry `?options`: reacthuman.core.presets.MODEL_OPTIONS; the
    brain's name is the model's without them). modality applies to LLM brains (images | state_text | both):
    `choose_modality` says what a model is shown. A model known to be text-only (its preset, or its server)
    asked for images runs on state_text (the privileged-state ablation; its decisions say so, and
    `brain.modality_note` why) when text_only_fallback, else it is refused; a model whose server turns images
    away raises ImageInputRefused. seed goes to `random`; client_overrides (temperature, max_tokens, ...) to
    the model client."""
    factory = reference_factory(name)
    if factory is not None:
        if client_overrides:
            raise ValueError(
                f"brain {name!r} is a reference brain; it takes no model options ({', '.join(client_overrides)})"
            )
        return factory(seed=seed)
    client = make_client(name, **client_overrides)
    try:
        choice = choose_modality(client, modality, text_only_fallback)
    except ValueError:
        client.close()
        raise
    if choice.note:
        LOG.warning("model %r %s", client.preset.name, choice.note)
    brain = LLMBrain(client, modality=choice.modality, name=client.preset.name)
    brain.modality_note = choice.note
    return brain


__all__ = [
    "Brain",
    "BrainDecision",
    "DEFAULT_MODALITY",
    "LLMBrain",
    "MODALITIES",
    "ModalityChoice",
    "choose_modality",
    "PRIVILEGED_MODALITY",
    "Observation",
    "PLAN_SCHEMA",
    "ParseOutcome",
    "SYSTEM_PROMPT",
    "TrackSample",
    "VIEW_DESCRIPTIONS",
    "build_messages",
    "make_brain",
    "parse_reply",
    "plan_from_dict",
    "plan_to_dict",
    "reference_brain_names",
    "reference_brains",
    "register_brain",
    "state_text",
]
