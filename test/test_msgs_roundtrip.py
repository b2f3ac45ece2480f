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
            node.create_subscription(cls, f"/roundtrip/{name}/echo", lambda m, n=name: received.__setitem__(n, m), 10)
        assert wait_for(lambda: all(p.get_subscription_count() > 0 for p, _ in pubs.values()), 30), (
            "the echo process never subscribed"
        )
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


@pytest.mark.parametrize("body_reachable", [True, False])
def test_the_graphs_brain_reads_the_ground_truth_the_in_process_one_does(body_reachable):
    """conversions.ground_truth_msg (the scene generator) and ground_truth_dict (the brain) carry every field the
    in-process oracle reads, through serialization, so the two plan alike."""
    import dataclasses

    from builtin_interfaces.msg import Time

    from reacthuman.evaluation.observe import ground_truth_dict as in_process
    from reacthuman.nodes import conversions as conv
    from reacthuman.scenes import sample_spec
    from reacthuman.scenes.spec import GroundTruth

    gt = GroundTruth(
        "CATCH",
        False,
        (1.0, 0.2, 0.9),
        0.8,
        "slow",
        False,
        impact_time_s=0.7,
        body_reachable=body_reachable,
        body_reach_reason="judged",
        intercept_point=(0.9, 0.1, 1.0) if body_reachable else None,
        intercept_time_s=1.1 if body_reachable else None,
        clear_step=(0.0, 1.0) if body_reachable else None,
    )
    spec = sample_spec("object_drop", 3).with_ground_truth(gt)
    msg = conv.ground_truth_msg(spec, Time(sec=0, nanosec=0))
    wire = deserialize_message(serialize_message(msg), type(msg))
    assert conv.ground_truth_dict(wire) == in_process(spec)
    before = dataclasses.replace(
        gt, body_reachable=None, body_reach_reason="", intercept_point=None, intercept_time_s=None, clear_step=None
    )  # a scene labelled before the judgement
    assert conv.ground_truth_dict(
        conv.ground_truth_msg(spec.with_ground_truth(before), Time(sec=0, nanosec=0))
    ) == in_process(spec.with_ground_truth(before))
