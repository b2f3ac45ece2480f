"""The evaluated model as the brain: one prompt, one schema, one call per decision.

What a model is shown follows the suite's rule (reacthuman/llm/vision.py): images, the paper's protocol,
unless the model is known to be text-only; a server that refuses images stops the run (ImageInputRefused)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Mapping

from reacthuman.brain.base import Brain, BrainDecision
from reacthuman.brain.observation import Observation
from reacthuman.brain.prompt import MODALITIES, PRIVILEGED_MODALITY, build_messages
from reacthuman.brain.schema import parse_reply, response_format
from reacthuman.llm.client import ChatClient
from reacthuman.llm.vision import ImageInputRefused, check_image_input, refusal_message, text_only_reason
from reacthuman.llm.client import make_client

LOG = logging.getLogger(__name__)
TEXT_CHOICE = f"--modality {PRIVILEGED_MODALITY}"  # how ReactHuman's commands name the text-only alternative


@dataclass(frozen=True)
class ModalityChoice:
    """What a model is shown, and, when that is not what was asked, why (one phrase for logs and reports)."""

    modality: str
    note: str = ""


def choose_modality(client: ChatClient, requested: str, text_only_fallback: bool = True) -> ModalityChoice:
    """`requested` (images | state_text | both) for `client`'s model: a model known to be text-only runs on
    state_text when text_only_fallback (ValueError else); any other model gets images, once its server has
    taken a small image (ImageInputRefused, one line, when it turns it away)."""
    if requested not in MODALITIES:
        raise ValueError(f"modality must be one of {MODALITIES}, got {requested!r}")
    if requested == PRIVILEGED_MODALITY:
        return ModalityChoice(requested)
    reason = text_only_reason(client)
    if reason is not None:
        if not text_only_fallback:
            raise ValueError(
                f"model '{client.preset.name}' is text-only ({reason}): use modality "
                f"'{PRIVILEGED_MODALITY}', not '{requested}'"
            )
        return ModalityChoice(
            PRIVILEGED_MODALITY,
            f"is text-only ({reason}): it runs on {PRIVILEGED_MODALITY}, "
            f"the privileged-state ablation, not {requested}",
        )
    check_image_input(client, TEXT_CHOICE)
    return ModalityChoice(requested)


def model_modalities(entries: Mapping[str, str], requested: str) -> dict[str, ModalityChoice]:
    """name -> what each model (name -> its `--models` entry with options) is shown under `requested`, asked
    before a run starts anything: ImageInputRefused (one line) for the first model whose server turns images
    away, ValueError for a configuration mistake (a key's variable unset)."""

    choices = {}
    for name, entry in entries.items():
        with make_client(entry) as client:
            choices[name] = choose_modality(client, requested)
    return choices


class LLMBrain(Brain):
    """A model behind a ChatClient. The brain owns the client and closes it."""

    def __init__(self, client: ChatClient, modality: str = "state_text", name: str | None = None) -> None:
        if modality not in MODALITIES:
            client.close()
            raise ValueError(f"modality must be one of {MODALITIES}, got {modality!r}")
        if modality in ("images", "both") and not client.supports_images():
            model = client.preset.name
            client.close()
            raise ValueError(
                f"model '{model}' is text-only (it accepts no images): use modality 'state_text', not '{modality}'"
            )
        self.client = client
        self.modality = modality
        self.modality_note = ""  # why the modality is not the one asked for (make_brain sets it)
        self.name = name or client.preset.name

    def plan(self, obs: Observation) -> BrainDecision:
        messages = build_messages(obs, self.modality)
        fmt = response_format() if self.client.preset.json_schema else None
        result = self.client.chat(messages, response_format=fmt)
        common = dict(
            brain=self.name,
            latency_s=result.latency_s,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            retries=result.retries,
            model_id=result.model_id,
            modality=self.modality,
            truncated=result.truncated,
        )
        if result.images_refused:  # a model declared to take images that does not: no decision to score
            raise ImageInputRefused(refusal_message(self.name, " ".join(result.api_error.split())[:200], TEXT_CHOICE))
        if result.api_error is not None:
            LOG.warning("brain %s, scene %s: API error: %s", self.name, obs.scene_id, result.api_error)
            return BrainDecision(plan=None, raw_text=result.text, parse_ok=False, api_error=result.api_error, **common)
        text = result.text
        if not text.strip() and result.tool_calls:
            text = result.tool_calls[0]["raw_arguments"]  # a model that answered through a function call
        outcome = parse_reply(text, truncated=result.truncated)
        return BrainDecision(
            plan=outcome.plan, raw_text=text, parse_ok=outcome.parse_ok, parse_error=outcome.parse_error, **common
        )

    def close(self) -> None:
        self.client.close()
