"""The compact-JSON grammar: structure follows the schema; unsupported schemas fall back."""

from __future__ import annotations

import pytest

from reacthuman.brain.schema import PLAN_SCHEMA
from reacthuman.llm import resolve_preset
from reacthuman.llm.grammar import schema_to_gbnf


def test_plan_schema_has_a_grammar_naming_every_field_in_order():
    grammar = schema_to_gbnf(PLAN_SCHEMA)
    assert grammar is not None
    assert grammar.startswith("root ::= ")
    root_rule = grammar.splitlines()[-1]
    positions = [root_rule.index(f'\\"{key}\\": ') for key in PLAN_SCHEMA["properties"]]
    assert positions == sorted(positions)
    assert '"[" r' in grammar
    assert "{2,2}" in grammar  # walking_cmd: exactly three numbers


def test_non_negative_numbers_have_no_minus_and_bounded_arrays_are_bounded():
    grammar = schema_to_gbnf(
        {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1}, "minItems": 1, "maxItems": 3}
    )
    assert '"-"' not in grammar
    assert "{0,2}" in grammar
    grammar = schema_to_gbnf({"type": "array", "items": {"type": "number", "minimum": -5, "maximum": 5}})
    assert '"-"?' in grammar
    assert ')? "]"' in grammar  # minItems 0: the list may be empty


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^a$"},
        {"type": "object", "properties": {"a": {"type": "string"}}, "patternProperties": {}},
        {"anyOf": [{"type": "string"}, {"type": "number"}]},
        {"type": "array", "items": [{"type": "number"}]},
        {"type": "object"},
    ],
)
def test_unsupported_schemas_give_none(schema):
    assert schema_to_gbnf(schema) is None


def test_compact_json_only_for_llama_cpp_servers():
    with pytest.raises(ValueError, match="compact_json needs a llama.cpp server"):
        resolve_preset("vllm", compact_json=True)
    assert resolve_preset("local").compact_json is True
