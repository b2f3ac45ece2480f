"""The evaluated model as the brain: one prompt, one schema, one call per decision."""

from __future__ import annotations

import logging

from reacthuman.brain.base import Brain, BrainDecision
from reacthuman.brain.observation import Observation
from reacthuman.brain.prompt import MODALITIES, build_messages
from reacthuman.brain.schema import parse_reply, response_format
from reacthuman.llm.client import ChatClient

LOG = logging.getLogger(__name__)


class LLMBrain(Brain):
    """A model behind a ChatClient. The brain owns the client and closes it."""

    def __init__(self, client: ChatClient, modality: str = "state_text", name: str | None = None) -> None:
        if modality not in MODALITIES:
            client.close()
            raise ValueError(f"modality must be one of {MODALITIES}, got {modality!r}")
        if modality in ("images", "both") and not client.supports_images():
            model = client.preset.name
            client.close()
            raise ValueError(f"model '{model}' is text-only (it accepts no images): use modality 'state_text', not '{modality}'")
        self.client = client
        self.modality = modality
        self.name = name or client.preset.name

    def plan(self, obs: Observation) -> BrainDecision:
        messages = build_messages(obs, self.modality)
        fmt = response_format() if self.client.preset.json_schema else None
        result = self.client.chat(messages, response_format=fmt)
        common = dict(
            brain=self.name, latency_s=result.latency_s, prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens, retries=result.retries, model_id=result.model_id,
            modality=self.modality,
        )
        if result.api_error is not None:
            LOG.warning("brain %s, scene %s: API error: %s", self.name, obs.scene_id, result.api_error)
            return BrainDecision(plan=None, raw_text=result.text, parse_ok=False, api_error=result.api_error, **common)
        text = result.text
        if not text.strip() and result.tool_calls:
            text = result.tool_calls[0]["raw_arguments"]  # a model that answered through a function call
        outcome = parse_reply(text, truncated=result.finish_reason == "length")
        return BrainDecision(plan=outcome.plan, raw_text=text, parse_ok=outcome.parse_ok, parse_error=outcome.parse_error, **common)

    def close(self) -> None:
        self.client.close()
