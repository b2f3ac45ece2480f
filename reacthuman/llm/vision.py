"""Whether a model takes images, for every system of the suite: the rule is "images unless known text-only".

A model is known to be text-only when its preset (or its `?vision=false` option) says `vision: false`, or when
its server says so (`ChatClient.image_input`: llama.cpp `/props`, OpenRouter-style `/models`, Ollama
`/api/show`). Anything else is sent images. A server that turns image parts away answers in its own words
(`is_image_refusal` knows those of vLLM, Ollama, OpenAI, OpenRouter, llama.cpp and LM Studio); a run checks
that before writing anything (`check_image_input`) and stops with `ImageInputRefused`, whose one-line message
names the model and the explicit text-only choice, instead of running the model on something else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from reacthuman.llm.images import image_part, text_part

if TYPE_CHECKING:
    from reacthuman.llm.client import ChatClient

# HTTP statuses servers answer image parts to a text-only model with: vLLM 400, OpenAI 400, Ollama 400 (older:
# 500), OpenRouter 404, llama.cpp 500, some gateways 415 or 422.
REFUSAL_STATUSES = frozenset({400, 404, 415, 422, 500, 501})
_IMAGE_WORDS = ("image", "multimodal", "multi-modal", "vision", "mmproj", "pixel")
_REFUSAL_WORDS = ("not", "unsupported", "only supported", "no endpoints", "cannot", "can't", "invalid content type")
PROBE_SIZE_PX = 32
PROBE_MAX_TOKENS = 16
DETAIL_MAX_CHARS = 200


class ImageInputRefused(ValueError):
    """The model's server turns image parts away; the message is one line naming the model and the choice."""


IMAGES_REFUSED_FAULT = "images refused: "  # how a graph's brain node reports the refusal that stops its run


def images_refused_in(error: str | None) -> str | None:
    """The one-line refusal carried by an episode's error (a brain node's fault starting IMAGES_REFUSED_FAULT),
    or None: the error is of another kind."""
    if not error or IMAGES_REFUSED_FAULT not in error:
        return None
    return " ".join(error.split(IMAGES_REFUSED_FAULT, 1)[1].split())


def is_image_refusal(status: int | None, message: str) -> bool:
    """Whether an HTTP error answer says the model takes no images (e.g. vLLM's "... is not a multimodal model",
    Ollama's "this model does not support image input", OpenAI's "image_url is only supported by certain
    models", OpenRouter's "No endpoints found that support image input", llama.cpp's "image input is not
    supported")."""
    if status is not None and status not in REFUSAL_STATUSES:
        return False
    text = message.lower()
    return any(w in text for w in _IMAGE_WORDS) and any(w in text for w in _REFUSAL_WORDS)


def refusal_message(model: str, detail: str, text_choice: str) -> str:
    """The one line a run stops with when `model` refuses images; `text_choice` is how this system names the
    text-only alternative (ReactHuman: `--modality state_text`)."""
    return (
        f"model '{model}' refuses image input ({detail}): this evaluation sends images, so it stops here. "
        f"To evaluate it on text instead, run it with {text_choice} (the privileged-state ablation), or give "
        f"'{model}?vision=false'"
    )


def text_only_reason(client: "ChatClient") -> str | None:
    """Why the model is known to take no images (its preset, or its server), or None: it gets images."""
    if client.preset.vision is False:
        return "its preset says vision: false"
    if client.image_input() is False:
        return f"its server reports a text-only model ({client.vision_source})"
    return None


def check_image_input(client: "ChatClient", text_choice: str) -> None:
    """Raises ImageInputRefused when the server turns a small image part away. Nothing is asked of a model
    declared to take images (a preset or `?vision=true`), nor of one known to be text-only; a probe that
    fails for another reason (the server is down, a rate limit) is left to the run, which records it."""
    if client.preset.vision is not None or client.image_input() is not None:
        return
    frame = np.full((PROBE_SIZE_PX, PROBE_SIZE_PX, 3), 128, dtype=np.uint8)
    messages = [{"role": "user", "content": [text_part("What colour is this image? One word."), image_part(frame)]}]
    result = client.chat(messages, max_tokens=PROBE_MAX_TOKENS)
    if result.images_refused:
        detail = " ".join((result.api_error or "refused").split())[:DETAIL_MAX_CHARS]
        raise ImageInputRefused(refusal_message(client.preset.name, detail, text_choice))
