"""A separate process for the round-trip test: republishes every custom message it receives on
/roundtrip/<Type> to /roundtrip/<Type>/echo, so the test sees each type cross two processes twice."""

import sys

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from ros_helpers import CUSTOM_MESSAGES, msg_class  # noqa: E402


class Echo(Node):
    def __init__(self) -> None:
        super().__init__("roundtrip_echo")
        self._keep = []
        for name in CUSTOM_MESSAGES:
            cls = msg_class(f"reacthuman_msgs/{name}")
            pub = self.create_publisher(cls, f"/roundtrip/{name}/echo", 10)
            self._keep.append(self.create_subscription(cls, f"/roundtrip/{name}", pub.publish, 10))


def main() -> None:
    try:
        with rclpy.init():
            rclpy.spin(Echo())
    except (KeyboardInterrupt, ExternalShutdownException):
        pass


if __name__ == "__main__":
    main()
