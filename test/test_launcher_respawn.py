"""`respawn: true` in a launch file (real processes through `reacthuman launch`): a node stopped from outside
is started again and the graph goes on; a node that fails still ends the graph with its status. And the eval's
graph worker keeps out of a ROS domain where another graph runs (real rclpy)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from reacthuman.core.processes import children, process_name
from reacthuman.launching.launch_file import load
from ros_helpers import GraphClient

LAUNCH = Path(__file__).resolve().parent.parent / "launch"
NODE = """launch:
- node:
    pkg: reacthuman
    exec: scene_generator_node
    name: scene_generator
    respawn: "true"
    param:
    - {{name: scenes_dir, value: {scenes_dir}}}
"""


def _launch(tmp_path: Path, scenes_dir: str, domain: int) -> subprocess.Popen:
    f = tmp_path / "respawn.launch.yaml"
    f.write_text(NODE.format(scenes_dir=scenes_dir))
    return subprocess.Popen(
        [sys.executable, "-m", "reacthuman.cli", "launch", str(f), "--domain-id", str(domain)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _node_pid(launcher: subprocess.Popen, old: int | None = None, timeout_s: float = 60.0) -> int:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        pids = [p for p in children(launcher.pid) if process_name(p) == "scene_generator" and p != old]
        if pids:
            return pids[0]
        assert launcher.poll() is None, launcher.communicate()[0]
        time.sleep(0.1)
    raise AssertionError("no scene_generator process")


def test_eval_launch_respawns_only_the_body():
    assert [n.name for n in load(LAUNCH / "eval.launch.yaml").nodes if n.respawn] == ["body"]


def test_a_respawned_node_stopped_from_outside_comes_back_and_one_that_fails_ends_the_graph(tmp_path, ros_domain_id):
    launcher = _launch(tmp_path, "/tmp", ros_domain_id)
    client = GraphClient(ros_domain_id, "respawn_test")
    up = lambda: "scene_generator" in client.node.get_node_names()  # noqa: E731
    try:
        first = _node_pid(launcher)
        assert client.wait_for(up, 60)
        os.killpg(first, signal.SIGINT)  # as the eval stops the body between episodes
        second = _node_pid(launcher, old=first)
        assert client.wait_for(lambda: _node_pid(launcher) == second and up(), 60)
        os.killpg(second, signal.SIGKILL)
        _node_pid(launcher, old=second)
        assert launcher.poll() is None
    finally:
        client.close()
        launcher.send_signal(signal.SIGINT)
        output = launcher.communicate(timeout=60)[0]
    assert output.count("stopped (status") == 2, output
    assert launcher.returncode == 0, output
    broken = _launch(tmp_path, "3", ros_domain_id)  # scenes_dir must be a string: the node exits with an error
    output = broken.communicate(timeout=120)[0]
    assert broken.returncode != 0, output
    assert "node 'scene_generator' died with exit code" in output, output
    assert "respawning" not in output


class _Domains:
    def __init__(self, *domains: int) -> None:
        self.domains = list(domains)

    def take(self) -> int:
        return self.domains.pop(0) if len(self.domains) > 1 else self.domains[0]


def test_a_graph_worker_skips_a_ros_domain_where_another_graph_runs(tmp_path, ros_domain_id):
    """Another eval on this machine picked the same domain once; its graph answered this run's requests."""
    import rclpy
    from rclpy.node import Node

    from reacthuman.evaluation.graph_worker import GraphWorker, WorkerConfig

    busy, free = ros_domain_id, ros_domain_id + 1
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=busy)
    other = Node("other_runs_node", context=context)
    try:
        config = WorkerConfig(model="oracle", scenes_dir=tmp_path, run_dir=tmp_path)
        worker = GraphWorker(config, _Domains(busy, free), tmp_path / "log")
        worker._join_free_domain()
        assert worker.domain_id == free
        worker.stop()
        fixed = GraphWorker(config, _Domains(busy), tmp_path / "log")  # one domain only (the bench's): kept
        fixed._join_free_domain()
        assert fixed.domain_id == busy
        fixed.stop()
    finally:
        other.destroy_node()
        rclpy.shutdown(context=context)
