"""The real graph, launched as separate processes by `reacthuman launch`, seen through the rclpy graph API."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rclpy.action import get_action_server_names_and_types_by_node

from reacthuman import ros_contract as graph
from ros_helpers import GraphClient

ROOT = Path(__file__).resolve().parent.parent
STANDARD_TOPICS = {"/rosout", "/parameter_events"}


def _launch(domain_id: int, *overrides: str) -> subprocess.Popen:
    cmd = [
        sys.executable,
        "-m",
        "reacthuman.cli",
        "launch",
        str(ROOT / "launch" / "eval.launch.py"),
        "--domain-id",
        str(domain_id),
        *overrides,
    ]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _pids(output: str) -> list[int]:
    return [int(p) for p in re.findall(r"pid (\d+)\)", output)]


def _alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped by whoever adopted it counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return "\nState:\tZ" not in status


def _endpoints(pairs: list, ignore: frozenset = frozenset()) -> dict[str, str]:
    return {name: types[0] for name, types in pairs if name not in STANDARD_TOPICS | ignore and "/_action/" not in name}


SIM_TIME = frozenset({graph.CLOCK})  # use_sim_time makes every node subscribe to /clock


@pytest.fixture(scope="module")
def live_graph():
    domain_id = 200 + os.getpid() % 30
    proc = _launch(domain_id)
    client = GraphClient(domain_id, "graph_test")
    yield proc, client
    client.close()
    if proc.poll() is None:
        proc.terminate()
        proc.wait(timeout=60)


def test_every_node_comes_up_with_its_declared_typed_topics(live_graph):
    _, client = live_graph
    node = client.node
    assert client.wait_for(lambda: set(graph.NODES) <= set(node.get_node_names()), 90), (
        f"nodes up: {node.get_node_names()}"
    )
    for name, contract in graph.NODES.items():
        assert client.wait_for(
            lambda: (
                _endpoints(node.get_publisher_names_and_types_by_node(name, "/")) == contract.publishes
                and _endpoints(node.get_subscriber_names_and_types_by_node(name, "/"), SIM_TIME)
                == {t: ty for t, ty in contract.subscribes.items() if t not in SIM_TIME}
            ),
            30,
        ), (
            name,
            _endpoints(node.get_publisher_names_and_types_by_node(name, "/")),
            _endpoints(node.get_subscriber_names_and_types_by_node(name, "/")),
        )
        services = dict(node.get_service_names_and_types_by_node(name, "/"))
        for srv, srv_type in contract.services.items():
            assert services.get(srv) == [srv_type], (name, srv)
        actions = dict(get_action_server_names_and_types_by_node(node, name, "/"))
        assert actions == {a: [t] for a, t in contract.actions.items()}, (name, actions)


def test_sigterm_stops_every_node_cleanly(live_graph):
    proc, client = live_graph
    assert client.wait_for(lambda: set(graph.NODES) <= set(client.node.get_node_names()), 90)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert "all nodes stopped" in out
    pids = _pids(out)
    assert len(pids) == len(graph.NODES)
    time.sleep(0.5)
    assert not [p for p in pids if _alive(p)], out


def test_killing_the_launcher_takes_its_nodes_down(ros_domain_id):
    proc = _launch(ros_domain_id)
    client = GraphClient(ros_domain_id, "kill_test")
    try:
        assert client.wait_for(lambda: set(graph.NODES) <= set(client.node.get_node_names()), 90)
    finally:
        client.close()
    proc.kill()  # SIGKILL: no chance to clean up; the nodes must still go
    out, _ = proc.communicate(timeout=30)
    pids = _pids(out)
    assert len(pids) == len(graph.NODES)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.2)
    assert not [p for p in pids if _alive(p)]


def test_a_node_that_dies_is_reported_and_fails_the_run(ros_domain_id):
    proc = _launch(ros_domain_id, "engine:=bullet")  # the body refuses an unknown engine and exits
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode != 0, out
    assert re.search(r"node 'body' died with exit code [1-9]", out), out
    assert "parameter 'engine': must be one of genesis, mujoco" in out
    time.sleep(0.5)
    assert not [p for p in _pids(out) if _alive(p)], out
