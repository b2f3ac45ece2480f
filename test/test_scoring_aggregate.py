"""Aggregation and analyses on hand-built ledger rows: missing values, API errors, ties, every analysis."""

import pytest

from reacthuman.reporting import analyses
from reacthuman.reporting.aggregate import (
    catch_dodge_table,
    family_table,
    main_table,
    rules_table,
    select_decisions,
)
from reacthuman.scoring.ledger import DecisionRecord


def rec(scene, model, action="CATCH", truth="CATCH", **kw):
    saa = None if action == "ERR" else int(action == truth)
    base = dict(
        scene_id=scene,
        family=kw.pop("family", "object_drop"),
        model=model,
        object=kw.pop("object", "plate"),
        correct_action=truth,
        action=None if action in ("ERR", None) else action,
        saa=saa,
        safe=None if action == "ERR" else kw.pop("safe", 1),
    )
    if action == "ERR":
        base["api_error"] = "HTTP 500"
    base.update(kw)
    return DecisionRecord(**base)


def cell(table, row_label, column):
    for row in table.rows:
        if row[0] == row_label:
            return row[table.columns.index(column)]
    raise KeyError(row_label)


def test_api_errors_are_counted_and_the_last_scored_row_wins():
    d = select_decisions(
        [
            rec("s1", "A", "ERR"),
            rec("s1", "A", "CATCH"),  # retried after an error
            rec("s2", "A", "ERR"),  # lost
            rec("s3", "B", "DODGE"),
            rec("s3", "B", "CATCH"),  # re-scored: the last row counts
            rec("s3", "B", "ERR"),  # a later failed attempt does not erase the decision
        ]
    )
    assert d.models == ["A", "B"]
    assert [(r.scene_id, r.model, r.action) for r in d.scored] == [("s1", "A", "CATCH"), ("s3", "B", "CATCH")]
    assert d.api_error_rows == {"A": 2, "B": 1}
    assert d.lost == {"A": 1}


def test_main_table_drops_missing_values_and_marks_the_best():
    d = select_decisions(
        [
            rec("s1", "A", d_end=0.5, d_min=0.4, aia=1.0),
            rec("s2", "A", "DODGE", safe=1, d_end=None, d_min=None, aia=0.5),
            rec("s3", "A", safe=0, d_end=1.0, d_min=0.8, aia=None),
            rec("s1", "B", "DODGE", aia=0.0),
            rec("s2", "B", "NO_ACTION", safe=0, aia=0.0),
        ]
    )
    t = main_table(d)
    assert cell(t, "A", "SAA") == pytest.approx(2 / 3)
    assert cell(t, "A", "Safety") == pytest.approx(2 / 3)
    assert cell(t, "A", "d_end (m)") == pytest.approx(0.75)  # None dropped from the denominator
    assert cell(t, "A", "AIA") == pytest.approx(0.75)
    assert cell(t, "A", "d_min (m)") == pytest.approx(0.6)
    assert cell(t, "B", "SAA") == 0.0
    assert cell(t, "B", "d_end (m)") is None
    assert cell(t, "Mean", "SAA") == pytest.approx(1 / 3)
    assert cell(t, "Mean", "Safety") == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert cell(t, "Mean", "d_end (m)") == pytest.approx(0.75)  # the only model with a value
    best = t.best_cells()
    a_row, mean_row = 0, 2
    assert {(a_row, j) for j in range(1, 6)} <= best
    assert not any(i == mean_row for i, _ in best)


def test_ties_for_best_mark_every_tied_row():
    d = select_decisions([rec("s1", "A"), rec("s1", "B"), rec("s1", "C", "DODGE")])
    t = main_table(d)
    saa = t.columns.index("SAA")
    assert {(i, j) for i, j in t.best_cells() if j == saa} == {(0, saa), (1, saa)}


