"""rosbag2 (MCAP storage) writing and reading of raw CDR messages, ROS-free.

Messages are stored exactly as they crossed the wire (CDR bytes from a raw subscription), stamped with
sim time, so a bag replays bit-identical input. The type store is ROS 2 Kilted's standard types plus this
project's interfaces read from their .msg files, so type hashes (RIHS01) equal rosidl's and the bags open
in standard tools.

A bag is written into `<name>.partial/` and renamed to `<name>/` only when closed: a folder without the
suffix is always complete.

MCAP chunks are zstd-compressed by default (storage-level compression: the metadata says none, as rosbag2
writes it for its own MCAP chunk compression), which standard MCAP readers and rosbag2 read transparently.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rosbags.interfaces import Qos, QosDurability, QosHistory, QosLiveliness, QosReliability, QosTime
from rosbags.rosbag2 import Reader, Writer
from rosbags.rosbag2.enums import CompressionFormat, CompressionMode, StoragePlugin
from rosbags.serde import SerdeError
from rosbags.typesys import Stores, get_types_from_msg, get_typestore
from rosbags.typesys.store import Typestore

PARTIAL_SUFFIX = ".partial"
MSGS_PACKAGE = "reacthuman_msgs"
CHUNK_COMPRESSIONS = ("zstd", "none")


class BagError(ValueError):
    pass


# What a latched publisher offers (reliable, transient local, keep last 1): written into the bag's metadata
# so that `ros2 bag play` republishes such a topic latched and a late subscriber still gets it.
_ZERO = QosTime(0, 0)
LATCHED_QOS = Qos(
    QosHistory.KEEP_LAST,
    1,
    QosReliability.RELIABLE,
    QosDurability.TRANSIENT_LOCAL,
    _ZERO,
    _ZERO,
    QosLiveliness.AUTOMATIC,
    _ZERO,
    False,
)


def _msg_dirs() -> list[Path]:
    here = Path(__file__).resolve()
    installed = Path(os.environ.get("VIRTUAL_ENV", "") or here.parents[2] / ".venv") / "share" / MSGS_PACKAGE
    return [here.parents[2] / "msgs", installed]


@lru_cache(maxsize=1)
def typestore() -> Typestore:
    """Kilted's standard types plus reacthuman_msgs (msg, and the generated srv/action parts are not needed)."""
    store = get_typestore(Stores.ROS2_KILTED)
    source = next((d / "msg" for d in _msg_dirs() if (d / "msg").is_dir()), None)
    if source is None:
        raise BagError("reacthuman_msgs .msg files not found (msgs/msg or the installed share folder)")
    types = {}
    for f in sorted(source.glob("*.msg")):
        types.update(get_types_from_msg(f.read_text(), f"{MSGS_PACKAGE}/msg/{f.stem}"))
    store.register(types)
    return store


@dataclass(frozen=True)
class BagMessage:
    topic: str
    msgtype: str
    stamp_ns: int
    raw: bytes


class BagWriter:
    """Append raw messages to a new bag; `close()` publishes it under its final name."""

    def __init__(self, path: Path, compression: str = "zstd") -> None:
        if compression not in CHUNK_COMPRESSIONS:
            raise BagError(f"chunk compression must be one of {', '.join(CHUNK_COMPRESSIONS)}, got {compression!r}")
        self.path = Path(path)
        if self.path.exists():
            raise BagError(f"bag already exists: {self.path}")
        self._partial = self.path.with_name(self.path.name + PARTIAL_SUFFIX)
        if self._partial.exists():
            shutil.rmtree(self._partial)  # left by a crash: that episode is redone from scratch
        self._partial.parent.mkdir(parents=True, exist_ok=True)
        self._writer = Writer(self._partial, version=9, storage_plugin=StoragePlugin.MCAP)
        if compression == "zstd":
            self._writer.set_compression(CompressionMode.STORAGE, CompressionFormat.ZSTD)
        self._writer.open()
        self._connections: dict[str, object] = {}
        self.count = 0

    def write(self, topic: str, msgtype: str, stamp_ns: int, raw: bytes, latched: bool = False) -> None:
        conn = self._connections.get(topic)
        if conn is None:
            conn = self._writer.add_connection(
                topic, msgtype, typestore=typestore(), offered_qos_profiles=(LATCHED_QOS,) if latched else ()
            )
            self._connections[topic] = conn
        self._writer.write(conn, int(stamp_ns), bytes(raw))
        self.count += 1

    def close(self) -> Path:
        self._writer.close()
        # rosbags names the storage file after the folder; keep that name consistent with the final folder.
        for f in self._partial.iterdir():
            if f.name.startswith(self._partial.name):
                f.rename(self._partial / f.name.replace(self._partial.name, self.path.name, 1))
        meta = self._partial / "metadata.yaml"
        meta.write_text(meta.read_text().replace(self._partial.name, self.path.name))
        self._partial.rename(self.path)
        return self.path

    def abort(self) -> None:
        try:
            self._writer.close()
        finally:
            shutil.rmtree(self._partial, ignore_errors=True)


def read_bag(path: Path, topics: set[str] | None = None) -> Iterator[BagMessage]:
    path = Path(path)
    if path.name.endswith(PARTIAL_SUFFIX) or not (path / "metadata.yaml").is_file():
        raise BagError(f"not a complete rosbag2 folder: {path}")
    with Reader(path) as reader:
        conns = [c for c in reader.connections if topics is None or c.topic in topics]
        for conn, stamp, raw in reader.messages(connections=conns):
            yield BagMessage(conn.topic, conn.msgtype, stamp, bytes(raw))


def deserialize(message: BagMessage):
    return typestore().deserialize_cdr(whole_raw(message.raw, message.msgtype), message.msgtype)


# Messages whose later revisions appended fields at the end (BaseState's phase and decision; the closed loop's
# decision_index, t_s and robot_pose): the layout before them is unchanged, so a bag recorded earlier holds them
# short, and zeros appended give the missing fields their defaults (0: the first decision), which is what they
# meant. CDR readers differ in what they allow after the last field (rclpy anything, the type store nothing), so the
# zeros that make the message whole are counted by trying.
APPENDED_TYPES = frozenset(
    f"{MSGS_PACKAGE}/msg/{t}" for t in ("BaseState", "ReactionPlan", "ObservationWindow", "FreezeState")
)
MAX_APPENDED_BYTES = 64


def whole_raw(raw: bytes, msgtype: str) -> bytes:
    """`raw` as a message of today's `msgtype`: itself, or for a short message of an APPENDED_TYPES type recorded
    before its last fields, with the zeros appended that make it whole. BagError if none does."""
    if msgtype not in APPENDED_TYPES:
        return raw
    store = typestore()
    for pad in range(MAX_APPENDED_BYTES + 1):
        try:
            store.deserialize_cdr(raw + bytes(pad), msgtype)
        except SerdeError:
            continue
        return raw + bytes(pad)
    raise BagError(f"a {msgtype} message of {len(raw)} bytes that is not one, even short of its last fields")


def bag_info(path: Path) -> dict:
    path = Path(path)
    if not (path / "metadata.yaml").is_file():
        raise BagError(f"not a complete rosbag2 folder: {path}")
    with Reader(path) as reader:
        return {
            "path": str(path),
            "storage": reader.metadata.get("storage_identifier", "mcap") if hasattr(reader, "metadata") else "mcap",
            "duration_s": reader.duration / 1e9,
            "start_ns": reader.start_time,
            "messages": reader.message_count,
            "topics": {c.topic: {"type": c.msgtype, "count": c.msgcount} for c in reader.connections},
        }
