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
from reacthuman.scenes.randomize import Selection
from reacthuman.scenes.rooms import ROOM_TYPES
from reacthuman.scenes.spec import SpecError
from reacthuman.scenes.sourcing import resolve_object

log = logging.getLogger(__name__)
DEFAULT_RETRIES = 2


class PlannerError(ValueError):
    """No family fits the description (one line)."""


# Weighted phrases per family; a phrase is matched on word boundaries in the lower-cased description.
FAMILY_PHRASES: dict[str, dict[str, float]] = {
    "object_drop": {"table": 1, "counter": 1, "desk": 1, "tips off": 2, "falls off": 1, "knocked off": 2, "drops": 1,
                    "slides off the counter": 2, "off the edge": 1, "off the table": 2, "off the counter": 2, "topples off": 2},
    "shelf_slide": {"shelf": 3, "top shelf": 3, "bookcase shelf": 3, "off a shelf": 3, "off the shelf": 3},
    "hanging_fall": {"wall": 1.5, "hanging": 1, "hook": 2, "detaches": 2, "comes off the wall": 3, "falls off the wall": 3,
                     "mounted": 1.5, "hung": 1.5},
    "ceiling_drop": {"ceiling": 3, "from above": 2, "overhead": 1.5, "falls from the ceiling": 3},
    "sliding_object": {"ramp": 3, "slope": 3, "incline": 3, "chute": 3, "slides down": 2, "sloped": 3, "tilted board": 3},
    "rolling_ball": {"rolls": 2, "rolling": 2, "rolls off": 2.5, "rolls across": 2.5},
    "surface_cascade": {"stool": 2, "chair": 2, "bench": 2, "hops": 3, "cascade": 3, "then the floor": 2.5,
                        "onto the chair": 3, "onto the stool": 3, "then onto": 2},
    "furniture_tip": {"tips over": 2, "topples": 1.5, "bookshelf": 2, "wardrobe": 3, "cabinet": 2, "floor lamp": 3,
                      "furniture": 3, "falls forward": 1.5},
    "stack_collapse": {"stack": 3, "stacked": 3, "pile": 2.5, "tower": 2, "collapses": 2, "collapse": 2},
    "ladder_slip": {"ladder": 4, "step ladder": 4},
    "door_swing": {"door": 4, "slams": 2, "swings open": 3, "doorway": 3},
    "pendulum_swing": {"swings": 2, "swinging": 2, "pendulum": 4, "chandelier": 2, "punching bag": 3, "suspended": 2},
    "thrown_object": {"thrown": 3, "throws": 3, "tossed": 3, "tosses": 3, "hurled": 3, "hurls": 3, "pitched": 3,
                      "lobbed": 3, "flies towards": 2, "flies toward": 2, "at me": 1, "at the robot": 1},
    "bouncing_object": {"bounce": 3, "bounces": 3, "bouncing": 3},
    "stair_tumble": {"stairs": 4, "staircase": 4, "steps": 2, "tumbles down": 2, "down the stairs": 4},
    "chain_reaction": {"knocks into": 3, "hits": 1.5, "strikes": 2, "chain reaction": 4, "collides": 2, "knocks over": 2.5,
                       "launches": 2, "slams into": 2, "crashes into": 2},
    "multi_object": {"row": 3, "dominoes": 4, "domino": 4, "line of": 3, "in a row": 3, "one after another": 3},
}
ROOM_PHRASES: dict[str, tuple[str, ...]] = {
    "kitchen": ("kitchen", "cooking", "stove", "counter"), "living_room": ("living room", "sofa", "couch", "lounge"),
    "bedroom": ("bedroom", "bed"), "office": ("office", "study", "desk"), "dining_room": ("dining", "dinner"),
    "hallway": ("hallway", "hall", "corridor", "entrance", "stairs", "staircase"), "garage": ("garage", "workshop"),
}
HINT_PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "surface": {"stool": ("stool",), "chair": ("chair",), "box": ("box",), "bench": ("bench",)},
    "regime": {"slide": ("slides", "slips", "slide", "slip", "skids"), "tip": ("tips", "topples", "falls backward", "tip over")},
    "support": {"table": ("table",), "counter": ("counter", "worktop"), "desk": ("desk",)},
}


