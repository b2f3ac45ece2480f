"""The judge's node: the verdict from the world's final state, never from the assistant's claims."""

from __future__ import annotations

import json

from rclpy.parameter import Parameter
from std_msgs.msg import String

from interactiveworld.ros_contract import JUDGE, JUDGE_NODE, STATE
from interactiveworld.nodes.common import json_msg, loop_qos
from reacthuman.nodes.runtime import ContractNode, run


class JudgeNode(ContractNode):
    """Reads the world's final state (never the assistant's claims) and publishes the verdict."""

    def __init__(self, *, parameter_overrides: list[Parameter] | None = None) -> None:
        super().__init__(JUDGE_NODE, {STATE: self._on_state}, qos=loop_qos, parameter_overrides=parameter_overrides)
        self.verdict: dict | None = None

    def _on_state(self, msg: String) -> None:
        d = json.loads(msg.data)
        scored = [ok for ok, before in zip(d["goals_final"], d["goals_at_handoff"]) if not before]
        self.verdict = {
            "task_id": d["task_id"],
            "passed": bool(scored) and all(scored),
            "completion": sum(scored) / len(scored) if scored else 0.0,
            "goals": d["goals_final"],
            "n_actions": d["n_actions"],
            "digest": d["digest"],
        }
        self.pub[JUDGE].publish(json_msg(self.verdict))


def main(args: list[str] | None = None) -> int:
    return run(JudgeNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
