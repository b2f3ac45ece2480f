"""The recorder's node: the loop's topics as raw CDR into a rosbag2 folder."""

from __future__ import annotations

from pathlib import Path

from rclpy.parameter import Parameter

from interactiveworld.ros_contract import RECORDER
from interactiveworld.nodes.common import loop_qos
from reacthuman.nodes.runtime import ContractNode, run
from reacthuman.core.bag import BagWriter


def _new_bag_reason(value: str) -> str | None:
    if not value:
        return "no bag folder given"
    return f"{value} already exists" if Path(value).exists() else None


class RecorderNode(ContractNode):
    """Records the graph's topics as raw CDR into a rosbag2 folder (reacthuman's bag writer); the bag is
    complete once the node is destroyed (a standalone recorder: at Ctrl-C or SIGTERM)."""

    def __init__(self, *, parameter_overrides: list[Parameter] | None = None) -> None:
        self.closed = True  # destroy_node may run on a node refused half way
        super().__init__(
            RECORDER,
            {t: (lambda raw, t=t: self._write(t, raw)) for t in RECORDER.subscribes},
            raw=True,
            qos=loop_qos,
            parameter_overrides=parameter_overrides,
        )
        self.writer = BagWriter(
            Path(self.declare("bag_path", "", "the rosbag2 folder to write (must not exist)", _new_bag_reason))
        )
        self.closed = False

    def _write(self, topic: str, raw: bytes) -> None:
        self.writer.write(topic, self.contract.subscribes[topic], self.get_clock().now().nanoseconds, raw)

    def destroy_node(self) -> None:
        if not self.closed:
            self.closed = True
            self.writer.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    return run(RecorderNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
