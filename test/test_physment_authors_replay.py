"""The authors' published results as a reference (fixtures extracted from their logs, see
test/fixtures/physment_authors/NOTICE.md): their tool semantics reproduce their logged tool results, their
matcher reproduces their logged verdicts, each tool switch changes what it names, and the log reader and
`physment rescore-authors` / `physment replay` work on a TestResults layout written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from physment.authors.logs import LoggedCall, LoggedEpisode, literal, read_episode
from physment.authors.matcher import authors_correct
from physment.authors.replay import ReplaySummary, replay_episode, same
from physment.authors.rescore import rescore, summary_json
from physment.authors.tools import (
    ALL_ON,
    HEADLESS,
    SWITCHES,
    AuthorsSim,
    parse_switches,
)
from physment.cli import main
from physment.protocol import paper_correct

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "physment_authors"


def _untuple(value):
    if isinstance(value, dict) and set(value) == {"__tuple__"}:
        return tuple(_untuple(v) for v in value["__tuple__"])
    if isinstance(value, dict):
        return {k: _untuple(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_untuple(v) for v in value]
    return value


def _episodes() -> list[LoggedEpisode]:
    out = []
    for e in json.loads((FIXTURES / "episodes.json").read_text()):
        calls = tuple(
            LoggedCall(i + 1, c["tool"], c["parameters"], _untuple(c["result"]), c["sim_time"])
            for i, c in enumerate(e["calls"])
        )
        out.append(
            LoggedEpisode(
                e["model"], e["budget"], e["scene"], Path(f"summary_{e['log']}.txt"), "", None, "", False, calls
            )
        )
    return out


@pytest.mark.parametrize("episode", _episodes(), ids=lambda e: f"Scene{e.scene_number}-{e.model}-b{e.budget}")
def test_replay_of_the_fixture_episodes_reproduces_their_logged_results(episode):
    summary = ReplaySummary()
    replay_episode(episode, (FIXTURES / "scenes" / f"Scene{episode.scene_number}.xml").read_text(), summary)
    assert summary.calls == len(episode.calls) > 5
    assert summary.reproduced == summary.calls, [(m.call, m.tool, m.ours, m.theirs) for m in summary.mismatches]
    assert sum(summary.variants.values()) == 1
    assert summary.same_scene == [summary.calls, summary.calls]


def test_the_fixture_spans_the_tools():
    tools = {c.tool for e in _episodes() for c in e.calls}
    assert {
        "step",
        "get_position",
        "get_velocity",
        "apply_force",
        "apply_torque",
        "get_acceleration",
        "get_parameters",
        "detect_collision",
        "move_object",
        "set_velocity",
        "get_angular_momentum",
        "get_displacement",
        "create_objects",
        "delete_objects",
        "find_objects",
        "attach_objects",
    } <= tools


def test_the_authors_matcher_gives_their_logged_verdicts_and_its_own_rules():
    pairs = json.loads((FIXTURES / "answers.json").read_text())
    assert len(pairs) == 30
    assert {p["logged_correct"] for p in pairs} == {True, False}
    for p in pairs:
        assert authors_correct(p["answer"], p["truth"]) is p["logged_correct"], p
    # the rules that set it apart from Eq. 4: containment both ways, absolute 0.1, units and object_ stripped
    assert authors_correct("1", 10)
    assert not paper_correct("1", 10, 1e-3, 0.05)
    assert authors_correct("0.05", 0.14)
    assert not paper_correct("0.05", 0.14, 1e-3, 0.05)
    assert authors_correct("the hollow sphere rolls slower", "hollow")
    assert authors_correct("object_2", 2)
    assert authors_correct("4.9 m/s", 4.905)
    assert authors_correct("[1, 2]", "1, 2")
    assert not authors_correct("2", 3)
    assert not authors_correct(None, 1)
    assert not authors_correct("1.2, 3", "1, 3")


def test_each_switch_changes_what_it_names():
    xml = (
        '<mujoco><worldbody><body name="object_3"><geom type="plane" size="5 5 0.1"/></body>'
        '<body name="object_1" pos="0 0 0.1"><geom type="box" size="0.1 0.1 0.1" density="1000"/>'
        '<joint name="object_1_joint" type="free"/></body>'
        '<body name="object_2" pos="1 0 0.2"><geom type="sphere" size="0.1" density="1000"/>'
        '<joint name="object_2_joint" type="free"/></body>'
        '<body name="object_5" pos="3 0 2"><joint name="object_5_joint" type="hinge" axis="0 1 0"/>'
        '<geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" density="1000"/>'
        '<body name="object_6" pos="0.5 0 0"><geom type="sphere" size="0.05" density="1000"/></body></body>'
        "</worldbody></mujoco>"
    )
    probes = {
        "persistent_wrench": [
            ("apply_force", {"object_id": "object_1", "force_vector": [50, 0, 0]}),
            ("step", {"duration": 0.1}),
            ("step", {"duration": 0.1}),
            ("get_velocity", {"object_id": "object_1"}),
        ],
        "step_then_forward": [
            ("set_velocity", {"object_id": "object_1", "velocity_vector": [1, 0, 0]}),
            ("step", {"duration": 0.0125}),
            ("get_position", {"object_id": "object_1"}),
        ],
        "cvel_velocity": [("step", {"duration": 0.2}), ("get_velocity", {"object_id": "object_6"})],
        "finite_difference_acceleration": [
            ("get_acceleration", {"object_id": "object_1"}),
            ("step", {"duration": 0.05}),
            ("get_acceleration", {"object_id": "object_1"}),
        ],
        "first_joint_displacement": [("get_displacement", {"object_id": "object_2"})],
        "unfiltered_parameters": [("get_parameters", {"object_id": "object_1"})],
        "applied_torque_only": [
            ("apply_torque", {"object_id": "object_1", "torque_vector": [0, 0, 1]}),
            ("step", {"duration": 0.05}),
            ("get_torque", {"object_id": "object_1"}),
        ],
        "principal_inertia_world_omega": None,  # needs a rotated body: checked below
        "contact_force_collision": [
            ("step", {"duration": 0.3}),
            ("detect_collision", {"obj1_id": "object_1", "obj2_id": "object_3"}),
        ],
        "reload_on_edit": [
            ("step", {"duration": 0.2}),
            ("find_objects", {}),
            ("get_position", {"object_id": "object_1"}),
        ],
        "viewer_sync": [
            ("apply_force", {"object_id": "object_2", "force_vector": [0, 0, 100]}),
            ("step", {"duration": 0.1}),
            ("get_position", {"object_id": "object_2"}),
        ],
    }
    assert set(probes) == set(SWITCHES)
    for switch, calls in probes.items():
        if calls is None:
            continue
        base = ALL_ON if switch == "viewer_sync" else HEADLESS  # the viewer's sync masks the wrench switches
        on, off = AuthorsSim(xml, base), AuthorsSim(xml, base - {switch})
        got_on = [on.call(t, dict(p))[0] for t, p in calls]
        got_off = [off.call(t, dict(p))[0] for t, p in calls]
        assert not same(got_on[-1], got_off[-1]), (switch, got_on[-1], got_off[-1])
    rotated = (
        '<mujoco><worldbody><body name="object_1" pos="0 0 1" quat="0.92388 0.38268 0 0"><geom type="box" '
        'size="0.1 0.3 0.5" density="1000"/><joint name="object_1_joint" type="free"/></body></worldbody>'
        '<option gravity="0 0 0"/></mujoco>'
    )
    sims = [AuthorsSim(rotated, s) for s in (ALL_ON, ALL_ON - {"principal_inertia_world_omega"})]
    for sim in sims:
        sim.data.qvel[3:6] = [0.0, 1.0, 1.0]
        sim.call("step", {"duration": 0.002})
    on, off = (s.call("get_angular_momentum", {"object_id": "object_1", "mass": 1})[0] for s in sims)
    assert not same(on, off)
    # their reload zeroes positions until a step; with the viewer open, its load runs mj_forward at once
    reads = {}
    for name, switches in (("viewer", ALL_ON), ("headless", HEADLESS)):
        sim = AuthorsSim(xml, switches)
        sim.call("find_objects", {})
        reads[name] = sim.call("get_center_of_mass", {})[0]["center_of_mass"]["z"]
    assert reads["headless"] == 0.0
    assert reads["viewer"] > 0.1
    assert parse_switches("authors:-reload_on_edit") == ALL_ON - {"reload_on_edit"}
    with pytest.raises(ValueError, match="unknown tool switch"):
        parse_switches("authors:-warp_drive")


def test_their_errors_are_their_texts():
    sim = AuthorsSim((FIXTURES / "scenes" / "Scene40.xml").read_text())
    assert sim.call("get_position", {"object_id": "1"})[0] == {"error": "Body with name '1' not found in the scene."}
    assert sim.call("fly", {})[0] == {"error": "Unknown tool 'fly'"}
    assert sim.call("get_position", {"object_id": "object_1", "frame": "world"})[0] == {
        "error": "Simulator.get_position() got an unexpected keyword argument 'frame'"
    }
    assert sim.call("quat_to_rot_matrix", {"q": [1, 0, 0, 0]})[0]["error"].endswith("'mju_matQuat'")


def _write_log(
    root: Path,
    model: str,
    budget: int,
    scene: int,
    stamp: str,
    answer: str,
    truth: str,
    correct: bool,
    results: list[dict],
) -> None:
    folder = root / f"iterations_{budget:02d}" / model / f"scene_{scene:03d}"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        f"=== Experiment Log for {scene} ===",
        "",
        "",
        "--- Iteration 1 ---",
        "LLM Input Prompt Below:",
        "the prompt",
        "",
        "LLM Response Below:",
        "a reply",
        "",
        "=== Final Experiment Summary ===",
        "",
        "--- Final Answer Submitted ---",
        f"LLM's Final Answer: {answer}",
        f"Correct Answer: {truth}",
        f"Is Correct: {correct}",
        "Answer Found: True",
        "Timeout Occurred: False",
        "",
        "--- Tool Call Results ---",
    ]
    lines += [f"  [{i + 1}] {r!r}" for i, r in enumerate(results)]
    lines += ["", "--- Python Tool Status ---", "Python Tool Enabled: False"]
    (folder / f"summary_{stamp}.txt").write_text("\n".join(lines) + "\n")
    (folder / f"log_{stamp}.json").write_text(json.dumps([{"summary": {"Problem Type": "calculation"}}]))


def test_logs_rescore_and_replay_commands(tmp_path, capsys):
    results = tmp_path / "TestResults"
    ep = json.loads((FIXTURES / "episodes.json").read_text())[0]
    recs = [
        {"tool": c["tool"], "parameters": c["parameters"], "result": _untuple(c["result"]), "sim_time": c["sim_time"]}
        for c in ep["calls"]
    ]
    _write_log(results, "kimi_k2_5", 5, ep["scene"], "20260101T000000", "4.9 m/s", "4.905", True, recs)
    _write_log(results, "kimi_k2_5", 5, 7, "20260101T000100", "1", "10", True, [])
    (results / "manual_grading_summary.csv").write_text("iterations,Kimi_K2_5,GPT_5_4\n5,50.0,40.0\n")
    scenes = tmp_path / "Scenes" / f"Scene{ep['scene']}"
    scenes.mkdir(parents=True)
    (scenes / f"scene{ep['scene']}.xml").write_text((FIXTURES / "scenes" / f"Scene{ep['scene']}.xml").read_text())
    logged = read_episode(next(results.rglob("summary_20260101T000000.txt")))
    assert logged.final_answer == "4.9 m/s"
    assert logged.calls[0].tool == ep["calls"][0]["tool"]
    assert literal("{'position': (np.float64(1.5), -2), 'x': nan}")["position"] == (1.5, -2)
    assert summary_json(rescore(results)) == {"kimi_k2_5": {"5": {"strict": 0.0, "paper": 0.0, "authors": 100.0}}}
    assert main(["rescore-authors", str(results), "--json", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "| kimi_k2_5 | 5 | 2 | 2 | 0 | 0.0 | 0.0 | 100.0 | 100.0 | 50.0 |" in out
    assert "GPT_5_4" in out
    assert main(["replay", str(results), "--json", str(tmp_path / "p.json")]) == 0
    summary = json.loads((tmp_path / "p.json").read_text())
    assert summary["calls"] == len(recs) == summary["reproduced"]
    assert main(["replay", str(results), "--tools", "authors:-nonsense"]) == 2


def test_the_replay_entry_a_managed_engine_runs(tmp_path):
    """`python -m physment.authors.replay` (what the managed MuJoCo environment runs), here with this
    environment's own interpreter; `--mujoco` naming the installed release runs no second environment."""
    import subprocess
    import sys

    import mujoco

    results = tmp_path / "TestResults"
    ep = json.loads((FIXTURES / "episodes.json").read_text())[1]
    recs = [
        {"tool": c["tool"], "parameters": c["parameters"], "result": _untuple(c["result"]), "sim_time": c["sim_time"]}
        for c in ep["calls"]
    ]
    _write_log(results, "glm_5", 10, ep["scene"], "20260101T000000", "1", "1", True, recs)
    scenes = tmp_path / "Scenes" / f"Scene{ep['scene']}"
    scenes.mkdir(parents=True)
    (scenes / f"scene{ep['scene']}.xml").write_text((FIXTURES / "scenes" / f"Scene{ep['scene']}.xml").read_text())
    out = tmp_path / "r.json"
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-m", "physment.authors.replay", str(results), str(out)],
        cwd=root,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(out.read_text())
    assert summary["mujoco"] == mujoco.__version__
    assert summary["calls"] == summary["reproduced"] == len(recs)
    assert main(["replay", str(results), "--mujoco", mujoco.__version__, "--json", str(out)]) == 0
    assert "beside" not in json.loads(out.read_text())


def test_a_model_only_mismatch_after_a_step_tells_the_scene_apart():
    xml = (
        '<mujoco><worldbody><body name="object_1" pos="0 0 1"><geom type="box" size="0.1 0.1 0.1"/>'
        '<joint name="object_1_joint" type="free"/></body></worldbody></mujoco>'
    )

    def episode(*calls):
        logged = tuple(LoggedCall(i + 1, t, p, r, None) for i, (t, p, r) in enumerate(calls))
        return LoggedEpisode("m", 5, 1, Path("summary_20260101T000000.txt"), "", None, "", False, logged)

    kinds = {}
    for name, read in (
        ("mass", ("get_parameters", {"object_id": "object_1"}, {"mass": 99.0})),
        ("position", ("get_position", {"object_id": "object_1"}, {"position": [9, 9, 9]})),
    ):
        summary = ReplaySummary()
        replay_episode(episode(("step", {"duration": 0.01}, None), read), xml, summary)
        kinds[name] = dict(summary.kinds)
    assert kinds == {"mass": {"initial_state": 1}, "position": {"first_divergence": 1}}
