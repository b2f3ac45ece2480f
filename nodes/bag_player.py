"""bag_player: republishes an episode bag on the live graph with /clock, so a live brain or scorer can
consume it exactly as it was recorded (raw CDR bytes, original sim-time stamps, latched topics latched)."""

from __future__ import annotations

import time
from pathlib import Path

import rclpy
from rosgraph_msgs.msg import Clock
from rclpy.duration import Duration
from rclpy.node import Node

from reacthuman import ros_contract as graph
from reacthuman.nodes.runtime import msg_type, qos_for
from reacthuman.core.bag import bag_info, read_bag, whole_raw


ACK_TIMEOUT_S = 30.0


class BagPlayer(Node):
    def __init__(self, bag: Path, rate: float, topics: set[str] | None = None) -> None:
        super().__init__("bag_player")
        self.bag, self.rate, self.topics = Path(bag), rate, topics
        info = bag_info(self.bag)
        self.has_clock = graph.CLOCK in info["topics"]
        self.pubs, self.skipped = {}, {}
        for t, v in info["topics"].items():
            if topics is not None and t not in topics:
                continue
            try:
                cls = msg_type(v["type"])
            except ImportError:
                # The viewer topics' types (tf2_msgs, visualization_msgs) have no Python package here; a full
                # ROS 2 install plays them with `ros2 bag play`.
                self.skipped[t] = v["type"]
                continue
            self.pubs[t] = self.create_publisher(cls, t, qos_for(t))
        self.clock_pub = self.pubs.get(graph.CLOCK) or self.create_publisher(Clock, graph.CLOCK, 10)

    def wait_for_subscribers(self, timeout_s: float) -> None:
        """Until every topic that anyone will listen to is matched (DDS discovery takes tens of ms between
        processes; a volatile message published before the match is lost). Topics nobody subscribes to are
        played anyway once some topic is matched and the rest stay unmatched for timeout_s."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and not all(p.get_subscription_count() for p in self.pubs.values()):
            rclpy.spin_once(self, timeout_sec=0.05)

    def play(self) -> int:
        count, first_stamp, start = 0, None, time.monotonic()
        for msg in read_bag(self.bag, set(self.pubs)):
            first_stamp = msg.stamp_ns if first_stamp is None else first_stamp
            if self.rate > 0:
                due = start + (msg.stamp_ns - first_stamp) / 1e9 / self.rate
                time.sleep(max(0.0, due - time.monotonic()))
            if not self.has_clock:
                clock = Clock()
                clock.clock.sec, clock.clock.nanosec = divmod(msg.stamp_ns, 1_000_000_000)
                self.clock_pub.publish(clock)
            self.pubs[msg.topic].publish(whole_raw(msg.raw, msg.msgtype))  # a bag's short messages made whole
            count += 1
        # Large reliable messages leave in fragments after publish() returns: wait until every matched
        # subscriber has acknowledged them, or exiting now would drop them.
        for pub in self.pubs.values():
            pub.wait_for_all_acked(Duration(seconds=ACK_TIMEOUT_S))
        return count


def play_bag(bag: Path, rate: float = 1.0, topics: set[str] | None = None, wait_s: float = 5.0) -> int:
    """Play one bag in this process (rclpy must be initialised by the caller). Returns messages sent."""
    player = BagPlayer(bag, rate, topics)
    for topic, msgtype in sorted(player.skipped.items()):
        player.get_logger().warning(f"not played: {topic} ({msgtype} has no Python interface package here)")
    try:
        player.wait_for_subscribers(wait_s)
        return player.play()
    finally:
        player.destroy_node()
