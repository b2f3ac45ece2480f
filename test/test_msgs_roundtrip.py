"""Every custom message crosses a process boundary (real rclpy, real FastDDS) and comes back equal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rclpy.serialization import deserialize_message, serialize_message

from ros_helpers import CUSTOM_MESSAGES, GraphClient, filled, msg_class

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("name", CUSTOM_MESSAGES)
def test_serialization_round_trip_in_process(name):
    msg = filled(msg_class(f"reacthuman_msgs/{name}"))
    assert deserialize_message(serialize_message(msg), type(msg)) == msg


def test_action_and_services_import_with_their_fields():
    from reacthuman_msgs.action import RunEpisode
    from reacthuman_msgs.srv import CallTool, GenerateScene

    # every goal field is read by the episode manager (scenes_dir and model must be its graph's)
    assert list(RunEpisode.Goal.get_fields_and_field_types()) == ["scene_id", "scenes_dir", "model"]
    assert "score" in RunEpisode.Result.get_fields_and_field_types()
    assert "phase" in RunEpisode.Feedback.get_fields_and_field_types()
    assert "arguments_json" in CallTool.Request.get_fields_and_field_types()
    assert "spec_json" in GenerateScene.Response.get_fields_and_field_types()


def test_every_custom_message_round_trips_between_two_processes(ros_domain_id):
    env = dict(os.environ, ROS_DOMAIN_ID=str(ros_domain_id), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    echo = subprocess.Popen([sys.executable, str(HERE / "echo_node.py")], env=env)
    client = GraphClient(ros_domain_id, "roundtrip_test")
    node, wait_for = client.node, client.wait_for
    try:
        received: dict[str, object] = {}
        pubs = {}
        for i, name in enumerate(CUSTOM_MESSAGES):
            cls = msg_class(f"reacthuman_msgs/{name}")
            pubs[name] = (node.create_publisher(cls, f"/roundtrip/{name}", 10), filled(cls, salt=i + 3))
            node.create_subscription(cls, f"/roundtrip/{name}/echo",
                                     lambda m, n=name: received.__setitem__(n, m), 10)
        assert wait_for(lambda: all(p.get_subscription_count() > 0 for p, _ in pubs.values()), 30), \
            "the echo process never subscribed"
        assert wait_for(lambda: all(node.count_publishers(f"/roundtrip/{n}/echo") > 0 for n in pubs), 30)

        def publish_missing() -> bool:
            for name, (pub, msg) in pubs.items():
                if name not in received:
                    pub.publish(msg)
            return len(received) == len(pubs)

        assert wait_for(publish_missing, 30), f"no echo for {sorted(set(pubs) - set(received))}"
        for name, (_, sent) in pubs.items():
            assert received[name] == sent, name
    finally:
        echo.terminate()
        echo.wait(timeout=20)
        client.close()
