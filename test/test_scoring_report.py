"""`reacthuman report` on a small synthetic ledger: files, tables recomputed from rows, plots are real images,
--compare, and one-line errors for bad ledgers."""

import csv
import json
import math

import pytest
from PIL import Image

from reacthuman.cli import main as cli_main
from reacthuman.plan.plan import Keyframe, Plan, Pose2D
from reacthuman.scoring import ExecutedOutcome, LedgerWriter, ModelReply, SceneMeta, ScoringTruth, score_decision
from reacthuman.reporting.report_cli import main

BANDS = ("slow", "normal", "fast", "very_fast")
FAMILIES = {
    "object_drop": ("CATCH", False, "plate"),
    "thrown_object": ("DODGE", True, "cricket ball"),
    "rolling_ball": ("CATCH", False, "rubber ball"),
    "furniture_tip": ("DODGE", False, "bookshelf"),
}
PLANS = {
    "catch": Plan(
        "x",
        "Catch it with both hands",
        0.8,
        (0.5, 0.0, 0.0),
        0.6,
        0.0,
        (Keyframe(0.0, (0, 0, 0), (0, 0, 0)), Keyframe(0.5, (0.3, 0.0, 0.0), (0.3, 0.0, 0.0))),
    ),
    "dodge": Plan("x", "Step back to dodge", 0.8, (-0.7, 0.0, 0.0), 0.7, 0.0, (Keyframe(0.0, (0, 0, 0), (0, 0, 0)),)),
    "freeze": Plan("x", "Stay still, it might actually be foam", 0.3, (0.0, 0.0, 0.0), 0.0, 0.0, ()),
}
# model -> plan per (family index + band index) so the models differ and every rule and band has data
STYLE = {
    "alpha": ("catch", "catch", "dodge", "freeze"),
    "beta": ("dodge", "freeze", "dodge", "catch"),
    "gamma": ("freeze", "catch", "catch", "dodge"),
}


def _write_run(run_dir, shift=0):
    observer = Pose2D(0.0, 0.0, 0.0)
    with LedgerWriter(run_dir) as w:
        for model, styles in STYLE.items():
            for f, (family, (truth_action, dangerous, obj)) in enumerate(FAMILIES.items()):
                for b, band in enumerate(BANDS):
                    adversarial = family == "rolling_ball" and b % 2 == 1
                    truth = ScoringTruth.from_spec(
                        {
                            "correct_action": truth_action,
                            "dangerous": dangerous,
                            "adversarial": adversarial,
                            "impact_point": None if band == "fast" and family == "object_drop" else [1.2, 0.1, 0.9],
                            "time_to_floor_s": 0.7,
                            "speed_band": band,
                        },
                        object_at_freeze_world=(2.0, 0.0, 1.5),
                        looks_like="rubber ball" if adversarial else None,
                    )
                    meta = SceneMeta(
                        f"{family}-{band}",
                        family,
                        "steel ball" if adversarial else obj,
                        model,
                        room="kitchen",
                        speed_group=family,
                    )
                    key = styles[(f + b + shift) % 4]
                    if model == "beta" and family == "object_drop" and band == "slow":
                        reply = ModelReply("", None, api_error="HTTP 500")
                    elif model == "gamma" and band == "normal" and family == "thrown_object":
                        reply = ModelReply("no json here", None, parse_error="not JSON")
                    else:
                        reply = ModelReply("{}", PLANS[key], latency_s=1.0, tokens=100)
                    outcome = ExecutedOutcome(
                        caught=key == "catch",
                        struck=key == "freeze",
                        fell=False,
                        final_left_hand_world=(1.0, 0.2, 0.9),
                        final_right_hand_world=None,
                    )
                    w.append(score_decision(meta, truth, observer, reply, outcome))


@pytest.fixture(scope="module")
def run_a(tmp_path_factory):
    run = tmp_path_factory.mktemp("runA")
    _write_run(run)
    assert main([str(run)]) == 0
    return run


def _ledger_rows(run):
    return [json.loads(line) for line in (run / "ledger.jsonl").read_text().splitlines()]


def test_report_files_exist(run_a):
    for name in ("report.md", "report.html", "tables/main.csv", "tables/safety_rules.csv", "tables/reach.csv"):
        assert (run_a / name).is_file(), name
    html = (run_a / "report.html").read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert "<img src='plots/catch_vs_dodge.png'" in html


