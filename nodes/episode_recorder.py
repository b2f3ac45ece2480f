"""Writes one rosbag2 folder per episode from raw CDR messages. The episode manager feeds it from its raw
subscriptions, so a message is in the bag before the manager acts on it, and it keeps a tally of what the
bag holds (reacthuman.recording.completeness) so the manager closes the bag only once the whole episode is
in it.

Stamps are the episode's sim time: the latest /clock received since the episode began, 0 before the body's
first tick (the scene announcement). The body publishes /clock only while it simulates, so any /clock that
arrives after start() belongs to this episode.

The bag is a ViewerBagWriter: when it is closed it adds what a 3D viewer needs (/tf, /tf_static,
/robot_description, markers, compressed frames), computed from the recorded messages."""

from __future__ import annotations

import threading
from pathlib import Path

from reacthuman import ros_contract as graph
from reacthuman.recording.completeness import EpisodeEnd, EpisodeTally, cdr_stamp_ns, missing
from reacthuman.recording.viewer_topics import ViewerBagWriter as BagWriter


class EpisodeRecorder:
    def __init__(self, skip_topics: frozenset[str] = frozenset()) -> None:
        self.writer: BagWriter | None = None
        self.sim_ns = 0
        self.skip_topics = skip_topics  # counted for completeness, not written (e.g. frames kept once)
        self.tally = EpisodeTally()
        self._lock = threading.Lock()  # messages arrive on executor threads; start/stop on the action's

    def start(self, path: Path) -> None:
        self.abort()
        with self._lock:
            self.sim_ns = 0
            self.tally = EpisodeTally()
            self.writer = BagWriter(path)

    def write(self, topic: str, msgtype: str, raw: bytes) -> None:
        with self._lock:
            if self.writer is None:
                return
            if topic == graph.CLOCK:
                self.sim_ns = cdr_stamp_ns(raw)
            self.tally.add(topic, raw)
            if topic not in self.skip_topics:
                self.writer.write(topic, msgtype, self.sim_ns, raw)

    def missing(self, end: EpisodeEnd | None) -> list[str]:
        with self._lock:
            return missing(self.tally, end)

    def stop(self) -> Path | None:
        with self._lock:
            writer, self.writer = self.writer, None
            return writer.close() if writer else None

    def abort(self) -> None:
        with self._lock:
            writer, self.writer = self.writer, None
            if writer:
                writer.abort()
