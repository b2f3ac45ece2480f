"""Policies written to LeRobot's interface, run in the slot.

A LeRobot policy exposes `select_action(batch) -> action` (and usually `reset()`), where `batch` maps
`observation.images.<camera>` to float images [B, 3, H, W] in [0, 1] and `observation.state` to [B, D]. The
adapter builds that batch from the slot's observation (the latest frame of each view; the state vector of
`Proprioception.vector`) and reads the action as ACTION_LAYOUT: ten numbers in the plan's robot frame.
Weights are the user's: nothing is downloaded here. torch is imported only when such a policy runs.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

import numpy as np

from reacthuman.policy.base import Policy, PolicyAction, PolicyConfig, PolicyObservation

IMAGE_KEY_PREFIX = "observation.images."
STATE_KEY = "observation.state"
ACTION_LAYOUT = (
    "vx_mps",
    "vy_mps",
    "yaw_rate_radps",
    "left_x_m",
    "left_y_m",
    "left_z_m",
    "right_x_m",
    "right_y_m",
    "right_z_m",
    "knee_bend",
)


class LeRobotLike(Protocol):
    def select_action(self, batch: dict[str, Any]) -> Any: ...


def _torch() -> ModuleType:
    """torch, imported when a learned policy runs (seconds), never by the rest of the slot."""
    import torch

    return torch


def observation_batch(observation: PolicyObservation) -> dict[str, Any]:
    """The LeRobot batch (batch size 1, torch tensors on the CPU) for one slot observation."""
    torch = _torch()
    batch: dict[str, Any] = {}
    for view, frames in sorted(observation.images.items()):
        image = np.ascontiguousarray(frames[-1].transpose(2, 0, 1), dtype=np.float32) / 255.0
        batch[IMAGE_KEY_PREFIX + view] = torch.from_numpy(image).unsqueeze(0)
    batch[STATE_KEY] = torch.from_numpy(observation.proprioception.vector()).unsqueeze(0)
    return batch


def action_from_output(output: Any) -> PolicyAction:
    """ACTION_LAYOUT's ten numbers (a tensor or array of shape [10] or [1, 10]) as a PolicyAction."""
    values = np.asarray(output.detach().cpu().numpy() if hasattr(output, "detach") else output, dtype=np.float64)
    values = values.reshape(-1)
    if values.size != len(ACTION_LAYOUT):
        raise ValueError(
            f"a LeRobot policy's action must have {len(ACTION_LAYOUT)} numbers "
            f"({', '.join(ACTION_LAYOUT)}), got shape {tuple(np.shape(output))}"
        )
    v = [float(x) for x in values]
    return PolicyAction(
        base_velocity=(v[0], v[1], v[2]),
        left_hand_m=(v[3], v[4], v[5]),
        right_hand_m=(v[6], v[7], v[8]),
        knee_bend=v[9],
    )


class LeRobotPolicy(Policy):
    """Runs an object with LeRobot's `select_action` in the slot."""

    def __init__(self, inner: LeRobotLike, config: PolicyConfig | None = None, name: str = "lerobot") -> None:
        if not callable(getattr(inner, "select_action", None)):
            raise TypeError(f"{type(inner).__name__} has no select_action(batch): not a LeRobot-style policy")
        super().__init__(config)
        self.inner = inner
        self.name = name

    def reset(self) -> None:
        reset = getattr(self.inner, "reset", None)
        if callable(reset):
            reset()

    def act(self, observation: PolicyObservation) -> PolicyAction:
        with _torch().no_grad():
            return action_from_output(self.inner.select_action(observation_batch(observation)))
