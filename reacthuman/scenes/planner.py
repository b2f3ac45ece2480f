"""Stage 1, semantic planning: a natural-language description -> a validated Selection (family, object from
that family's catalogue, room, family hints). Never a number: stage 2 owns every continuous parameter.

Path: the project's model client (reacthuman.llm.make_client) answers a JSON schema; the answer is checked
against the catalogue and retried with the error fed back; when no model is configured or every try
fails, a deterministic rule-based parser decides. Selection.planner records which path was taken
("llm" or "rule"). No frames or units here.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from reacthuman.core.reply_json import response_format
from reacthuman.scenes.catalog import OBJECTS
from reacthuman.scenes.families import FAMILIES, FAMILY_DEFS, get_family
from reacthuman.scenes.phrases import (
    FAMILY_PHRASES,
    HINT_PHRASES,
    ROOM_PHRASES,
    has_phrase,
    match_object,
    object_names,
)
from reacthuman.scenes.randomize import Selection
from reacthuman.scenes.rooms import ROOM_TYPES
from reacthuman.scenes.sourcing import resolve_object
from reacthuman.scenes.spec import SpecError

log = logging.getLogger(__name__)
DEFAULT_RETRIES = 2


class PlannerError(ValueError):
    """No family fits the description (one line)."""


def rule_parse(description: str) -> Selection:
    """Deterministic keyword parser: the family with the most phrase weight (an object named in its
    catalogue adds weight); the object, room and hints by phrase. Raises PlannerError if nothing fits."""
    text = " ".join(description.lower().replace("-", " ").split())
    if not text:
        raise PlannerError("empty scene description")
    scores = {}
    for fam in FAMILIES:
        score = sum(w for p, w in FAMILY_PHRASES[fam].items() if has_phrase(text, p.replace("-", " ")))
        if score and match_object(text, FAMILY_DEFS[fam].objects):
            score += 1.5
        scores[fam] = score
    family = max(FAMILIES, key=lambda f: (scores[f], -FAMILIES.index(f)))
    if scores[family] <= 0:
        raise PlannerError(f"no event family fits the description: {description.strip()[:80]!r}")
    fam = get_family(family)
    object_id = match_object(text, fam.objects)
    # A room named as such ("in the living room") beats one implied by furniture ("counter" -> kitchen).
    room = next((r for r in ROOM_TYPES if has_phrase(text, r.replace("_", " "))), None) or next(
        (r for r in ROOM_TYPES if any(has_phrase(text, p) for p in ROOM_PHRASES[r])), None
    )
    hints = {}
    rest = text  # hints are read beside the object's name ("a cardboard box hops onto the bench": bench)
    named = [n for n in object_names(object_id, fam.objects) if has_phrase(text, n)] if object_id else []
    if named:  # the longest name, once: "onto the box" stays when the object is "a cardboard box"
        rest = re.sub(r"(?<![a-z])" + re.escape(named[0]) + r"(?![a-z])", " ", text, count=1)
    for key in fam.hints:
        for value, phrases in HINT_PHRASES.get(key, {}).items():
            if value in fam.hints[key] and any(has_phrase(rest, p) for p in phrases):
                hints[key] = value
                break
    return Selection(family, object_id, room, hints, "rule", description.strip())


def _schema() -> dict[str, Any]:
    hint_values = sorted({v for d in FAMILY_DEFS.values() for vals in d.hints.values() for v in vals} | {""})
    return response_format(
        "scene_selection",
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["family", "object_id", "room", "hints"],
            "properties": {
                "family": {"type": "string", "enum": list(FAMILIES)},
                "object_id": {"type": "string", "enum": sorted(OBJECTS)},
                "room": {"type": "string", "enum": list(ROOM_TYPES)},
                "hints": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["surface", "regime", "support"],
                    "properties": {
                        k: {"type": "string", "enum": hint_values} for k in ("surface", "regime", "support")
                    },
                },
            },
        },
    )


def _prompt(description: str) -> list[dict[str, str]]:
    lines = [
        "Turn the description of a sudden household event into a scene selection (JSON only).",
        'Choose the event family, an object_id from THAT family\'s catalogue, a room, and hints ("" when unknown).',
        "Never invent objects; never give numbers. Families and their catalogues:",
    ]
    for d in FAMILY_DEFS.values():
        hints = "; ".join(f"{k}: {'|'.join(v)}" for k, v in d.hints.items())
        lines.append(f"- {d.name} ({d.summary}): {', '.join(d.objects)}" + (f" [hints {hints}]" if hints else ""))
    lines.append(f"Rooms: {', '.join(ROOM_TYPES)}.")
    return [{"role": "system", "content": "\n".join(lines)}, {"role": "user", "content": description}]


def check_answer(text: str, description: str) -> Selection:
    """Validate a model's JSON answer against the catalogue; SpecError/ValueError names what was wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError("answer is not valid JSON") from None
    if not isinstance(data, dict):
        raise ValueError("answer must be a JSON object")
    family = data.get("family")
    if family not in FAMILY_DEFS:
        raise ValueError(f"family {family!r} is not one of the 17 families")
    hints = {k: v for k, v in (data.get("hints") or {}).items() if v and k in FAMILY_DEFS[family].hints}
    return Selection(family, data.get("object_id"), data.get("room"), hints, "llm", description.strip())


def plan(description: str, client: Any | None = None, retries: int = DEFAULT_RETRIES) -> Selection:
    """Stage 1. With a client: ask, validate, retry with the error (retries extra tries); then fall back
    to rule_parse. Without one: rule_parse. An object the library lacks is sourced from the installed
    catalogues (sourcing.resolve_object)."""
    return resolve_object(_select(description, client, retries), description)


def _select(description: str, client: Any | None, retries: int) -> Selection:
    if client is not None:
        messages = _prompt(description)
        for attempt in range(retries + 1):
            result = client.chat(messages, response_format=_schema())
            if result.api_error:
                log.warning("planner: model error on try %d: %s", attempt + 1, result.api_error)
                continue
            try:
                return check_answer(result.text, description)
            except (ValueError, SpecError) as exc:
                log.info("planner: answer rejected on try %d: %s", attempt + 1, exc)
                messages = messages + [
                    {"role": "assistant", "content": result.text},
                    {"role": "user", "content": f"Invalid: {exc}. Answer again."},
                ]
        log.warning("planner: every model answer failed; using the rule-based parser")
    return rule_parse(description)
