"""Writes one rosbag2 folder per episode from raw CDR messages. The episode manager feeds it from its raw
subscriptions, so a message is in the bag before the manager acts on it (the score ends the episode only
once the score itself is recorded).

Stamps are the episode's sim time: the latest /clock received since the episode began, 0 before the body's
first tick (the scene announcement). The body publishes /clock only while it simulates, so any /clock that
arrives after start() belongs to this episode.

The viewer topics (/tf, /tf_static, /robot_description, markers, compressed frames) are computed from the
recorded messages when the bag is closed, not in the subscription callbacks, so recording stays as cheap
as it was while the episode runs."""

from __future__ import annotations

import threading
from pathlib import Path

from rclpy.serialization import deserialize_message
from rosgraph_msgs.msg import Clock

from reacthuman import graph
from reacthuman.recording.bag import BagWriter
from reacthuman.recording.viewer_topics import INPUT_TOPICS, viewer_extras


class EpisodeRecorder:
    def __init__(self) -> None:
        self.writer: BagWriter | None = None
        self.sim_ns = 0
        self._viewer_inputs: list[tuple[str, str, int, bytes]] = []
        self._lock = threading.Lock()  # messages arrive on executor threads; start/stop on the action's

    def start(self, path: Path) -> None:
        self.abort()
        with self._lock:
            self.sim_ns = 0
            self._viewer_inputs = []
            self.writer = BagWriter(path)

    def write(self, topic: str, msgtype: str, raw: bytes) -> None:
        with self._lock:
            if self.writer is None:
                return
            if topic == graph.CLOCK:
                clock = deserialize_message(raw, Clock).clock
                self.sim_ns = clock.sec * 1_000_000_000 + clock.nanosec
            self.writer.write(topic, msgtype, self.sim_ns, raw)
            if topic in INPUT_TOPICS:
                self._viewer_inputs.append((topic, msgtype, self.sim_ns, raw))

    def stop(self) -> Path | None:
        with self._lock:
            writer, self.writer = self.writer, None
            inputs, self._viewer_inputs = self._viewer_inputs, []
        if writer is None:
            return None
        try:
            for extra in viewer_extras(inputs):
                writer.write(extra.topic, extra.msgtype, extra.stamp_ns, extra.raw, latched=extra.latched)
        except BaseException:
            writer.abort()
            raise
        return writer.close()

    def abort(self) -> None:
        with self._lock:
            writer, self.writer = self.writer, None
            self._viewer_inputs = []
            if writer:
                writer.abort()
