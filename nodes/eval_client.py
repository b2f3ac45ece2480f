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
from rclpy.node import Node
from reacthuman_msgs.action import RunEpisode

from reacthuman import graph


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

    def wait_ready(self, timeout_s: float, what: str) -> None:
        deadline = time.monotonic() + timeout_s
        while not self.client.server_is_ready():
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

    def run(self, scene_id: str, scenes_dir: str, model: str, accept_deadline: float, deadline: float,
            on_phase: Callable[[str], None] | None = None) -> tuple[bool, dict | None, str] | None:
        """(ok, score record, error) of one episode, None when the goal was rejected; raises TimeoutError or
        RuntimeError (the graph died)."""
        goal = RunEpisode.Goal(scene_id=scene_id, scenes_dir=scenes_dir, model=model)
        handle = self._wait(self.client.send_goal_async(
            goal, feedback_callback=(lambda fb: on_phase(fb.feedback.phase)) if on_phase else None), accept_deadline)
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
