"""The episode engine's transport-independent rules (no simulator): the spine is asked at the lockstep's ticks
with the stamp's time, and the scorer's reply and outcome are the same built from a decision or from its
message's fields. The whole-episode equality of the two transports is tested in test_eval_graph.py."""

from __future__ import annotations

import math

from reacthuman.brain.base import BrainDecision
from reacthuman.spine.robot_state import N_JOINTS, RobotState
from reacthuman.evaluation.episode import ControlTicks, is_control_tick, stamp_ns
from reacthuman.plan.plan import Keyframe, Plan
from reacthuman.scoring import ExecutedOutcome
from reacthuman.scoring.episode import reply_of

DT_S = 1.0 / 240.0


def _state(t_s: float) -> RobotState:
    return RobotState(q=(0.0,) * N_JOINTS, dq=(0.0,) * N_JOINTS, stamp_s=t_s)


def test_the_spine_is_asked_at_every_fifth_step_with_the_stamped_time_as_the_graph_asks_it():
    calls: list[tuple[float, float]] = []
    ticks = ControlTicks(lambda t, s: calls.append((t, s.stamp_s)) or "command", DT_S, 5)
    answers = [ticks(k * DT_S, _state(k * DT_S)) for k in range(0, 23)]
    assert [a is not None for a in answers] == [k % 5 == 0 for k in range(23)]  # None: the body holds the last
    for (t, stamp), k in zip(calls, (0, 5, 10, 15, 20)):
        assert t == stamp == stamp_ns(k * DT_S) / 1e9
    # the time a message carries: sim time rounded to the nanosecond, which is not always the float itself
    assert any(stamp_ns(k * DT_S) / 1e9 != k * DT_S for k in range(1, 2000))
    assert is_control_tick(1000 * DT_S + 1e-12, DT_S, 5)
    assert not is_control_tick(1001 * DT_S, DT_S, 5)


def test_the_reply_from_a_decision_equals_the_reply_from_its_message_fields():
    plan = Plan("cup", "catch it", 0.8, (0.5, 0.0, 0.0), 1.0, 0.5, (Keyframe(0.0, (0.1, 0.2, 0.3), (0.1, -0.2, 0.3)),))
    sent = BrainDecision(
        brain="m",
        plan=plan,
        raw_text="{}",
        parse_ok=True,
        latency_s=1.5,
        prompt_tokens=10,
        completion_tokens=0,
        modality="images",
    )
    # what nodes/conversions.decision_from_msg rebuilds: zero token counts travel as 0 and come back None
    received = BrainDecision(
        brain="m",
        plan=plan,
        raw_text="{}",
        parse_ok=True,
        parse_error=None,
        api_error=None,
        latency_s=1.5,
        prompt_tokens=10,
        completion_tokens=None,
        modality="images",
    )
    assert reply_of(sent) == reply_of(received)
    failed = BrainDecision(brain="m", plan=None, raw_text="x", parse_ok=False, parse_error="not JSON")
    assert reply_of(failed).parse_error == "not JSON"
    assert reply_of(failed).tokens is None


def test_an_outcome_not_struck_has_no_strike_impulse_however_it_arrives():
    fields = {
        "caught": False,
        "struck": False,
        "fell": False,
        "strike_impulse_ns": 0.0,
        "final_left_hand_m": (0.1, 0.2, 0.8),
        "final_right_hand_m": (0.1, -0.2, 0.8),
        "min_hand_object_distance_m": math.inf,
    }
    out = ExecutedOutcome.from_sim_outcome(fields)
    assert out.strike_impulse_ns is None
    assert out.min_hand_object_m is None
    struck = ExecutedOutcome.from_sim_outcome(fields | {"struck": True, "strike_impulse_ns": 1.25})
    assert struck.strike_impulse_ns == 1.25