def test_rule_counts_and_catch_dodge_split():
    d = select_decisions(
        [
            rec("s1", "A", None, safe=0, rule="R1"),
            rec("s2", "A", "CATCH", "DODGE", safe=0, rule="R2"),
            rec("s3", "A", "NO_ACTION", "DODGE", safe=0, rule="R3"),
            rec("s4", "A", "NO_ACTION", "DODGE", safe=0, rule="R4"),
            rec("s5", "A", "DODGE", "DODGE"),
            rec("s6", "A", "CATCH", "CATCH"),
            rec("s7", "A", "DODGE", "CATCH"),
        ]
    )
    t = rules_table(d)
    assert [cell(t, "A", k) for k in ("R1", "R2", "R3", "R4", "violations", "decisions")] == [1, 1, 1, 1, 4, 7]
    assert cell(t, "Total", "violations") == 4
    s = catch_dodge_table(d)
    assert cell(s, "A", "SAA catch") == pytest.approx(1 / 3)
    assert cell(s, "A", "n catch") == 3
    assert cell(s, "A", "SAA dodge") == pytest.approx(1 / 4)
    assert cell(s, "A", "n dodge") == 4
    assert cell(s, "A", "Safety dodge") == pytest.approx(1 / 4)


def test_family_table_pools_models():
    d = select_decisions(
        [
            rec("a1", "A", family="f1"),
            rec("a1", "B", "DODGE", family="f1"),
            rec("b1", "A", "DODGE", "DODGE", family="f2"),
        ]
    )
    t = family_table(d)
    assert cell(t, "f1", "SAA") == 0.5
    assert cell(t, "f1", "decisions") == 2
    assert cell(t, "f2", "truth catch/dodge/none") == "0/1/0"


def _speed_rows():
    rows = []
    plans = {
        "g1": ["NO_ACTION", "CATCH", "CATCH", "CATCH"],
        "g2": ["NO_ACTION", "NO_ACTION", "CATCH", "DODGE"],
        "g3": ["CATCH"] * 4,
    }
    for group, actions in plans.items():
        for band, action in zip(("slow", "normal", "fast", "very_fast"), actions):
            rows.append(rec(f"{group}-{band}", "A", action, speed_band=band, speed_group=group))
    rows.append(rec("g4-slow", "A", "CATCH", speed_band="slow", speed_group="g4"))  # incomplete group
    rows.append(rec("g4-very_fast", "A", "DODGE", speed_band="very_fast", speed_group="g4"))
    rows.append(rec("grav", "A", "NO_ACTION", speed_band="gravity"))  # gravity-paced: left out
    return rows


def test_freeze_and_saa_by_speed_band():
    d = select_decisions(_speed_rows())
    assert analyses.speed_bands_present(d) == ["slow", "normal", "fast", "very_fast"]
    t = analyses.freeze_by_speed_table(d)
    assert cell(t, "A", "slow") == pytest.approx(2 / 4)
    assert cell(t, "A", "normal") == pytest.approx(1 / 3)
    assert cell(t, "A", "fast") == 0.0
    assert cell(t, "A", "slowest") == pytest.approx(2 / 4)
    assert cell(t, "A", "faster") == pytest.approx(1 / 10)
    assert cell(t, "A", "n") == 14
    s = analyses.saa_by_speed_table(d)
    assert cell(s, "Pooled", "slow") == pytest.approx(2 / 4)  # truth CATCH everywhere
    assert cell(s, "Pooled", "very_fast") == pytest.approx(2 / 4)


def test_stability_across_speed_variants():
    t = analyses.stability_table(select_decisions(_speed_rows()))
    assert cell(t, "A", "complete groups") == 3
    assert cell(t, "A", "same action at all bands") == pytest.approx(1 / 3)
    assert cell(t, "A", "groups with slowest+fastest") == 4
    assert cell(t, "A", "slowest = fastest") == pytest.approx(1 / 4)


