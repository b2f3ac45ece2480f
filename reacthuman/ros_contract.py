"""The node graph's contract: every node, the topics it publishes and subscribes, with their types.

ROS-free on purpose: the nodes create their endpoints from this table, the graph tests compare the live
graph against it, and the diagram of README.md and docs/architecture.md is drawn from it (test/test_docs.py
checks both). Change a topic here and everything follows.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import IntEnum

SCENE = "/reacthuman/scene"
GROUND_TRUTH = "/reacthuman/ground_truth"
OBSERVATION = "/reacthuman/observation"
FREEZE_STATE = "/reacthuman/freeze_state"
PLAN = "/reacthuman/plan"
OUTCOME = "/reacthuman/outcome"
SCORE = "/reacthuman/score"
HAZARD_STATE = "/reacthuman/hazard_state"
# The closed loop alone (`--loop closed`): the hazard's path at every physics step, what each decision is judged on.
HAZARD_PATH = "/reacthuman/hazard_path"
CLOCK = "/clock"
JOINT_STATES = "/g1/joint_states"
BASE_STATE = "/g1/base_state"
HAND_POSITIONS = "/g1/hand_positions"
JOINT_COMMAND = "/g1/joint_command"
CMD_VEL = "/g1/cmd_vel"
# A node that gives up on an episode (the body refusing its scene or losing the lockstep, the spine's controller
# raising, the brain crashing, the scorer failing) says so here at once, so the episode manager fails the episode
# within seconds instead of waiting out its timeout (`EpisodeFault`, carried as JSON in a std_msgs/String).
EPISODE_FAULT = "/reacthuman/episode_fault"
EPISODE_FAULT_TYPE = "std_msgs/msg/String"
GENERATE_SCENE_SRV = "/reacthuman/generate_scene"
RUN_EPISODE_ACTION = "/reacthuman/run_episode"
# The run_episode action's feedback: the phase an episode is in, named after the last topic the episode manager
# has seen of it (before the observation: "window", the scene built, simulated and drawn).
EPISODE_PHASE_BY_TOPIC = {OBSERVATION: "frozen", PLAN: "execute", OUTCOME: "score"}

VIEWS = ("egocentric", "closeup", "overhead")

# The frame of every world-frame quantity the body streams (base pose and twist, hands, hazards); the root
# of the episode's TF tree (reacthuman.recording.tf_tree).
WORLD_FRAME = "world"


class StatePhase(IntEnum):
    """What the publisher of the robot's state is doing at a tick (BaseState.phase; the .msg declares the same
    values as PHASE_* constants). It tells the spine whether it may answer the tick at once or must first hold
    the scene's plan: execution follows the plan, so answering before it arrives would make the episode
    depend on the transport's timing."""

    UNSET = 0  # a publisher that does not say: its states are not answered (see `parse`)
    WINDOW = 1  # the body simulates the observation window: the robot stands
    EXECUTION = 2  # the body executes the plan it accepted
    EXECUTION_WITHOUT_PLAN = 3  # the body executes with no accepted plan (the freeze timed out)
    HARDWARE = 4  # a real robot (robot_bridge): no episode phases

    @property
    def waits_for_plan(self) -> bool:
        return self is StatePhase.EXECUTION

    @classmethod
    def execution(cls, plan_accepted: bool) -> "StatePhase":
        """Only an accepted plan is waited for: without one (the freeze timed out) none is coming."""
        return cls.EXECUTION if plan_accepted else cls.EXECUTION_WITHOUT_PLAN

    @classmethod
    def parse(cls, value: int) -> "StatePhase":
        """The phase a state message declares. Unset or unknown raises: acting on a state whose phase is not
        known could execute an episode without waiting for its plan, silently; not answering it makes the
        body's lockstep (or, on a robot, the command watchdog) report it."""
        try:
            phase = cls(value)
        except ValueError:
            raise ValueError(
                f"unknown state phase {value} (known: {', '.join(f'{p.value} {p.name}' for p in cls)})"
            ) from None
        if phase is cls.UNSET:
            raise ValueError("the state does not say its phase (BaseState.phase unset)")
        return phase