def _has(text: str, phrase: str) -> bool:
    return re.search(r"(?<![a-z])" + re.escape(phrase) + r"(?![a-z])", text) is not None


def _object_names(object_id: str, candidates: tuple[str, ...]) -> list[str]:
    o = OBJECTS[object_id]
    names = {o.name.lower().replace("-", " "), object_id.replace("_", " ")}
    last = o.name.lower().split()[-1]
    # Genuine objects also answer to their last word ("a vase", "a pan") when no other candidate shares it.
    if not o.adversarial and sum(OBJECTS[c].name.lower().split()[-1] == last for c in candidates) == 1:
        names.add(last)
    names |= {n + suffix for n in names for suffix in ("s", "es")}  # plurals: "tin cans", "dominoes"
    return sorted(names, key=len, reverse=True)


def match_object(text: str, candidates: tuple[str, ...]) -> str | None:
    """The candidate named by the longest phrase in the text (adversarial full names beat their twins)."""
    best, best_len = None, 0
    for oid in sorted(candidates):
        for name in _object_names(oid, candidates):
            if len(name) > best_len and _has(text, name):
                best, best_len = oid, len(name)
    return best


def rule_parse(description: str) -> Selection:
    """Deterministic keyword parser: the family with the most phrase weight (an object named in its
    catalogue adds weight); the object, room and hints by phrase. Raises PlannerError if nothing fits."""
    text = " ".join(description.lower().replace("-", " ").split())
    if not text:
        raise PlannerError("empty scene description")
    scores = {}
    for fam in FAMILIES:
        score = sum(w for p, w in FAMILY_PHRASES[fam].items() if _has(text, p.replace("-", " ")))
        if score and match_object(text, FAMILY_DEFS[fam].objects):
            score += 1.5
        scores[fam] = score
    family = max(FAMILIES, key=lambda f: (scores[f], -FAMILIES.index(f)))
    if scores[family] <= 0:
        raise PlannerError(f"no event family fits the description: {description.strip()[:80]!r}")
    fam = get_family(family)
    object_id = match_object(text, fam.objects)
    # A room named as such ("in the living room") beats one implied by furniture ("counter" -> kitchen).
    room = next((r for r in ROOM_TYPES if _has(text, r.replace("_", " "))), None) or next(
        (r for r in ROOM_TYPES if any(_has(text, p) for p in ROOM_PHRASES[r])), None)
    hints = {}
    rest = text  # hints are read beside the object's name ("a cardboard box hops onto the bench": bench)
    named = [n for n in _object_names(object_id, fam.objects) if _has(text, n)] if object_id else []
    if named:  # the longest name, once: "onto the box" stays when the object is "a cardboard box"
        rest = re.sub(r"(?<![a-z])" + re.escape(named[0]) + r"(?![a-z])", " ", text, count=1)
    for key in fam.hints:
        for value, phrases in HINT_PHRASES.get(key, {}).items():
            if value in fam.hints[key] and any(_has(rest, p) for p in phrases):
                hints[key] = value
                break
    return Selection(family, object_id, room, hints, "rule", description.strip())


def _schema() -> dict[str, Any]:
    hint_values = sorted({v for d in FAMILY_DEFS.values() for vals in d.hints.values() for v in vals} | {""})
    return response_format("scene_selection", {
        "type": "object", "additionalProperties": False, "required": ["family", "object_id", "room", "hints"],
        "properties": {
            "family": {"type": "string", "enum": list(FAMILIES)},
            "object_id": {"type": "string", "enum": sorted(OBJECTS)},
            "room": {"type": "string", "enum": list(ROOM_TYPES)},
            "hints": {"type": "object", "additionalProperties": False, "required": ["surface", "regime", "support"],
                      "properties": {k: {"type": "string", "enum": hint_values} for k in ("surface", "regime", "support")}},
        }})


def _prompt(description: str) -> list[dict[str, str]]:
    lines = ["Turn the description of a sudden household event into a scene selection (JSON only).",
             "Choose the event family, an object_id from THAT family's catalogue, a room, and hints (\"\" when unknown).",
             "Never invent objects; never give numbers. Families and their catalogues:"]
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
                messages = messages + [{"role": "assistant", "content": result.text},
                                       {"role": "user", "content": f"Invalid: {exc}. Answer again."}]
        log.warning("planner: every model answer failed; using the rule-based parser")
    return rule_parse(description)
