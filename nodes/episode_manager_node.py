"""episode_manager: runs one episode per RunEpisode goal. It asks the scene generator to announce the
scene, records every topic into the episode's bag, follows the phases (window, frozen, execute, score) as
feedback, writes the episode folder, and returns the score. Time freezes in the body, not here."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from rclpy.action import ActionServer
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.executors import MultiThreadedExecutor
from rclpy.serialization import deserialize_message
from reacthuman_msgs.action import RunEpisode
from reacthuman_msgs.srv import GenerateScene

from reacthuman import graph
from reacthuman.evaluation.episode_files import EpisodeFolder
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.episode_recorder import EpisodeRecorder
from reacthuman.nodes.runtime import ContractNode, msg_type, positive, run

PHASE_BY_TOPIC = {graph.OBSERVATION: "frozen", graph.PLAN: "execute", graph.OUTCOME: "score"}


class EpisodeManagerNode(ContractNode):
    def __init__(self) -> None:
        self._seen: dict[str, object] = {}
        self._done = threading.Event()
        self.recorder = EpisodeRecorder()
        topics = graph.NODES["episode_manager"].subscribes
        super().__init__("episode_manager", {t: (lambda raw, t=t: self._on_raw(t, raw)) for t in topics}, raw=True)
        self.run_dir = Path(self.declare("run_dir", "runs/adhoc", "run folder: episodes/<model>/<scene_id>/ go here"))
        self.timeout_s = self.declare("episode_timeout_s", 900.0, "wall seconds one episode may take", positive)
        self.group = ReentrantCallbackGroup()
        self.generate = self.create_client(GenerateScene, graph.GENERATE_SCENE_SRV, callback_group=self.group)
        self.scene_id = ""
        ActionServer(self, RunEpisode, graph.RUN_EPISODE_ACTION, self._execute, callback_group=self.group)

    def _on_raw(self, topic: str, raw: bytes) -> None:
        msgtype = self.contract.subscribes[topic]
        self.recorder.write(topic, msgtype, raw)
        if topic in PHASE_BY_TOPIC or topic == graph.SCORE:
            self._on_topic(topic, deserialize_message(raw, msg_type(msgtype)))

    def _on_topic(self, topic: str, msg) -> None:
        if msg.scene_id != self.scene_id:
            return
        self._seen[topic] = msg
        if topic == graph.SCORE:
            self._done.set()

    def _execute(self, handle) -> RunEpisode.Result:
        goal, result, started = handle.request, RunEpisode.Result(), time.monotonic()
        folder = EpisodeFolder(self.run_dir, goal.model, goal.scene_id)
        self.scene_id, self._seen, phase = goal.scene_id, {}, "announce"
        self._done.clear()
        folder.begin()
        self.recorder.start(folder.bag_path)
        try:
            spec_json = self._announce(goal.scene_id)
            while not self._done.wait(0.2):
                latest = next((PHASE_BY_TOPIC[t] for t in reversed(PHASE_BY_TOPIC) if t in self._seen), "window")
                if latest != phase:
                    phase = latest
                    handle.publish_feedback(RunEpisode.Feedback(phase=phase, elapsed_s=time.monotonic() - started))
                if time.monotonic() - started > self.timeout_s:
                    raise TimeoutError(f"episode {goal.scene_id} exceeded {self.timeout_s:.0f} s in phase '{phase}'")
            self.recorder.stop()
            score = self._seen[graph.SCORE]
            obs, plan, outcome = (self._seen.get(t) for t in (graph.OBSERVATION, graph.PLAN, graph.OUTCOME))
            folder.finish(spec_json, conv.plan_msg_to_dict(plan) if plan else None, plan.raw_text if plan else "",
                          conv.observation_frames(obs) if obs else {},
                          conv.outcome_msg_to_dict(outcome) if outcome else None, json.loads(score.record_json or "{}"))
            result.ok, result.score = True, score
            handle.succeed()
        except Exception as exc:  # an infrastructure failure: reported to the caller, which retries
            self.recorder.abort()
            folder.discard()
            result.ok, result.error = False, f"{type(exc).__name__}: {exc}"
            self.get_logger().error(result.error)
            handle.abort()
        self.scene_id = ""
        return result

    def _announce(self, scene_id: str) -> str:
        if not self.generate.wait_for_service(timeout_sec=60.0):
            raise RuntimeError("the scene generator's service never appeared")
        response = self.generate.call(GenerateScene.Request(scene_id=scene_id))
        if not response.ok:
            raise RuntimeError(f"scene generator: {response.error}")
        return response.spec_json


def main(args: list[str] | None = None) -> int:
    return run(EpisodeManagerNode, args, executor_factory=lambda: MultiThreadedExecutor(num_threads=4))


if __name__ == "__main__":
    raise SystemExit(main())
