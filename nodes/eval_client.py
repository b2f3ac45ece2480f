"""The evaluation's ROS 2 side: an action client (its own rclpy context and domain) that sends RunEpisode
goals to a running graph and waits for their results. `reacthuman.evaluation.graph_worker` (ROS-free) starts
the graph and owns the timeouts; it creates this client only once a graph is up, so the core library
imports without rclpy."""

from __future__ import annotations

import json
import time
from typing import Callable

import rclpy
from rclpy.action import ActionClient
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node, NodeNameNonExistentError
from reacthuman_msgs.action import RunEpisode

from reacthuman import ros_contract as graph


class EpisodeClient:
    """One rclpy context on `domain_id` with a RunEpisode action client. `check_alive` raises when the graph
    process has died; it is called while waiting so a dead graph is reported at once."""

    def __init__(self, domain_id: int, check_alive: Callable[[], None]) -> None:
        self.check_alive = check_alive
        self.context = rclpy.Context()
        rclpy.init(context=self.context, domain_id=domain_id)
        self.node = Node(f"eval_client_{domain_id}", context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.client = ActionClient(self.node, RunEpisode, graph.RUN_EPISODE_ACTION)

    def spin(self, timeout_s: float) -> None:
        self.executor.spin_once(timeout_sec=timeout_s)

    def other_nodes(self, wait_s: float) -> list[str]:
        """Nodes of other processes seen on this domain after discovering for `wait_s`."""
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            self.spin(0.1)
        return [n for n in self.node.get_node_names() if n != self.node.get_name()]

    def scene_readers(self) -> int:
        """Subscriptions to the scene announcement: the graph's nodes that follow episodes (a respawned body
        is back once it counts again)."""
        return self.node.count_subscribers(graph.SCENE)

    def follows_scenes(self, node_name: str) -> bool:
        """Whether `node_name` has subscribed to the scene announcement."""
        try:
            topics = self.node.get_subscriber_names_and_types_by_node(node_name, "/")
        except NodeNameNonExistentError:
            return False
        return any(topic == graph.SCENE for topic, _ in topics)

    def wait_ready(self, timeout_s: float, what: str, followers: tuple[str, ...] = ()) -> None:
        """Until the RunEpisode server is up and every node in `followers` subscribes to the scene announcement:
        the body takes an announcement stamped before it started for its predecessor's (a respawned body), so
        one that starts slower than the episode manager would skip the first scene and hold the episode."""
        deadline = time.monotonic() + timeout_s
        while not (self.client.server_is_ready() and all(self.follows_scenes(n) for n in followers)):
            self.check_alive()
            if time.monotonic() > deadline:
                raise TimeoutError(f"the graph did not come up within {timeout_s:.0f} s ({what})")
            self.executor.spin_once(timeout_sec=0.2)

    def _wait(self, future, deadline: float) -> object:
        started = time.monotonic()
        while not future.done():
            self.check_alive()
            if time.monotonic() > deadline:
                raise TimeoutError(f"no answer from the graph within {time.monotonic() - started:.0f} s")
            self.executor.spin_once(timeout_sec=0.1)
        return future.result()

    def run(
        self,
        scene_id: str,
        scenes_dir: str,
        model: str,
        accept_deadline: float,
        deadline: float,
        on_phase: Callable[[str], None] | None = None,
    ) -> tuple[bool, dict | None, str] | None:
        """(ok, score record, error) of one episode, None when the goal was rejected; raises TimeoutError or
        RuntimeError (the graph died). `scenes_dir` and `model` must be those the graph was launched with:
        the episode manager fails any other goal at once, saying why in `error`."""
        goal = RunEpisode.Goal(scene_id=scene_id, scenes_dir=scenes_dir, model=model)
        handle = self._wait(
            self.client.send_goal_async(
                goal, feedback_callback=(lambda fb: on_phase(fb.feedback.phase)) if on_phase else None
            ),
            accept_deadline,
        )
        if not handle.accepted:
            return None
        result = self._wait(handle.get_result_async(), deadline).result
        if not result.ok:
            return False, None, result.error
        return True, json.loads(result.score.record_json), ""

    def close(self) -> None:
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.shutdown(context=self.context)
