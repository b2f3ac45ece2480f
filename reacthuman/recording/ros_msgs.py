"""Building standard ROS 2 messages (tf2_msgs, visualization_msgs, std_msgs, ...) without rclpy.

The bag writer's type store (`bag.typestore()`: ROS 2 Kilted's standard definitions, whose RIHS01 hashes
equal rosidl's) holds these types even though their Python interface packages cannot be installed here, so
the messages are built from the store's own classes and serialised to CDR by it. `build()` fills every
field not given with its ROS default (zero, empty, False), recursively, as rosidl's constructors do.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from reacthuman.core.bag import typestore

_NUMPY = {
    "bool": np.bool_,
    "byte": np.uint8,
    "char": np.uint8,
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "uint16": np.uint16,
    "int32": np.int32,
    "uint32": np.uint32,
    "int64": np.int64,
    "uint64": np.uint64,
    "float32": np.float32,
    "float64": np.float64,
}


def _default(node: tuple) -> Any:
    kind, arg = node
    kind = int(kind)
    if kind == 1:  # base type: (name, string bound)
        name = arg[0]
        return "" if name in ("string", "wstring") else False if name == "bool" else 0.0 if "float" in name else 0
    if kind == 2:  # nested message
        return build(arg)
    sub, length = arg
    if int(sub[0]) == 1 and sub[1][0] in _NUMPY:
        return np.zeros(length if kind == 3 else 0, dtype=_NUMPY[sub[1][0]])
    return [_default(sub) for _ in range(length)] if kind == 3 else []


@lru_cache(maxsize=None)
def _fields(typename: str) -> tuple[type, tuple[tuple[str, tuple], ...], frozenset[str]]:
    store = typestore()
    if typename not in store.fielddefs:
        raise KeyError(f"message type {typename!r} is not in the bag type store")
    _, defs = store.fielddefs[typename]
    return store.types[typename], tuple(defs), frozenset(name for name, _ in defs)


def build(typename: str, **fields: Any) -> Any:
    """An instance of the standard message `typename` (e.g. 'geometry_msgs/msg/Pose') with the given
    fields and ROS defaults for the rest."""
    cls, defs, names = _fields(typename)
    if len(fields) == len(defs) and names.issuperset(fields):  # the per-tick /tf path: nothing to fill
        return cls(**fields)
    unknown = set(fields) - names
    if unknown:
        raise KeyError(f"{typename} has no field(s) {sorted(unknown)}")
    return cls(**{name: fields[name] if name in fields else _default(node) for name, node in defs})


def serialize(msg: Any) -> bytes:
    return bytes(typestore().serialize_cdr(msg, msg.__msgtype__))


def stamp(ns: int) -> Any:
    return build("builtin_interfaces/msg/Time", sec=int(ns // 1_000_000_000), nanosec=int(ns % 1_000_000_000))


def header(ns: int, frame_id: str) -> Any:
    return build("std_msgs/msg/Header", stamp=stamp(ns), frame_id=frame_id)


def stamp_ns(header_msg: Any) -> int:
    return int(header_msg.stamp.sec) * 1_000_000_000 + int(header_msg.stamp.nanosec)


def vector3(v: tuple[float, float, float]) -> Any:
    return build("geometry_msgs/msg/Vector3", x=float(v[0]), y=float(v[1]), z=float(v[2]))


def point(v: tuple[float, float, float]) -> Any:
    return build("geometry_msgs/msg/Point", x=float(v[0]), y=float(v[1]), z=float(v[2]))


def quaternion_xyzw(q: tuple[float, float, float, float]) -> Any:
    return build("geometry_msgs/msg/Quaternion", x=float(q[0]), y=float(q[1]), z=float(q[2]), w=float(q[3]))


def pose(pos: tuple[float, float, float], q_xyzw: tuple[float, float, float, float]) -> Any:
    return build("geometry_msgs/msg/Pose", position=point(pos), orientation=quaternion_xyzw(q_xyzw))
