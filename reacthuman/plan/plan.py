"""The reaction plan a brain commits while time is frozen, and the frame it is expressed in.

Robot frame: origin at the G1's pelvis projected to the floor at the moment of the freeze, x forward
(the direction the robot faces), y left, z up, metres. Hand targets are offsets from each hand's rest
position in that frame (the page notes' convention: left [0.10, 0.15, 0.00] is a little forward and out).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum


class Action(str, Enum):
    CATCH = "CATCH"
    DODGE = "DODGE"
    NO_ACTION = "NO_ACTION"


@dataclass(frozen=True)
class Keyframe:
    t_s: float
    left_hand: tuple[float, float, float]
    right_hand: tuple[float, float, float]
    knee_bend: float = 0.0

    def __post_init__(self) -> None:
        for name in ("left_hand", "right_hand"):
            value = getattr(self, name)
            if len(value) != 3:
                raise ValueError(f"keyframe.{name} must have 3 numbers, got {len(value)}")
        numbers = (self.t_s, self.knee_bend, *self.left_hand, *self.right_hand)
        if not all(math.isfinite(v) for v in numbers):
            raise ValueError("keyframe has a NaN or infinite number")
        if self.t_s < 0:
            raise ValueError(f"keyframe.t_s must be >= 0, got {self.t_s}")


@dataclass(frozen=True)
class Plan:
    """A parsed reaction plan. Fields mirror reacthuman_msgs/ReactionPlan."""

    object_identified: str
    intent: str
    confidence: float
    walking_cmd: tuple[float, float, float]  # vx m/s, vy m/s, yaw rate rad/s, robot frame
    walking_duration_s: float
    catch_duration_s: float = 0.0
    keyframes: tuple[Keyframe, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if len(self.walking_cmd) != 3:
            raise ValueError(f"walking_cmd must have 3 numbers, got {len(self.walking_cmd)}")
        numbers = (self.confidence, self.walking_duration_s, self.catch_duration_s, *self.walking_cmd)
        if not all(math.isfinite(v) for v in numbers):
            raise ValueError("plan has a NaN or infinite number")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be in [0, 1], got {self.confidence}")
        if self.walking_duration_s < 0:
            raise ValueError(f"walking_duration must be >= 0, got {self.walking_duration_s}")

    def walk_displacement_m(self) -> tuple[float, float]:
        """Planar displacement the walking command asks for, in the robot frame (yaw ignored)."""
        vx, vy, _ = self.walking_cmd
        return vx * self.walking_duration_s, vy * self.walking_duration_s


# Hand rest positions of the G1 standing in its default pose, robot frame (m). Keyframe hand targets are
# offsets from these: the palm sites by forward kinematics of the installed G1 in its default pose (pelvis at
# 0.757 m); test_spine_assets checks them against g1_assets.default_pose_geometry().
REST_LEFT_HAND_M: tuple[float, float, float] = (0.153, 0.227, 0.677)
REST_RIGHT_HAND_M: tuple[float, float, float] = (0.153, -0.227, 0.677)


@dataclass(frozen=True)
class Pose2D:
    """Where the robot stands: world x, y (m) and yaw (rad, 0 = facing world +x)."""

    x_m: float
    y_m: float
    yaw_rad: float

    def to_world(self, p_robot: tuple[float, float, float]) -> tuple[float, float, float]:
        c, s = math.cos(self.yaw_rad), math.sin(self.yaw_rad)
        x, y, z = p_robot
        return (self.x_m + c * x - s * y, self.y_m + s * x + c * y, z)

    def to_robot(self, p_world: tuple[float, float, float]) -> tuple[float, float, float]:
        c, s = math.cos(self.yaw_rad), math.sin(self.yaw_rad)
        dx, dy = p_world[0] - self.x_m, p_world[1] - self.y_m
        return (c * dx + s * dy, -s * dx + c * dy, p_world[2])


def planned_hand_path_robot(plan: Plan) -> list[tuple[float, tuple[float, float, float], tuple[float, float, float]]]:
    """(t, left, right) hand positions the plan commands, in the freeze-time robot frame.

    The base is taken to move by the walking command for min(t, walking_duration) (yaw ignored: the
    plan's hands are placed relative to where the body has walked). Empty keyframes give the rest pose
    at t = 0 so every plan has a defined path.
    """
    vx, vy, _ = plan.walking_cmd
    frames = plan.keyframes or (Keyframe(0.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),)
    path = []
    for kf in sorted(frames, key=lambda k: k.t_s):
        walked = min(kf.t_s, plan.walking_duration_s)
        base = (vx * walked, vy * walked, 0.0)
        left = tuple(b + r + o for b, r, o in zip(base, REST_LEFT_HAND_M, kf.left_hand))
        right = tuple(b + r + o for b, r, o in zip(base, REST_RIGHT_HAND_M, kf.right_hand))
        path.append((kf.t_s, left, right))
    return path
