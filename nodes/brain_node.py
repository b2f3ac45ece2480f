"""brain: the evaluated model (or a reference brain) turns an observation window into a reaction plan.

The model call runs in a worker thread so the node keeps spinning; simulated time is frozen meanwhile,
so however long the model takes never changes the outcome."""

from __future__ import annotations

import threading

from reacthuman_msgs.msg import ReactionPlan

from reacthuman import graph
from reacthuman.brain import DEFAULT_MODALITY, MODALITIES, make_brain
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.runtime import ContractNode, one_of, run


class BrainNode(ContractNode):
    def __init__(self) -> None:
        self._truth: dict[str, dict] = {}
        super().__init__("brain", {graph.OBSERVATION: self._on_observation, graph.GROUND_TRUTH: self._on_truth})
        self.model = self.declare("model", "local", "model preset, openai-compatible:<id>@<url>, or reference brain")
        self.modality = self.declare("modality", DEFAULT_MODALITY, "what an LLM brain is shown (a text-only model falls back to "
                                     "state_text, the privileged-state ablation)", one_of(*MODALITIES))
        self.seed = self.declare("seed", 0, "seed of the `random` reference brain")
        self.brain = make_brain(self.model, modality=self.modality, seed=self.seed)
        self._lock = threading.Lock()  # one decision at a time; observations arrive once per episode
        self.modality = getattr(self.brain, "modality", self.modality)
        self.get_logger().info(f"brain '{self.model}' ready ({self.modality})")

    def _on_truth(self, msg) -> None:
        self._truth[msg.scene_id] = conv.ground_truth_dict(msg)

    def _on_observation(self, msg) -> None:
        threading.Thread(target=self._decide, args=(msg,), daemon=True).start()

    def _decide(self, msg) -> None:
        with self._lock:
            obs = conv.observation_from_msg(msg, self._truth.get(msg.scene_id))
            decision = self.brain.plan(obs)
            plan = conv.decision_to_msg(decision, msg.scene_id, ReactionPlan())
            plan.header.stamp = msg.header.stamp
            self.pub[graph.PLAN].publish(plan)
            self.get_logger().info(f"{msg.scene_id}: plan published (parse_ok={decision.parse_ok}, "
                                   f"{decision.latency_s:.2f} s)")

    def destroy_node(self) -> None:
        self.brain.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    return run(BrainNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
