"""The report's "Open vs closed loop" section, recomputed from closed-loop rows (reporting/loop_tables.py); a
ledger of open-loop rows has no such section."""

from __future__ import annotations

import csv

from reacthuman.scoring.closed_loop import DecisionPoint, JudgedDecision, closed_loop_fields
from reacthuman.scoring.ledger import DecisionRecord, LedgerWriter
from reacthuman.reporting.report import write_report
from reacthuman.plan.plan import Pose2D


def _row(scene: str, model: str, actions: list[str | None], truths: list[str], struck: bool) -> DecisionRecord:
    judged = tuple(
        JudgedDecision(
            DecisionPoint(k, 0.6 + 0.5 * k, Pose2D(0.0, 0.0, 0.0), None, (1.0, 0.0, 0.5)), a, t, int(a == t), None
        )
        for k, (a, t) in enumerate(zip(actions, truths))
    )
    row = DecisionRecord(
        scene,
        "rolling_ball",
        model,
        "ball",
        correct_action=truths[0],
        action=actions[0],
        saa=int(actions[0] == truths[0]),
        caught=False,
        struck=struck,
        fell=False,
        d_end_executed=0.2,
    )
    row.extras.update(closed_loop_fields(judged, row))
    return row


def test_the_section_sets_first_beside_final_decisions_with_recovery_and_regression(tmp_path):
    rows = [
        _row("a", "m", ["DODGE", "CATCH"], ["CATCH", "CATCH"], False),  # recovered
        _row("b", "m", ["CATCH", "DODGE", "DODGE"], ["CATCH", "CATCH", "CATCH"], False),  # regressed
        _row("c", "m", ["CATCH"], ["CATCH"], True),
    ]  # no re-plan: the hazard was at rest
    with LedgerWriter(tmp_path) as w:
        for r in rows:
            w.append(r)
    files = write_report(tmp_path)
    assert "## Open vs closed loop" in files.markdown.read_text()
    table = list(csv.DictReader((tmp_path / "tables" / "open_vs_closed_loop.csv").open()))
    assert len(table) == 1 and table[0]["model"] == "m" and table[0]["episodes"] == "3"
    got = {
        k: float(table[0][k])
        for k in ("re-plans / episode", "SAA first", "SAA final", "recovery", "regression", "struck")
    }
    assert got == {
        "re-plans / episode": 1.0,
        "SAA first": 2 / 3,
        "SAA final": 2 / 3,
        "recovery": 1 / 3,
        "regression": 1 / 3,
        "struck": 1 / 3,
    }


def test_an_open_loop_ledger_has_no_loop_section(tmp_path):
    with LedgerWriter(tmp_path) as w:
        w.append(DecisionRecord("a", "rolling_ball", "m", "ball", correct_action="CATCH", action="CATCH", saa=1))
    files = write_report(tmp_path)
    assert "Open vs closed loop" not in files.markdown.read_text()
    assert not (tmp_path / "tables" / "open_vs_closed_loop.csv").exists()


def test_loop_names_a_missing_scene_folder_in_one_line(tmp_path, capsys):
    from reacthuman.evaluation.loop_cli import main as loop_main

    assert (
        loop_main(
            ["--scenes", str(tmp_path / "none"), "--models", "oracle", "--out", str(tmp_path / "r"), "--loop", "closed"]
        )
        == 2
    )
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "scenes folder not found" in err


def test_a_re_plan_takes_the_hands_over_from_where_they_are_not_from_rest():
    from reacthuman.spine.hand_path import HandPath, continue_path
    from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M

    now = ((0.4, 0.2, 0.9), (0.4, -0.2, 0.9), 0.1)
    # no keyframes in the new plan: back to rest over the release time, from where the hands are
    back = continue_path(None, now, 0.5)
    assert back.times_s == (0.0, 0.5) and back.targets_at(0.0) == now[:2] and back.knee_bend_at(0.0) == 0.1
    assert back.targets_at(0.5) == (REST_LEFT_HAND_M, REST_RIGHT_HAND_M) and back.knee_bend_at(0.5) == 0.0
    # a path that would start from rest starts from the present targets, the rest of it unchanged
    fresh = HandPath(
        (0.0, 0.4), (REST_LEFT_HAND_M, (0.5, 0.2, 1.0)), (REST_RIGHT_HAND_M, (0.5, -0.2, 1.0)), (), (0.0, 0.2)
    )
    taken = continue_path(fresh, now, 0.5)
    assert taken.targets_at(0.0) == now[:2] and taken.knee_bend_at(0.0) == 0.1
    assert taken.targets_at(0.4) == fresh.targets_at(0.4) and taken.times_s == fresh.times_s
    # a keyframe the plan itself puts at t = 0 away from rest is its own request
    asked = HandPath((0.0,), ((0.3, 0.3, 1.1),), ((0.3, -0.3, 1.1),), (), (0.0,))
    assert continue_path(asked, now, 0.5) is asked
