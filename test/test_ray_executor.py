"""The Ray executor on a real Ray cluster on this machine (a head node and a second node, each a raylet of
its own): scenes labelled on Ray equal a local set byte for byte; an eval through `--executor ray` gives the
ledger and episode folders of the local executor, with --keep-bags failures applied and a graph restarted
by --restart-every on the worker; a node removed while it holds an episode loses and duplicates nothing
(the episode is retried on the other node). One model on two scenes: one graph start for the local run,
two for Ray (its restart), the fewest that cover all of it."""

from __future__ import annotations

import filecmp
import json
import os
from pathlib import Path

import pytest

import ray

from reacthuman.evaluation import cli as eval_cli
from reacthuman.evaluation import ray_executor
from reacthuman.recording.episode_files import BAG_DROPPED
from reacthuman.scenes import cli as scenes_cli
from ray_helpers import local_cluster

MODELS = "oracle"
GENERATE = ("generate", "--count", "2", "--families", "object_drop", "--seed", "11")
TIMING_FIELDS = ("latency_s", "tokens")


@pytest.fixture(scope="module")
def cluster():
    with local_cluster(head_cpus=1, worker_nodes=1) as (c, [second]):
        yield c, second


@pytest.fixture(scope="module")
def scene_sets(cluster, tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("scenes")
    on_ray, local = root / "ray", root / "local"
    address = cluster[0].address
    assert (
        scenes_cli.main(
            [*GENERATE, "--out", str(on_ray), "--executor", "ray", "--workers", "1", "--ray-address", address]
        )
        == 0
    )
    assert scenes_cli.main([*GENERATE, "--out", str(local)]) == 0
    return on_ray, local


def _same_tree(a: Path, b: Path) -> list[str]:
    cmp = filecmp.dircmp(a, b)
    diffs = cmp.left_only + cmp.right_only + cmp.diff_files + cmp.funny_files
    return diffs + [d for sub in cmp.common_dirs for d in _same_tree(a / sub, b / sub)]


def test_scenes_labelled_on_ray_equal_a_local_set_byte_for_byte(scene_sets):
    on_ray, local = scene_sets
    assert len([d for d in on_ray.iterdir() if d.is_dir()]) == 2
    assert _same_tree(on_ray, local) == []
    assert (on_ray / "index.jsonl").read_bytes() == (local / "index.jsonl").read_bytes()


def _rows(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "ledger.jsonl").read_text().splitlines() if line.strip()]


