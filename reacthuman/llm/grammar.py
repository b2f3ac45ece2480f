"""JSON schema -> compact GBNF grammar for llama.cpp servers.

llama.cpp turns `response_format` schemas into grammars that allow free whitespace, and small models spend
most of their tokens on newlines and indentation (a reaction plan took ~580 tokens instead of ~400). The
grammar built here admits only compact JSON (`{"a": 1, "b": [1, 2]}`). It follows the schema's structure
and is never looser, in places tighter: every property is emitted, in schema order; strings without a
maxLength are capped at STRING_MAX_CHARS; numbers carry at most NUMBER_DECIMALS decimals, no exponent, and
no minus sign when the minimum is >= 0 (other range limits are left to validating the reply). Schemas
using anything outside the supported subset give None, and the caller sends the schema as it is.
"""

from __future__ import annotations

import json
import math
from typing import Any

STRING_MAX_CHARS = 300
NUMBER_DECIMALS = 3
_ANNOTATIONS = {"description", "title"}
_CHAR = r'[^"\\\x00-\x1f] | "\\" ["\\/bfnrt]'


class _Unsupported(Exception):
    pass


class _Builder:
    def __init__(self) -> None:
        self.rules: list[str] = []

    def add(self, body: str) -> str:
        name = f"r{len(self.rules)}"
        self.rules.append(f"{name} ::= {body}")
        return name

    def value(self, schema: dict[str, Any]) -> str:
        if "enum" in schema:
            return self.add(" | ".join(_literal(json.dumps(v)) for v in schema["enum"]))
        kind = schema.get("type")
        if kind == "object":
            return self._object(schema)
        if kind == "array":
            return self._array(schema)
        if kind in ("number", "integer"):
            return self._number(schema, integer=kind == "integer")
        if kind == "string":
            if set(schema) - {"type", "maxLength"} - _ANNOTATIONS:
                raise _Unsupported("string constraint")
            limit = min(int(schema.get("maxLength", STRING_MAX_CHARS)), STRING_MAX_CHARS)
            char = self.add(_CHAR)
            return self.add(f'"\\"" {char}{{0,{limit}}} "\\""')
        if kind == "boolean":
            return self.add('"true" | "false"')
        raise _Unsupported(f"type {kind!r}")

    def _object(self, schema: dict[str, Any]) -> str:
        properties = schema.get("properties") or {}
        if not properties or set(schema) - {"type", "properties", "required", "additionalProperties"} - _ANNOTATIONS:
            raise _Unsupported("object form")
        pieces = []
        for i, (key, sub) in enumerate(properties.items()):
            prefix = "{" if i == 0 else ", "
            pieces.append(_literal(prefix + json.dumps(key) + ": ") + " " + self.value(sub))
        return self.add(" ".join(pieces) + ' "}"')

    def _array(self, schema: dict[str, Any]) -> str:
        items = schema.get("items")
        if not isinstance(items, dict) or set(schema) - {"type", "items", "minItems", "maxItems"} - _ANNOTATIONS:
            raise _Unsupported("array form")
        lo, hi = int(schema.get("minItems", 0)), schema.get("maxItems")
        item = self.value(items)
        more_hi = "" if hi is None else str(int(hi) - 1)
        tail = f'("{", "}" {item}){{{max(lo - 1, 0)},{more_hi}}}'
        inner = f"{item} {tail}"
        return self.add(f'"[" {inner} "]"' if lo >= 1 else f'"[" ({inner})? "]"')

    def _number(self, schema: dict[str, Any], integer: bool) -> str:
        lo, hi = schema.get("minimum", -math.inf), schema.get("maximum", math.inf)
        sign = "" if lo >= 0 else '"-"? '
        bound = max(abs(lo), abs(hi))
        extra_digits = 15 if not math.isfinite(bound) else max(0, len(str(int(bound))) - 1)
        whole = '"0"' if bound < 1 else f'("0" | [1-9] [0-9]{{0,{extra_digits}}})'
        fraction = "" if integer else f' ("." [0-9]{{1,{NUMBER_DECIMALS}}})?'
        return self.add(f"{sign}{whole}{fraction}")


def _literal(text: str) -> str:
    return json.dumps(text)


def schema_to_gbnf(schema: dict[str, Any]) -> str | None:
    """A compact-JSON GBNF grammar for `schema`, or None when the schema is outside the supported subset."""
    builder = _Builder()
    try:
        top = builder.value(schema)
    except (_Unsupported, TypeError, ValueError):
        return None
    return "\n".join([f"root ::= {top}", *builder.rules])
