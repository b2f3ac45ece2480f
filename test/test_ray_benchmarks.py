"""PhysMent and InteractiveWorld runs through `--executor ray`, on a real Ray cluster on this machine (a head
node for the driver and two worker nodes, each a raylet of its own), against the same runs by the local executor: the rows
equal in every non-timing field, transcripts, traces and bags byte for byte; a run resumed on Ray adds only
the missing episodes; a node removed while it holds a PhysMent episode loses and duplicates nothing."""

from __future__ import annotations

import filecmp
import json
from pathlib import Path

import pytest

import ray

import physment.ray_run
from interactiveworld import cli as iw_cli
from physment import cli as pm_cli
from ray_helpers import NODE_BYTES, local_cluster

TIMING_FIELDS = ("wall_s", "latency_s")
PM_ARGS = ("run", "--models", "oracle", "--budget", "5")
IW_ARGS = ("run", "--models", "oracle", "--bags", "--render", "no")


@pytest.fixture(scope="module")
def cluster():
    with local_cluster(head_cpus=0, worker_nodes=2) as (c, _):  # workers only on the two removable nodes
        yield c


def _rows(run: Path) -> dict[str, dict]:
    """results.jsonl by episode, timing left out; fails on a duplicated episode."""
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines() if line.strip()]
    keyed = {r.get("scene") or r["task_id"]: {k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in rows}
    assert len(keyed) == len(rows), f"an episode is in {run / 'results.jsonl'} twice"
    return keyed


def _same_tree(a: Path, b: Path) -> list[str]:
    cmp = filecmp.dircmp(a, b)
    diffs = cmp.left_only + cmp.right_only + cmp.funny_files
    diffs += [f for f in cmp.common_files if (a / f).read_bytes() != (b / f).read_bytes()]
    return diffs + [d for sub in cmp.common_dirs for d in _same_tree(a / sub, b / sub)]


def _untimed(value):
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in TIMING_FIELDS}
    return [_untimed(v) for v in value] if isinstance(value, list) else value


def _same_transcripts(a: Path, b: Path) -> None:
    names = sorted(p.relative_to(a) for p in a.rglob("*.json"))
    assert names
    assert names == sorted(p.relative_to(b) for p in b.rglob("*.json"))
    for name in names:
        assert _untimed(json.loads((a / name).read_text())) == _untimed(json.loads((b / name).read_text())), name


