"""`reacthuman bench`: structure of its JSON and table on the fast sections (scoring, memory), the goal
verdicts, the per-node memory reader on a real process tree, and bad input. Never a timing value."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reacthuman.perf.cli import main
from reacthuman.perf.cli import SECTIONS
from reacthuman.perf.common import Goal, Repeats
from reacthuman.perf.memory import memory_section
from reacthuman.core.processes import children, tree_peak_rss
from reacthuman.perf.table import render_markdown, render_text
from reacthuman.evaluation.memory_log import append_sample

TOP_LEVEL = {"physics", "render", "transport", "episode", "scenes", "scoring", "memory", "tracking", "machine", "run"}


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    assert main(["--quick", "--sections", "scoring,memory", "--json", str(out)]) == 0
    return json.loads(out.read_text())


def test_json_has_every_section_and_the_machine_with_its_load(report):
    assert set(report) == TOP_LEVEL
    assert tuple(SECTIONS) == ("physics", "render", "transport", "episode", "scenes", "scoring", "memory", "tracking")
    for name in ("physics", "render", "transport", "episode", "scenes", "tracking"):
        assert report[name] == {"skipped": "not in --sections"}
    m = report["machine"]
    assert m["cpus"] >= 1
    assert len(m["load_average_start"]) == 3
    assert m["memory_gib"] > 0
    assert report["run"]["quick"] is True
    assert len(report["run"]["load_average_end"]) == 3


def test_scoring_section_counts_every_decision_with_medians_and_a_verdict(report):
    s = report["scoring"]
    n = s["decisions"]
    assert n == 300
    assert s["models"] == 3
    for key in ("score_decision", "ledger_read", "ledger_to_report"):
        sec = s[key]["seconds"]
        assert sec["n"] == 2
        assert sec["min"] <= sec["median"] <= sec["max"]
        assert s[key]["per_s"] > 0
    for key in ("score_decision", "ledger_to_report"):
        goal = s[key]["goal"]
        assert goal["higher_is_better"]
        assert goal["verdict"].split()[0] in ("far", "meets", "misses")
    assert len(s["load_average"]) == 3


def test_memory_without_a_graph_says_so(report):
    m = report["memory"]
    assert m["nodes_peak_mib"] is None
    assert "did not run" in m["note"]
    assert m["bench_process_peak_mib"] > 10
    assert "--quick does not" in m["per_episode"]["note"]


def test_table_lists_each_section_with_verdicts(report):
    text = render_text(report)
    for name in SECTIONS:
        assert name in text
    assert "score_decision/s" in text
    assert "not in --sections" in text
    md = render_markdown(report)
    assert md.splitlines()[0].startswith("| section | stage | measured")
    assert md.count("\n") == text.count("\n")


def test_goal_verdicts_and_repeats():
    faster = Goal(1.0, "x real time", True, "")
    assert faster.verdict(3.0) == "far from limit by 3.0x"
    assert faster.verdict(1.5).startswith("meets goal")
    assert faster.verdict(0.5) == "misses goal by 2.00x"
    cheaper = Goal(1.15, "x", False, "")
    assert cheaper.verdict(0.5) == "far from limit by 2.3x"
    assert cheaper.verdict(2.3) == "misses goal by 2.00x"
    assert cheaper.verdict(None) == "not measured"
    r = Repeats.of([3.0, 1.0, 2.0])
    assert (r.median, r.min, r.max, r.n) == (2.0, 1.0, 3.0, 3)
    with pytest.raises(ValueError):
        Repeats.of([])


def test_peak_memory_is_read_per_node_from_a_real_process_tree():
    """A parent with one child named like a launched node (`__node:=probe`) holding 64 MiB."""
    child = "import time; x = bytearray(64 * 2**20); x[::4096] = b'1' * len(x[::4096]); time.sleep(60)"
    parent = (
        f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {child!r}, '--ros-args', "
        f"'-r', '__node:=probe']); time.sleep(60)"
    )
    proc = subprocess.Popen([sys.executable, "-c", parent])
    try:
        deadline, peaks = time.monotonic() + 30, {}
        while time.monotonic() < deadline and peaks.get("probe", 0) < 64:
            time.sleep(0.2)
            peaks = tree_peak_rss(proc.pid)
        assert peaks.get("probe", 0) >= 64, peaks
        assert "launcher" in peaks
        m = memory_section(peaks)
        assert m["graph_total_peak_mib"] == pytest.approx(sum(peaks.values()), abs=0.2)
        assert list(m["nodes_peak_mib"])[0] == "probe"  # largest first
        assert m["goal"]["unit"] == "MiB"
    finally:
        for pid in children(proc.pid):  # the probe child, by its id
            os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()


@pytest.mark.parametrize(
    "args, words",
    [
        (["--sections", "scoring,warp"], "unknown section(s) warp"),
        (["--domain-base", "400"], "--domain-base must be in"),
        (["--memory-run", "/nonexistent"], "no logs/memory.jsonl"),
        (["--walking-policy", "ppo"], "--walking-policy must be one of"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert words in err
    assert len(err.splitlines()) == 1


def test_memory_per_episode_over_a_run_gives_each_node_its_slope_verdict_and_plot(tmp_path):
    """The section over a run folder's memory log as the eval writes it (append_sample): a body restarted
    every third episode stays flat, a node that gains 4% per episode does not."""
    run = tmp_path / "run"
    for k in range(12):
        append_sample(
            run,
            {
                "model": "oracle",
                "scene_id": f"s{k}",
                "domain": 1,
                "graph_episode": k % 3 + 1,
                "rss_mib": {"body": 1800.0 + 60.0 * (k % 3), "episode_manager": 100.0 * (1.04**k)},
            },
        )
    out = tmp_path / "bench.json"
    assert main(["--quick", "--sections", "memory", "--memory-run", str(run), "--json", str(out)]) == 0
    per = json.loads(out.read_text())["memory"]["per_episode"]
    assert per["episodes"] == 12
    assert per["restarts"] == 3
    assert per["all_flat"] is False
    body, manager = per["nodes"]["body"], per["nodes"]["episode_manager"]
    assert body["verdict"] == "flat"
    assert body["after_warmup_mib"] == 1860.0
    assert body["max_mib"] == 1920.0
    assert manager["verdict"] == "grows beyond 10%"
    assert manager["slope_mib_per_episode"] > 4.0
    assert manager["rss_mib"][0] == 100.0
    assert len(manager["rss_mib"]) == 12
    assert Path(per["plot"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "episode_manager per episode (12 episodes, 3 restarts)" in render_text(json.loads(out.read_text()))


def test_reacthuman_bench_reaches_this_main():
    import importlib

    from reacthuman.cli import COMMANDS

    assert importlib.import_module(COMMANDS["bench"][0]).main is main


def test_the_memory_run_repeats_a_scene_set_in_order_under_new_ids_with_the_same_physics(tmp_path):
    from reacthuman.perf.memory import looped_scene_set
    from reacthuman.scenes import sample_spec
    from reacthuman.scenes.spec import SceneSpec

    src = tmp_path / "src"
    specs = [sample_spec("object_drop", 3), sample_spec("ceiling_drop", 2)]
    for spec in specs:
        (src / spec.scene_id).mkdir(parents=True)
        (src / spec.scene_id / "spec.json").write_text(spec.to_json())
    looped = looped_scene_set(src, tmp_path / "looped", 5)
    out = [SceneSpec.from_json(p.read_text()) for p in sorted(looped.glob("*/spec.json"))]
    assert [s.scene_id.split("-", 1)[0] for s in out] == ["r000", "r000", "r001", "r001", "r002"]
    by_id = {s.scene_id: s for s in specs}
    for s in out:
        original = by_id[s.scene_id.split("-", 1)[1]]
        assert s.to_json() == original.to_json().replace(original.scene_id, s.scene_id)


def test_the_study_section_reads_the_cpu_time_of_a_whole_process_tree():
    """A parent that sleeps and a child that spins: the tree's CPU seconds include the child's."""
    from reacthuman.perf.study import tree_cpu_s

    child = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.0: pass\ntime.sleep(60)"
    parent = f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {child!r}]); time.sleep(60)"
    proc = subprocess.Popen([sys.executable, "-c", parent])
    try:
        deadline, spent, child_s = time.monotonic() + 60, 0.0, 0.0
        while time.monotonic() < deadline and child_s < 1.0:  # the child's own second, not the tree's
            time.sleep(0.2)
            kids = children(proc.pid)
            child_s = tree_cpu_s(kids[0]) if kids else 0.0
            spent = tree_cpu_s(proc.pid)  # read after the child's: at least its second
        assert 1.0 <= spent < 10.0, spent
        assert tree_cpu_s(children(proc.pid)[0]) >= 1.0 > tree_cpu_s(proc.pid) - tree_cpu_s(children(proc.pid)[0])
    finally:
        for pid in children(proc.pid):
            os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()


def test_the_full_study_option_is_checked_and_its_rows_show_what_was_run(capsys):
    from reacthuman.perf.table import _study_full

    assert main(["--study-full", "-1"]) == 2
    assert main(["--study-full", "4", "--sections", "scoring"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "reacthuman bench: --study-full must be >= 0, got -1",
        "reacthuman bench: --study-full measures in the study section: name it in --sections",
    ]
    part = {"wall_s": 60.0, "cpu_s": 90.0}
    full = {"scenes": 4, "models": 7, "decisions": 28, "render_workers": 2, "concurrency": 8, "render": part}
    full |= {"decide": part, "wall_s": 120.0, "cpu_s": 180.0, "cpu_s_per_decision": 6.4286, "goal": None}
    stages = [r.stage for r in _study_full(full)]
    assert stages == [
        "full: scenes render 4 scenes --workers 2",
        "full: decide 4 x 7 --concurrency 8",
        "full: 4 renders + 28 decisions, measured",
    ]
    assert [r.goal for r in _study_full(full)] == ["", "", ""]  # a check set is held to no goal
    goal = {"value": 8.0, "unit": "x", "higher_is_better": True, "verdict": "meets goal (1.15x)"}
    rows = _study_full(full | {"speedup_vs_graph": 9.2, "speedup_goal": goal})
    assert (rows[-1].stage, rows[-1].measured, rows[-1].goal, rows[-1].verdict) == (
        "full: machine time a decision vs the sample's graph episode",
        "9.2x",
        ">= 8 x",
        "meets goal (1.15x)",
    )
