"""Low-level joint command: the contract between the spine and the body (simulated or real).

Same semantics as Unitree's LowCmd motor command: per joint a position target q, velocity target dq,
gains kp, kd and a feed-forward torque tau; the body applies
    torque = kp * (q - q_measured) + kd * (dq - dq_measured) + tau
at the physics rate from the latest command it has.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum


class Mode(IntEnum):
    DAMPING = 0  # kp = 0, small kd: the safe state the spine starts in and falls back to
    ACTIVE = 1


@dataclass(frozen=True)
class JointCommand:
    names: tuple[str, ...]
    q: tuple[float, ...]
    dq: tuple[float, ...]
    kp: tuple[float, ...]
    kd: tuple[float, ...]
    tau: tuple[float, ...]
    mode: Mode = Mode.ACTIVE
    stamp_s: float = 0.0

    def __post_init__(self) -> None:
        n = len(self.names)
        for field_name in ("q", "dq", "kp", "kd", "tau"):
            values = getattr(self, field_name)
            if len(values) != n:
                raise ValueError(f"JointCommand.{field_name} has {len(values)} entries for {n} joints")
            if not all(math.isfinite(v) for v in values):
                raise ValueError(f"JointCommand.{field_name} has a NaN or infinite entry")
        if any(k < 0 for k in self.kp) or any(k < 0 for k in self.kd):
            raise ValueError("JointCommand gains kp and kd must be >= 0")

    def torques(
        self, q_measured: "list[float] | tuple[float, ...]", dq_measured: "list[float] | tuple[float, ...]"
    ) -> list[float]:
        return [
            kp * (q - qm) + kd * (dq - dqm) + t
            for q, dq, kp, kd, t, qm, dqm in zip(self.q, self.dq, self.kp, self.kd, self.tau, q_measured, dq_measured)
        ]
