"""The report's "Open vs closed loop" section, recomputed from closed-loop rows (scoring/loop_tables.py); a
ledger of open-loop rows has no such section."""

from __future__ import annotations

import csv

from reacthuman.scoring.closed_loop import DecisionPoint, JudgedDecision, closed_loop_fields
from reacthuman.scoring.ledger import DecisionRecord, LedgerWriter
from reacthuman.scoring.report import write_report
from reacthuman.plan import Pose2D


def _row(scene: str, model: str, actions: list[str | None], truths: list[str], struck: bool) -> DecisionRecord:
    judged = tuple(JudgedDecision(DecisionPoint(k, 0.6 + 0.5 * k, Pose2D(0.0, 0.0, 0.0), None, (1.0, 0.0, 0.5)),
                                  a, t, int(a == t), None) for k, (a, t) in enumerate(zip(actions, truths)))
    row = DecisionRecord(scene, "rolling_ball", model, "ball", correct_action=truths[0], action=actions[0],
                         saa=int(actions[0] == truths[0]), caught=False, struck=struck, fell=False, d_end_executed=0.2)
    row.extras.update(closed_loop_fields(judged, row))
    return row


def test_the_section_sets_first_beside_final_decisions_with_recovery_and_regression(tmp_path):
    rows = [_row("a", "m", ["DODGE", "CATCH"], ["CATCH", "CATCH"], False),  # recovered
            _row("b", "m", ["CATCH", "DODGE", "DODGE"], ["CATCH", "CATCH", "CATCH"], False),  # regressed
            _row("c", "m", ["CATCH"], ["CATCH"], True)]  # no re-plan: the hazard was at rest
    with LedgerWriter(tmp_path) as w:
        for r in rows:
            w.append(r)
    files = write_report(tmp_path)
    assert "## Open vs closed loop" in files.markdown.read_text()
    table = list(csv.DictReader((tmp_path / "tables" / "open_vs_closed_loop.csv").open()))
    assert len(table) == 1 and table[0]["model"] == "m" and table[0]["episodes"] == "3"
    got = {k: float(table[0][k]) for k in ("re-plans / episode", "SAA first", "SAA final", "recovery", "regression",
                                          "struck")}
    assert got == {"re-plans / episode": 1.0, "SAA first": 2 / 3, "SAA final": 2 / 3, "recovery": 1 / 3,
                   "regression": 1 / 3, "struck": 1 / 3}


def test_an_open_loop_ledger_has_no_loop_section(tmp_path):
    with LedgerWriter(tmp_path) as w:
        w.append(DecisionRecord("a", "rolling_ball", "m", "ball", correct_action="CATCH", action="CATCH", saa=1))
    files = write_report(tmp_path)
    assert "Open vs closed loop" not in files.markdown.read_text()
    assert not (tmp_path / "tables" / "open_vs_closed_loop.csv").exists()


def test_eval_refuses_the_closed_loop_in_one_line_and_loop_names_a_missing_scene_folder(tmp_path, capsys):
    from reacthuman.evaluation.cli import main as eval_main
    from reacthuman.evaluation.loop_cli import main as loop_main

    assert eval_main(["--scenes", str(tmp_path), "--models", "oracle", "--out", str(tmp_path / "run"),
                      "--loop", "closed"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--loop closed" in err and "reacthuman loop" in err
    assert not (tmp_path / "run").exists()
    assert loop_main(["--scenes", str(tmp_path / "none"), "--models", "oracle", "--out", str(tmp_path / "r"),
                      "--loop", "closed"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "scenes folder not found" in err
