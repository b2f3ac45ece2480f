"""The policy slot in the node graph (ROS-free, like `reacthuman.ros_contract`): the policy node's contract, the
topics it adds, and the launch arguments a policy's graph takes.

A policy graph is the evaluation graph with the brain replaced by the policy node (launch/policy.launch.yaml):
- the body renders the views the policy asks for at every policy tick (`policy.schedule`) and publishes them
  on POLICY_IMAGE topics, stamped with that tick's sim time, before the robot's state of the same tick;
- the policy node takes those frames and the robot's state of that stamp (the topics the spine reads), acts,
  and publishes the action as a ReactionPlan on POLICY_COMMAND, stamped with the tick, its `latency_s` the
  delay it is charged;
- the spine sets each command when it takes effect (`schedule.CommandQueue`) and answers a control tick only
  once it holds the command of every policy tick before it, so the episode is the in-process one to the bit;
- when the body's outcome arrives the policy node publishes the plan the body executed (the row's decision)
  on graph.PLAN, which the scorer scores and the episode's bag and folder keep.
The body offers itself that plan at the freeze (a policy has no frozen decision): time never stands still.
"""

from __future__ import annotations

from functools import cache

from reacthuman import ros_contract as graph
from reacthuman.ros_contract import M, NodeContract

POLICY_COMMAND = graph.POLICY_COMMAND  # the episode manager records it (ros_contract)
POLICY_NAMESPACE = "/reacthuman/policy"


def policy_image_topic(view: str) -> str:
    return f"{POLICY_NAMESPACE}/{view}/image_raw"


POLICY_IMAGES = {policy_image_topic(v): "sensor_msgs/msg/Image" for v in graph.VIEWS}

POLICY_NODE = NodeContract(
    "policy",
    "policy_node",
    publishes={
        POLICY_COMMAND: M + "ReactionPlan",
        graph.PLAN: M + "ReactionPlan",
        graph.EPISODE_FAULT: graph.EPISODE_FAULT_TYPE,
    },
    subscribes={
        graph.SCENE: M + "SceneAnnouncement",
        graph.JOINT_STATES: "sensor_msgs/msg/JointState",
        graph.BASE_STATE: M + "BaseState",
        graph.HAND_POSITIONS: M + "HandPositions",
        graph.OUTCOME: M + "ExecutedOutcome",
    }
    | POLICY_IMAGES,
    summary="a VLA-style policy: the latest frames and the robot's state every policy tick -> base velocity, "
    "hand targets and knee bend for the spine",
)

POLICY_LAUNCH_FILE = "policy.launch.yaml"


def views_text(views: tuple[str, ...]) -> str:
    return ",".join(views)


def parse_views(text: str) -> tuple[str, ...]:
    views = tuple(v.strip() for v in text.split(",") if v.strip())
    unknown = [v for v in views if v not in graph.VIEWS]
    if not views or unknown:
        raise ValueError(f"policy views {text!r}: name some of {', '.join(graph.VIEWS)}")
    return views


@cache
def policy_launch_args(entry: str) -> tuple[str, ...]:
    """The launch arguments of a policy's graph, from the policy's own config: the body and the spine must
    tick with it (its node refuses to start if they do not)."""
    from reacthuman.policy.loading import load_policy

    policy = load_policy(entry)
    try:
        config = policy.config
        return (f"policy_hz:={float(config.policy_hz)!r}", f"policy_views:={views_text(config.views)}")
    finally:
        policy.close()
