"""The family measures on hand-built episode rows with known answers: CFSS-StateScore and STG-CFSS
(Accessibility), C7/C8 under WATCH-binary (Prevention)."""

from __future__ import annotations

import dataclasses

from interactiveworld.bench.paper_metrics import cfss_state_score, paper_metrics, stg_cfss, watch_binary
from interactiveworld.bench.record import TaskRecord


def _row(family: str, goals_final, goals_at_handoff, points, voided=False) -> TaskRecord:
    return TaskRecord(
        task_id=f"{family}-x-0",
        family=family,
        assistant="a",
        human="h",
        goals_final=goals_final,
        goals_at_handoff=goals_at_handoff,
        points=points,
        voided=voided,
        completion=0.0,
        passed=all(goals_final),
    )


def _pt(cap: str, check: str, status: str) -> dict:
    return {"cap": cap, "check": check, "status": status, "turn": 0}


def test_cfss_counts_only_goals_not_true_at_handoff_and_stg_needs_every_gate():
    gate_ok, gate_bad = _pt("perception", "said", "pass"), _pt("memory", "said", "fail")
    done = _pt("task_completion", "goal", "fail")
    r = _row("accessibility", [True, False, True], [False, False, True], [gate_ok, done])
    assert cfss_state_score(r) == 0.5  # one of the two goals that were false at handoff
    assert stg_cfss(r) == 0.5  # its only gate passed (a goal point is no gate)
    r2 = _row("accessibility", [True, True], [False, False], [gate_ok, gate_bad])
    assert cfss_state_score(r2) == 1.0
    assert stg_cfss(r2) == 0.0  # right state, a gate missed


def test_c7_c8_watch_binary_per_prevention_episode():
    quiet_ok = _pt("intervention_correctness", "quiet", "pass")
    fix_ok = _pt("intervention_correctness", "said", "pass")
    late = _pt("intervention_timing", "said_by", "fail")
    in_time = _pt("intervention_timing", "said_by", "pass")
    spoke_on_correct_step = _pt("intervention_correctness", "quiet", "fail")
    a = _row("prevention", [True], [False], [quiet_ok, fix_ok, in_time])
    b = _row("prevention", [True], [False], [quiet_ok, fix_ok, late])
    c = _row("prevention", [False], [False], [spoke_on_correct_step, fix_ok, in_time])
    assert [watch_binary(r, "intervention_correctness") for r in (a, b, c)] == [1, 1, 0]
    assert [watch_binary(r, "intervention_timing") for r in (a, b, c)] == [1, 0, 1]
    void = _row("prevention", [], [], [], voided=True)
    acc = _row("accessibility", [True], [False], [])
    m = paper_metrics([a, b, c, void, acc])
    assert (m.c7, m.c8, m.n_prevention) == (2 / 3, 2 / 3, 3)
    assert (m.cfss, m.stg_cfss, m.n_accessibility) == (1.0, 1.0, 1)
    assert paper_metrics([a]).cfss is None


def test_firth_logistic_has_finite_known_answers():
    import numpy as np

    from interactiveworld.bench.firth import firth_curves, firth_logit

    # no effect of length: slope 0; a separated 2x2 table: Firth adds 1/2 to each cell, log OR = ln(0.2 / 5)
    assert abs(firth_logit(np.array([0, 0, 1, 1.0]), np.array([1, 0, 1, 0.0]))[1]) < 1e-9
    b0, b1 = firth_logit(np.array([0, 0, 1, 1.0]), np.array([1, 1, 0, 0.0]))
    assert abs(b1 - np.log(0.2 / 5)) < 1e-6
    assert abs(b0 - np.log(5)) < 1e-6
    assert firth_logit(np.array([1, 1.0]), np.array([0, 1.0])) is None
    rows = [
        TaskRecord(
            task_id=f"finding-t{i}-0",
            family="finding",
            assistant="m",
            human="h",
            passed=i < 2,
            completion=float(i < 2),
            oracle_actions=3 + i,
        )
        for i in range(4)
    ]
    (curve,) = firth_curves(rows)
    assert curve.family == "finding"
    assert curve.n_episodes == 4
    assert curve.slope < 0
    (flat,) = firth_curves([dataclasses.replace(r, passed=False, completion=0.0) for r in rows])
    assert flat.slope is None  # every outcome alike: no curve