@dataclass(frozen=True)
class EpisodeFault:
    """What a node that gave up on an episode tells the episode manager (EPISODE_FAULT)."""

    scene_id: str
    node: str
    reason: str

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "EpisodeFault":
        try:
            data = json.loads(text)
            return cls(str(data["scene_id"]), str(data["node"]), str(data["reason"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"not an episode fault: {text[:80]!r} ({exc})") from None

    def __str__(self) -> str:
        return f"the {self.node} gave up on {self.scene_id}: {self.reason}"


def image_topic(view: str) -> str:
    return f"/camera/{view}/image_raw"


def camera_info_topic(view: str) -> str:
    return f"/camera/{view}/camera_info"


@dataclass(frozen=True)
class NodeContract:
    name: str
    executable: str
    publishes: dict[str, str] = field(default_factory=dict)
    subscribes: dict[str, str] = field(default_factory=dict)
    services: dict[str, str] = field(default_factory=dict)
    actions: dict[str, str] = field(default_factory=dict)
    summary: str = ""
    namespace: str = ""  # the node's default namespace; its relative names resolve under it (a launch may remap it)


M = "reacthuman_msgs/msg/"

_CAMERAS = {image_topic(v): "sensor_msgs/msg/Image" for v in VIEWS} | {
    camera_info_topic(v): "sensor_msgs/msg/CameraInfo" for v in VIEWS
}

NODES: dict[str, NodeContract] = {
    c.name: c
    for c in (
        NodeContract(
            "scene_generator",
            "scene_generator_node",
            publishes={SCENE: M + "SceneAnnouncement", GROUND_TRUTH: M + "GroundTruth"},
            services={GENERATE_SCENE_SRV: "reacthuman_msgs/srv/GenerateScene"},
            summary="plans, randomizes and labels a scene; announces it with its ground truth",
        ),
        NodeContract(
            "body",
            "body_node",
            publishes={
                CLOCK: "rosgraph_msgs/msg/Clock",
                OBSERVATION: M + "ObservationWindow",
                FREEZE_STATE: M + "FreezeState",
                JOINT_STATES: "sensor_msgs/msg/JointState",
                BASE_STATE: M + "BaseState",
                HAND_POSITIONS: M + "HandPositions",
                HAZARD_STATE: M + "ObjectState",
                HAZARD_PATH: M + "HazardPath",
                OUTCOME: M + "ExecutedOutcome",
                EPISODE_FAULT: EPISODE_FAULT_TYPE,
            }
            | _CAMERAS,
            subscribes={SCENE: M + "SceneAnnouncement", PLAN: M + "ReactionPlan", JOINT_COMMAND: M + "JointCommand"},
            summary="the G1 and the scene in Genesis: window, freeze, execute, outcome",
        ),
        NodeContract(
            "spine",
            "spine_node",
            publishes={
                JOINT_COMMAND: M + "JointCommand",
                CMD_VEL: "geometry_msgs/msg/Twist",
                EPISODE_FAULT: EPISODE_FAULT_TYPE,
            },
            subscribes={
                SCENE: M + "SceneAnnouncement",
                PLAN: M + "ReactionPlan",
                JOINT_STATES: "sensor_msgs/msg/JointState",
                BASE_STATE: M + "BaseState",
            },
            summary="walking policy + arm IK: plan -> joint commands",
        ),
        NodeContract(
            "brain",
            "brain_node",
            publishes={PLAN: M + "ReactionPlan", EPISODE_FAULT: EPISODE_FAULT_TYPE},
            # ground truth is read only by the reference brain `oracle`; no prompt ever contains it
            subscribes={OBSERVATION: M + "ObservationWindow", GROUND_TRUTH: M + "GroundTruth"},
            summary="the evaluated model (or a reference brain): observation -> reaction plan",
        ),
        NodeContract(
            "scorer",
            "scorer_node",
            publishes={SCORE: M + "EpisodeScore", EPISODE_FAULT: EPISODE_FAULT_TYPE},
            subscribes={
                SCENE: M + "SceneAnnouncement",
                GROUND_TRUTH: M + "GroundTruth",
                PLAN: M + "ReactionPlan",
                FREEZE_STATE: M + "FreezeState",
                HAZARD_PATH: M + "HazardPath",
                OUTCOME: M + "ExecutedOutcome",
            },
            summary="five metrics and safety rules against exact ground truth",
        ),
    )
}


def _everything_published() -> dict[str, str]:
    topics: dict[str, str] = {}
    for contract in NODES.values():
        topics.update(contract.publishes)
    return topics


# A policy's command of each tick (reacthuman.policy.graph_contract: the policy node takes the brain's place in
# a policy's graph); named here so the episode manager records it into the episode's bag.
POLICY_COMMAND = "/reacthuman/policy_command"

# The episode manager records every published topic into the episode's bag, so it subscribes to all, and to
# the policy node's commands (the ticks `reacthuman rescore` replays a policy's episode from).
NODES["episode_manager"] = NodeContract(
    "episode_manager",
    "episode_manager_node",
    subscribes=_everything_published() | {POLICY_COMMAND: M + "ReactionPlan"},
    actions={RUN_EPISODE_ACTION: "reacthuman_msgs/action/RunEpisode"},
    summary="drives one episode per RunEpisode goal, records its bag, writes its folder",
)


# Nodes that are not part of the evaluation graph: on a real G1, robot_bridge takes the body's place for
# the spine (joint state in, joint commands out) through Unitree's low-level DDS interface.
HARDWARE_NODES: dict[str, NodeContract] = {
    "robot_bridge": NodeContract(
        "robot_bridge",
        "robot_bridge_node",
        publishes={JOINT_STATES: "sensor_msgs/msg/JointState", BASE_STATE: M + "BaseState"},
        subscribes={JOINT_COMMAND: M + "JointCommand"},
        summary="a real Unitree G1 over rt/lowstate and rt/lowcmd in place of the simulated body",
    ),
}


def contract(name: str) -> NodeContract:
    return NODES[name] if name in NODES else HARDWARE_NODES[name]


def mermaid_diagram() -> str:
    """The graph as a Mermaid flowchart (nodes as boxes, topics on edges), for README.md and docs/architecture.md."""
    lines = ["flowchart LR"]
    for pub in NODES.values():
        for topic in pub.publishes:
            for sub in NODES.values():
                if topic in sub.subscribes and sub.name != "episode_manager":
                    lines.append(f'  {pub.name} -- "{topic}" --> {sub.name}')
    return "\n".join(lines)
