"""The release controls: tasks whose state changes after the handoff, so that help given all at once at the handoff
(early help) fails where the same help given in time passes, and the release check that refuses a pack whose early
help passes."""

from __future__ import annotations

import dataclasses
import shutil

import pytest

from interactiveworld.agents.assistants import make_assistant
from interactiveworld.agents.scripted_human import ScriptedHuman
from interactiveworld.bench.release import check_release
from interactiveworld.bench.taskgen import check_admission, freeze
from interactiveworld.bench.taskpack import default_tasks_dir, load_pack, save_pack
from interactiveworld.bench.templates import TEMPLATES
from interactiveworld.cli import main
from interactiveworld.episode import Episode, run_episode
from interactiveworld.world.predicates import Predicate, evaluate


def _run(pack, name):
    return run_episode(pack, make_assistant(name, pack), ScriptedHuman())


def test_early_help_fails_where_timely_help_passes():
    pack = load_pack(default_tasks_dir() / "guidance-store-0.json")
    late = next(e for e in pack.scene.events if e.kind == "arrive")
    oracle, early = _run(pack, "oracle"), _run(pack, "early")
    assert oracle.passed
    assert not early.passed
    assert not early.voided
    # the can arrives at the start of turn 1; said at the handoff, its instructions find nothing there
    assert any(r.get("role") == "world" for r in oracle.trace)
    early_can = [
        a
        for r in early.trace
        if r.get("role") == "human"
        for a in r["actions"]
        if late.target in (a.get("target"), a.get("command", "").replace(" ", "_"))
    ]
    assert early.trace[1]["turn"] == 0
    assert not all(a["ok"] for a in early.trace[2]["actions"])
    assert early_can == [] or not all(a["ok"] for a in early_can)
    assert early.goals_final[0]
    assert not early.goals_final[1]  # the milk is stored, the late can is not


def test_scene_events_arrive_and_spill_happen_at_their_turn():
    pack = load_pack(default_tasks_dir() / "guidance-spill-0.json")
    ep = Episode(pack)
    try:
        ep.run_opening()
        wiped = Predicate("wiped", ("spill",))
        assert not ep.world.machine.spills["spill"].present
        assert not evaluate(wiped, ep.world)
        assert ep.begin_turn(0) == []
        assert ep.begin_turn(1) == ["I heard a splash in the kitchen"]
        assert ep.world.machine.spills["spill"].present
        assert not evaluate(wiped, ep.world)
    finally:
        ep.close()
    pack = load_pack(default_tasks_dir() / "guidance-store-0.json")
    (late,) = [e for e in pack.scene.events if e.kind == "arrive"]
    ep = Episode(pack)
    try:
        ep.run_opening()
        assert ep.world.region_of(late.target) is None  # not yet in the home
        ep.begin_turn(1)
        assert ep.world.region_of(late.target).owner == late.dest
    finally:
        ep.close()


def test_release_refuses_a_pack_whose_early_help_passes(tmp_path, capsys):
    store = TEMPLATES["guidance"][0]
    timely = store(0)
    at_once = dataclasses.replace(store, late=(), notice="")(0)  # the can on the counter from the start
    assert not at_once.scene.events
    assert timely.scene.events
    adm = check_admission(at_once)
    assert adm.oracle_passed
    assert adm.silent_failed
    assert adm.wrong_failed
    assert not adm.early_failed
    assert not adm.admitted
    frozen = freeze(at_once, adm)
    rel = check_release([frozen])
    assert not rel.released
    assert rel.refused_packs == ("guidance-store-0: early help passes",)
    assert rel.rates["guidance"]["early"] == 1.0
    assert any("early passes 100%" in f for f in rel.refused_families)
    bad, good = tmp_path / "bad", tmp_path / "good"
    bad.mkdir(), good.mkdir()
    save_pack(frozen, bad)
    shutil.copy(default_tasks_dir() / "guidance-store-0.json", good)
    assert main(["tasks", "release", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "REFUSED guidance-store-0: early help passes" in out
    assert "NOT released" in out
    assert main(["tasks", "release", str(good)]) == 0
    out = capsys.readouterr().out
    assert "| guidance | 100.0 | 0.0 | 0.0 | 0.0 | 1 |" in out
    assert "released" in out


def test_templates_are_data_checked_against_the_schema(tmp_path):
    from interactiveworld.bench.templates import TEMPLATES_YAML, TemplateError, load_templates

    rows = load_templates()
    assert len(rows) == 60
    assert all(len(TEMPLATES[f]) == 10 for f in TEMPLATES)
    text = TEMPLATES_YAML.read_text()
    bad = tmp_path / "t.yaml"
    bad.write_text(text.replace("  late_turn: 2\n", "  late_trun: 2\n", 1))
    with pytest.raises(TemplateError, match=r"template planning-route: row: Additional properties .*late_trun"):
        load_templates(bad)
    bad.write_text(text.replace("derive: burners", "derive: burner", 1))
    with pytest.raises(TemplateError, match=r"accessibility-burner: derive: 'burner' is not one of"):
        load_templates(bad)