def _without_timing(rows: list[dict]) -> dict[tuple[str, str], dict]:
    return {(r["scene_id"], r["model"]): {k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in rows}


@pytest.fixture(scope="module")
def runs(cluster, scene_sets, tmp_path_factory) -> tuple[Path, Path, list[tuple[str, str]]]:
    """The same pairs by the local executor and by Ray with 2 workers, both keeping bags only for failures;
    on Ray a graph is restarted after every episode, and the second node is removed as soon as its worker is
    handed an episode (before that worker starts a graph), so the head's worker runs both episodes."""
    c, second = cluster
    scenes = scene_sets[0]
    root = tmp_path_factory.mktemp("runs")
    common = [
        "--scenes",
        str(scenes),
        "--models",
        MODELS,
        "--engine",
        "mujoco",
        "--keep-bags",
        "failures",
        "--domain-base",
        str(20 + os.getpid() % 100),
    ]
    assert eval_cli.main([*common, "--out", str(root / "local")]) == 0
    second_id = second.node_id
    lost: list[tuple[str, str]] = []

    def remove_second_node(task, node_id: str) -> None:
        if node_id == second_id and not lost:
            lost.append((task.scene_id, task.model))
            c.remove_node(second)

    original = ray_executor.run_pairs

    def run_pairs_with_hook(*args, **kw):
        return original(*args, on_dispatch=remove_second_node, **kw)

    eval_cli.run_pairs = run_pairs_with_hook  # the name the eval command calls
    try:
        status = eval_cli.main(
            [
                *common,
                "--out",
                str(root / "ray"),
                "--executor",
                "ray",
                "--workers",
                "2",
                "--ray-address",
                c.address,
                "--restart-every",
                "1",
            ]
        )
    finally:
        eval_cli.run_pairs = original
    assert status == 0
    return root / "local", root / "ray", lost


def test_a_removed_node_costs_only_its_episode_which_is_retried(runs):
    local, on_ray, lost = runs
    assert lost, "the second node never got an episode"
    pairs = [(r["scene_id"], r["model"]) for r in _rows(on_ray)]
    assert len(pairs) == len(set(pairs)) == 2  # 2 scenes x 1 model, none twice
    assert lost[0] in pairs
    assert not (on_ray / "failures.jsonl").exists()
    manifest = json.loads((on_ray / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["counts"]["infrastructure_failures"] == 0
    executor = {
        "name": "ray",
        "workers": 2,
        "ray_version": ray.__version__,
        "ray_address": manifest["executor"]["ray_address"],
    }
    assert manifest["executor"] == manifest["sessions"][-1]["executor"] == executor
    assert json.loads((local / "manifest.json").read_text())["executor"] == {
        "name": "local",
        "workers": 1,
        "models": "one after another",
    }


def _memory_samples(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "logs" / "memory.jsonl").read_text().splitlines()]


def test_restart_every_restarts_the_graph_on_the_ray_worker(runs):
    local, on_ray, _ = runs
    ray_samples, local_samples = _memory_samples(on_ray), _memory_samples(local)
    assert [s["graph_episode"] for s in local_samples] == [1, 2]  # the local run kept its graph
    assert [s["graph_episode"] for s in ray_samples] == [1, 1]  # the worker restarted it between episodes
    assert ray_samples[0]["domain"] != ray_samples[1]["domain"]  # a fresh graph takes the next free domain
    assert all(s["rss_mib"] for s in ray_samples)


def test_the_ray_ledger_equals_the_local_one_in_every_non_timing_field(runs):
    local, on_ray, _ = runs
    assert _without_timing(_rows(on_ray)) == _without_timing(_rows(local))


def test_episode_folders_come_back_whole(runs):
    local, on_ray, _ = runs
    folders = sorted(p.relative_to(on_ray) for p in (on_ray / "episodes").glob("*/*"))
    assert folders == sorted(p.relative_to(local) for p in (local / "episodes").glob("*/*"))
    assert not list((on_ray / "episodes").rglob("*.partial"))
    for rel in folders:
        for name in ("spec.json", "plan.json", "raw_reply.txt", "outcome.json", "score.json"):
            assert (on_ray / rel / name).read_bytes() == (local / rel / name).read_bytes(), (rel, name)
        pngs = sorted(p.name for p in (local / rel).glob("brain_view_*.png"))
        assert pngs == sorted(p.name for p in (on_ray / rel).glob("brain_view_*.png"))
        assert bool(pngs) == (local / rel / BAG_DROPPED).is_file()  # the frames as PNGs only in place of a bag
        # --keep-bags failures, applied by the worker's graph as by a local one: the same bags kept or dropped
        assert (on_ray / rel / BAG_DROPPED).is_file() == (local / rel / BAG_DROPPED).is_file()
        kept = sorted(p.name for p in (local / rel / "bag").glob("*")) if (local / rel / "bag").is_dir() else []
        assert kept == (
            sorted(p.name for p in (on_ray / rel / "bag").glob("*")) if (on_ray / rel / "bag").is_dir() else []
        )
        assert kept or (on_ray / rel / BAG_DROPPED).is_file()
    for model in MODELS.split(","):
        assert (on_ray / "logs" / f"{model}.log").stat().st_size > 0


def test_graph_domains_are_unique_on_a_node_and_freed_when_released(tmp_path):
    from reacthuman.evaluation.ray_actor import NodeDomains

    first, second = NodeDomains(120, tmp_path), NodeDomains(120, tmp_path)
    a = first.take()
    b = second.take()
    assert a != b
    assert 120 <= min(a, b)
    assert max(a, b) < 220
    again = first.take()  # a restart takes the next free domain, then frees the old one
    assert again not in (a, b)
    first.release()
    taker = NodeDomains(120, tmp_path)
    taker._next = again - 120 - 1
    assert taker.take() == again


def test_an_unreachable_cluster_is_one_line_naming_the_address(tmp_path, capsys):
    import socket

    with socket.socket() as s:  # a port with nothing listening on it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    status = eval_cli.main(
        [
            "--scenes",
            str(tmp_path),
            "--models",
            "oracle",
            "--out",
            str(tmp_path / "run"),
            "--executor",
            "ray",
            "--ray-address",
            f"127.0.0.1:{port}",
        ]
    )
    err = capsys.readouterr().err.strip()
    assert status == 2, err
    assert err.count("\n") == 0, err
    assert f"127.0.0.1:{port}" in err, err


def test_tasks_carry_no_secret_from_the_driver_environment(monkeypatch):
    import pickle

    from reacthuman.evaluation.ray_actor import ActorSettings, EpisodeTask

    secret = "sk-test-" + "x" * 24
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    task = EpisodeTask("gpt-4o", "object_drop-s3-normal", '{"scene_id": "object_drop-s3-normal"}')
    for payload in (task, ActorSettings()):
        assert secret.encode() not in pickle.dumps(payload)
