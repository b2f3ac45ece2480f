"""Helpers for tests that talk to a live graph: a test-side rclpy context and message fillers."""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node

CUSTOM_MESSAGES = [
    "SceneAnnouncement",
    "ViewSequence",
    "ObservationWindow",
    "HandKeyframe",
    "ReactionPlan",
    "GroundTruth",
    "JointCommand",
    "BaseState",
    "ObjectState",
    "HandPositions",
    "ExecutedOutcome",
    "EpisodeScore",
    "Speech",
]


class GraphClient:
    """A test-side node in its own context and ROS domain, with its own executor."""

    def __init__(self, domain_id: int, name: str) -> None:
        os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
        self.context = rclpy.Context()
        rclpy.init(context=self.context, domain_id=domain_id)
        self.node = Node(name, context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)

    def wait_for(self, predicate: Callable[[], bool], timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self.executor.spin_once(timeout_sec=0.05)
            if predicate():
                return True
        return False

    def close(self) -> None:
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.shutdown(context=self.context)


def msg_class(type_text: str) -> type:
    """'reacthuman_msgs/HandKeyframe' or 'reacthuman_msgs/msg/HandKeyframe' -> class."""
    parts = type_text.split("/")
    package, name = parts[0], parts[-1]
    return getattr(importlib.import_module(f"{package}.msg"), name)


def filled(cls: type, salt: int = 1):
    """An instance with every field set to a non-default value, recursively."""
    msg = cls()
    for name, kind in msg.get_fields_and_field_types().items():
        setattr(msg, name, _value(name, kind, salt))
    return msg


def _value(name: str, kind: str, salt: int):
    if kind.startswith("sequence<"):
        inner = kind[len("sequence<") : -1].split(",")[0]
        if inner in ("uint8", "octet"):
            return bytes([salt, 2, 3, 250])
        return [_value(name, inner, salt + i) for i in range(2)]
    if "[" in kind:
        inner, size = kind[:-1].split("[")
        return [_value(name, inner, salt + i) for i in range(int(size))]
    scalars = {
        "string": lambda: f"{name}-{salt}-ünïcode",
        "boolean": lambda: True,
        "float": lambda: 0.5 * salt,
        "double": lambda: 1.25 * salt,
        "int32": lambda: -7 * salt,
        "int64": lambda: 1 << 40,
        "uint32": lambda: 7 * salt,
        "uint8": lambda: salt % 256,
        "octet": lambda: bytes([salt % 256]),
        "int8": lambda: -salt,
        "uint16": lambda: salt,
        "int16": lambda: -salt,
        "uint64": lambda: 1 << 41,
    }
    if kind in scalars:
        return scalars[kind]()
    return filled(msg_class(kind), salt)
