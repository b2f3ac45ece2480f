"""`reacthuman eval --workers W[,MODEL=N]`: the graphs each model gets, and one-line errors for bad counts."""

from __future__ import annotations

import pytest

from reacthuman.evaluation import cli as eval_cli
from reacthuman.evaluation.worker_counts import WorkerCounts, parse_worker_counts

MODELS = ["local", "oracle", "heuristic"]


def test_one_number_gives_every_model_that_many_graphs():
    counts = parse_worker_counts("3", MODELS)
    assert [counts.for_model(m) for m in MODELS] == [3, 3, 3]
    assert counts.uniform


def test_a_model_entry_gives_that_model_its_own_count():
    counts = parse_worker_counts("1, local=2", MODELS)
    assert [counts.for_model(m) for m in MODELS] == [2, 1, 1]
    assert not counts.uniform
    assert parse_worker_counts("local=2", MODELS) == WorkerCounts(1, {"local": 2})


@pytest.mark.parametrize(
    "text, message",
    [
        ("0", "a count must be >= 1"),
        ("1,local=0", "local=0: a count must be >= 1"),
        ("two", "'two' is not a count"),
        ("1,gpt-5.5=2", "'gpt-5.5' is not one of the models evaluated"),
        ("1,local=2,local=3", "'local' is given twice"),
        ("1,2", "gives the default count twice"),
    ],
)
def test_bad_counts_are_refused_naming_the_entry(text, message):
    with pytest.raises(ValueError, match=message):
        parse_worker_counts(text, MODELS)


def test_eval_refuses_a_bad_count_in_one_line_before_touching_the_scenes(tmp_path, capsys):
    args = ["--scenes", str(tmp_path / "none"), "--models", "oracle", "--out", str(tmp_path / "run")]
    assert eval_cli.main([*args, "--workers", "1,local=2"]) == 2
    assert capsys.readouterr().err.strip() == (
        "reacthuman eval: --workers: 'local' is not one of the models evaluated (oracle)"
    )
    assert eval_cli.main([*args, "--workers", "oracle=2", "--executor", "ray"]) == 2
    assert "--workers MODEL=N is for the local executor" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