def test_voting_unanimity_majority_and_ties():
    rows = []
    for scene, truth, actions in (("s1", "CATCH", "CCC"), ("s2", "DODGE", "CCD"), ("s3", "NO_ACTION", "CDN")):
        for model, a in zip("ABC", actions):
            rows.append(rec(scene, model, {"C": "CATCH", "D": "DODGE", "N": "NO_ACTION"}[a], truth))
    rows += [rec("s4", "A"), rec("s4", "B")]  # not decided by every model: left out
    t = analyses.voting_table(select_decisions(rows))
    values = {row[0]: (row[1], row[2]) for row in t.rows}
    assert values["scenes decided by every model"][1] == 3
    assert values["unanimity rate"][0] == pytest.approx(1 / 3)
    assert values["accuracy when unanimous"] == (1.0, 1)
    assert values["majority-vote accuracy"][0] == pytest.approx(1 / 3)
    assert values["majority ties (counted wrong)"][1] == 1
    assert values["best single model (C)"][0] == 1.0
    assert values["mean single model"][0] == pytest.approx((1 / 3 + 1 / 3 + 1) / 3)


def test_correct_but_out_of_reach():
    rows = [
        rec("s1", "A", d_end=0.1, hand_shortfall_m=0.05, body_to_impact_m=0.5),
        rec("s2", "A", d_end=0.5, hand_shortfall_m=0.3, body_to_impact_m=1.0),
        rec("s3", "A", d_end=0.9, hand_shortfall_m=-0.2, body_to_impact_m=1.2),
        rec("s4", "A", d_end=None),  # no impact point
        rec("s5", "A", "CATCH", "DODGE", d_end=3.0, hand_shortfall_m=1.0, body_to_impact_m=3.0),  # not correct
    ]
    t = analyses.reach_table(select_decisions(rows), analyses.default_config(catch_radius_m=0.2, arm_reach_m=0.8))
    assert cell(t, "A", "correct catches") == 3
    assert cell(t, "A", "d_end median (m)") == pytest.approx(0.5)
    assert cell(t, "A", "d_end mean (m)") == pytest.approx(0.5)
    assert cell(t, "A", "d_end p25 (m)") == pytest.approx(0.3)
    assert cell(t, "A", "misses") == 2
    assert cell(t, "A", "misses short") == pytest.approx(1 / 2)
    assert cell(t, "A", "beyond arm's reach") == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="arm_reach_m"):
        analyses.default_config(arm_reach_m=0)


def test_adversarial_against_look_alikes_and_doubt():
    rows = [
        rec(
            f"d{i}",
            "A",
            a,
            "DODGE",
            object="steel can",
            adversarial=True,
            looks_like="tin can",
            intent="It might actually be solid steel" if i == 0 else "catch the can",
        )
        for i, a in enumerate(("CATCH", "CATCH", "DODGE", "NO_ACTION"))
    ]
    rows += [rec("g1", "A", "CATCH", object="tin can", intent="catch"), rec("g2", "A", "DODGE", object="tin can")]
    d = select_decisions(rows)
    t = analyses.adversarial_table(d)
    assert t.rows == [["steel can", "DODGE", 4, 0.5, 0.25, "tin can", 2, 0.5, 0.5]]
    doubt = analyses.doubt_table(d)
    assert cell(doubt, "A", "adversarial decisions") == 4
    assert cell(doubt, "A", "doubting") == 1
    assert cell(doubt, "A", "other doubt rate") == 0.0


def test_the_tables_do_not_depend_on_the_order_episodes_finished_in():
    rows = [
        rec("s2", "B", "DODGE", d_end=0.1, d_min=0.3),
        rec("s1", "A", d_end=0.7, d_min=0.2),
        rec("s1", "B", d_end=0.3, d_min=0.1),
        rec("s2", "A", "DODGE", safe=1, d_end=0.2, d_min=0.6),
    ]
    first, finished_otherwise = select_decisions(rows), select_decisions(rows[::-1])
    assert first.models == finished_otherwise.models == ["A", "B"]
    assert [r.key for r in first.scored] == [r.key for r in finished_otherwise.scored]
    assert main_table(first).rows == main_table(finished_otherwise).rows