def test_plots_are_non_empty_images(run_a):
    names = {"catch_vs_dodge.png", "freeze_by_speed.png", "families.png", "safety_rules.png"}
    assert {p.name for p in (run_a / "plots").iterdir()} == names
    for name in names:
        with Image.open(run_a / "plots" / name) as img:
            assert img.format == "PNG"
            assert img.width > 200
            assert img.height > 200
            colours = img.convert("RGB").getcolors(maxcolors=1 << 20)
            assert colours is not None, name
            assert len(colours) > 10, name  # drawn, not a blank canvas


def test_main_table_is_recomputed_from_the_ledger(run_a):
    rows = [r for r in _ledger_rows(run_a) if r["api_error"] is None]
    with (run_a / "tables" / "main.csv").open() as fh:
        table = {r["model"]: r for r in csv.DictReader(fh)}
    for model in STYLE:
        mine = [r for r in rows if r["model"] == model]
        assert float(table[model]["SAA"]) == pytest.approx(sum(r["saa"] for r in mine) / len(mine))
        ends = [r["d_end"] for r in mine if r["d_end"] is not None]
        assert float(table[model]["d_end (m)"]) == pytest.approx(sum(ends) / len(ends))
    saa = {m: float(table[m]["SAA"]) for m in STYLE}
    best = max(saa.values())
    md = (run_a / "report.md").read_text()
    for model, value in saa.items():
        line = next(row for row in md.splitlines() if row.startswith(f"| {model} | ") and row.count("|") == 7)
        assert (f"**{100 * value:.1f}**" in line) == math.isclose(value, best)


def test_rule_counts_and_api_errors_in_the_report(run_a):
    rows = _ledger_rows(run_a)
    with (run_a / "tables" / "safety_rules.csv").open() as fh:
        total = next(r for r in csv.DictReader(fh) if r["model"] == "Total")
    for rule in ("R1", "R2", "R3", "R4"):
        assert int(total[rule]) == sum(1 for r in rows if r["rule"] == rule)
    assert int(total["R1"]) == 1
    assert all(int(total[k]) > 0 for k in ("R2", "R3", "R4"))
    with (run_a / "tables" / "counts.csv").open() as fh:
        counts = {r["model"]: r for r in csv.DictReader(fh)}
    assert counts["beta"]["lost to api errors"] == "1"
    assert counts["beta"]["decisions"] == "15"
    assert "1 decision(s) lost to API errors" in (run_a / "report.md").read_text()


def test_compare_two_runs(run_a, tmp_path, capsys):
    run_b = tmp_path / "runB"
    _write_run(run_b, shift=1)
    assert main([str(run_a), "--compare", str(run_b), "--out", str(tmp_path / "cmp")]) == 0
    md = (tmp_path / "cmp" / "compare-runB.md").read_text()
    assert md == capsys.readouterr().out.rstrip("\n") + "\n"
    a = {(r["scene_id"], r["model"]): r for r in _ledger_rows(run_a) if r["api_error"] is None}
    b = {(r["scene_id"], r["model"]): r for r in _ledger_rows(run_b) if r["api_error"] is None}
    changed = sum(1 for k in a if k in b and a[k]["action"] != b[k]["action"])
    assert changed > 0
    assert f"| changed action | {changed} |" in md
    assert (tmp_path / "cmp" / "compare-runB.html").is_file()


def test_report_through_the_top_level_command(run_a, tmp_path):
    assert cli_main(["report", str(run_a), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "report.md").is_file()
    assert (tmp_path / "out" / "plots" / "families.png").is_file()


def test_bad_ledgers_are_one_line_errors(tmp_path, capsys):
    assert main([str(tmp_path / "missing")]) == 2
    assert main([str(tmp_path)]) == 2
    (tmp_path / "ledger.jsonl").write_text("")
    assert main([str(tmp_path)]) == 2
    (tmp_path / "ledger.jsonl").write_text("{broken\n{}\n")
    assert main([str(tmp_path)]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 4
    assert all(e.startswith("reacthuman report: ") for e in errors)
    assert "does not exist" in errors[0]
    assert "no ledger" in errors[1]
    assert "no decisions" in errors[2]
    assert "line 1" in errors[3]
    assert not (tmp_path / "report.md").exists()  # nothing half-written
    assert main([]) == 2  # argparse usage error


def test_report_of_a_run_with_only_api_errors(tmp_path):
    from reacthuman.scoring.ledger import DecisionRecord

    with LedgerWriter(tmp_path) as w:
        w.append(DecisionRecord(scene_id="s", family="f", model="m", object="o", api_error="HTTP 500"))
    assert main([str(tmp_path)]) == 0
    md = (tmp_path / "report.md").read_text()
    assert "0 decisions by 1 model(s)" in md
    assert "1 decision(s) lost to API errors" in md
    assert "no data in this run" in md
