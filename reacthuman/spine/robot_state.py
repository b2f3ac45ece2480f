"""What the spine reads from the body each control tick (simulated or real)."""

from __future__ import annotations

import math
from dataclasses import dataclass

N_JOINTS = 29


def _finite(values: tuple[float, ...]) -> bool:
    return all(math.isfinite(v) for v in values)


@dataclass(frozen=True)
class RobotState:
    """Joint q/dq in G1_JOINT_NAMES order (rad, rad/s); base orientation as a unit quaternion (w, x, y, z)
    from body to world; base angular velocity in the body frame (rad/s, the IMU gyro); base position and
    linear velocity in the world frame (m, m/s; known in simulation, zeros on the real robot)."""

    q: tuple[float, ...]
    dq: tuple[float, ...]
    base_quat_wxyz: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 0.0)
    base_ang_vel_body: tuple[float, float, float] = (0.0, 0.0, 0.0)
    base_pos_world: tuple[float, float, float] = (0.0, 0.0, 0.0)
    base_lin_vel_world: tuple[float, float, float] = (0.0, 0.0, 0.0)
    stamp_s: float = 0.0

    def __post_init__(self) -> None:
        for name, size in (
            ("q", N_JOINTS),
            ("dq", N_JOINTS),
            ("base_quat_wxyz", 4),
            ("base_ang_vel_body", 3),
            ("base_pos_world", 3),
            ("base_lin_vel_world", 3),
        ):
            value = tuple(float(v) for v in getattr(self, name))
            if len(value) != size:
                raise ValueError(f"RobotState.{name} has {len(value)} entries, expected {size}")
            if not _finite(value):
                raise ValueError(f"RobotState.{name} has a NaN or infinite entry")
            object.__setattr__(self, name, value)
        norm = math.sqrt(sum(v * v for v in self.base_quat_wxyz))
        if abs(norm - 1.0) > 1e-3:
            raise ValueError(f"RobotState.base_quat_wxyz must be a unit quaternion, norm is {norm:.4f}")

    def projected_gravity(self) -> tuple[float, float, float]:
        """World gravity direction (0, 0, -1) expressed in the body frame."""
        w, x, y, z = self.base_quat_wxyz
        # third row of R(q) transposed, negated: R^T (0, 0, -1)
        return (-2.0 * (x * z - w * y), -2.0 * (y * z + w * x), -(1.0 - 2.0 * (x * x + y * y)))

    def yaw_rad(self) -> float:
        w, x, y, z = self.base_quat_wxyz
        return math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
