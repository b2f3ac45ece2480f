"""One side of the transport benchmark, run as its own process (imports rclpy; never imported by the core).

    python -m reacthuman.nodes.transport_peer echo --mode graph|raw
    python -m reacthuman.nodes.transport_peer send --mode graph|raw --windows N --warmup K --width W --height H

`send` publishes one observation window, waits for `echo`'s acknowledgement, and repeats; it prints one
JSON line. mode graph: the window is built from numpy frames and published typed, and the echo turns it back
into numpy frames (what the body and brain nodes do); mode raw: the same window's serialized bytes are
published as they are and taken raw (the floor any ROS transport of those bytes pays)."""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
import rclpy
from rclpy.node import Node
from rclpy.serialization import serialize_message
from reacthuman_msgs.msg import ObservationWindow, ViewSequence
from std_msgs.msg import UInt32

from reacthuman import ros_contract as graph
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.runtime import RELIABLE, qos_for

ACK_TOPIC = "/reacthuman_bench/ack"
VIEWS = ("egocentric", "closeup", "overhead")
FRAMES_PER_VIEW = 5
ACK_TIMEOUT_S = 10.0


def frames(width: int, height: int) -> dict[str, list[np.ndarray]]:
    """Incompressible frames (no transport compresses, but nothing should profit from flat images)."""
    rng = np.random.default_rng(0)
    return {
        v: [rng.integers(0, 256, (height, width, 3), dtype=np.uint8) for _ in range(FRAMES_PER_VIEW)] for v in VIEWS
    }


def window_msg(images: dict[str, list[np.ndarray]], seq: int) -> ObservationWindow:
    msg = ObservationWindow(
        scene_id=f"bench_{seq}",
        t0_s=0.0,
        frame_times_s=[0.15 * i for i in range(FRAMES_PER_VIEW)],
        observer_pose=[0.0, 0.0, 0.0],
    )
    for name, arrays in images.items():
        msg.views.append(ViewSequence(view_name=name, frames=[conv.array_to_image(a, None, name) for a in arrays]))
    return msg


def _echo(mode: str) -> int:
    with rclpy.init():
        node = Node("bench_echo")
        ack = node.create_publisher(UInt32, ACK_TOPIC, RELIABLE)

        def on_window(msg) -> None:
            if mode == "graph":
                conv.observation_frames(msg)
                seq = int(msg.scene_id.split("_")[1])
            else:
                seq = 0  # raw bytes are not parsed: the acknowledgement only says a window arrived
            ack.publish(UInt32(data=seq))

        node.create_subscription(
            ObservationWindow, graph.OBSERVATION, on_window, qos_for(graph.OBSERVATION), raw=(mode == "raw")
        )
        rclpy.spin(node)
    return 0


def _send(mode: str, windows: int, warmup: int, width: int, height: int) -> int:
    images = frames(width, height)
    fixed = serialize_message(window_msg(images, 0))
    with rclpy.init():
        node = Node("bench_send")
        pub = node.create_publisher(ObservationWindow, graph.OBSERVATION, qos_for(graph.OBSERVATION))
        acks: list[int] = []
        node.create_subscription(UInt32, ACK_TOPIC, lambda m: acks.append(m.data), RELIABLE)
        deadline = time.monotonic() + 60.0
        while pub.get_subscription_count() < 1 or node.count_publishers(ACK_TOPIC) < 1:
            if time.monotonic() > deadline:
                print(json.dumps({"error": "the echo process was not discovered within 60 s"}))
                return 1
            rclpy.spin_once(node, timeout_sec=0.05)
        time.sleep(0.5)  # discovery reports the match before every endpoint has it
        times = []
        for k in range(warmup + windows):
            t = time.perf_counter()
            before = len(acks)
            pub.publish(window_msg(images, k) if mode == "graph" else fixed)
            limit = time.monotonic() + ACK_TIMEOUT_S
            while len(acks) == before:
                if time.monotonic() > limit:
                    print(json.dumps({"error": f"no acknowledgement of window {k} within {ACK_TIMEOUT_S} s"}))
                    return 1
                rclpy.spin_once(node, timeout_sec=0.01)
            if k >= warmup:
                times.append(time.perf_counter() - t)
        node.destroy_node()
    print(json.dumps({"mode": mode, "windows": windows, "bytes_per_window": len(fixed), "seconds": times}))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m reacthuman.nodes.transport_peer")
    p.add_argument("role", choices=("echo", "send"))
    p.add_argument("--mode", choices=("graph", "raw"), required=True)
    p.add_argument("--windows", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--width", type=int, default=320)
    p.add_argument("--height", type=int, default=180)
    a = p.parse_args(argv)
    if a.role == "echo":
        return _echo(a.mode)
    if a.windows < 1 or a.warmup < 0 or a.width < 16 or a.height < 16:
        print("transport_peer: --windows >= 1, --warmup >= 0, --width/--height >= 16", file=sys.stderr)
        return 2
    return _send(a.mode, a.windows, a.warmup, a.width, a.height)


if __name__ == "__main__":
    sys.exit(main())
