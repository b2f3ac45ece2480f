"""What a body applies: the latest joint command while it is fresh, damping otherwise.

Used on the receiving side of every command path (the simulated body, the Unitree DDS bridge): the robot
starts damped, and a command stream that stops for longer than `timeout_s` drops it back to damping.
`WatchdogConfig` is read from config/watchdog.yaml; its damping_kd is the one damping gain of the spine, the
body and the watchdog (SpineConfig and BodyConfig take their default from it: `default_damping_kd`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reacthuman.core.config import config_with
from reacthuman.spine.joint_command import JointCommand, Mode


def damping_command(
    names: tuple[str, ...], q_measured: "tuple[float, ...] | list[float]", kd: float, stamp_s: float = 0.0
) -> JointCommand:
    n = len(names)
    return JointCommand(
        names=names,
        q=tuple(float(v) for v in q_measured),
        dq=(0.0,) * n,
        kp=(0.0,) * n,
        kd=(kd,) * n,
        tau=(0.0,) * n,
        mode=Mode.DAMPING,
        stamp_s=stamp_s,
    )


@dataclass(frozen=True)
class WatchdogConfig:
    """config/watchdog.yaml."""

    timeout_s: float = 0.1  # a command older than this (receiver's clock) drops the robot to damping
    # Unitree's damping mode holds joints with velocity feedback only; 2 N m s/rad slows a falling G1's limbs
    # without fighting gravity hard enough to jerk.
    damping_kd: float = 2.0

    def __post_init__(self) -> None:
        if not self.timeout_s > 0:
            raise ValueError(f"WatchdogConfig.timeout_s must be > 0, got {self.timeout_s}")
        if not self.damping_kd >= 0:
            raise ValueError(f"WatchdogConfig.damping_kd must be >= 0, got {self.damping_kd}")


def default_config(**overrides: Any) -> WatchdogConfig:
    """config/watchdog.yaml with `overrides` applied."""
    return config_with(WatchdogConfig, overrides)


def default_damping_kd() -> float:
    """The damping gain of config/watchdog.yaml: the default of SpineConfig's and BodyConfig's damping_kd, so
    the spine, the body and the watchdog damp alike unless one is told otherwise."""
    return default_config().damping_kd


class CommandWatchdog:
    """Feed it commands as they arrive (`receive`), ask it what to apply at each physics step (`apply`).

    Times are on the receiver's clock (simulated time in simulation, monotonic time on the robot).
    """

    def __init__(self, names: tuple[str, ...], config: WatchdogConfig | None = None) -> None:
        self.names = names
        self.config = config or default_config()
        self._latest: JointCommand | None = None
        self._received_s = 0.0
        self.timeouts = 0  # how many times a live stream went stale

    def receive(self, command: JointCommand, now_s: float) -> None:
        if command.names != self.names:
            raise ValueError("joint command names differ from the body's joints")
        self._latest = command
        self._received_s = now_s

    def stale(self, now_s: float) -> bool:
        return self._latest is None or now_s - self._received_s > self.config.timeout_s

    def apply(self, now_s: float, q_measured: "tuple[float, ...] | list[float]") -> JointCommand:
        if self._latest is not None and now_s - self._received_s > self.config.timeout_s:
            self._latest = None
            self.timeouts += 1
        if self._latest is None:
            return damping_command(self.names, q_measured, self.config.damping_kd, now_s)
        return self._latest
