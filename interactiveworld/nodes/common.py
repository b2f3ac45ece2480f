"""What the InteractiveWorld nodes share: the loop's QoS and message helpers, and the `task` and agent
parameters (a task pack; one entry of the suite's `--models` grammar)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import Image
from std_msgs.msg import String

from interactiveworld.agents.assistants import agent_name
from interactiveworld.bench.taskpack import TaskPack, TaskPackError, default_tasks_dir, load_pack
from interactiveworld.ros_contract import QOS_DEPTH
from reacthuman.core.model_spec import ModelSpecError, parse_models
from reacthuman.nodes.runtime import ContractNode

DONE_TEXT = "[done]"
_LOOP_QOS = QoSProfile(depth=QOS_DEPTH, reliability=ReliabilityPolicy.RELIABLE)


def loop_qos(_topic: str) -> QoSProfile:
    """Every topic of the loop has the same QoS (the contract's docstring says why)."""
    return _LOOP_QOS


def json_msg(d: dict) -> String:
    return String(data=json.dumps(d, sort_keys=True))


def image_array(msg: Image) -> np.ndarray:
    """An rgb8 Image message as uint8 [H, W, 3]."""
    return np.frombuffer(bytes(msg.data), dtype=np.uint8).reshape(msg.height, msg.width, 3)


def task_path(task: str | Path) -> Path:
    """The pack file a `task` parameter names: a path (`<tasks>/<id>.json`, as the CLI's --tasks and --task
    resolve it), or a bare task id of the suite's task folder."""
    text = str(task)
    return Path(text) if text.endswith(".json") or "/" in text else default_tasks_dir() / f"{text}.json"


def _task_reason(value: str) -> str | None:
    if not value:
        return "no task given: a task pack file (.json) or a task id of interactiveworld/tasks"
    try:
        load_pack(task_path(value))
    except TaskPackError as exc:
        return str(exc)
    return None


def declare_task(node: ContractNode) -> TaskPack:
    return load_pack(
        task_path(
            node.declare(
                "task", "", "the task: a task pack file (.json) or a task id of interactiveworld/tasks", _task_reason
            )
        )
    )


def _agent_reason(option: str, references: dict[str, str]):
    """Refuses a value that is not one entry of the `--models` grammar (the reason names the entry)."""

    def reason(value: str) -> str | None:
        try:
            specs = parse_models(value, references, option)
        except ModelSpecError as exc:
            return str(exc).removeprefix(f"{option}: ")
        return None if len(specs) == 1 else f"takes one entry, got {len(specs)}"

    return reason


def declare_agent(node: ContractNode, option: str, default: str, references: dict[str, str], what: str) -> str:
    """The bench agent name (`agent_name`) of the node's agent parameter."""
    value = node.declare(
        option,
        default,
        f"{what}: one entry of the --models grammar: a reference "
        f"({', '.join(references)}), a preset of config/models.yaml or "
        "openai-compatible:<model_id>@<base_url>",
        _agent_reason(option, references),
    )
    return agent_name(parse_models(value, references, option)[0])


def close_agent(agent) -> None:
    getattr(agent, "close", lambda: None)()