def _invocations(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "invocations.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def physment_runs(cluster, tmp_path_factory) -> tuple[Path, Path, list[str]]:
    """4 scenes by the local executor; on Ray, 2 of them, then all 4 resumed with 2 workers while the node
    whose worker is handed the first episode is removed at once (its worker dies holding the episode)."""
    root = tmp_path_factory.mktemp("physment")
    assert pm_cli.main([*PM_ARGS, "--limit", "4", "--out", str(root / "local")]) == 0
    on_ray = ["--executor", "ray", "--ray-address", cluster.address, "--out", str(root / "ray")]
    assert pm_cli.main([*PM_ARGS, "--limit", "2", "--workers", "1", *on_ray]) == 0
    lost: list[str] = []

    def remove_first_node(task, node_id: str) -> None:
        if not lost:
            lost.append(task.key)
            cluster.remove_node(next(n for n in cluster.list_all_nodes() if n.node_id == node_id))

    original = physment.ray_run.run_tasks

    def run_tasks_with_hook(*args, **kw):
        return original(*args, on_dispatch=remove_first_node, **kw)

    physment.ray_run.run_tasks = run_tasks_with_hook
    try:
        assert pm_cli.main([*PM_ARGS, "--limit", "4", "--workers", "2", *on_ray]) == 0
    finally:
        physment.ray_run.run_tasks = original
    cluster.add_node(num_cpus=1, object_store_memory=NODE_BYTES)  # the InteractiveWorld runs get two again
    cluster.wait_for_nodes()
    return root / "local", root / "ray", lost


def test_physment_on_ray_equals_the_local_run_and_resumes(physment_runs):
    local, on_ray, lost = physment_runs
    assert lost, "no episode was dispatched"
    assert sorted(_rows(on_ray)) == ["Scene1", "Scene2", "Scene3", "Scene4"]
    assert _rows(on_ray) == _rows(local)
    _same_transcripts(on_ray / "transcripts", local / "transcripts")
    first, resumed = _invocations(on_ray)
    assert (first["episodes_to_run"], resumed["episodes_to_run"]) == (2, 2)
    assert resumed["executor"] == {
        "name": "ray",
        "workers": 2,
        "ray_version": ray.__version__,
        "ray_address": first["executor"]["ray_address"],
    }
    assert _invocations(local)[0]["executor"]["name"] == "local"


def test_a_finished_physment_run_reruns_nothing_on_ray(physment_runs, cluster):
    _, on_ray, _ = physment_runs
    before = (on_ray / "results.jsonl").read_bytes()
    assert (
        pm_cli.main(
            [*PM_ARGS, "--limit", "4", "--executor", "ray", "--ray-address", cluster.address, "--out", str(on_ray)]
        )
        == 0
    )
    assert (on_ray / "results.jsonl").read_bytes() == before


@pytest.fixture(scope="module")
def interactiveworld_runs(physment_runs, cluster, tmp_path_factory) -> tuple[Path, Path]:
    """3 tasks with the oracle assistant and rosbag2 recording, locally and on Ray (1 task, then all 3)."""
    root = tmp_path_factory.mktemp("interactiveworld")
    assert iw_cli.main([*IW_ARGS, "--limit", "3", "--out", str(root / "local")]) == 0
    on_ray = ["--executor", "ray", "--ray-address", cluster.address, "--out", str(root / "ray")]
    assert iw_cli.main([*IW_ARGS, "--limit", "1", "--workers", "1", *on_ray]) == 0
    assert iw_cli.main([*IW_ARGS, "--limit", "3", "--workers", "2", *on_ray]) == 0
    return root / "local", root / "ray"


def test_interactiveworld_on_ray_equals_the_local_run(interactiveworld_runs):
    local, on_ray = interactiveworld_runs
    rows = _rows(on_ray)
    assert len(rows) == 3
    assert rows == _rows(local)
    assert all(r["passed"] for r in rows.values())  # the oracle passes every admitted task
    assert _same_tree(on_ray / "traces", local / "traces") == []
    assert _same_tree(on_ray / "bags", local / "bags") == []  # rosbag2 folders, MCAP bytes included
    assert not list((on_ray / "bags").glob("*.partial"))
    assert [i["episodes_to_run"] for i in _invocations(on_ray)] == [1, 2]
    assert _invocations(on_ray)[-1]["executor"]["workers"] == 2


def test_a_bad_ray_address_is_one_line_for_both_benchmarks(tmp_path, capsys):
    import socket

    with socket.socket() as s:  # a port with nothing listening on it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"127.0.0.1:{port}"
    for main, args in ((pm_cli.main, PM_ARGS), (iw_cli.main, IW_ARGS)):
        status = main([*args, "--out", str(tmp_path / "run"), "--executor", "ray", "--ray-address", address])
        err = capsys.readouterr().err.strip()
        assert status == 2, err
        assert err.count("\n") == 0, err
        assert address in err, err


def test_an_unknown_model_fails_on_the_driver_in_one_line(tmp_path, capsys):
    for main, args in (
        (pm_cli.main, ("run", "--models", "no-such-model", "--budget", "5")),
        (iw_cli.main, ("run", "--models", "no-such-model")),
    ):
        status = main([*args, "--out", str(tmp_path / "run"), "--executor", "ray"])
        err = capsys.readouterr().err.strip()
        assert status == 2, err
        assert err.count("\n") == 0, err
        assert "no-such-model" in err, err


def test_what_travels_to_the_workers_carries_no_secret(monkeypatch, tmp_path):
    import pickle

    from interactiveworld.bench.ray_run import PackTask, RunSettings
    from physment.runner import RunConfig
    from reacthuman.core.ray_pool import PoolPlan

    secret = "sk-test-" + "y" * 24
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    payloads = (
        RunConfig(scenes=tmp_path, agent="gpt-5.5", budget=5, out=tmp_path / "run"),
        RunSettings("llm:gpt-5.5", "llm:gpt-5.5"),
        PackTask("guidance-kettle-0", '{"task_id": "x"}'),
        PoolPlan(2),
    )
    for payload in payloads:
        assert secret.encode() not in pickle.dumps(payload)
