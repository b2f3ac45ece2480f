"""The suite's one model-spec grammar (`reacthuman/core/model_spec.py`) and the `--models` option of the three
command lines: what parses, the one-line errors, the deprecated spellings, and that no bad spec starts
anything (no run folder is written, no simulator or model server is started)."""

from __future__ import annotations

import argparse
import logging

import pytest

from reacthuman.core.model_spec import (
    LLM,
    MODELS_LEAD,
    REFERENCE,
    ModelSpec,
    ModelSpecError,
    ModelsOption,
    models_help,
    parse_models,
)

REFS = {"oracle": "reads the truth", "silent": "never helps"}
LOGGER = "reacthuman.core.model_spec"


def test_references_presets_and_explicit_models_parse_in_order():
    specs = parse_models(" oracle , local,openai-compatible:Qwen/Qwen3-VL-8B@http://127.0.0.1:8000/v1/ ", REFS)
    assert [(s.kind, s.name) for s in specs] == [
        (REFERENCE, "oracle"),
        (LLM, "local"),
        (LLM, "openai-compatible:Qwen/Qwen3-VL-8B@http://127.0.0.1:8000/v1/"),
    ]
    assert specs[0].preset is None
    assert not specs[0].is_llm
    assert specs[1].is_llm
    assert specs[1].preset.provider == "embedded"
    assert specs[2].preset.model_id == "Qwen/Qwen3-VL-8B"
    assert specs[2].preset.base_url == "http://127.0.0.1:8000/v1"


def test_a_spec_is_a_frozen_value_that_checks_itself():
    spec = parse_models("silent", REFS)[0]
    with pytest.raises(AttributeError):
        spec.name = "oracle"  # type: ignore[misc]
    with pytest.raises(ValueError, match="kind"):
        ModelSpec("brain", "x")
    with pytest.raises(ValueError, match="preset"):
        ModelSpec(LLM, "local")


def test_an_unknown_entry_is_one_line_naming_it_with_every_choice():
    with pytest.raises(ModelSpecError) as err:
        parse_models("oracle,gpt-9", REFS, option="--human")
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith("--human: unknown model 'gpt-9'")
    assert "oracle, silent" in message
    assert "local" in message
    assert "gpt-5.5" in message
    assert "openai-compatible:<model_id>@<base_url>" in message


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", "no model given"),
        (" ", "no model given"),
        ("oracle,,local", "an empty entry"),
        ("oracle,", "an empty entry"),
        ("oracle,oracle", "'oracle' is given twice"),
        ("local,llm:local", "'local' is given twice"),  # the alias names the same model
        ("openai-compatible:no-url", "expected 'openai-compatible:<model_id>@<base_url>'"),
        ("llm:oracle", "unknown model 'llm:oracle'"),  # `llm:` always meant a model, never a reference
    ],
)
def test_bad_lists_are_errors(text, expected):
    with pytest.raises(ModelSpecError, match=expected) as err:
        parse_models(text, REFS)
    assert "\n" not in str(err.value)


def test_the_llm_prefix_is_a_deprecated_alias_logged_not_printed(caplog, capsys):
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        specs = parse_models("llm:local,oracle", REFS)
    assert [(s.kind, s.name) for s in specs] == [(LLM, "local"), (REFERENCE, "oracle")]
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert "'llm:local'" in caplog.text
    assert "deprecated" in caplog.text
    assert capsys.readouterr() == ("", "")


def test_references_still_parse_when_the_presets_file_is_missing(monkeypatch, tmp_path):
    monkeypatch.setenv("REACTHUMAN_MODELS_YAML", str(tmp_path / "missing.yaml"))
    assert parse_models("oracle", REFS)[0].kind == REFERENCE
    with pytest.raises(ModelSpecError, match="'local' is not a reference .* presets cannot be read") as err:
        parse_models("local", REFS)
    assert "\n" not in str(err.value)


