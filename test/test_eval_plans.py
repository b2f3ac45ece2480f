"""The two-step protocol through the launched graph (real rclpy, FastDDS, Genesis; a real loopback HTTP model):
`reacthuman decide` decides a Catch and a Dodge scene on their observation set and stores each plan;
`reacthuman eval --plans RUN` executes those plans through the graph, whose brain replays them without asking
the model again, and appends executed rows equal to the decide rows in every scoring field. The decide rows
stay as written, the report's decisions are the executed rows, and a second `eval --plans` executes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reacthuman.llm.loopback import FixedReplyEndpoint
from reacthuman.scoring.ledger import EXECUTION_FIELDS
from reacthuman.scenes import generate_spec

SCENES = (("object_drop", 3), ("ceiling_drop", 0))  # a Dodge scene and a Catch scene (as test_eval_graph)
REPLY = json.dumps(
    {
        "object_identified": "the falling object",
        "intent": "step back out of its way",
        "confidence": 0.7,
        "walking_cmd": [-0.4, 0.0, 0.0],
        "walking_duration": 1.0,
        "catch_duration": 0.5,
        "keyframes": [{"t": 0.3, "left_hand": [0.1, 0.1, 0.0], "right_hand": [0.1, -0.1, 0.0], "knee_bend": 0.1}],
    }
)


def _rows(run: Path) -> list[dict]:
    path = run / "ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def _eval_plans(*args: str) -> subprocess.CompletedProcess:
    domain = str(40 + os.getpid() % 90)
    return subprocess.run(
        [sys.executable, "-m", "reacthuman.cli", "eval", "--plans", *args, "--domain-base", domain],
        capture_output=True,
        text=True,
        timeout=1800,
    )


@pytest.fixture(scope="module")
def endpoint():
    endpoint = FixedReplyEndpoint(REPLY, model="fixed", prompt_tokens=100, completion_tokens=20)
    yield endpoint
    endpoint.close()


@pytest.fixture(scope="module")
def scenes(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("scenes")
    for family, seed in SCENES:
        spec = generate_spec(family, seed)
        (root / spec.scene_id).mkdir()
        (root / spec.scene_id / "spec.json").write_text(spec.to_json())
    return root


@pytest.fixture(scope="module")
def two_steps(endpoint, scenes, tmp_path_factory) -> tuple[Path, list[dict], str, int]:
    """(run folder, its decide rows, eval's output, requests the model got during eval)."""
    from reacthuman.evaluation.decide import main as decide

    run = tmp_path_factory.mktemp("plans") / "run"
    model = f"openai-compatible:fixed@{endpoint.base_url}?vision=true"
    assert decide(["--scenes", str(scenes), "--models", model, "--out", str(run), "--workers", "2"]) == 0
    decided, asked = _rows(run), len(endpoint.bodies)
    executed = _eval_plans(str(run))
    assert executed.returncode == 0, executed.stdout + executed.stderr
    return run, decided, executed.stdout, len(endpoint.bodies) - asked


def test_decide_rows_store_the_committed_plan(two_steps):
    _, decided, _, _ = two_steps
    assert len(decided) == len(SCENES)
    for row in decided:
        assert row["executed"] is False and row["caught"] is None
        assert row["plan"] == json.loads(REPLY)  # the reply's plan, field for field


def test_eval_plans_executes_each_stored_plan_once_without_asking_the_model(two_steps):
    run, decided, output, asked = two_steps
    assert asked == 0, "the graph's brain asked the model again"
    rows = _rows(run)
    assert rows[: len(decided)] == decided  # append-only: the decide rows stay as written
    executed = rows[len(decided) :]
    assert sorted(r["scene_id"] for r in executed) == sorted(r["scene_id"] for r in decided)
    assert f"{len(SCENES)}/{len(SCENES)} executed plans" in output, output


def test_an_executed_row_equals_its_decide_row_in_every_scoring_field(two_steps):
    run, decided, _, _ = two_steps
    executed = {r["scene_id"]: r for r in _rows(run)[len(decided) :]}
    for row in decided:
        done = executed[row["scene_id"]]
        assert done["executed"] is True and done["caught"] is not None and done["fell"] is not None
        assert done["plan"] == row["plan"] and done["model"] == row["model"] and "?" not in done["model"]
        scoring = set(row) - set(EXECUTION_FIELDS) - {"executed"}
        differ = {k: (row[k], done.get(k)) for k in scoring if done.get(k) != row[k]}
        assert not differ, differ


def test_the_executed_rows_supersede_and_a_second_pass_executes_nothing(two_steps):
    from reacthuman.reporting.aggregate import select_decisions
    from reacthuman.scoring.ledger import read_ledger

    run = two_steps[0]
    chosen = select_decisions(read_ledger(run)).scored
    assert len(chosen) == len(SCENES) and all(r.extras["executed"] is True and r.caught is not None for r in chosen)
    before = _rows(run)
    again = _eval_plans(str(run))
    assert again.returncode == 0, again.stdout + again.stderr
    assert _rows(run) == before and f"{len(SCENES)}/{len(SCENES)} executed plans" in again.stdout


def test_eval_plans_refuses_a_folder_that_is_not_a_decide_run_and_a_model_it_did_not_decide(two_steps, tmp_path):
    run = two_steps[0]
    for args, says in (
        ((str(tmp_path),), "is not a `reacthuman decide` run"),
        ((str(run), "--models", "always_dodge"), "'always_dodge' was not decided in"),
        ((str(run), "--out", str(tmp_path)), "leave --out out"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "reacthuman.cli", "eval", "--plans", *args],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 2 and says in proc.stderr and "\n" not in proc.stderr.strip(), (args, proc.stderr)


def test_a_vision_model_refusing_images_in_the_graph_stops_the_eval_in_one_line_without_retries(scenes, tmp_path):
    """A model given `?vision=true` is not probed, so a refusal comes in the middle of the run: the graph's brain
    node reports it as the episode's fault, and the eval stops the model instead of retrying the episode as an
    infrastructure failure (one episode here: `reacthuman decide`'s test refuses after a first reply)."""
    server, out = FixedReplyEndpoint(REPLY, model="flaky", refuse_images_after=0), tmp_path / "run"
    model = f"openai-compatible:flaky@{server.base_url}"
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "reacthuman.cli",
                "eval",
                "--scenes",
                str(scenes),
                "--models",
                f"{model}?vision=true",
                "--out",
                str(out),
                "--limit",
                "1",
                "--domain-base",
                str(40 + os.getpid() % 90),
            ],
            capture_output=True,
            text=True,
            timeout=1800,
        )
    finally:
        server.close()
    last = proc.stderr.strip().splitlines()[-1]
    assert proc.returncode == 2 and last.startswith(
        f"reacthuman eval: model '{model}' refuses image input (HTTP 400"
    ), proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "--modality state_text" in last and "0/1 decisions" in proc.stdout and "refused images" in proc.stdout
    assert len(server.bodies) == 1 and not _rows(out)  # the refused call: no row, no retry
    failures = out / "failures.jsonl"
    assert not failures.exists() or not failures.read_text().strip(), failures.read_text()
