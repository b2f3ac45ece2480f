"""Checks a recorded bag's TF tree the way a viewer uses it: can a frame be placed in `world` at a time?

A static edge (from /tf_static) holds at every time; a dynamic edge (from /tf) holds from its first stamp
on (viewers interpolate between stamps and hold the last one briefly; here any earlier stamp counts, and a
frame is unresolved before its first transform).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field

from reacthuman.recording import ros_msgs
from reacthuman.core.bag import BagMessage, deserialize
from reacthuman.recording.tf_tree import WORLD_FRAME
from reacthuman.recording.viewer_topics import TF, TF_STATIC


@dataclass
class TfIndex:
    static_parent: dict[str, str] = field(default_factory=dict)
    dynamic: dict[str, tuple[str, list[int]]] = field(default_factory=dict)  # child -> (parent, sorted stamps)

    @staticmethod
    def from_messages(messages: Iterable[BagMessage]) -> "TfIndex":
        index = TfIndex()
        for m in messages:
            if m.topic not in (TF, TF_STATIC):
                continue
            for t in deserialize(m).transforms:
                parent, child = t.header.frame_id, t.child_frame_id
                if m.topic == TF_STATIC:
                    index.static_parent[child] = parent
                else:
                    stamps = index.dynamic.setdefault(child, (parent, []))[1]
                    bisect.insort(stamps, ros_msgs.stamp_ns(t.header))
        return index

    def frames(self) -> set[str]:
        return set(self.static_parent) | set(self.dynamic) | {WORLD_FRAME}

    def resolves(self, frame: str, t_ns: int) -> bool:
        seen = set()
        while frame != WORLD_FRAME:
            if frame in seen:
                return False
            seen.add(frame)
            if frame in self.static_parent:
                frame = self.static_parent[frame]
            elif frame in self.dynamic:
                parent, stamps = self.dynamic[frame]
                if not stamps or stamps[0] > t_ns:
                    return False
                frame = parent
            else:
                return False
        return True
