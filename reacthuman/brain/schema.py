"""The one output schema every model answers in, and the parser that turns a reply into a Plan.

Parsing finds the JSON object in the reply (bare, inside a code fence, or amid prose), validates it
against PLAN_SCHEMA and builds a `reacthuman.plan.plan.Plan`. Nothing is clamped or repaired: a value outside
the schema makes the reply unparseable, with a reason naming the field.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from reacthuman.core.reply_json import json_candidates
from reacthuman.plan.plan import Keyframe, Plan

# One bound for vx, vy (m/s) and yaw rate (rad/s): beyond any humanoid command, so only garbage fails; the
# spine applies the G1's own command limits. One bound (not per element) because not every server that
# enforces schemas supports per-position array items.
WALK_CMD_LIMIT = 3.0
DURATION_LIMIT_S = 5.0
HAND_OFFSET_LIMIT_M = 1.5
KNEE_BEND_LIMIT = 0.5
MAX_KEYFRAMES = 6
OBJECT_TEXT_MAX_CHARS = 120
INTENT_TEXT_MAX_CHARS = 600
# Hostile replies can be huge or full of braces; bound the work spent looking for the object.
REPLY_SCAN_MAX_CHARS = 200_000
MAX_JSON_CANDIDATES = 200


def _number(lo: float, hi: float) -> dict[str, Any]:
    return {"type": "number", "minimum": lo, "maximum": hi}


def _vector(lo: float, hi: float) -> dict[str, Any]:
    return {"type": "array", "items": _number(lo, hi), "minItems": 3, "maxItems": 3}


_KEYFRAME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "t": _number(0.0, DURATION_LIMIT_S),
        "left_hand": _vector(-HAND_OFFSET_LIMIT_M, HAND_OFFSET_LIMIT_M),
        "right_hand": _vector(-HAND_OFFSET_LIMIT_M, HAND_OFFSET_LIMIT_M),
        "knee_bend": _number(0.0, KNEE_BEND_LIMIT),
    },
    "required": ["t", "left_hand", "right_hand", "knee_bend"],
    "additionalProperties": False,
}

PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "object_identified": {"type": "string", "maxLength": OBJECT_TEXT_MAX_CHARS},
        "intent": {"type": "string", "maxLength": INTENT_TEXT_MAX_CHARS},
        "confidence": _number(0.0, 1.0),
        "walking_cmd": _vector(-WALK_CMD_LIMIT, WALK_CMD_LIMIT),
        "walking_duration": _number(0.0, DURATION_LIMIT_S),
        "catch_duration": _number(0.0, DURATION_LIMIT_S),
        "keyframes": {"type": "array", "items": _KEYFRAME_SCHEMA, "minItems": 1, "maxItems": MAX_KEYFRAMES},
    },
    "required": [
        "object_identified",
        "intent",
        "confidence",
        "walking_cmd",
        "walking_duration",
        "catch_duration",
        "keyframes",
    ],
    "additionalProperties": False,
}


def response_format() -> dict[str, Any]:
    """PLAN_SCHEMA as an OpenAI-style `response_format` (for servers that enforce schemas)."""
    return {"type": "json_schema", "json_schema": {"name": "reaction_plan", "schema": PLAN_SCHEMA, "strict": True}}


class SchemaError(ValueError):
    pass


def validate(value: Any, schema: dict[str, Any], path: str = "plan") -> None:
    """Check `value` against the subset of JSON Schema PLAN_SCHEMA uses; raise SchemaError naming the path."""
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            raise SchemaError(f"{path} must be an object, got {type(value).__name__}")
        missing = [k for k in schema.get("required", []) if k not in value]
        if missing:
            raise SchemaError(f"{path} is missing {', '.join(missing)}")
        properties = schema.get("properties", {})
        extra = sorted(k for k in value if k not in properties)
        if extra and schema.get("additionalProperties") is False:
            raise SchemaError(f"{path} has unexpected field(s) {', '.join(extra)}")
        for key, sub in properties.items():
            if key in value:
                validate(value[key], sub, f"{path}.{key}")
    elif kind == "array":
        if not isinstance(value, list):
            raise SchemaError(f"{path} must be an array, got {type(value).__name__}")
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            raise SchemaError(
                f"{path} must have {schema.get('minItems', 0)}..{schema.get('maxItems', 'any')} items, got {len(value)}"
            )
        for i, item in enumerate(value):
            validate(item, schema.get("items", {}), f"{path}[{i}]")
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise SchemaError(f"{path} must be a finite number, got {value!r}")
        if value < schema.get("minimum", -math.inf) or value > schema.get("maximum", math.inf):
            raise SchemaError(f"{path}={value} is outside [{schema.get('minimum')}, {schema.get('maximum')}]")
    elif kind == "string":
        if not isinstance(value, str):
            raise SchemaError(f"{path} must be a string, got {type(value).__name__}")
        if len(value) > schema.get("maxLength", len(value)):
            raise SchemaError(f"{path} is longer than {schema['maxLength']} characters")


@dataclass(frozen=True)
class ParseOutcome:
    plan: Plan | None
    parse_ok: bool
    parse_error: str | None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    duplicated = sorted({k for k in keys if keys.count(k) > 1})
    if duplicated:
        raise ValueError(f"duplicate key(s) {', '.join(duplicated)}")
    return dict(pairs)


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every JSON object found in the text: fenced blocks first, then objects starting at each '{'."""
    return json_candidates(text, openers="{", decoder=_DECODER, max_starts=MAX_JSON_CANDIDATES)


