"""The world node: owns the simulator (opening, the human's commands, frames, reports, the final state)."""

from __future__ import annotations

import json
import time

import rclpy
from rclpy.parameter import Parameter
from sensor_msgs.msg import Image
from std_msgs.msg import String

from interactiveworld.episode import Episode, _human_report, _with_notices, visible_names
from interactiveworld.ros_contract import ASSISTANT, COMMANDS, EYE, HUMAN, JUDGE_NODE, REPORT, SPEECH, STATE, WORLD
from interactiveworld.nodes.common import declare_task, json_msg, loop_qos
from interactiveworld.world.predicates import evaluate
from interactiveworld.world.sim import BODIES
from reacthuman.nodes.runtime import ContractNode, one_of, run


class WorldNode(ContractNode):
    """Owns the simulator: runs the opening, executes the human's commands, publishes frames and reports."""

    def __init__(self, *, parameter_overrides: list[Parameter] | None = None) -> None:
        self.ep: Episode | None = None  # destroy_node may run on a node refused half way
        super().__init__(WORLD, {COMMANDS: self._on_commands}, qos=loop_qos, parameter_overrides=parameter_overrides)
        self.pack = declare_task(self)
        body = self.declare(
            "body", "capsule", "the human's body: primitives capsules or dm_control's CMU humanoid", one_of(*BODIES)
        )
        autostart = self.declare(
            "autostart",
            True,
            "start the episode once the human, the assistant and the judge "
            "are on the graph; false: the composing process calls start()",
        )
        self.ep = Episode(self.pack, render=True, body=body)
        self.n_actions, self.goals_at_handoff, self.finished = 0, [], False
        self.n_frames = 0  # published since the last report
        self.started, self._connected_at = False, None
        if autostart:
            self._start_timer = self.create_timer(0.25, self._start_when_connected)

    def _peers_connected(self) -> bool:
        """The human, the assistant and the judge are on the graph with the endpoints the loop needs."""

        def nodes(infos) -> set[str]:
            return {i.node_name for i in infos}

        pair = {HUMAN.name, ASSISTANT.name}
        return (
            pair <= nodes(self.get_subscriptions_info_by_topic(REPORT))
            and pair <= nodes(self.get_subscriptions_info_by_topic(EYE))
            and pair <= nodes(self.get_subscriptions_info_by_topic(SPEECH))
            and pair <= nodes(self.get_publishers_info_by_topic(SPEECH))
            and HUMAN.name in nodes(self.get_publishers_info_by_topic(COMMANDS))
            and JUDGE_NODE.name in nodes(self.get_subscriptions_info_by_topic(STATE))
        )

    def _start_when_connected(self) -> None:
        """Standalone start: once the peers are seen, and 0.5 s more for their own endpoints to match."""
        if self.started or not self._peers_connected():
            self._connected_at = None
            return
        now = time.monotonic()
        self._connected_at = self._connected_at or now
        if now - self._connected_at >= 0.5:
            self._start_timer.cancel()
            self.start()

    def destroy_node(self) -> None:
        if self.ep is not None:
            self.ep.close()
        super().destroy_node()

    def _stamp(self):
        t = self.ep.world.machine.clock_s
        return rclpy.time.Time(seconds=int(t), nanoseconds=int((t % 1) * 1e9)).to_msg()

    def _flush_frames(self) -> None:
        self.n_frames += len(self.ep.pending)
        for f in self.ep.pending:
            msg = Image(
                height=f.image.shape[0],
                width=f.image.shape[1],
                encoding="rgb8",
                step=3 * f.image.shape[1],
                data=f.image.tobytes(),
            )
            msg.header.stamp, msg.header.frame_id = self._stamp(), "human_eye"
            self.pub[EYE].publish(msg)
        self.ep.pending = []

    def start(self) -> None:
        self.started = True
        self.ep.run_opening()
        self.goals_at_handoff = [evaluate(g, self.ep.world) for g in self.pack.goals]
        self.ep._on_frame("handoff")
        self._flush_frames()
        self._publish_report(0, self.pack.handoff, ())

    def _publish_report(self, turn: int, report: str, last: tuple) -> None:
        vis = list(visible_names(self.ep.world, self.ep.catalog, self.ep.knowledge))
        self.pub[REPORT].publish(
            json_msg(
                {"turn": turn, "report": report, "visible": vis, "last_results": list(last), "n_frames": self.n_frames}
            )
        )
        self.n_frames = 0

    def _on_commands(self, msg: String) -> None:
        d = json.loads(msg.data)
        if self.finished:
            return
        if d.get("done"):
            return self._finish()
        self.ep.hear(d.get("heard", ""))
        results = [self.ep.execute(t) for t in d["commands"]]
        self.n_actions += len(results)
        events = [e for r in results for e in r.events]
        text = " ".join(s for s in (d.get("speech", ""), _human_report(results, events)) if s) or "(waits)"
        if d["turn"] + 1 >= self.pack.max_turns:
            self._flush_frames()
            return self._finish()
        noticed = self.ep.begin_turn(d["turn"] + 1)
        text = _with_notices(text, noticed) if noticed else text
        self._flush_frames()
        self._publish_report(d["turn"] + 1, text, tuple(r.message for r in results))

    def _finish(self) -> None:
        self.finished = True
        goals = [evaluate(g, self.ep.world) for g in self.pack.goals]
        self.pub[STATE].publish(
            json_msg(
                {
                    "task_id": self.pack.task_id,
                    "goals_final": goals,
                    "goals_at_handoff": self.goals_at_handoff,
                    "n_actions": self.n_actions,
                    "digest": self.ep.world.digest(),
                }
            )
        )


def main(args: list[str] | None = None) -> int:
    return run(WorldNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
