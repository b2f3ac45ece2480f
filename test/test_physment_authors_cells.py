"""The authors' cells: their scene-number ranges (their Data.py) as the default cell map of their published set,
rows carrying their cell names, and our inference kept for every other set."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest

from physment.authors.tools import ALL_ON
from physment.cells import (
    CATEGORIES,
    assign_cells,
    authors_cells,
    authors_range,
    cell_options,
    name_fingerprint,
)
from physment.episode import run_episode
from physment.runner import RunConfig, episode_config, read_results, run, scene_tools
from physment.scene import load_scenes_lenient

PUBLISHED_IDS = range(7, 112)  # the 105 scenes of the authors' published set


def test_the_cell_map_covers_all_105_published_ids_with_their_cell_counts():
    cells = {n: authors_range(n) for n in PUBLISHED_IDS}
    assert all(c is not None for c in cells.values())
    by_category = Counter(c.category for c in cells.values())
    assert set(by_category) <= set(CATEGORIES)
    # 9 + 15 + 15 + 15 standard scenes, 5 per Creation and Hidden cell, 11 Creating/Deleting
    assert by_category["Easy Single"] == 9
    assert by_category["Hard Multi"] == 15
    assert sum(v for k, v in by_category.items() if k.endswith("+ Creation")) == 20
    assert sum(v for k, v in by_category.items() if k.endswith("+ Hidden")) == 20
    assert by_category["Scene Manipulation"] == 11
    assert cells[20].name.endswith("With Focus On Creating Objects")
    assert cells[25].name.endswith("Finding Hidden Objects")
    assert cells[101].name == "Creating/Deleting Objects"
    assert authors_range(151) is None
    assert authors_range(0) is None
    assert set(authors_cells()[1]) == set(PUBLISHED_IDS)


def _scene(root: Path, n: int, name: str) -> None:
    folder = root / f"Scene{n}"
    folder.mkdir(parents=True)
    meta = {
        "metadata": {
            "scene_name": name,
            "task": "What is the speed of the ball after 0.5 s?",
            "problem_type": "calculation",
        },
        "answer": 4.9,
        "objects": {"object_1": {"name": "ball", "object_id": "1"}},
        "object_permissions": {"object_1_permissions": {"body_pos": True}},
    }
    (folder / f"scene{n}.json").write_text(json.dumps(meta))
    (folder / f"scene{n}.xml").write_text(
        '<mujoco><worldbody><body name="object_1" pos="0 0 5"><geom type="sphere" '
        'size="0.1"/><joint name="object_1_joint" type="free"/></body></worldbody>'
        "</mujoco>"
    )


def test_their_scenes_get_their_cells_by_default_and_others_are_inferred(tmp_path):
    # Scene22 is recognised as theirs (its number and name fingerprint match their set); Scene23 is not
    _scene(tmp_path, 22, _a_name_matching(22))
    _scene(tmp_path, 23, "A scene of our own")
    got = {s.number: s for s in assign_cells(load_scenes_lenient(tmp_path)[0])}
    assert got[22].extra["category_source"] == "authors"
    assert got[22].category == "Easy Single + Hidden"
    assert got[22].extra["authors_category"] == "Easy Single Physics Concepts With Focus On Finding Hidden Objects"
    assert got[23].extra["category_source"] == "inferred"
    assert "authors_category" not in got[23].extra
    forced = {s.number: s for s in assign_cells(load_scenes_lenient(tmp_path)[0], *cell_options("authors"))}
    assert forced[23].extra["category_source"] == "authors"
    assert forced[23].category == "Easy Single + Hidden"
    never = {s.number: s for s in assign_cells(load_scenes_lenient(tmp_path)[0], *cell_options("inferred"))}
    assert never[22].extra["category_source"] == "inferred"
    with pytest.raises(ValueError, match="authors must be"):
        assign_cells([], None, "sometimes")


def _a_name_matching(n: int) -> str:
    """A scene name whose fingerprint is the published one: the fixture keeps the fingerprint, not the title,
    so the test reads it back from the fixture's scene list."""
    fixture = Path(__file__).resolve().parent / "fixtures" / "physment_authors" / "scene_names.json"
    name = json.loads(fixture.read_text())[str(n)]
    assert name_fingerprint(name) == authors_cells()[1][n]
    return name


def test_rows_carry_the_authors_cell_name_and_the_timestep(tmp_path):
    _scene(tmp_path / "Scenes", 22, _a_name_matching(22))
    rows = run(RunConfig(scenes=tmp_path / "Scenes", agent="oracle", budget=5, out=tmp_path / "run", protocol="paper"))
    assert len(rows) == 1
    assert read_results(tmp_path / "run")[0].authors_category.startswith("Easy Single Physics")
    assert rows[0].category == "Easy Single + Hidden"
    assert rows[0].category_source == "authors"
    assert rows[0].timestep_s == 0.002  # the MJCF sets none: MuJoCo's default


def test_their_scenes_run_with_their_tools_under_the_paper_protocol(tmp_path):
    from test_physment_published_format import Scripted

    _scene(tmp_path / "Scenes", 22, _a_name_matching(22))
    scene = assign_cells(load_scenes_lenient(tmp_path / "Scenes")[0])[0]
    cfg = RunConfig(scenes=tmp_path / "Scenes", agent="scripted", budget=5, out=tmp_path / "run", protocol="paper")
    assert scene_tools(cfg, scene) == ALL_ON
    assert scene_tools(dataclasses.replace(cfg, protocol="strict"), scene) is None
    assert scene_tools(dataclasses.replace(cfg, tools="authors:-viewer_sync"), scene) == ALL_ON - {"viewer_sync"}
    with pytest.raises(ValueError, match="unknown tool switch"):
        RunConfig(scenes=tmp_path, agent="x", budget=5, out=tmp_path / "r", tools="authors:-nope")
    agent = Scripted(
        [
            '[{"tool": "get_position", "arguments": {"object_id": "object_1"}}]',
            '[{"tool": "get_position", "arguments": {"object_id": "1"}}]',
            '[{"tool": "answer", "arguments": {"answer": "4.9 m/s"}}]',
        ]
    )
    row, transcript = run_episode(
        scene, agent, dataclasses.replace(episode_config(cfg), tool_semantics=ALL_ON, matcher="authors")
    )
    first, second = (t["results"][0] for t in transcript["turns"][:2])
    assert first["ok"]
    assert first["result"]["position"] == [0.0, 0.0, 5.0]  # their result keys, their numbers
    assert not second["ok"]
    assert second["result"]["error"] == "Body with name '1' not found in the scene."
    assert row.tools == "authors"
    assert row.correct
    assert row.correct_authors
    assert not row.correct_strict
