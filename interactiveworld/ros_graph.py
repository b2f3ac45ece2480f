"""The same closed loop as `episode.run_episode`, as four ROS 2 nodes talking over typed topics, plus a
rosbag2 recorder. The in-process path stays the default (faster); this one exists so the loop can be
observed, recorded and replaced piece by piece (a real person's speech, a remote model) on a ROS graph.
The nodes (`interactiveworld/nodes/`, one per file) are the suite's contract nodes (`reacthuman.nodes.runtime`);
their topics and types are `interactiveworld.ros_contract`'s contracts.

Each node is configured by ROS parameters (declared with descriptions, validated) and builds what it needs
from them: world `task`, `body`, `autostart`; human `task`, `human`; assistant `task`, `assistant`, `assistant_view`; recorder
`bag_path`; the judge has none. `task` is a task pack file (.json) or a task id of interactiveworld/tasks;
`human` and `assistant` take one entry of the suite's `--models` grammar. `run_ros_episode` composes them in one
process (parameter overrides); each also runs as a process of its own, its executable named in its contract
(`interactiveworld_world_node --ros-args -p task:=finding-moved-1`, a launch file's `exec`, or
`python -m interactiveworld.nodes.world_node ...`), a refused parameter ending it with one line and
status 2.
"""

from __future__ import annotations

import time
from pathlib import Path

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter

from interactiveworld.ros_contract import COMMANDS, EYE, REPORT, SPEECH, STATE
from interactiveworld.nodes.assistant_node import AssistantNode
from interactiveworld.nodes.human_node import HumanNode
from interactiveworld.nodes.judge_node import JudgeNode
from interactiveworld.nodes.recorder_node import RecorderNode
from interactiveworld.nodes.world_node import WorldNode
from reacthuman.nodes.runtime import ContractNode


def _overrides(**values) -> list[Parameter]:
    return [Parameter(name, value=value) for name, value in values.items()]


def run_ros_episode(
    task: str | Path,
    assistant="oracle",
    human="scripted",
    bag_path: Path | None = None,
    timeout_s: float = 300.0,
    body: str = "capsule",
    assistant_view: str = "frames",
) -> dict:
    """One episode through the node graph, its nodes composed in this process and configured by their ROS
    parameters; returns the judge's verdict (raises TimeoutError if none, ValueError for a refused parameter).
    task: a task pack file or a task id (the nodes' `task`). assistant, human: an entry of the `--models` grammar
    (the nodes' parameters), or an agent object the node takes instead (the caller keeps and closes it).
    assistant_view: the assistant node's `assistant_view` (`none` withholds a model assistant's frames)."""
    own_init = not rclpy.ok()
    if own_init:
        rclpy.init()
    nodes = []
    try:
        nodes.append(WorldNode(parameter_overrides=_overrides(task=str(task), body=body, autostart=False)))
        specs = {
            "assistant": assistant if isinstance(assistant, str) else "oracle",
            "human": human if isinstance(human, str) else "scripted",
        }  # an object: the default, unused
        nodes.append(
            HumanNode(
                None if isinstance(human, str) else human,
                parameter_overrides=_overrides(task=str(task), human=specs["human"]),
            )
        )
        nodes.append(
            AssistantNode(
                None if isinstance(assistant, str) else assistant,
                parameter_overrides=_overrides(
                    task=str(task), assistant=specs["assistant"], assistant_view=assistant_view
                ),
            )
        )
        nodes.append(JudgeNode())
        if bag_path is not None:
            nodes.append(RecorderNode(parameter_overrides=_overrides(bag_path=str(bag_path))))
        return _spin_episode(nodes, timeout_s)
    finally:
        for n in nodes:
            n.destroy_node()
        if own_init:
            rclpy.shutdown()


def _spin_episode(nodes: list[ContractNode], timeout_s: float) -> dict:
    world, human, _assistant, judge = nodes[:4]
    ex = SingleThreadedExecutor()
    for n in nodes:
        ex.add_node(n)
    try:
        deadline = time.monotonic() + timeout_s
        # let discovery match every endpoint before the first message (reliable QoS keeps the rest)
        while not (
            world.count_subscribers(REPORT)
            and world.count_subscribers(EYE)
            and world.count_publishers(COMMANDS)
            and judge.count_publishers(STATE)
            and human.count_publishers(SPEECH) >= 2
        ):
            if time.monotonic() > deadline:
                raise TimeoutError("the node graph did not connect")
            ex.spin_once(timeout_sec=0.05)
        world.start()
        while judge.verdict is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"task {world.pack.task_id}: no verdict within {timeout_s:.0f} s")
            ex.spin_once(timeout_sec=0.1)
        for _ in range(20):  # let the recorder take the verdict
            ex.spin_once(timeout_sec=0.02)
        return judge.verdict
    finally:
        for n in nodes:
            ex.remove_node(n)
