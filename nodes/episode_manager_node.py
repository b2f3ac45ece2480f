"""episode_manager: runs one episode per RunEpisode goal. It asks the scene generator to announce the
scene, records every topic into the episode's bag, follows the phases (window, frozen, execute, score) as
feedback, writes the episode folder, and returns the score. Time freezes in the body, not here.

A goal names the scenes folder and the model it means; one that is not this graph's (the manager's
`scenes_dir` and `model` parameters, which the launch file sets to the scene generator's and the brain's)
fails at once with the reason in its result (reacthuman.evaluation.episode_goal).

The score ends the episode, but the other topics of the same episode reach this node on their own DDS
readers and may still be in flight: the bag is closed (and the goal succeeds) only once it holds everything
the episode produced (reacthuman.recording.completeness); otherwise the goal aborts and the caller retries.
A shutdown (SIGTERM, or the launcher's death) aborts a running episode at once, and so does a node that gives up
on the episode (graph.EPISODE_FAULT: the body refusing the scene or losing the lockstep, the spine's controller
raising, the brain crashing, the scorer failing): the goal aborts with that node's reason within seconds."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import rclpy
from rclpy.action import ActionServer
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.executors import MultiThreadedExecutor
from rclpy.serialization import deserialize_message
from reacthuman_msgs.action import RunEpisode
from reacthuman_msgs.srv import GenerateScene

from reacthuman import ros_contract as graph
from reacthuman.recording.episode_files import EpisodeFolder
from reacthuman.evaluation.episode_goal import GoalScope
from reacthuman.evaluation.memory_log import (
    ARENA_MAX,
    MMAP_THRESHOLD_KIB,
    AllocationTracer,
    heap_stats,
    release_memory,
    tune_allocator,
)
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.episode_recorder import EpisodeRecorder
from reacthuman.nodes.runtime import ContractNode, msg_type, one_of, positive, recorder_qos, run
from reacthuman.recording.completeness import EpisodeEnd
from reacthuman.scenes.spec import SceneSpec

# The scene generator answers a scene of its folder from the file, in milliseconds. Past announce_timeout_s the
# request or its answer is taken as lost (a service on the events executor, or an answer sent before the client's
# reader matched): the episode fails as an infrastructure error, which the eval retries on a restarted graph,
# instead of hanging the graph. Not re-sent: a request that did arrive has announced the scene already.
ANNOUNCE_TIMEOUT_S = 120.0


class EpisodeManagerNode(ContractNode):
    def __init__(self) -> None:
        self._seen: dict[str, object] = {}
        self._done = threading.Event()
        self._fault: graph.EpisodeFault | None = None  # a node gave up on the episode in flight
        topics = graph.NODES["episode_manager"].subscribes
        super().__init__(
            "episode_manager", {t: (lambda raw, t=t: self._on_raw(t, raw)) for t in topics}, raw=True, qos=recorder_qos
        )
        self.run_dir = Path(self.declare("run_dir", "runs/adhoc", "run folder: episodes/<model>/<scene_id>/ go here"))
        self.scope = GoalScope(
            scenes_dir=self.declare("scenes_dir", "", "the scene generator's scenes folder: a goal for another fails"),
            model=self.declare("model", "", "the brain's model: a goal for another fails"),
        )
        self.loop = self.declare(
            "loop", "open", "closed: the bag also waits for the hazard's recorded path", one_of("open", "closed")
        )
        self.timeout_s = self.declare("episode_timeout_s", 900.0, "wall seconds one episode may take", positive)
        self.announce_timeout_s = self.declare(
            "announce_timeout_s",
            ANNOUNCE_TIMEOUT_S,
            "wall seconds to wait for the scene generator's answer before the episode fails",
            positive,
        )
        self.complete_timeout_s = self.declare(
            "bag_complete_timeout_s",
            60.0,
            "wall seconds after the score for the rest of the episode to reach the bag",
            positive,
        )
        cameras = self.declare(
            "record_camera_topics",
            False,
            "also record /camera/<view>/image_raw (the same frames are in the observation)",
        )
        self.keep_bags = self.declare(
            "keep_bags", "all", "all, or failures: drop the bag of a safe, correct episode", one_of("all", "failures")
        )
        self.trim_memory = self.declare(
            "trim_memory",
            True,
            "return freed memory to the OS after each episode "
            "(malloc_trim): without it resident memory climbs with the arenas' high-water marks",
        )
        tune_allocator(
            self.declare(
                "malloc_mmap_threshold_kib",
                MMAP_THRESHOLD_KIB,
                "allocations this large get their own mapping, "
                "returned to the OS when freed (fixed: glibc's adaptive threshold climbs)",
                positive,
            ),
            self.declare(
                "malloc_arena_max", ARENA_MAX, "glibc malloc arenas at most (one per thread by default)", positive
            ),
        )
        trace = self.declare(
            "trace_memory",
            False,
            "trace allocations (tracemalloc) and log, after each episode, resident "
            "and traced memory and the sites that grew to RUN_DIR/logs/episode_manager_memory.jsonl",
        )
        self.tracer = AllocationTracer(self.run_dir / "logs" / "episode_manager_memory.jsonl") if trace else None
        skip = frozenset() if cameras else frozenset(graph.image_topic(v) for v in graph.VIEWS)
        self.recorder = EpisodeRecorder(skip_topics=skip)
        self.group = ReentrantCallbackGroup()
        self.generate = self.create_client(GenerateScene, graph.GENERATE_SCENE_SRV, callback_group=self.group)
        self.scene_id = ""
        # A Python executor with threads, not the events executor (runtime.default_executor): the action callback
        # blocks for a whole episode while other threads record, and with the events executor a goal sent as soon
        # as the server was discovered went unanswered on a loaded machine (CI, 2026-12-02).
        ActionServer(self, RunEpisode, graph.RUN_EPISODE_ACTION, self._execute, callback_group=self.group)

    def _on_raw(self, topic: str, raw: bytes) -> None:
        msgtype = self.contract.subscribes[topic]
        self.recorder.write(topic, msgtype, raw)
        if topic in graph.EPISODE_PHASE_BY_TOPIC or topic == graph.SCORE:
            self._on_topic(topic, deserialize_message(raw, msg_type(msgtype)))
        elif topic == graph.EPISODE_FAULT:
            try:
                fault = graph.EpisodeFault.from_json(deserialize_message(raw, msg_type(msgtype)).data)
            except ValueError as exc:
                self.get_logger().error(str(exc))
                return
            if fault.scene_id == self.scene_id:
                self._fault = fault
                self._done.set()

    def _on_topic(self, topic: str, msg) -> None:
        if msg.scene_id != self.scene_id:
            return
        if self.loop == "closed" and topic in (graph.OBSERVATION, graph.PLAN) and topic in self._seen:
            return  # the episode folder keeps the first decision's (the row's); the bag holds every re-plan
        self._seen[topic] = msg
        if topic == graph.SCORE:
            self._done.set()

    def _execute(self, handle) -> RunEpisode.Result:
        goal, result, started = handle.request, RunEpisode.Result(), time.monotonic()
        refusal = self.scope.refusal(goal.scene_id, goal.scenes_dir, goal.model)
        if refusal:  # before anything is announced or written: this graph cannot run that episode
            result.ok, result.error = False, f"goal refused: {refusal}"
            self.get_logger().error(result.error)
            handle.abort()
            return result
        folder = EpisodeFolder(self.run_dir, goal.model, goal.scene_id)
        self.scene_id, self._seen, self._fault, phase = goal.scene_id, {}, None, "announce"
        self._done.clear()
        folder.begin()
        self.recorder.start(folder.bag_path)
        try:
            spec_json = self._announce(goal.scene_id)
            while not self._done.wait(0.2):
                self._check_running()
                phases = graph.EPISODE_PHASE_BY_TOPIC
                latest = next((phases[t] for t in reversed(phases) if t in self._seen), "window")
                if latest != phase:
                    phase = latest
                    handle.publish_feedback(RunEpisode.Feedback(phase=phase, elapsed_s=time.monotonic() - started))
                if time.monotonic() - started > self.timeout_s:
                    raise TimeoutError(f"episode {goal.scene_id} exceeded {self.timeout_s:.0f} s in phase '{phase}'")
            self._check_running()
            self._await_complete_bag(goal.scene_id, len(set(SceneSpec.from_json(spec_json).hazard_bodies)))
            self.recorder.stop()
            score = self._seen[graph.SCORE]
            row = json.loads(score.record_json or "{}")
            if self.keep_bags == "failures" and row.get("safe") and row.get("saa"):
                folder.drop_bag("kept only for failures (keep_bags=failures): this episode was safe and correct")
            obs, plan, outcome = (self._seen.get(t) for t in (graph.OBSERVATION, graph.PLAN, graph.OUTCOME))
            folder.finish(
                spec_json,
                conv.plan_msg_to_dict(plan) if plan else None,
                plan.raw_text if plan else "",
                conv.observation_frames(obs) if obs and folder.keeps_frames else {},
                conv.outcome_msg_to_dict(outcome) if outcome else None,
                row,
            )
            result.ok, result.score = True, score
            handle.succeed()
        except Exception as exc:  # an infrastructure failure: reported to the caller, which retries
            self.recorder.abort()
            folder.discard()
            result.ok, result.error = False, f"{type(exc).__name__}: {exc}"
            self.get_logger().error(result.error)
            handle.abort()
        self.scene_id = ""
        self._after_episode(goal.scene_id)
        return result

    def _after_episode(self, scene_id: str) -> None:
        """Drop the episode's messages (the observation alone is about 10 MB) and give the memory back."""
        self._seen = {}
        heap = heap_stats() if self.tracer is not None else {}
        if self.trim_memory:
            release_memory()
        if self.tracer is not None:
            self.tracer.after_episode(scene_id, heap, heap_stats() if self.trim_memory else None)

    def _check_running(self) -> None:
        if not rclpy.ok(context=self.context):
            raise RuntimeError("shutting down")
        if self._fault is not None:
            raise RuntimeError(str(self._fault))

    def _episode_end(self, hazard_count: int) -> EpisodeEnd | None:
        obs, outcome = self._seen.get(graph.OBSERVATION), self._seen.get(graph.OUTCOME)
        if obs is None or outcome is None:
            return None
        return EpisodeEnd(
            outcome_stamp_ns=conv.stamp_ns(outcome.header.stamp),
            plan_expected=outcome.plan_received or outcome.plan_late,
            controller_fault=outcome.controller_fault,
            frames_per_view={v.view_name: len(v.frames) for v in obs.views},
            hazard_count=hazard_count,
            path_expected=self.loop == "closed",
        )

    def _await_complete_bag(self, scene_id: str, hazard_count: int) -> None:
        """Hold the bag open until it holds every message of the episode (see the module docstring)."""
        deadline = time.monotonic() + self.complete_timeout_s
        while lacks := self.recorder.missing(self._episode_end(hazard_count)):
            self._check_running()
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"episode {scene_id}: the bag still lacks {'; '.join(lacks)} "
                    f"{self.complete_timeout_s:.0f} s after the score"
                )
            time.sleep(0.05)

    def _announce(self, scene_id: str) -> str:
        if not self.generate.wait_for_service(timeout_sec=60.0):
            raise RuntimeError("the scene generator's service never appeared")
        try:
            response = self.generate.call(GenerateScene.Request(scene_id=scene_id), timeout_sec=self.announce_timeout_s)
        except TimeoutError:
            raise RuntimeError(
                f"the scene generator did not answer for {scene_id} within {self.announce_timeout_s:g} s"
            ) from None
        if not response.ok:
            raise RuntimeError(f"scene generator: {response.error}")
        return response.spec_json


def main(args: list[str] | None = None) -> int:
    return run(EpisodeManagerNode, args, executor_factory=lambda: MultiThreadedExecutor(num_threads=4))


if __name__ == "__main__":
    raise SystemExit(main())
