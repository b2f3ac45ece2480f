"""The policy slot: a controller that acts every control period without a freeze (a VLA-style policy).

A brain commits one plan while simulated time stands still; a policy is asked for an action every
`1 / policy_hz` seconds of simulated time while the hazard unfolds, from the latest frames of the views it
asks for and the robot's proprioception, and returns a base velocity and hand targets directly. Its
computation is part of its reaction: an action computed from the frames at t takes effect at
t + `reaction_delay_s` (a configured budget by default, so rows stay a function of the scene; the measured
time as an option).

Frames are the brain's frames (the same views and size, rendered by the same body); actions are in the plan's
robot frame (`reacthuman.plan.plan`): base velocity vx, vy (m/s) and yaw rate (rad/s); hand targets as offsets
from each hand's rest position (m); knee_bend in [0, 0.5].
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Mapping

import numpy as np

from reacthuman.brain.schema import HAND_OFFSET_LIMIT_M, KNEE_BEND_LIMIT, WALK_CMD_LIMIT
from reacthuman.plan.plan import Keyframe, Plan

VIEWS = ("egocentric", "closeup", "overhead")
LATENCY_MODES = ("budget", "measured")
Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class PolicyConfig:
    """How the slot runs a policy; every field validated on construction."""

    policy_hz: float = 10.0
    views: tuple[str, ...] = ("egocentric",)
    # 'budget': every action is charged reaction_delay_s (deterministic rows); 'measured': the wall time the
    # policy took, rounded up to whole physics steps (rows then depend on the machine)
    latency: str = "budget"
    reaction_delay_s: float = 0.1
    # how many of the latest frames per view the policy receives (1: the current frame only)
    frame_history: int = 2
    # an action holds until the next replaces it; if none comes (the episode's last period) it ends after this
    # long. Longer than a period because the walking policy needs about half a second to get a gait going:
    # a walk commanded 0.1 s at a time would never start.
    action_hold_s: float = 1.0

    def __post_init__(self) -> None:
        if not 0.5 <= self.policy_hz <= 50.0:
            raise ValueError(f"PolicyConfig.policy_hz must be in [0.5, 50], got {self.policy_hz}")
        if not self.views or any(v not in VIEWS for v in self.views):
            raise ValueError(f"PolicyConfig.views must name some of {', '.join(VIEWS)}, got {self.views!r}")
        if len(set(self.views)) != len(self.views):
            raise ValueError(f"PolicyConfig.views names a view twice: {self.views!r}")
        if self.latency not in LATENCY_MODES:
            raise ValueError(f"PolicyConfig.latency must be one of {', '.join(LATENCY_MODES)}, got {self.latency!r}")
        if not 0.0 <= self.reaction_delay_s <= 1.0:
            raise ValueError(f"PolicyConfig.reaction_delay_s must be in [0, 1], got {self.reaction_delay_s}")
        if not self.period_s <= self.action_hold_s <= 5.0:
            raise ValueError(f"PolicyConfig.action_hold_s must be in [1/policy_hz, 5], got {self.action_hold_s}")
        if not 1 <= self.frame_history <= 16:
            raise ValueError(f"PolicyConfig.frame_history must be in [1, 16], got {self.frame_history}")

    @property
    def period_s(self) -> float:
        return 1.0 / self.policy_hz


def default_config(**overrides: Any) -> PolicyConfig:
    """The slot's defaults with `overrides` (unknown names are a one-line error)."""
    known = {f.name for f in fields(PolicyConfig)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"unknown PolicyConfig field(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    if "views" in overrides:
        overrides["views"] = tuple(overrides["views"])
    return replace(PolicyConfig(), **overrides)


@dataclass(frozen=True)
class Proprioception:
    """What the robot feels: joints in G1_JOINT_NAMES order (rad, rad/s), the base in the freeze-free robot
    frame of the episode's start (m, m/s, rad), the hands' offsets from rest (m)."""

    joint_q_rad: tuple[float, ...]
    joint_dq_radps: tuple[float, ...]
    base_xy_yaw: Vec3
    base_velocity_mps: Vec3
    left_hand_m: Vec3 = (0.0, 0.0, 0.0)
    right_hand_m: Vec3 = (0.0, 0.0, 0.0)

    def vector(self) -> np.ndarray:
        """The flat state vector adapters hand to learned policies (LeRobot's `observation.state`)."""
        return np.array(
            [
                *self.joint_q_rad,
                *self.joint_dq_radps,
                *self.base_xy_yaw,
                *self.base_velocity_mps,
                *self.left_hand_m,
                *self.right_hand_m,
            ],
            dtype=np.float32,
        )


@dataclass(frozen=True)
class PolicyObservation:
    """One control period's input: the latest frames of each asked view (oldest first, HxWx3 uint8), their
    times (s after the event began) and the robot's proprioception."""

    t_s: float
    frame_times_s: tuple[float, ...]
    images: Mapping[str, tuple[np.ndarray, ...]]
    proprioception: Proprioception

    def __post_init__(self) -> None:
        if not math.isfinite(self.t_s) or self.t_s < 0:
            raise ValueError(f"PolicyObservation.t_s must be finite and >= 0, got {self.t_s}")
        for view, frames in self.images.items():
            if len(frames) != len(self.frame_times_s):
                raise ValueError(
                    f"PolicyObservation.images[{view!r}] has {len(frames)} frames for "
                    f"{len(self.frame_times_s)} frame times"
                )
            for frame in frames:
                if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
                    raise ValueError(
                        f"PolicyObservation.images[{view!r}] frames must be HxWx3 uint8, "
                        f"got {frame.shape} {frame.dtype}"
                    )


@dataclass(frozen=True)
class PolicyAction:
    """What a policy commands for the next control period, robot frame (see module docstring)."""

    base_velocity: Vec3 = (0.0, 0.0, 0.0)  # vx m/s, vy m/s, yaw rate rad/s
    left_hand_m: Vec3 = (0.0, 0.0, 0.0)
    right_hand_m: Vec3 = (0.0, 0.0, 0.0)
    knee_bend: float = 0.0

    def __post_init__(self) -> None:
        for name in ("base_velocity", "left_hand_m", "right_hand_m"):
            value = tuple(float(v) for v in getattr(self, name))
            if len(value) != 3:
                raise ValueError(f"PolicyAction.{name} must have 3 numbers, got {len(value)}")
            object.__setattr__(self, name, value)
        numbers = (*self.base_velocity, *self.left_hand_m, *self.right_hand_m, float(self.knee_bend))
        if not all(math.isfinite(v) for v in numbers):
            raise ValueError("PolicyAction has a NaN or infinite number")

    def clamped(self) -> "PolicyAction":
        """The action inside the plan schema's ranges (a policy's out-of-range output is limited, as the
        spine's rate limits would, not refused: a learned policy has no schema to obey)."""

        def clip(v: Vec3, limit: float) -> Vec3:
            return tuple(min(max(x, -limit), limit) for x in v)  # type: ignore[return-value]

        return PolicyAction(
            clip(self.base_velocity, WALK_CMD_LIMIT),
            clip(self.left_hand_m, HAND_OFFSET_LIMIT_M),
            clip(self.right_hand_m, HAND_OFFSET_LIMIT_M),
            min(max(float(self.knee_bend), 0.0), KNEE_BEND_LIMIT),
        )


def action_to_plan(action: PolicyAction, hold_s: float, name: str) -> Plan:
    """The spine's plan for an action: walk at its velocity and hold the hands at its targets for `hold_s`,
    unless the next period's plan replaces it first (`Spine.set_plan` keeps the gait state)."""
    a = action.clamped()
    hands_out = any(abs(v) > 1e-9 for v in (*a.left_hand_m, *a.right_hand_m)) or a.knee_bend > 0
    keyframes = (Keyframe(0.0, a.left_hand_m, a.right_hand_m, a.knee_bend),) if hands_out else ()
    return Plan(
        object_identified="",
        intent=f"policy {name}",
        confidence=1.0,
        walking_cmd=a.base_velocity,
        walking_duration_s=hold_s,
        catch_duration_s=hold_s if hands_out else 0.0,
        keyframes=keyframes,
    )


class Policy(ABC):
    """Observation in, action out, every control period. A policy may keep state between calls within an
    episode; reset() starts a new one. It never reads simulator state beyond its observation."""

    name: str = ""

    def __init__(self, config: PolicyConfig | None = None) -> None:
        self.config = config or default_config()

    def reset(self) -> None:
        """A new episode begins (clear any memory of the last one)."""

    @abstractmethod
    def act(self, observation: PolicyObservation) -> PolicyAction:
        """The action for the coming control period."""

    def close(self) -> None:
        """Release what the policy holds (a model, a process)."""


PolicyFactory = Callable[..., Policy]


@dataclass(frozen=True)
class PolicyEntry:
    factory: PolicyFactory
    description: str
    config: PolicyConfig = field(default_factory=PolicyConfig)


_POLICIES: dict[str, PolicyEntry] = {}


def register_policy(name: str, description: str, config: PolicyConfig | None = None) -> Callable[[type], type]:
    """Class decorator: make a policy selectable by `name` (`--models NAME`), with its default config."""

    def decorate(cls: type) -> type:
        if name in _POLICIES:
            raise ValueError(f"policy {name!r} is already registered")
        cls.name = name
        _POLICIES[name] = PolicyEntry(cls, description, config or PolicyConfig())
        return cls

    return decorate


def registered_policies() -> dict[str, str]:
    """Name -> description of every registered policy, sorted by name."""
    return {name: _POLICIES[name].description for name in sorted(_POLICIES)}


def make_policy(name: str, **overrides: Any) -> Policy:
    """A registered policy with its default config and `overrides` applied; a one-line error names the
    choices for an unknown name."""
    entry = _POLICIES.get(name)
    if entry is None:
        raise ValueError(f"unknown policy {name!r}; registered: {', '.join(sorted(_POLICIES)) or 'none'}")
    config = replace(entry.config, **overrides) if overrides else entry.config
    return entry.factory(config)
