"""`--dialogue authors`: the authors' zero-shot prompt, JSON tool-call arrays in the reply text and their loop,
held against one of their logged episodes (test/fixtures/physment_authors/dialogue, see NOTICE.md: the scene
as committed before the run, the first prompt their run logged, the tool-call arrays of its replies and the
messages their loop answered with); a model through a loopback HTTP endpoint meets it under `physment run
--protocol paper`; and a resumed run keeps episodes of other tools, matchers and dialogues apart."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from physment.agents import AgentTurn, ModelAgent
from physment.authors.dialogue import (
    build_prompt,
    invalid_message,
    parse_reply,
    system_prompt,
)
from physment.authors.tools import HEADLESS
from physment.cli import main
from physment.episode import protocol_config, run_episode
from physment.runner import RunConfig, read_results, run
from physment.scene import load_scene
from reacthuman.llm.loopback import FixedReplyEndpoint

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "physment_authors" / "dialogue"
LOGGED_PROMPT = FIXTURE / "first_prompt_anthropic_opus_4_7_b5_20260501T164737.txt"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


class Replies:
    """An in-process agent replying with the given texts in turn (no model call involved)."""

    name = "replies"

    def __init__(self, texts: list[str]) -> None:
        self.texts, self.seen = list(texts), []

    def begin(self, scene, budget) -> None:
        return None

    def act(self, messages, last_results) -> AgentTurn:
        self.seen.append([dict(m) for m in messages])
        return AgentTurn(text=self.texts.pop(0), calls=[])


def _same_up_to_float_noise(ours: str, theirs: str) -> bool:
    """The same text, numbers within 1e-6 relative or 1e-9 absolute (their MuJoCo release is not ours)."""
    if _NUMBER.sub("#", ours) != _NUMBER.sub("#", theirs):
        return False
    return all(
        abs(float(a) - float(b)) <= max(1e-9, 1e-6 * abs(float(b)))
        for a, b in zip(_NUMBER.findall(ours), _NUMBER.findall(theirs))
    )


def test_our_first_prompt_for_their_scene_is_the_one_their_run_logged():
    scene = load_scene(FIXTURE / "Scene14")
    logged = LOGGED_PROMPT.read_text(encoding="utf-8")
    assert build_prompt(scene, "authors") == logged
    # the conventions a model met: comparisons answer 0 when all objects satisfy, the misstated timestep
    assert "If all objects being compared to each other satisfy the task, output `0`." in logged
    assert "1 simulation step is 0.005 real life seconds" in logged
    # their earlier runs' wording differs only in the answer tool and the problem-type rule
    early = build_prompt(scene, "authors-early")
    assert early != logged
    assert "output 0. " in early
    assert "checking or logging" in early
    computation = dataclasses.replace(
        scene, source={**scene.source, "metadata": {**scene.source["metadata"], "problem_type": "calculation"}}
    )
    assert "rounded to the nearest thousandths place if applicable" in build_prompt(computation)
    hidden = dataclasses.replace(
        scene,
        source={
            **scene.source,
            "object_permissions": {**scene.source["object_permissions"], "object_2_permissions": {"hidden": True}},
        },
    )
    assert "object_2" not in build_prompt(hidden).split("Mass: The mass")[0]


def test_their_logged_episode_replays_message_for_message():
    """Their model's tool-call arrays, replied in turn: each message our loop answers with is the one their loop
    logged (numbers to 1e-6), their remaining-iterations count included, and the answer ends the episode."""
    logged = json.loads((FIXTURE / "episode.json").read_text())
    scene = load_scene(FIXTURE / "Scene14")
    agent = Replies(["I'll push both.\n```json\n" + r + "\n```" for r in logged["replies"]])
    cfg = dataclasses.replace(
        protocol_config("paper", budget=logged["budget"]),
        tool_semantics=HEADLESS,
        dialogue="authors",
        matcher="authors",
    )
    row, transcript = run_episode(scene, agent, cfg)
    assert agent.seen[0][0] == {"role": "system", "content": system_prompt()}
    assert agent.seen[0][1]["content"] == LOGGED_PROMPT.read_text(encoding="utf-8")
    ours = [seen[-1]["content"] for seen in agent.seen[1:]]
    assert len(ours) == len(logged["messages"]) == 3
    for mine, theirs in zip(ours, logged["messages"]):
        assert _same_up_to_float_noise(mine, theirs), (mine, theirs)
    assert row.answered
    assert row.answer_iteration == 4
    assert row.predicted == logged["final_answer"]
    assert row.correct is logged["logged_correct"]
    assert row.dialogue == "authors"
    assert transcript["dialogue"] == "authors"


def test_reply_parsing_takes_the_first_json_value_as_their_extractor_did():
    fenced = 'Plan [not json].\n```json\n[{"tool": "step", "parameters": {"duration": 1}}]\n```\n[{"tool": "x"}]'
    assert parse_reply(fenced) == [{"tool": "step", "parameters": {"duration": 1}}]
    assert parse_reply('Do {"tool": "get_position", "parameters": {"object_id": "object_1"}} now') == [
        {"tool": "get_position", "parameters": {"object_id": "object_1"}}
    ]
    # a first JSON value that is not a list of calls: their loop raised; ours answers with their invalid message
    assert parse_reply('at [0.0, 0.0, 1.0] then [{"tool": "step", "parameters": {}}]') is None
    assert parse_reply('[{"tool": "step", "arguments": {"duration": 1}}]') is None
    assert parse_reply("no JSON here") is None


@pytest.fixture
def published(tmp_path) -> Path:
    root = tmp_path / "Scenes"
    (root / "Scene14").mkdir(parents=True)
    for f in (FIXTURE / "Scene14").iterdir():
        (root / "Scene14" / f.name).write_bytes(f.read_bytes())
    return root


def _models_yaml(tmp_path: Path, endpoint: FixedReplyEndpoint, monkeypatch) -> None:
    path = tmp_path / "models.yaml"
    path.write_text(
        json.dumps(
            {
                "defaults": {},
                "presets": {
                    "fixed": {
                        "provider": "openai-compatible",
                        "model_id": "fixed",
                        "key_required": False,
                        "base_url": endpoint.base_url,
                        "timeout_s": 20.0,
                    }
                },
            }
        )
    )
    monkeypatch.setenv("REACTHUMAN_MODELS_YAML", str(path))


def test_a_model_over_http_meets_their_dialogue_under_the_paper_protocol(published, tmp_path, monkeypatch):
    """A real HTTP round trip: the reply's JSON array holds a read and an answer; the answer ends the episode
    before the read runs, and no tool API was offered."""
    reply = (
        'Block 1 has the lower friction [mu 0.2 < 1].\n```json\n[{"tool": "get_position", "parameters": '
        '{"object_id": "object_1"}}, {"tool": "answer", "parameters": {"answer": "1"}}]\n```'
    )
    endpoint = FixedReplyEndpoint(reply)
    try:
        _models_yaml(tmp_path, endpoint, monkeypatch)
        rows = run(RunConfig(scenes=published, agent="fixed", budget=5, out=tmp_path / "run", protocol="paper"))
    finally:
        endpoint.close()
    assert len(endpoint.bodies) == 1
    assert "tools" not in endpoint.bodies[0]
    messages = endpoint.bodies[0]["messages"]
    assert messages[0]["content"] == system_prompt()
    assert messages[1]["content"] == LOGGED_PROMPT.read_text()
    (row,) = rows
    assert row.dialogue == "authors"
    assert row.tools == "authors"
    assert row.answer_iteration == 1
    assert row.predicted == "1"
    assert row.correct
    assert row.tool_calls == 1
    transcript = json.loads((tmp_path / "run" / row.transcript).read_text())
    assert [r["tool"] for r in transcript["turns"][0]["results"]] == ["answer"]


def test_a_reply_without_calls_costs_its_iteration_and_gets_their_message(published, tmp_path, monkeypatch):
    endpoint = FixedReplyEndpoint("I am not sure what to do.")
    try:
        _models_yaml(tmp_path, endpoint, monkeypatch)
        agent_cfg = RunConfig(scenes=published, agent="fixed", budget=3, out=tmp_path / "run", protocol="paper")
        (row,) = run(agent_cfg)
    finally:
        endpoint.close()
    assert len(endpoint.bodies) == 3
    assert not row.answered
    assert row.iterations_used == 3
    assert not row.correct
    assert endpoint.bodies[1]["messages"][-1]["content"] == invalid_message(1)
    assert endpoint.bodies[2]["messages"][-1]["content"].startswith(
        "Previous results: Error: Invalid JSON syntax for tool(s)."
    )
    assert "You have 0 iterations" in endpoint.bodies[2]["messages"][-1]["content"]


def test_a_resumed_run_keeps_other_tools_matchers_and_dialogues_apart(published, tmp_path):
    out = tmp_path / "run"
    base = {"scenes": published, "agent": "oracle", "budget": 5, "out": out, "protocol": "paper"}
    first = run(RunConfig(**base))
    assert [r.tools for r in first] == ["authors"]
    assert run(RunConfig(**base)) == []  # the same episode: skipped
    assert run(RunConfig(**base, tools="authors")) == []  # what the default resolved to: the same episode
    for extra in (
        {"tools": "ours", "dialogue": "ours"},
        {"tools": "authors:-viewer_sync"},
        {"matcher": "authors"},
        {"dialogue": "authors-early"},
    ):
        assert len(run(RunConfig(**base, **extra))) == 1
        assert run(RunConfig(**base, **extra)) == []
    rows = read_results(out)
    assert len(rows) == 5
    assert len({r.key for r in rows}) == 5
    assert len({r.transcript for r in rows}) == 5
    assert {(r.tools, r.matcher, r.dialogue) for r in rows} == {
        ("authors", "paper", "authors"),
        ("ours", "paper", "ours"),
        ("authors:-viewer_sync", "paper", "authors"),
        ("authors", "authors", "authors"),
        ("authors", "paper", "authors-early"),
    }
    with pytest.raises(ValueError, match="--tools ours"):
        RunConfig(**base, tools="ours", dialogue="authors")


def test_model_agent_is_given_back_its_tool_mode(published):
    scene = load_scene(published / "Scene14")
    agent = ModelAgent(client=None, name="m", tool_mode="native")
    agent.act = lambda messages, last: AgentTurn(text="", calls=[], api_error="down")  # type: ignore[method-assign]
    cfg = dataclasses.replace(protocol_config("paper", budget=1), tool_semantics=HEADLESS, dialogue="authors")
    row, _ = run_episode(scene, agent, cfg)
    assert agent.tool_mode == "native"
    assert not row.answered
    assert row.api_errors == 1


def test_prompts_authors_classes_each_logged_first_prompt(published, capsys):
    results = published.parent / "TestResults"
    logged = LOGGED_PROMPT.read_text(encoding="utf-8")
    variants = {
        "164737": logged,
        "170000": logged.replace("Task: Determine which block", "Task: Find which block"),
        "170100": "",
        "170200": logged.replace(
            "***FINAL GUIDELINES***", "You have access to a Python tool that can be used.***FINAL GUIDELINES***"
        ),
    }
    for scene, stamps in ((14, variants), (15, {"170300": logged})):
        folder = results / "iterations_05" / "some_model" / f"scene_{scene:03d}"
        folder.mkdir(parents=True)
        for stamp, prompt in stamps.items():
            (folder / f"summary_20260501T{stamp}.txt").write_text(
                "=== Experiment Log for 14 ===\n\n"
                + (
                    f"\n--- Iteration 1 ---\nLLM Input Prompt Below:\n{prompt}\n\nLLM Response Below:\n[]\n"
                    if prompt
                    else ""
                )
            )
    assert main(["prompts-authors", str(results), "--scenes", str(published)]) == 0
    out = capsys.readouterr().out
    for part in (
        "first prompts of 5 logged episodes",
        "identical 1",
        "scene_differs 1",
        "no_prompt_logged 1",
        "python_tool 1",
        "no_scene 1",
    ):
        assert part in out, out
