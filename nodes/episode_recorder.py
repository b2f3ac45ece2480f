"""Records every topic of the graph contract into one rosbag2 folder per episode (raw CDR). Used by the
episode manager, which knows where an episode starts and ends.

Stamps are the episode's sim time: the latest /clock received since the episode began, 0 before the body's
first tick (the scene announcement). The body publishes /clock only while it simulates, so any /clock that
arrives after start() belongs to this episode."""

from __future__ import annotations

from pathlib import Path

from rclpy.node import Node
from rclpy.serialization import deserialize_message
from rosgraph_msgs.msg import Clock

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
        self.sim_ns = 0
        self.writer = BagWriter(path)

    def _on(self, topic: str, msgtype: str, raw: bytes) -> None:
        if self.writer is None:
            return
        if topic == graph.CLOCK:
            clock = deserialize_message(raw, Clock).clock
            self.sim_ns = clock.sec * 1_000_000_000 + clock.nanosec
        self.writer.write(topic, msgtype, self.sim_ns, raw)

    def stop(self) -> Path | None:
        writer, self.writer = self.writer, None
        return writer.close() if writer else None

    def abort(self) -> None:
        writer, self.writer = self.writer, None
        if writer:
            writer.abort()
