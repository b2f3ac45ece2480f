"""Faults a running graph survives without waiting out a timeout, through `reacthuman eval` (real rclpy, FastDDS,
a MuJoCo body, the oracle): a first joint command lost (the tick is sent again; the row equals an undisturbed
run's to the bit), a scene the body refuses and a controller that raises (each fails its episode at once with
the node's reason in the failures ledger, retried on a fresh graph), and no process of a run left after it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reacthuman.evaluation.run_lock import run_processes
from reacthuman.evaluation.fault_injection import INJECT_ENV
from reacthuman.scenes import generate_spec

SCENE = ("object_drop", 3)
CLASH_SCENE = "object_drop-s3-clash"  # a wall named like a G1 link: a valid scene the body refuses
TIMING_FIELDS = {"latency_s"}


def _eval(scenes: Path, out: Path, inject: str = "", *extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, **{INJECT_ENV: inject})
    args = [
        sys.executable,
        "-m",
        "reacthuman.cli",
        "eval",
        "--scenes",
        str(scenes),
        "--models",
        "oracle",
        "--out",
        str(out),
        "--engine",
        "mujoco",
        "--domain-base",
        str(20 + os.getpid() % 100),
        *extra,
    ]
    done = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    assert not run_processes(out), f"processes of the run left behind: {run_processes(out)}"
    return done


def _rows(out: Path) -> list[dict]:
    path = out / "ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _failures(out: Path) -> list[dict]:
    path = out / "failures.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture(scope="module")
def scenes(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("scenes")
    spec = generate_spec(*SCENE)
    (root / spec.scene_id).mkdir()
    (root / spec.scene_id / "spec.json").write_text(spec.to_json())
    return root


@pytest.fixture(scope="module")
def clash_scenes(scenes, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("clash")
    (spec_dir,) = scenes.iterdir()
    data = json.loads((spec_dir / "spec.json").read_text())
    data["scene_id"] = CLASH_SCENE
    (wall,) = [b for b in data["bodies"] if b["name"] == "wall_side"]
    wall["name"] = "pelvis"
    (root / CLASH_SCENE).mkdir()
    (root / CLASH_SCENE / "spec.json").write_text(json.dumps(data))
    return root


@pytest.fixture(scope="module")
def undisturbed(scenes, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("undisturbed") / "run"
    done = _eval(scenes, out)
    assert done.returncode == 0, done.stdout
    return out


def test_a_lost_first_joint_command_is_sent_again_and_the_row_equals_an_undisturbed_runs(scenes, undisturbed, tmp_path):
    out = tmp_path / "run"
    done = _eval(scenes, out, "spine.drop_commands=1")
    assert done.returncode == 0, done.stdout
    log = (out / "logs" / "oracle.log").read_text()
    assert "tick t=0.000 s sent again: no joint command for it within 2 s" in log
    (row,), (plain,) = _rows(out), _rows(undisturbed)
    differ = {k for k in set(row) | set(plain) if k not in TIMING_FIELDS and row.get(k) != plain.get(k)}
    assert not differ, {k: (row.get(k), plain.get(k)) for k in differ}
    assert not _failures(out)  # nothing failed: the episode ran once


def test_a_scene_the_body_refuses_fails_at_once_with_the_reason_and_is_retried(clash_scenes, tmp_path):
    out = tmp_path / "run"
    done = _eval(clash_scenes, out, "", "--retries", "1")
    assert done.returncode == 1, done.stdout  # incomplete: the scene is refused on every graph
    retried, gave_up = _failures(out)
    reason = f"the body gave up on {CLASH_SCENE}: scene refused: scene body names clash with the G1's links: pelvis"
    assert retried["retried"] is True, retried
    assert retried["attempt"] == 1, retried
    assert reason in retried["error"], retried
    assert gave_up["attempts"] == 2, gave_up
    assert reason in gave_up["error"], gave_up
    assert retried["wall_s"] < 120  # failed on the body's word, not on the 900 s episode timeout
    assert not _rows(out)
    assert not list((out / "episodes").rglob("*.partial"))
    assert not list((out / "episodes").rglob("score.json"))


def test_a_controller_that_raises_fails_the_episode_at_once_with_its_reason(scenes, tmp_path):
    out = tmp_path / "run"
    done = _eval(scenes, out, "spine.crash_at_tick=20", "--retries", "0")
    assert done.returncode == 1, done.stdout
    (gave_up,) = _failures(out)
    assert (
        "the spine gave up on object_drop-s3-normal: the controller raised at t=0.396 s: RuntimeError: "
        "injected controller crash at tick 20" in gave_up["error"]
    ), gave_up
