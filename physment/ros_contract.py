"""The PhysMent lab's ROS 2 contract: every tool a `CallTool` service, plus `call` (any tool, named in the
request), `load_scene` and `prompt`, under the node's namespace (default /physment)."""

from __future__ import annotations

from physment.toolspec import TOOL_NAMES
from reacthuman.ros_contract import NodeContract

CALL_TOOL = "reacthuman_msgs/srv/CallTool"
CALL, LOAD_SCENE, PROMPT = "call", "load_scene", "prompt"

LAB = NodeContract(
    "physment_lab",
    "physment-lab-node",
    namespace="physment",
    services={name: CALL_TOOL for name in (*TOOL_NAMES, CALL, LOAD_SCENE, PROMPT)},
    summary="the MuJoCo lab of one scene at a time; an agent runs an episode through its tool services",
)
