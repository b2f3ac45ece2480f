"""The model agents' paths through a real OpenAI-compatible HTTP server on loopback, serving a deterministic
stand-in model (`interactiveworld.agents.standin`): the model human (its prompt with all 36 command forms, the
scripted human's per-turn limit, the preset's token limit, its parser) and the model assistant with and without
its frames (`--assistant-view`), a text-only model refused rather than silently sent words alone, and what the
human says aloud."""

from __future__ import annotations

import shutil

from interactiveworld.actions.primitives import PRIMITIVES
from interactiveworld.agents.assistants import make_assistant
from interactiveworld.agents.base import HUMAN_COMMANDS_PER_TURN
from interactiveworld.agents.llm_human import SCHEMA, SYSTEM, LLMHuman, human_grammar
from interactiveworld.agents.scripted_human import ScriptedHuman
from interactiveworld.agents.standin import StandInServer, commands_of
from interactiveworld.bench.taskpack import default_tasks_dir, load_pack
from interactiveworld.cli import main
from interactiveworld.episode import run_episode

ONE_PER_FAMILY = (
    "guidance-store-0",
    "planning-unpack-1",
    "accessibility-sort-0",
    "decision-juice-1",
    "prevention-box-0",
    "finding-note-0",
)


def test_standin_parses_commands_like_the_scripted_human():
    said = (
        "The milk is on the counter. Open the fridge, then pick up the milk and put it in the fridge. Wait 2 minutes."
    )
    assert commands_of(said) == ["open fridge", "pick up milk", "put milk in fridge", "wait 2 minutes"]


def test_model_human_prompt_has_all_36_primitives_and_the_scripted_limit():
    from interactiveworld.actions.parser import command_text

    # one form per primitive (navigate_to and go_to_room share 'go to the X')
    assert len(PRIMITIVES) == 36
    assert all(
        f"'{command_text(p.name, 'X', 'Y', 2 if 'N' in p.args else None)}'" in human_grammar() for p in PRIMITIVES
    )
    assert "'halt'" in SYSTEM
    assert "'press the X'" in SYSTEM
    assert "'set a timer for 2 seconds'" in SYSTEM
    assert SCHEMA["properties"]["commands"]["maxItems"] == HUMAN_COMMANDS_PER_TURN == 8


def test_oracle_with_the_standin_model_human_passes_and_no_help_fails():
    with StandInServer() as server:
        human = LLMHuman(server.spec)
        try:
            for tid in ONE_PER_FAMILY:
                pack = load_pack(default_tasks_dir() / f"{tid}.json")
                oracle = run_episode(pack, make_assistant("oracle", pack), human)
                silent = run_episode(pack, make_assistant("silent", pack), human)
                assert oracle.passed, (tid, oracle.goals_final, oracle.void_reason)
                assert not oracle.voided, (tid, oracle.goals_final, oracle.void_reason)
                assert not silent.passed, tid
                assert not silent.voided, tid
        finally:
            human.close()
        asked = [r for r in server.state.requests if r.format_name == "human_turn"]
        assert asked
        assert all(r.max_tokens == 1024 for r in asked)  # the preset's limit, no override
        assert all(r.n_images == 0 for r in asked)  # nothing rendered: no frames to send


def test_assistant_view_none_sends_no_images_and_frames_are_capped(tmp_path, capsys):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    shutil.copy(default_tasks_dir() / "guidance-store-0.json", tasks)
    with StandInServer() as server:
        assert (
            main(
                [
                    "run",
                    "--tasks",
                    str(tasks),
                    "--models",
                    server.spec,
                    "--assistant-view",
                    "none",
                    "--out",
                    str(tmp_path / "none"),
                    "--render",
                    "yes",
                ]
            )
            == 0
        )
        blind = [r for r in server.state.requests if r.format_name == "assistant_turn"]
        assert blind
        assert all(r.n_images == 0 for r in blind)
        server.state.requests.clear()
        assert (
            main(
                [
                    "run",
                    "--tasks",
                    str(tasks),
                    "--models",
                    server.spec,
                    "--out",
                    str(tmp_path / "frames"),
                    "--render",
                    "yes",
                ]
            )
            == 0
        )
        seen = [r for r in server.state.requests if r.format_name == "assistant_turn"]
        assert seen
        assert seen[0].n_images >= 1
        assert all(0 < r.n_images <= 32 for r in seen)
        assert all(r.max_tokens == 1024 for r in seen)
    assert "+noview" in (tmp_path / "none" / "run.json").read_text()


def test_text_only_assistant_is_refused_unless_its_view_is_none(tmp_path, capsys):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    shutil.copy(default_tasks_dir() / "guidance-store-0.json", tasks)
    with StandInServer(vision=False) as server:
        assert main(["run", "--tasks", str(tasks), "--models", server.spec, "--out", str(tmp_path / "a")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1
        assert "takes no images" in err[0]
        assert "--assistant-view none" in err[0]
        assert not (tmp_path / "a" / "results.jsonl").exists()
        assert not server.state.requests
        assert (
            main(
                [
                    "run",
                    "--tasks",
                    str(tasks),
                    "--models",
                    server.spec,
                    "--assistant-view",
                    "none",
                    "--out",
                    str(tmp_path / "b"),
                ]
            )
            == 0
        )
        assert (
            main(
                [
                    "run",
                    "--tasks",
                    str(tasks),
                    "--models",
                    "oracle",
                    "--assistant-view",
                    "none",
                    "--out",
                    str(tmp_path / "c"),
                ]
            )
            == 2
        )


def test_the_human_reads_aloud_but_does_not_list_what_it_found():
    pack = load_pack(default_tasks_dir() / "finding-note-0.json")
    drawer = next(e.dest for e in pack.scene.events if e.kind == "arrive")
    say = (
        None,
        f"Open the {drawer.replace('_', ' ')}, then search the {drawer.replace('_', ' ')}. "
        "The note is on the kitchen table. Read the note.",
    )
    from interactiveworld.agents.assistants import ScriptedAssistant

    res = run_episode(pack, ScriptedAssistant("look", say), ScriptedHuman())
    acts = {a["verb"]: a for t in res.trace if t.get("role") == "human" for a in t["actions"]}
    assert acts["search"]["ok"]
    assert "keys" in acts["search"]["info"]
    assert acts["read"]["ok"]
    spoken = " ".join(t["speech"] for t in res.trace if t.get("role") == "human")
    assert "Searched the" in spoken
    assert "keys" not in spoken.split("says:")[0]
    assert "spare keys are in the office drawer" in spoken.lower()  # the note, read aloud
