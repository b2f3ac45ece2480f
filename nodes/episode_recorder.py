"""Writes one rosbag2 folder per episode from raw CDR messages. The episode manager feeds it from its raw
subscriptions, so a message is in the bag before the manager acts on it (the score ends the episode only
once the score itself is recorded).

Stamps are the episode's sim time: the latest /clock received since the episode began, 0 before the body's
first tick (the scene announcement). The body publishes /clock only while it simulates, so any /clock that
arrives after start() belongs to this episode.

The bag is a ViewerBagWriter: when it is closed it adds what a 3D viewer needs (/tf, /tf_static,
/robot_description, markers, compressed frames), computed from the recorded messages."""

from __future__ import annotations

import threading
from pathlib import Path

from rclpy.serialization import deserialize_message
from rosgraph_msgs.msg import Clock

from reacthuman import graph
from reacthuman.recording.viewer_topics import ViewerBagWriter as BagWriter


class EpisodeRecorder:
    def __init__(self) -> None:
        self.writer: BagWriter | None = None
        self.sim_ns = 0
        self._lock = threading.Lock()  # messages arrive on executor threads; start/stop on the action's

    def start(self, path: Path) -> None:
        self.abort()
        with self._lock:
            self.sim_ns = 0
            self.writer = BagWriter(path)

    def write(self, topic: str, msgtype: str, raw: bytes) -> None:
        with self._lock:
            if self.writer is None:
                return
            if topic == graph.CLOCK:
                clock = deserialize_message(raw, Clock).clock
                self.sim_ns = clock.sec * 1_000_000_000 + clock.nanosec
            self.writer.write(topic, msgtype, self.sim_ns, raw)

    def stop(self) -> Path | None:
        with self._lock:
            writer, self.writer = self.writer, None
            return writer.close() if writer else None

    def abort(self) -> None:
        with self._lock:
            writer, self.writer = self.writer, None
            if writer:
                writer.abort()
