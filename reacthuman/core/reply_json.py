"""JSON in a model's reply: the one way every system finds it, and the response-format wrapper that asks for it.

Models wrap JSON in prose and code fences, quote fragments before the real answer and sometimes stop
mid-object. `json_candidates` looks in fenced blocks first, then in the whole text, and returns every value
that decodes at an opening bracket of the first place that holds any (outer values before the ones nested
in them, so an answer wrapped in another object is still found); callers take the first that fits.
"""

from __future__ import annotations

import json
import re
from typing import Any

FENCE_RE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_PLAIN = json.JSONDecoder()


def json_candidates(
    text: str | None, openers: str = "{[", decoder: json.JSONDecoder | None = None, max_starts: int | None = None
) -> list[Any]:
    """Values decoded at each of `openers` (at most `max_starts` per place) in the reply's fenced blocks,
    else in its whole text. `decoder` may be stricter than json's default (duplicate keys, NaN)."""
    text = text or ""
    dec = decoder or _PLAIN
    found: list[Any] = []
    for source in [m.group(1) for m in FENCE_RE.finditer(text)] + [text]:
        starts = [i for i, c in enumerate(source) if c in openers][:max_starts]
        for start in starts:
            try:
                value, _ = dec.raw_decode(source, start)
            except ValueError:
                continue
            found.append(value)
        if found:
            return found
    return found


def first_json_object(text: str | None) -> dict[str, Any] | None:
    """The first JSON object in a reply, or None."""
    return next(iter(json_candidates(text, openers="{")), None)


def response_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAI-style `response_format` asking for JSON under `schema` (llama.cpp turns it into a grammar)."""
    return {"type": "json_schema", "json_schema": {"name": name, "strict": True, "schema": schema}}
