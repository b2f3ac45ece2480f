"""The replay brain of `reacthuman eval --plans`: a ledger row's stored plan gives back the decision it was
scored from (the plan field for field, the parse outcome, tokens, latency, truncation, modality), the model's
words in the stored plan are scrubbed of secrets, the last scored row of a (scene, model) is the one replayed,
and a row without a plan or an API error is refused in one line."""

from __future__ import annotations

import pytest

from reacthuman.scoring.replay import (
    PLAN_FIELD,
    ReplayBrain,
    decision_of_row,
    is_executed,
    stored_decisions,
    stored_plan,
)
from reacthuman.brain.schema import parse_reply
from reacthuman.scoring.ledger import DecisionRecord, LedgerWriter

REPLY = (
    '{"object_identified": "the ball", "intent": "catch it, key sk-abcdefghijklmnop1234", "confidence": 0.7, '
    '"walking_cmd": [0.1, -0.05, 0.0], "walking_duration": 0.8, "catch_duration": 0.6, "keyframes": '
    '[{"t": 0.25, "left_hand": [0.31, 0.12, 0.05], "right_hand": [0.3, -0.1, 0.0], "knee_bend": 0.2}]}'
)


def _row(scene_id: str, **fields) -> DecisionRecord:
    base = dict(
        scene_id=scene_id,
        family="object_drop",
        model="m",
        object="ball",
        correct_action="CATCH",
        plan_parse_ok=True,
        latency_s=1.25,
        prompt_tokens=900,
        completion_tokens=40,
        truncated=False,
        modality="images",
    )
    return DecisionRecord(**{**base, **fields})


def test_a_stored_plan_gives_back_the_decision_field_for_field_with_the_secret_scrubbed():
    plan = parse_reply(REPLY).plan
    stored = stored_plan(plan)
    assert "sk-abcdefghijklmnop1234" not in str(stored) and "[REDACTED]" in stored["intent"]
    row = _row("s1", extras={PLAN_FIELD: stored, "executed": False})
    decision = decision_of_row(row)
    assert decision.plan.keyframes == plan.keyframes and decision.plan.walking_cmd == plan.walking_cmd
    assert (decision.plan.confidence, decision.plan.walking_duration_s, decision.plan.catch_duration_s) == (
        0.7,
        0.8,
        0.6,
    )
    assert decision.plan.intent == stored["intent"] and decision.parse_ok and decision.api_error is None
    assert (
        decision.brain,
        decision.latency_s,
        decision.prompt_tokens,
        decision.completion_tokens,
        decision.modality,
    ) == ("m", 1.25, 900, 40, "images")
    assert not is_executed(row) and is_executed(_row("s1")) and is_executed(_row("s1", extras={"executed": True}))


def test_an_unparseable_reply_replays_as_unparseable_with_its_text_and_error():
    row = _row(
        "s2",
        plan_parse_ok=False,
        parse_error="reply is not JSON",
        raw_text="I would step back",
        truncated=True,
        extras={PLAN_FIELD: None},
    )
    decision = decision_of_row(row)
    assert decision.plan is None and not decision.parse_ok and decision.truncated
    assert (decision.parse_error, decision.raw_text) == ("reply is not JSON", "I would step back")


def test_the_last_scored_row_is_replayed_and_rows_without_a_plan_are_refused(tmp_path):
    plan = stored_plan(parse_reply(REPLY).plan)
    with LedgerWriter(tmp_path) as ledger:
        ledger.append(_row("s1", api_error="HTTP 500"))  # lost, then decided on a rerun
        ledger.append(_row("s1", extras={PLAN_FIELD: plan, "executed": False}))
        ledger.append(_row("s1", caught=False, extras={PLAN_FIELD: plan, "executed": True}))
        ledger.append(_row("s2", api_error="HTTP 500", extras={PLAN_FIELD: None}))
        ledger.append(_row("s3"))  # a row of eval's own, no plan stored
    (chosen,) = stored_decisions(tmp_path)
    assert chosen.scene_id == "s1" and chosen.caught is False  # the executed row superseded the decide row
    brain = ReplayBrain(tmp_path, "m")
    assert brain._rows.keys() == {"s1"}
    with pytest.raises(ValueError, match="no decision of 'other' with a stored plan"):
        ReplayBrain(tmp_path, "other")
    with pytest.raises(ValueError, match="stores no plan"):
        decision_of_row(_row("s3"))
    with pytest.raises(ValueError, match="is an API error"):
        decision_of_row(_row("s2", api_error="HTTP 500", extras={PLAN_FIELD: None}))
