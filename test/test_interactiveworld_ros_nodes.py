"""InteractiveWorld's nodes configured by their ROS parameters, each one a process of its own as a user starts
it: a refused parameter ends the node in one line with status 2, and a world node started alone plays its
episode with the other nodes, the verdict equal to the in-process path's."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest

from interactiveworld.actions.entities import Catalog
from interactiveworld.agents.assistants import make_assistant
from interactiveworld.agents.scripted_human import ScriptedHuman
from interactiveworld.bench.taskpack import default_tasks_dir, load_pack
from interactiveworld.episode import Episode, run_episode
from interactiveworld.ros_contract import ASSISTANT, HUMAN, JUDGE_NODE, RECORDER, WORLD
from interactiveworld.world.cache import build_world
from reacthuman.launching.launch_file import NodeSpec
from reacthuman.launching.launcher import node_command

CONTRACTS = {"world": WORLD, "human": HUMAN, "assistant": ASSISTANT, "judge": JUDGE_NODE, "recorder": RECORDER}


def _node(name: str, *params: str) -> subprocess.Popen:
    """The node's installed executable (its contract's, `interactiveworld_NAME_node`), started as a launch file
    starts it, with `-p` parameters, in this process's ROS domain."""
    contract = CONTRACTS[name]
    spec = NodeSpec(
        "reacthuman", contract.executable, contract.name, params=tuple(tuple(p.split(":=", 1)) for p in params)
    )
    return subprocess.Popen(node_command(spec), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.mark.parametrize(
    "node, params, named",
    [
        ("world", ("task:=/nonexistent/finding-moved-1.json",), "parameter 'task'"),
        ("assistant", ("task:=finding-moved-1", "assistant:=nosuch"), "parameter 'assistant'"),
    ],
)
def test_a_refused_parameter_ends_the_node_in_one_line(node, params, named):
    proc = _node(node, *params)
    out = proc.communicate(timeout=60)[0]
    assert proc.returncode == 2, out
    assert "Traceback" not in out, out
    assert out.strip().count("\n") == 0, out
    assert named in out, out


def test_the_human_nodes_own_catalogue_equals_the_worlds():
    """The human node names things from a catalogue of its own (a bare capsule world of the scene): the same
    entities and aliases as the world node's rendered world, with either body."""
    pack = load_pack(default_tasks_dir() / "prevention-store-0.json")
    own = Catalog(build_world(pack.scene))
    for body in ("capsule", "cmu"):
        world = Episode(pack, body=body).catalog
        assert own.entities == world.entities
        assert own._aliases == world._aliases


def test_a_world_node_started_alone_plays_the_episode_with_the_others():
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter

    from interactiveworld.nodes.assistant_node import AssistantNode
    from interactiveworld.nodes.human_node import HumanNode
    from interactiveworld.nodes.judge_node import JudgeNode

    task = "finding-moved-1"
    world = _node("world", f"task:={task}")
    rclpy.init()
    ex, nodes = SingleThreadedExecutor(), []
    try:
        assistant = [Parameter("task", value=task), Parameter("assistant", value="oracle")]
        nodes = [
            HumanNode(parameter_overrides=[Parameter("task", value=task)]),
            AssistantNode(parameter_overrides=assistant),
            JudgeNode(),
        ]
        for n in nodes:
            ex.add_node(n)
        deadline = time.monotonic() + 120
        while nodes[2].verdict is None and world.poll() is None and time.monotonic() < deadline:
            ex.spin_once(timeout_sec=0.1)
        verdict = nodes[2].verdict
    finally:
        for n in nodes:
            ex.remove_node(n)
            n.destroy_node()
        rclpy.shutdown()
        world.send_signal(signal.SIGINT)
        out = world.communicate(timeout=30)[0]
    assert verdict is not None, out
    pack = load_pack(default_tasks_dir() / f"{task}.json")
    ref = run_episode(pack, make_assistant("oracle", pack), ScriptedHuman())
    assert verdict["passed"]
    assert verdict["digest"] == ref.digest
    assert verdict["n_actions"] == ref.n_actions
    assert world.returncode == 0, out
