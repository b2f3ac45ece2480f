"""Perception, memory and communication matter: the human knows only what it saw or was told, the blind
control fails the tasks that need the assistant's eyes, and a look-alike distractor named by mistake fails."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from interactiveworld.agents.assistants import ScriptedAssistant
from interactiveworld.agents.scripted_human import ScriptedHuman
from interactiveworld.bench.taskgen import BLIND_FAMILIES, BLIND_MAX_PASS_RATE
from interactiveworld.bench.taskpack import default_tasks_dir, load_pack, load_packs
from interactiveworld.episode import run_episode
from interactiveworld.world.objects import COLORS_RGBA


@pytest.fixture(scope="module")
def packs():
    return load_packs(default_tasks_dir())


def _human_actions(res) -> list[dict]:
    return [a for t in res.trace if t.get("role") == "human" for a in t["actions"]]


def test_blind_assistant_admission_check_on_every_task(packs, interactiveworld_control_runs):
    """No images, the human's words and the family's usual moves: at most 10% of Finding, Accessibility and
    Planning; the frozen admission record says the same as a fresh run."""
    passed, total = Counter(), Counter()
    for p in packs:
        res = interactiveworld_control_runs[(p.task_id, "blind")]
        assert not res.voided, (p.task_id, res.void_reason)
        assert res.n_actions > 0  # it did try
        total[p.family] += 1
        passed[p.family] += res.passed
        for a in _human_actions(res):  # a refusal about an unknown thing names it by kind only
            if a["code"] in ("NOT_KNOWN", "NOT_FOUND"):
                assert not set(re.findall(r"[a-z]+", a["message"])) & set(COLORS_RGBA), (p.task_id, a["message"])
        assert p.admission["blind_failed"] == (not res.passed), p.task_id
    for fam in BLIND_FAMILIES:
        assert passed[fam] / total[fam] <= BLIND_MAX_PASS_RATE, (fam, passed[fam], total[fam])


def test_human_refuses_an_object_it_never_saw_and_was_not_told_about():
    p = load_pack(default_tasks_dir() / "finding-bottle-0.json")
    target = p.goals[0].args[0]
    shelf = next(e.dest for e in p.scene.events if e.target == target)  # it is put there after the handoff
    name, where = target.replace("_", " "), shelf.replace("_", " ")
    ask = f"Open the fridge, then pick up the {name}, then put the {name} in the fridge."
    res = run_episode(p, ScriptedAssistant("no-location", (None, ask)), ScriptedHuman())
    picks = [a for a in _human_actions(res) if a["verb"] == "pick"]
    assert not res.passed
    assert picks[0]["code"] == "NOT_KNOWN"
    assert picks[0]["walked_m"] == 0
    colour = target.split("_")[0]
    spoken = [t["speech"] for t in res.trace if t.get("role") == "human"]
    assert not any(colour in s or where in s for s in spoken)  # the refusal leaks neither colour nor place
    told = run_episode(p, ScriptedAssistant("told", (None, f"The {name} is on the {where}. " + ask)), ScriptedHuman())
    assert told.passed


def test_distractor_task_fails_when_the_assistant_names_the_wrong_mug():
    """accessibility-sort: two mugs of different colours; naming the other one, with its true place, is
    carried out exactly as said and leaves the goals false."""
    p = load_pack(default_tasks_dir() / "accessibility-sort-0.json")
    (right, into_cab), (other, into_sink) = p.goals[0].args, p.goals[1].args
    assert len({o.color for o in p.scene.objects if o.category == "mug"}) >= 4  # the task's two and look-alikes
    mugs = [o for o in p.scene.objects if o.name in (right, other)]
    arrives = {e.target: e.dest for e in p.scene.events}  # one mug is put down after the handoff
    place = {o.name: arrives.get(o.name, o.support).replace("_", " ") for o in mugs}

    def say(m: str, dest: str, verb: str) -> str:
        return (
            f"The {m.replace('_', ' ')} is on the {place[m]}. "
            f"{verb}pick up the {m.replace('_', ' ')}, then put the {m.replace('_', ' ')} in the "
            f"{dest.replace('_', ' ')}."
        )

    wrong = run_episode(
        p,
        ScriptedAssistant(
            "swapped", (None, say(other, into_cab, "Open the cabinet, then "), say(right, into_sink, ""))
        ),
        ScriptedHuman(),
    )
    assert not wrong.passed
    assert wrong.goals_final == [False, False]
    assert all(a["ok"] for a in _human_actions(wrong))  # every command was executable: only the choice was wrong
    right_run = run_episode(
        p,
        ScriptedAssistant("right", (None, say(right, into_cab, "Open the cabinet, then "), say(other, into_sink, ""))),
        ScriptedHuman(),
    )
    assert right_run.passed


def test_scripted_human_understands_lists_conjunctions_and_pronouns():
    from interactiveworld.agents.base import HumanView
    from interactiveworld.episode import Episode

    p = load_pack(default_tasks_dir() / "guidance-store-0.json")
    ep = Episode(p)
    ep.run_opening()
    assert ep.execute("look around").ok  # the opening is forgotten at handoff; now it sees the counter again
    human = ScriptedHuman()
    human.reset(("open the fridge", "pick up the note", "turn on the left burner"), False, ep.catalog)
    said = (
        "Open the fridge, pick up the milk and put it in the fridge. Open the cabinet and put the white can in it, "
        "then turn on the right burner and turn it off"
    )
    d = human.decide(said, HumanView(False, (), (), ()))
    assert [c.lower() for c in d.commands] == [
        "open the fridge",
        "pick up the milk",
        "put the milk in the fridge",
        "open the cabinet",
        "put the white can in the cabinet",
        "turn on the right burner",
        "turn the right burner off",
    ]
    assert human.plan == []  # each of its own steps was replaced by an instruction of the same kind
    results = [ep.execute(c) for c in d.commands]
    assert [r.code for r in results if not r.ok] == ["HANDS_EMPTY"]  # the can was never picked up: done as said
