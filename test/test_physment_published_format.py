"""The authors' published scene format as a first-class input (scenes written here in that format, not copies):
Python-literal metadata, each scene's own MJCF options, cells inferred when the metadata lacks them and
overridden by a map file, `physment check`, broken scenes skipped by name; the paper protocol (Eq. 4, the
untrimmed context, every scene at every budget, the 26 tools, the preset's token limit) beside the strict one;
an older ledger resuming; the paper's tables from the ledger alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from physment.agents import AgentTurn, ModelAgent, parse_tool_calls
from physment.cells import CATEGORIES, assign_cells, load_cell_map
from physment.check import check
from physment.cli import DEFAULT_SCENES, main
from physment.episode import EpisodeConfig, protocol_config, run_episode
from physment.protocol import PAPER_MODELS, PAPER_TOOLS, paper_correct
from physment.report import write_report
from physment.runner import RESULTS_FILE, RunConfig, read_results, run
from physment.scene import SceneError, load_scene, load_scenes_lenient
from physment.scoring import ABS_TOL, REL_TOL, is_correct
from physment.toolspec import TOOL_NAMES, api_listing
from reacthuman.llm import make_client
from reacthuman.llm.loopback import EndpointReply, LoopbackEndpoint, chat_completion

FLOOR = '<geom name="floor" type="plane" size="20 20 0.1"/>'


def _xml(bodies: str, timestep_s: float = 0.005) -> str:
    return (
        f'<mujoco>\n  <option timestep="{timestep_s}" gravity="0 0 -9.81"/>\n  <worldbody>\n    {FLOOR}\n'
        f"{bodies}\n  </worldbody>\n</mujoco>\n"
    )


def _ball(oid: int, z_m: float, radius_m: float = 0.1, x_m: float = 0.0) -> str:
    return (
        f'    <body name="object_{oid}" pos="{x_m} 0 {z_m}">\n      <geom type="sphere" size="{radius_m}" '
        f'density="1000"/>\n      <joint name="object_{oid}_joint" type="free"/>\n    </body>'
    )


def write_scene(root: Path, n: int, json_text: str, xml_text: str) -> Path:
    folder = root / f"Scene{n}"
    folder.mkdir(parents=True)
    (folder / f"scene{n}.json").write_text(json_text)
    (folder / f"scene{n}.xml").write_text(xml_text)
    return folder


def published_json(
    task: str,
    answer: object,
    objects: dict,
    permissions: dict,
    problem_type: str | None,
    literal_metadata: bool = False,
) -> str:
    md = {"scene_name": "Scene", "task": task, "description": "Work from the scene state."}
    if problem_type:
        md["problem_type"] = problem_type
    meta = {
        "metadata": repr(md) if literal_metadata else md,
        "answer": answer,
        "expected_behavior": "measure",
        "reasoning": "",
        "number_of_objects": str(len(objects)),
        "objects": objects,
        "object_permissions": repr(permissions) if literal_metadata else permissions,
    }
    return json.dumps(meta, indent=2)


OBJ1 = {"object_1": {"name": "ball", "object_id": "1"}}
PERM1 = {"object_1_permissions": {"geom_type": True, "body_pos": True, "geom_size": True}}


@pytest.fixture()
def published_dir(tmp_path) -> Path:
    root = tmp_path / "Scenes"
    # 7: metadata as a Python-literal string, a 0.005 s timestep, no problem type; object 2 hidden (MJCF only)
    write_scene(
        root,
        7,
        published_json(
            "Drop the ball. What is its speed after 0.5 s?", 4.905, OBJ1, PERM1, None, literal_metadata=True
        ),
        _xml(_ball(1, 5.0) + "\n" + _ball(2, 5.0, x_m=2)),
    )
    # 8: a declared comparison that asks to create a body; the permission names an attribute the geom lacks;
    # an unlisted ground plane (as the published scenes often have) is not a hidden object
    ground = '    <body name="object_5" pos="0 0 -1"><geom type="plane" size="5 5 0.1"/></body>'
    write_scene(
        root,
        8,
        published_json(
            "Create a second ball and say which one falls faster.",
            1,
            OBJ1,
            {"object_1_permissions": {"geom_radius": True, "body_pos": True}},
            "comparison",
        ),
        _xml(_ball(1, 3.0) + "\n" + ground),
    )
    # 9: JSON that does not parse; 10: MJCF that does not compile; 11: metadata literal that is not a literal
    write_scene(root, 9, '{"metadata": {"task": "x"', _xml(_ball(1, 1.0)))
    write_scene(
        root,
        10,
        published_json("Measure.", 1.0, OBJ1, PERM1, "calculation"),
        _xml('    <body name="object_1"><geom type="nosuchshape" size="1"/></body>'),
    )
    write_scene(
        root,
        11,
        published_json("Measure.", 1.0, OBJ1, PERM1, "calculation").replace(
            '"metadata": {', '"metadata": "{oops", "x": {', 1
        ),
        _xml(_ball(1, 1.0)),
    )
    # 12: two balls interpenetrating at the start; an answer key that looks like a list but is not one
    write_scene(
        root,
        12,
        published_json(
            "Which ball moves first?",
            "[1, 2",
            {"object_1": {"name": "a", "object_id": "1"}, "object_2": {"name": "b", "object_id": "2"}},
            {},
            "comparison",
        ),
        _xml(_ball(1, 1.0, 0.3) + "\n" + _ball(2, 1.0, 0.3, x_m=0.2)),
    )
    # 13: a stiff spring on a light block with a coarse explicit step: it explodes at once
    spring = (
        '    <body name="object_1" pos="0.1 0 1"><joint name="object_1_joint" type="slide" axis="1 0 0" '
        'stiffness="1e9" springref="-0.1"/><geom type="box" size="0.05 0.05 0.05" mass="0.001" '
        'contype="0" conaffinity="0"/></body>'
    )
    write_scene(
        root,
        13,
        published_json("What is the period?", 1.0, OBJ1, PERM1, "calculation"),
        _xml(spring, timestep_s=0.01).replace("<option ", '<option integrator="Euler" '),
    )
    return root


def test_published_scenes_load_with_literal_metadata_and_their_own_options(published_dir):
    scene = load_scene(published_dir / "Scene7")
    assert scene.task.startswith("Drop the ball")
    assert not scene.problem_type_declared
    assert scene.objects[0].permissions == {"shape": True, "position": True, "size": True}
    row, transcript = run_episode(
        scene,
        Scripted(
            ['[{"tool": "step", "arguments": {"duration": 0.5}}]', '[{"tool": "answer", "arguments": {"answer": 4.9}}]']
        ),
        EpisodeConfig(budget=5),
    )
    step = transcript["turns"][0]["results"][0]["result"]
    assert step["timestep_s"] == 0.005
    assert step["steps"] == 100  # the scene's own 0.005 s, not a default
    assert row.correct
    assert "0.005 s" in transcript["prompt"]
    scenes, problems = load_scenes_lenient(published_dir)
    assert [s.number for s in scenes] == [7, 8, 10, 12, 13]
    assert [p.split(":")[0] for p in problems] == ["Scene9", "Scene11"]
    assert "not valid JSON" in problems[0]
    assert "neither JSON nor a Python literal" in problems[1]


def test_cells_are_inferred_recorded_and_overridden_by_a_map(published_dir, tmp_path):
    scenes = {s.number: s for s in assign_cells(load_scenes_lenient(published_dir)[0])}
    s7, s8 = scenes[7], scenes[8]
    assert s7.extra["category_source"] == "inferred"
    assert s7.category == "Easy Single + Hidden"
    assert "[" in s7.extra["category_evidence"]["modality"]
    assert s7.problem_type == "calculation"
    assert s8.category == "Easy Single + Creation"
    assert s8.problem_type == "comparison"
    assert all(s.category in CATEGORIES for s in scenes.values())
    cell_map = tmp_path / "cells.yaml"
    cell_map.write_text("Scene7: Hard Multi + Hidden\n8: {category: scene manipulation, problem_type: observation}\n")
    mapped = {s.number: s for s in assign_cells(load_scenes_lenient(published_dir)[0], load_cell_map(cell_map))}
    assert mapped[7].category == "Hard Multi + Hidden"
    assert mapped[7].extra["category_source"] == "map"
    assert mapped[8].category == "Scene Manipulation"
    assert mapped[8].problem_type == "observation"
    cell_map.write_text("Scene7: Medium Single\n")
    with pytest.raises(SceneError, match="Scene7: category 'Medium Single' is not one of"):
        load_cell_map(cell_map)


def test_check_names_each_problem_and_scene(published_dir, capsys):
    n, lines = check(published_dir)
    assert n == 7
    text = "\n".join(lines)
    assert "Scene8: object 1: permission 'geom_radius' names an attribute its <geom> lacks" in text
    assert any(line.startswith("Scene9: ") and "not valid JSON" in line for line in lines)
    assert any(line.startswith("Scene10: ") and "does not compile" in line for line in lines)
    assert any(line.startswith("Scene11: ") for line in lines)
    assert "Scene12: object_1 and object_2 start interpenetrating by 400.0 mm" in text
    assert "Scene12: answer '[1, 2' looks like a list but does not parse" in text
    assert "Scene13: explodes: non-finite state after 0.01 s" in text
    assert not any(line.startswith("Scene7:") for line in lines)
    assert main(["check", str(published_dir)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"PROBLEMS: 7 scene(s), {len(lines)} problem(s)"


def test_run_on_a_published_folder_skips_broken_scenes_by_name(published_dir, tmp_path, capsys):
    out = tmp_path / "run"
    assert (
        main(
            [
                "run",
                "--scenes",
                str(published_dir),
                "--models",
                "oracle",
                "--budget",
                "5",
                "--protocol",
                "paper",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    for n in (9, 10, 11):
        assert f"skipped Scene{n}: " in err
    rows = read_results(out)
    assert sorted(r.scene for r in rows) == ["Scene12", "Scene13", "Scene7", "Scene8"]
    assert {r.scene: r.category_source for r in rows}["Scene7"] == "inferred"
    # the oracle has no reference solution for these scenes: it runs out of budget, which counts as wrong
    assert all(not r.correct and not r.answered and r.iterations_used == 5 for r in rows)


class Scripted:
    name = "scripted"

    def __init__(self, replies: list[str]) -> None:
        self.replies, self.seen = list(replies), []

    def begin(self, scene, budget) -> None:
        return None

    def act(self, messages, last_results) -> AgentTurn:
        self.seen.append(list(messages))
        text = self.replies.pop(0)
        calls, error = parse_tool_calls(text)
        return AgentTurn(text=text, calls=calls, parse_error=error)


@pytest.mark.parametrize(
    "predicted, truth, paper, strict",
    [
        (3.0, 3.1, True, True),
        ("3.2", 3.0, False, False),
        (0.0005, 0, True, True),
        ("1", 10, False, False),  # both numbers: Eq. 4's tolerance, not containment
        ("stop", "stops", True, False),
        ("object_2", 2, False, False),
        ("hollow", "the hollow sphere", True, False),
        ("12.6, 25.2", [12.6, 25.2], True, False),
        ([12.7, 25.0], [12.6, 25.2], True, True),
        ("", "stops", False, False),
    ],
)
def test_paper_matcher_is_eq4_and_strict_refuses_containment(predicted, truth, paper, strict):
    assert paper_correct(predicted, truth, ABS_TOL, REL_TOL) is paper
    assert is_correct(predicted, truth) is strict


def test_paper_protocol_tools_context_and_every_budget(tmp_path):
    assert len(PAPER_TOOLS) == 26
    assert "reset_sim" not in PAPER_TOOLS
    assert "answer" in PAPER_TOOLS
    assert "reset_sim" in TOOL_NAMES
    assert "reset_sim" not in api_listing(True, PAPER_TOOLS)
    scene = load_scene(DEFAULT_SCENES / "Scene1")
    long_step = "[" + ", ".join(['{"tool": "get_position", "arguments": {"object_id": 1}}'] * 40) + "]"
    replies = [long_step] * 4 + [
        '[{"tool": "reset_sim", "arguments": {}}, {"tool": "answer", "arguments": {"answer": 0}}]'
    ]
    results = {}
    for proto in ("strict", "paper"):
        agent = Scripted(list(replies))
        cfg = protocol_config(proto, budget=5, context_chars_max=2000)
        row, transcript = run_episode(scene, agent, cfg)
        results[proto] = (row, agent.seen, transcript)
    paper_row, paper_seen, paper_tr = results["paper"]
    strict_row, strict_seen, _ = results["strict"]
    assert "reset_sim" not in paper_tr["prompt"]
    assert "reset_sim" in results["strict"][2]["prompt"]
    assert paper_tr["turns"][-1]["results"][0]["result"]["error"].startswith("unknown tool 'reset_sim'")
    assert len(paper_seen[-1]) == 2 + 2 * 4  # the cumulative context, nothing dropped
    assert len(strict_seen[-1]) < len(paper_seen[-1])  # the strict protocol trims to its character budget
    assert paper_row.protocol == "paper"
    assert strict_row.protocol == "strict"
    # every scene at every budget under paper: scenes assigned only to larger budgets run at 5 too
    src = [
        p
        for p in sorted(DEFAULT_SCENES.iterdir())
        if json.loads((p / f"scene{p.name[5:]}.json").read_text())["budgets"][0] > 5
    ][:1]
    assert src, "the scene set has scenes assigned only to budgets above 5"
    from physment.runner import selected_scenes

    strict_sel = selected_scenes(RunConfig(scenes=src[0], agent="oracle", budget=5, out=tmp_path / "a"))
    paper_sel = selected_scenes(
        RunConfig(scenes=src[0], agent="oracle", budget=5, out=tmp_path / "a", protocol="paper")
    )
    assert strict_sel == []
    assert len(paper_sel) == 1


def _stub(reply_calls: list[dict]) -> LoopbackEndpoint:
    """A loopback endpoint answering every request with these tool calls."""
    reply = EndpointReply(
        body=chat_completion(
            model="stub", finish_reason="tool_calls", tool_calls=reply_calls, prompt_tokens=None, completion_tokens=None
        )
    )
    return LoopbackEndpoint(lambda request: reply)


def test_paper_model_presets_send_their_token_limit_and_26_tools_stub_server(monkeypatch):
    monkeypatch.setenv("OPENROUTER_API_KEY", "test-key-not-real")
    server = _stub([{"name": "answer", "arguments": {"answer": 3.924}}])
    scene = load_scene(DEFAULT_SCENES / "Scene1")
    try:
        with make_client("pm-deepseek-r1", base_url=f"http://127.0.0.1:{server.port}/v1") as client:
            agent = ModelAgent(client, "pm-deepseek-r1", tool_mode="native", max_tokens=None, tools=PAPER_TOOLS)
            row, _ = run_episode(scene, agent, protocol_config("paper", budget=5))
    finally:
        server.close()
    assert len(PAPER_MODELS) == 7
    assert all(name.startswith("pm-") for name in PAPER_MODELS)
    body = server.bodies[0]
    assert body["model"] == "deepseek/deepseek-r1"
    assert body["max_tokens"] == 16384
    assert sorted(t["function"]["name"] for t in body["tools"]) == sorted(PAPER_TOOLS)
    assert row.correct
    assert row.correct_paper
    assert row.correct_strict


def test_an_older_ledger_resumes_and_reports_in_the_paper_layout(tmp_path):
    scenes = tmp_path / "scenes"
    for n in (1, 21):
        (scenes / f"Scene{n}").mkdir(parents=True)
        for f in (DEFAULT_SCENES / f"Scene{n}").iterdir():
            (scenes / f"Scene{n}" / f.name).write_bytes(f.read_bytes())
    out = tmp_path / "run"
    run(RunConfig(scenes=scenes, agent="oracle", budget=5, out=out))
    new_keys = ("protocol", "correct_strict", "correct_paper", "normalisation", "category_source")
    old_rows = [{k: v for k, v in r.items() if k not in new_keys} for r in (rec.to_dict() for rec in read_results(out))]
    (out / RESULTS_FILE).write_text("".join(json.dumps(r) + "\n" for r in old_rows))
    assert run(RunConfig(scenes=scenes, agent="oracle", budget=5, out=out)) == []  # strict rows are done
    assert len(run(RunConfig(scenes=scenes, agent="oracle", budget=10, out=out, protocol="paper"))) == 2
    text = write_report(out).read_text()
    assert "| oracle (zero-shot) | 100.0 | – | – | – | **100.0** |" in text  # Table 2, old rows
    assert "| oracle (zero-shot, paper) | – | 100.0 | – | – | **100.0** |" in text
    assert "Tables 3 and 5" in text
    assert (out / "tables" / "dimensions.csv").stat().st_size > 0
    assert (out / "tables" / "accuracy_paper.csv").read_text().splitlines()[0].startswith("model,I=5,I=10")


def test_paper_protocol_references_without_reset_reach_the_stored_keys():
    from physment.agents import OracleAgent
    from physment.scenegen.templates import paper_solvers

    scenes = [
        s
        for s in load_scenes_lenient(DEFAULT_SCENES)[0]
        if s.extra["reference_solution"]["template"] in paper_solvers()
    ]
    assert len(scenes) == 10
    for s in scenes:
        row, transcript = run_episode(s, OracleAgent(tools=PAPER_TOOLS), protocol_config("paper", budget=20))
        calls = [r["tool"] for t in transcript["turns"] for r in t["results"]]
        assert row.correct, s.scene_id
        assert "reset_sim" not in calls, s.scene_id
        assert "move_object" in calls, s.scene_id


def test_several_models_run_one_after_another_into_one_run_folder(tmp_path, capsys):
    """`--models` with a reference and an explicit model: each model's episodes land in the same run folder,
    as two `physment run` calls on it would put them (rows and transcripts name their model)."""
    server = _stub([{"name": "answer", "arguments": {"answer": 3.924}}])
    explicit = f"openai-compatible:stub-model@http://127.0.0.1:{server.port}/v1"
    out = tmp_path / "run"
    try:
        assert (
            main(
                [
                    "run",
                    "--models",
                    f"oracle,{explicit}",
                    "--budget",
                    "5",
                    "--limit",
                    "1",
                    "--tool-mode",
                    "native",
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
    finally:
        server.close()
    rows = read_results(out)
    assert [r.agent for r in rows] == ["oracle", explicit]
    assert rows[0].scene == rows[1].scene
    assert server.bodies
    assert server.bodies[0]["model"] == "stub-model"
    assert all((out / r.transcript).is_file() for r in rows)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("oracle: 1 episode(s) run")
    assert printed[1].startswith(f"{explicit}: 1 episode(s) run")
