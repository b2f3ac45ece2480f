"""brain: the evaluated model (or a reference brain) turns an observation window into a reaction plan.

The model call runs in a worker thread so the node keeps spinning; simulated time is frozen meanwhile,
so however long the model takes never changes the outcome. In the closed loop (`--loop closed`) every re-plan's
observation comes the same way, with its decision index, the robot's pose and velocity and the brain's previous
plan (conversions.observation_from_msg): the brain is called exactly as the in-process loop calls it, and its
plan carries the decision index it answers."""

from __future__ import annotations

import os
import threading
import time
import traceback

from reacthuman_msgs.msg import ReactionPlan

from reacthuman import ros_contract as graph
from reacthuman.brain import DEFAULT_MODALITY, MODALITIES, make_brain
from reacthuman.scoring.replay import ReplayBrain
from reacthuman.llm.vision import IMAGES_REFUSED_FAULT, ImageInputRefused
from reacthuman.evaluation.memory_log import release_memory, tune_allocator
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.runtime import FAULT_EXIT_DELAY_S, ContractNode, one_of, positive, run


BRAIN_CRASHED_EXIT = 70


class BrainNode(ContractNode):
    def __init__(self) -> None:
        self._truth: dict[str, dict] = {}
        self._truth_arrived = threading.Condition()
        self.brain = None  # rclpy destroys a node refused half way: destroy_node must not need the brain
        super().__init__("brain", {graph.OBSERVATION: self._on_observation, graph.GROUND_TRUTH: self._on_truth})
        self.model = self.declare("model", "local", "model preset, openai-compatible:<id>@<url>, or reference brain")
        self.modality = self.declare(
            "modality",
            DEFAULT_MODALITY,
            "what an LLM brain is shown (a text-only model falls back to state_text, the privileged-state ablation)",
            one_of(*MODALITIES),
        )
        self.seed = self.declare("seed", 0, "seed of the `random` reference brain")
        # The ground truth is latched at the announcement, seconds before the window ends; a loaded machine
        # can still deliver it after the observation.
        self.truth_wait_s = self.declare(
            "truth_wait_s",
            60.0,
            "wall seconds a brain that reads the ground truth (the oracle) waits for it after the observation",
            positive,
        )
        self.model_options = self.declare(
            "model_options",
            "",
            "the model's options (vision=true&max_tokens=...; "
            "reacthuman.core.presets.MODEL_OPTIONS), without the leading '?'",
        )
        self.plans = self.declare(
            "plans",
            "",
            "a decide run folder: publish the plans it stored for this model "
            "(`reacthuman eval --plans`) instead of asking the model",
        )
        entry = f"{self.model}?{self.model_options}" if self.model_options else self.model
        self.brain = (
            ReplayBrain(self.plans, self.model)
            if self.plans
            else make_brain(entry, modality=self.modality, seed=self.seed)
        )
        self._lock = threading.Lock()  # one decision at a time; observations arrive once per episode
        tune_allocator()  # the 10 MB observation per episode gets its own mapping: see memory_log
        self.modality = getattr(self.brain, "modality", self.modality)
        note = getattr(self.brain, "modality_note", "")
        self.get_logger().info(f"brain '{self.model}' ready ({self.modality}{': ' + note if note else ''})")

    def _on_truth(self, msg) -> None:
        release_memory()  # a new episode: the last one's observation has been freed (once per episode)
        with self._truth_arrived:
            self._truth[msg.scene_id] = conv.ground_truth_dict(msg)
            self._truth_arrived.notify_all()

    def _truth_for(self, scene_id: str) -> dict | None:
        with self._truth_arrived:
            if self.brain.needs_ground_truth and not self._truth_arrived.wait_for(
                lambda: scene_id in self._truth, timeout=self.truth_wait_s
            ):
                raise RuntimeError(
                    f"no ground truth for {scene_id} within {self.truth_wait_s:.0f} s (brain '{self.model}' reads it)"
                )
            return self._truth.get(scene_id)

    def _on_observation(self, msg) -> None:
        threading.Thread(target=self._decide, args=(msg,), daemon=True).start()

    def _decide(self, msg) -> None:
        """A brain that raises must not leave the body frozen until its plan timeout, nor be scored as a
        model that sent nothing: it tells the episode manager why (the episode fails at once), then the node
        dies, and the eval retries the episode on a restarted graph. A server that turns images away is not
        retried: its fault carries the one-line refusal (IMAGES_REFUSED_FAULT), on which the eval stops the model."""
        try:
            self._decide_once(msg)
        except ImageInputRefused as exc:  # a model declared to take images that does not: the eval stops it
            self.get_logger().fatal(f"{msg.scene_id}: {exc}")
            self.report_fault(msg.scene_id, f"{IMAGES_REFUSED_FAULT}{exc}")
            time.sleep(FAULT_EXIT_DELAY_S)
            os._exit(BRAIN_CRASHED_EXIT)
        except Exception as exc:
            self.get_logger().fatal(f"{msg.scene_id}: the brain crashed:\n{traceback.format_exc()}")
            self.report_fault(msg.scene_id, f"crashed: {type(exc).__name__}: {exc}")
            time.sleep(FAULT_EXIT_DELAY_S)
            os._exit(BRAIN_CRASHED_EXIT)

    def _decide_once(self, msg) -> None:
        with self._lock:
            obs = conv.observation_from_msg(msg, self._truth_for(msg.scene_id))
            decision = self.brain.plan(obs)
            plan = conv.decision_to_msg(decision, msg.scene_id, ReactionPlan())
            plan.header.stamp, plan.decision_index = msg.header.stamp, msg.decision_index
            self.pub[graph.PLAN].publish(plan)
            self.get_logger().info(
                f"{msg.scene_id}: plan published (parse_ok={decision.parse_ok}, {decision.latency_s:.2f} s)"
            )

    def destroy_node(self) -> None:
        if self.brain is not None:
            self.brain.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    return run(BrainNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
