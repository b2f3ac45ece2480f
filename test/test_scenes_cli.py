"""`reacthuman scenes ...` on bad input: one clear line, non-zero exit, nothing written. (No Genesis: every
case here fails before anything is simulated.)"""

from __future__ import annotations

import json

import pytest

from reacthuman.scenes import sample_spec
from reacthuman.scenes.cli import describe, main


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["generate", "--count", "-3"], "count must be a positive integer"),
        (["generate", "--count", "2", "--families", "object_drop,teleport"], "unknown family 'teleport'"),
        (["generate", "--balanced", "0"], "balanced must be a positive integer"),
        (["generate", "--count", "2", "--balanced", "2"], "exactly one of --count or --balanced"),
        (["generate", "--count", "2", "--adversarial-rate", "1.5"], "adversarial rate"),
        (["generate", "--describe", "the weather is lovely today"], "no event family fits"),
        (["generate", "--count", "two"], "invalid int value"),
    ],
)
def test_generate_bad_input(tmp_path, capsys, argv, needle) -> None:
    out = tmp_path / "ds"
    code = main(argv + ["--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert code != 0
    assert needle in err, err
    assert len(err.splitlines()) == 1, err
    assert not out.exists()


def test_validate_and_show_bad_input(tmp_path, capsys) -> None:
    assert main(["validate", str(tmp_path / "missing")]) == 2
    assert "no such dataset directory" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["validate", str(empty)]) == 2
    scene = tmp_path / "scene"
    scene.mkdir()
    (scene / "spec.json").write_text('{"scene_id": "x", ')
    assert main(["show", str(scene)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("reacthuman scenes: spec is not valid JSON")
    (scene / "spec.json").write_text(json.dumps({"scene_id": "x"}))
    assert main(["show", str(scene)]) == 2
    assert "missing field(s)" in capsys.readouterr().err


def test_show_prints_spec_readably(tmp_path, capsys) -> None:
    spec = sample_spec("pendulum_swing", 3, object_id="lead_sandbag")
    d = tmp_path / spec.scene_id
    d.mkdir()
    (d / "spec.json").write_text(spec.to_json())
    assert main(["show", str(d)]) == 0
    text = capsys.readouterr().out
    assert "lead sandbag (looks like cloth bean bag)" in text
    assert "unlabelled" in text
    assert describe(spec).splitlines()[0].startswith(f"scene {spec.scene_id}")
    assert main(["show", str(d), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["object_id"] == "lead_sandbag"


def test_plan_command_uses_the_rule_parser_without_a_model(capsys) -> None:
    assert main(["plan", "a stack of tin cans collapses in the kitchen"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "family": "stack_collapse",
        "object_id": "tin_can",
        "room": "kitchen",
        "hints": {},
        "planner": "rule",
    }