def _option_args(option: ModelsOption, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    option.add_to(parser)
    return parser.parse_args(argv)


def test_the_option_takes_its_flag_a_deprecated_alias_or_its_default(caplog):
    option = ModelsOption(REFS, aliases=("--agent",), default="local")
    assert [s.name for s in option.parse(_option_args(option, ["--models", "oracle,local"]))] == ["oracle", "local"]
    assert [s.name for s in option.parse(_option_args(option, []))] == ["local"]
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert [s.name for s in option.parse(_option_args(option, ["--agent", "silent"]))] == ["silent"]
    assert "--agent is deprecated" in caplog.text
    assert "--models" in caplog.text
    with pytest.raises(ModelSpecError, match="give --models once"):
        option.parse(_option_args(option, ["--agent", "silent", "--models", "oracle"]))


def test_a_required_option_and_a_single_model_option():
    required = ModelsOption(REFS, aliases=("--assistant",))
    with pytest.raises(ModelSpecError, match="--models is required"):
        required.parse(_option_args(required, []))
    with pytest.raises(ModelSpecError, match="--models takes one model here, got 2: oracle, silent"):
        required.parse_one(_option_args(required, ["--models", "oracle,silent"]))
    judge = ModelsOption({}, flag="--judge", required=False)
    assert judge.parse_one(_option_args(judge, [])) is None
    assert judge.parse_one(_option_args(judge, ["--judge", "local"])).name == "local"
    without_alias = argparse.ArgumentParser()
    ModelsOption(REFS).add_to(without_alias)
    # argparse itself requires a flag that has no alias and no default (its usage line says so)
    assert next(a for a in without_alias._actions if "--models" in a.option_strings).required


# ---- the three command lines ------------------------------------------------------------------------------


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def _option_help(parser: argparse.ArgumentParser, flag: str) -> str | None:
    return next(a.help for a in parser._actions if flag in a.option_strings)


def _parsers() -> dict[str, tuple[argparse.ArgumentParser, dict[str, str]]]:
    from interactiveworld.agents.assistants import REFERENCE_ASSISTANTS
    from interactiveworld.cli import _parser as iw_parser
    from physment import REFERENCE_AGENTS
    from physment.cli import _parser as pm_parser
    from reacthuman.brain import reference_brains
    from reacthuman.evaluation.cli import build_parser

    iw = iw_parser()
    found = {
        "reacthuman eval": (build_parser(), reference_brains()),
        "physment run": (_subparser(pm_parser(), "run"), REFERENCE_AGENTS),
    }
    for command in ("run", "matrix", "static", "ros-episode"):
        found[f"interactiveworld {command}"] = (_subparser(iw, command), REFERENCE_ASSISTANTS)
    return found


def test_every_cli_shows_the_same_models_help_and_hides_the_old_flags():
    hidden = {
        "physment run": "--agent",
        "interactiveworld run": "--assistant",
        "interactiveworld static": "--assistant",
        "interactiveworld ros-episode": "--assistant",
        "interactiveworld matrix": "--assistants",
    }
    for command, (parser, references) in _parsers().items():
        text = _option_help(parser, "--models")
        assert text.startswith(MODELS_LEAD + ". An entry is a reference agent of this system"), command
        assert text.startswith(models_help(references)), command
        if command in hidden:
            assert _option_help(parser, hidden[command]) == argparse.SUPPRESS, command


def _one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


def test_reacthuman_eval_refuses_a_bad_spec_in_one_line(tmp_path, capsys):
    from reacthuman.evaluation.cli import main

    for models, named in (("oracle,gpt-9", "'gpt-9'"), ("oracle,oracle", "'oracle' is given twice")):
        assert main(["--scenes", str(tmp_path), "--models", models, "--out", str(tmp_path / "run")]) == 2
        line = _one_error_line(capsys)
        assert line.startswith("reacthuman eval: --models")
        assert named in line
    assert not (tmp_path / "run").exists()


def test_reacthuman_decide_takes_eval_s_grammar_and_refuses_a_bad_name_in_one_line(tmp_path, capsys):
    from reacthuman.evaluation.decide import main, models_option

    args = argparse.Namespace(models=" freeze , oracle,local")
    assert [(s.kind, s.name) for s in models_option().parse(args)][:2] == [(REFERENCE, "freeze"), (REFERENCE, "oracle")]
    assert models_option().parse(args)[2].is_llm
    for models, expected in (
        ("freeze,gpt-9", "--models: unknown model 'gpt-9'"),
        ("freeze,freeze", "--models: 'freeze' is given twice"),
    ):
        assert main(["--scenes", str(tmp_path), "--models", models, "--out", str(tmp_path / "run")]) == 2
        line = _one_error_line(capsys)
        assert line.startswith(f"reacthuman decide: {expected}"), line
    assert not (tmp_path / "run").exists()


def test_physment_run_refuses_a_bad_spec_in_one_line_and_keeps_the_old_flag(tmp_path, capsys, caplog):
    from physment.cli import MODELS, _parser, main

    assert main(["run", "--models", "oracle,gpt-9", "--budget", "5", "--out", str(tmp_path / "run")]) == 2
    line = _one_error_line(capsys)
    assert line.startswith("physment: --models: unknown model 'gpt-9'")
    assert "(oracle)" in line
    assert not (tmp_path / "run").exists()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        args = _parser().parse_args(["run", "--agent", "llm:local", "--budget", "5", "--out", str(tmp_path)])
        assert [(s.kind, s.name) for s in MODELS.parse(args)] == [(LLM, "local")]
    assert "--agent is deprecated" in caplog.text
    assert "'llm:' prefix is deprecated" in caplog.text
    args = _parser().parse_args(["run", "--budget", "5", "--out", str(tmp_path)])
    assert [s.name for s in MODELS.parse(args)] == ["local"]  # the default model, as before


@pytest.mark.parametrize(
    "argv, named",
    [
        (["run", "--models", "oracle,gpt-9"], "--models: unknown model 'gpt-9'"),
        (["run", "--models", "oracle", "--human", "psychic"], "--human: unknown model 'psychic'"),
        (["run", "--models", "oracle", "--human", "scripted,local"], "--human takes one model here"),
        (["matrix", "--models", "oracle", "--humans", "scripted,,local"], "--humans 'scripted,,local': an empty entry"),
        (["static", "--models", "oracle", "--judge", "oracle"], "--judge: unknown model 'oracle'"),
        (["ros-episode", "--task", "x", "--models", "oracle,silent"], "--models takes one model here, got 2"),
    ],
)
def test_interactiveworld_refuses_a_bad_spec_in_one_line(tmp_path, capsys, argv, named):
    from interactiveworld.cli import main

    out = [] if argv[0] == "ros-episode" else ["--out", str(tmp_path / "run")]
    assert main([*argv, *out]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"interactiveworld: {named}"), line
    assert not (tmp_path / "run").exists()


def test_interactiveworld_keeps_its_old_flags_and_run_folder_names(tmp_path, caplog):
    from interactiveworld.agents.assistants import agent_name
    from interactiveworld.cli import ASSISTANTS, HUMAN, MATRIX_ASSISTANTS, _folders, _parser

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        args = _parser().parse_args(["run", "--assistant", "llm:local", "--human", "scripted", "--out", str(tmp_path)])
        spec = ASSISTANTS.parse_one(args)
        mx = _parser().parse_args(["matrix", "--assistants", "oracle,silent", "--out", str(tmp_path)])
        assert [s.name for s in MATRIX_ASSISTANTS.parse(mx)] == ["oracle", "silent"]
    assert "--assistant is deprecated" in caplog.text
    assert "--assistants is deprecated" in caplog.text
    # run folders and results keep spelling a model `llm:<name>`, so runs made before the grammar resume
    assert agent_name(spec) == "llm:local"
    assert agent_name(HUMAN.parse_one(args)) == "scripted"
    specs = parse_models("oracle,local", {"oracle": ""})
    assert _folders(tmp_path, specs[:1]) == [("oracle", tmp_path)]  # one model: today's layout
    assert _folders(tmp_path, specs) == [("oracle", tmp_path / "oracle"), ("llm:local", tmp_path / "local")]
