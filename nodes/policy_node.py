"""policy: a VLA-style policy in the graph (reacthuman.policy.graph_contract). At every policy tick it takes
the frames the body rendered for it and the robot's state of the same stamp, asks the policy for an action
(reacthuman.evaluation.policy_episode.PolicyStepper, as the in-process episode does) and sends it to the spine; when the
body's outcome arrives it publishes the plan the body executed, which the scorer scores.

The policy's compute runs in a worker thread so the node keeps spinning; the spine waits for each command
before it answers the ticks after it, so however long the policy takes never changes the episode (its
latency is charged as the configured reaction delay, or as measured with `latency: measured`)."""

from __future__ import annotations

import os
import queue
import threading
import time
import traceback

from reacthuman_msgs.msg import ReactionPlan

from reacthuman import ros_contract as graph
from reacthuman.spine.spine import default_config as spine_config
from reacthuman.spine.g1_assets import G1_JOINT_NAMES
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.runtime import FAULT_EXIT_DELAY_S, ContractNode, positive, run
from reacthuman.evaluation.policy_episode import MODALITY, PolicyStepper, policy_decision
from reacthuman.policy.graph_contract import (
    POLICY_COMMAND,
    POLICY_NODE,
    parse_views,
    policy_image_topic,
    views_text,
)
from reacthuman.policy.loading import load_policy
from reacthuman.policy.schedule import PolicySchedule, policy_schedule
from reacthuman.scenes.spec import SceneSpec

POLICY_CRASHED_EXIT = 70


class PolicyNode(ContractNode):
    def __init__(self) -> None:
        self.policy = None  # rclpy destroys a node refused half way: destroy_node must not need the policy
        self._inbox: dict[int, dict[str, object]] = {}  # stamp ns -> this tick's messages so far
        self._work: queue.Queue = queue.Queue()
        self.scene_id, self.schedule, self.stepper = "", None, None  # the callbacks' scene
        self._scene, self._schedule = "", None  # the worker's scene (it follows the callbacks' in order)
        self._lock = threading.Lock()
        callbacks = {
            graph.SCENE: self._on_scene,
            graph.JOINT_STATES: self._keep("joints"),
            graph.BASE_STATE: self._keep("base"),
            graph.HAND_POSITIONS: self._keep("hands"),
            graph.OUTCOME: lambda m: self._work.put(("outcome", m)),
        }
        callbacks |= {policy_image_topic(v): self._keep(v) for v in graph.VIEWS}
        super().__init__(POLICY_NODE, callbacks)
        self.model = self.declare("model", "image_servo", "registered policy or policy:<module>:<Class>")
        policy_hz = self.declare(
            "policy_hz", 10.0, "the graph's policy rate (the body and spine tick with it)", positive
        )
        views = parse_views(self.declare("policy_views", "egocentric", "the views the body renders for the policy"))
        self.decimation = self.declare(
            "control_decimation",
            spine_config().policy_decimation,
            "physics steps per control tick (must match the spine's policy_decimation)",
        )
        self.policy = load_policy(self.model)
        config = self.policy.config
        if config.policy_hz != policy_hz or config.views != views:
            raise ValueError(
                f"policy {self.model!r} ticks at {config.policy_hz:g} Hz on {views_text(config.views)}, "
                f"the graph at {policy_hz:g} Hz on {views_text(views)} (launch it with "
                f"policy_hz:={config.policy_hz:g} policy_views:={views_text(config.views)})"
            )
        self.views = views
        threading.Thread(target=self._worker, daemon=True).start()
        self.get_logger().info(f"policy '{self.model}' ready ({config.policy_hz:g} Hz, {views_text(views)})")

    def _on_scene(self, msg) -> None:
        spec = SceneSpec.from_json(msg.spec_json)
        schedule = policy_schedule(spec.t0_s, spec.dt_s, self.decimation, self.policy.config.policy_hz)
        with self._lock:  # before any state of the scene: the body loads it once announced
            self.scene_id, self.schedule, self._inbox = msg.scene_id, schedule, {}
        self._work.put(("scene", (msg.scene_id, schedule)))

    def _keep(self, part: str):
        def on(msg) -> None:
            with self._lock:
                schedule = self.schedule
                if schedule is None:
                    return
                ns = conv.stamp_ns(msg.header.stamp)
                if not schedule.is_tick(round(ns * 1e-9 / schedule.dt_s)):
                    return
                tick = self._inbox.setdefault(ns, {})
                tick[part] = msg
                if all(k in tick for k in ("joints", "base", "hands", *self.views)):
                    self._work.put(("tick", (self.scene_id, ns, self._inbox.pop(ns))))

        return on

    def _worker(self) -> None:
        """Scenes, ticks and outcomes in the order they came: a policy that raises ends the episode at once
        (the episode manager fails it, the eval retries on a restarted graph), then the node dies."""
        while True:
            kind, item = self._work.get()
            try:
                if kind == "scene":
                    self._start(*item)
                elif kind == "tick" and self.stepper is not None and item[0] == self._scene:
                    self._act(*item[1:])
                elif kind == "outcome" and item.scene_id == self._scene and self.stepper is not None:
                    self._finish(item)
            except Exception as exc:  # noqa: BLE001 (a policy that raises ends the episode, said at once)
                self.get_logger().fatal(f"{self._scene}: the policy crashed:\n{traceback.format_exc()}")
                self.report_fault(self._scene, f"crashed: {type(exc).__name__}: {exc}")
                time.sleep(FAULT_EXIT_DELAY_S)
                os._exit(POLICY_CRASHED_EXIT)

    def _start(self, scene_id: str, schedule: PolicySchedule) -> None:
        self.policy.reset()
        self._scene, self._schedule = scene_id, schedule
        self.stepper = PolicyStepper(self.policy)

    def _act(self, stamp_ns: int, tick: dict) -> None:
        joints, base, hands = tick["joints"], tick["base"], tick["hands"]
        state = conv.robot_state_from_msgs(joints, base, G1_JOINT_NAMES)
        step = round(stamp_ns * 1e-9 / self._schedule.dt_s)
        images = {v: conv.image_to_array(tick[v]) for v in self.views}
        action, delay_s = self.stepper.tick(
            self._schedule.t_s(step),
            state,
            conv.xyz(base.pose.position),
            (conv.xyz(hands.left), conv.xyz(hands.right)),
            images,
        )
        msg = conv.plan_to_msg(self.stepper.plan(action), ReactionPlan())
        msg.header.stamp = joints.header.stamp
        msg.scene_id, msg.model, msg.modality, msg.parse_ok = self._scene, self.policy.name, MODALITY, True
        msg.raw_text = self.stepper.command_text(action)  # the bag's record of this tick (rescore replays it)
        msg.latency_s = float(delay_s)
        self.pub[POLICY_COMMAND].publish(msg)

    def _finish(self, outcome) -> None:
        decision = policy_decision(self.policy, self.stepper.trace)
        plan = conv.decision_to_msg(decision, self._scene, ReactionPlan())
        plan.header.stamp = outcome.header.stamp
        self.pub[graph.PLAN].publish(plan)
        self.get_logger().info(f"{self._scene}: executed plan published ({len(self.stepper.trace.actions)} actions)")
        self.stepper = None

    def destroy_node(self) -> None:
        if self.policy is not None:
            self.policy.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    return run(PolicyNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