def plan_from_dict(data: dict[str, Any]) -> Plan:
    """Build a Plan from a schema-valid dict (raises SchemaError otherwise)."""
    validate(data, PLAN_SCHEMA)
    keyframes = tuple(
        Keyframe(
            float(k["t"]), tuple(map(float, k["left_hand"])), tuple(map(float, k["right_hand"])), float(k["knee_bend"])
        )  # type: ignore[arg-type]
        for k in data["keyframes"]
    )
    return Plan(
        object_identified=data["object_identified"],
        intent=data["intent"],
        confidence=float(data["confidence"]),
        walking_cmd=tuple(map(float, data["walking_cmd"])),  # type: ignore[arg-type]
        walking_duration_s=float(data["walking_duration"]),
        catch_duration_s=float(data["catch_duration"]),
        keyframes=keyframes,
    )


def plan_to_dict(plan: Plan) -> dict[str, Any]:
    """The plan in the schema's field names (what brain_plan.json holds)."""
    return {
        "object_identified": plan.object_identified,
        "intent": plan.intent,
        "confidence": plan.confidence,
        "walking_cmd": list(plan.walking_cmd),
        "walking_duration": plan.walking_duration_s,
        "catch_duration": plan.catch_duration_s,
        "keyframes": [
            {"t": k.t_s, "left_hand": list(k.left_hand), "right_hand": list(k.right_hand), "knee_bend": k.knee_bend}
            for k in plan.keyframes
        ],
    }


def parse_reply(text: str, truncated: bool = False) -> ParseOutcome:
    """The plan in a model's reply, or why there is none. `truncated`: the model hit its token limit."""
    if not text or not text.strip():
        return ParseOutcome(None, False, "empty reply")
    cut = " (the reply was cut at the token limit)" if truncated else ""
    candidates = _json_objects(text[:REPLY_SCAN_MAX_CHARS])
    if not candidates:
        return ParseOutcome(None, False, "no complete JSON object in the reply" + cut)
    # A reply may quote fragments (one keyframe) before the plan: take the first object that validates,
    # else report the error of the object that looks most like a plan.
    errors: list[tuple[int, str]] = []
    for candidate in candidates:
        try:
            return ParseOutcome(plan_from_dict(candidate), True, None)
        except (SchemaError, ValueError) as exc:
            overlap = len(set(candidate) & set(PLAN_SCHEMA["properties"]))
            errors.append((overlap, str(exc)))
    best = max(errors, key=lambda e: e[0])
    if best[0] == 0:
        return ParseOutcome(None, False, "no JSON object in the reply has the plan's fields" + cut)
    return ParseOutcome(None, False, f"reply JSON does not match the plan schema: {best[1]}{cut}")
