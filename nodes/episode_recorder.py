"""Records every topic of the graph contract into one rosbag2 folder per episode (raw CDR, sim-time
stamps from the node's clock, which follows /clock). Used by the episode manager, which knows where an
episode starts and ends."""

from __future__ import annotations

from pathlib import Path

from rclpy.node import Node

from reacthuman import graph
from reacthuman.nodes.runtime import msg_type, qos_for
from reacthuman.recording.bag import BagWriter


class EpisodeRecorder:
    def __init__(self, node: Node, topics: dict[str, str] | None = None) -> None:
        self.node = node
        self.writer: BagWriter | None = None
        self.topics = topics or graph.NODES["episode_manager"].subscribes
        self._subs = [
            node.create_subscription(msg_type(ty), t, lambda raw, t=t, ty=ty: self._on(t, ty, raw), qos_for(t), raw=True)
            for t, ty in self.topics.items()
        ]

    def start(self, path: Path) -> None:
        self.abort()
        self.writer = BagWriter(path)

    def _on(self, topic: str, msgtype: str, raw: bytes) -> None:
        if self.writer is not None:
            self.writer.write(topic, msgtype, self.node.get_clock().now().nanoseconds, raw)

    def stop(self) -> Path | None:
        writer, self.writer = self.writer, None
        return writer.close() if writer else None

    def abort(self) -> None:
        writer, self.writer = self.writer, None
        if writer:
            writer.abort()
