"""The brain node as a real process: an oracle whose scene's ground truth never arrives dies naming it (the
eval retries the episode on a restarted graph) instead of leaving the body frozen until its plan timeout
and the episode scored as a model that sent nothing."""

from __future__ import annotations

import os
import subprocess
import sys

from reacthuman_msgs.msg import ObservationWindow, ReactionPlan

from reacthuman import ros_contract as graph
from reacthuman.nodes.runtime import qos_for
from ros_helpers import GraphClient


def test_an_oracle_without_its_ground_truth_dies_naming_it(ros_domain_id):
    env = dict(os.environ, ROS_DOMAIN_ID=str(ros_domain_id), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    brain = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from reacthuman.nodes.brain_node import main; main()",
            "--ros-args",
            "-p",
            "model:=oracle",
            "-p",
            "truth_wait_s:=1.0",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    client = GraphClient(ros_domain_id, "brain_crash_test")
    plans: list[ReactionPlan] = []
    try:
        client.node.create_subscription(ReactionPlan, graph.PLAN, plans.append, 10)
        observations = client.node.create_publisher(ObservationWindow, graph.OBSERVATION, qos_for(graph.OBSERVATION))
        assert client.wait_for(lambda: observations.get_subscription_count() > 0, 60), "the brain never subscribed"
        observations.publish(ObservationWindow(scene_id="scene-without-truth"))
        output, _ = brain.communicate(timeout=60)
    finally:
        client.close()
        if brain.poll() is None:
            brain.kill()
    assert brain.returncode == 70, output
    assert "scene-without-truth: the brain crashed" in output, output
    assert "no ground truth for scene-without-truth within 1 s (brain 'oracle' reads it)" in output, output
    assert plans == []


def test_a_refused_parameter_ends_the_brain_node_in_one_line(ros_domain_id):
    """A value the node's validator refuses, or of the wrong type, on the command line: one line naming the
    parameter, status 2 (the node is destroyed half-built, before it has a brain to close)."""
    env = dict(os.environ, ROS_DOMAIN_ID=str(ros_domain_id), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    done = subprocess.run(
        [sys.executable, "-m", "reacthuman.nodes.brain_node", "--ros-args", "-p", "modality:=smell"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        "BrainNode: parameter 'modality': must be one of images, state_text, both, got 'smell'"
    ), done.stderr
    typed = subprocess.run(
        [sys.executable, "-m", "reacthuman.nodes.brain_node", "--ros-args", "-p", "truth_wait_s:=soon"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )  # rclpy refuses the type itself
    assert typed.returncode == 2, typed.stderr
    assert typed.stderr.count("\n") == 1, typed.stderr
    assert typed.stderr.startswith("BrainNode: "), typed.stderr
    assert "'truth_wait_s'" in typed.stderr, typed.stderr
