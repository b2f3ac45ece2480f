"""When a policy is asked and when its actions take effect, in physics steps: one rule for the in-process
episode (`evaluation.policy_episode.PolicyTicks`) and the graph (the body renders the policy's frames at its ticks, the
spine node applies its commands), so both transports switch the spine's plan at the same control tick.

A policy tick is a control tick (the spine is asked there, and the body publishes the robot's state there):
the first control tick at or after the event's start, then every `policy_hz` period rounded to whole
control periods. An action computed at tick s takes effect at s + ceil(delay / dt), and never before the
step after s (the command of tick s itself is computed before the policy has seen tick s's frames).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class PolicySchedule:
    """The policy ticks of one episode (physics steps counted from the scene's start)."""

    t0_step: int  # the event's start: policy times are counted from here
    first_step: int
    period_steps: int
    dt_s: float

    def is_tick(self, step: int) -> bool:
        return step >= self.first_step and (step - self.first_step) % self.period_steps == 0

    def ticks_before(self, step: int) -> int:
        """How many policy ticks come strictly before `step`."""
        return 0 if step <= self.first_step else -(-(step - self.first_step) // self.period_steps)

    def t_s(self, step: int) -> float:
        """A step's time after the event's start (s)."""
        return (step - self.t0_step) * self.dt_s

    def apply_step(self, tick_step: int, delay_s: float) -> int:
        """The step at which an action computed at `tick_step`, charged `delay_s`, takes effect."""
        return max(tick_step + 1, tick_step + math.ceil(delay_s / self.dt_s - 1e-9))


def policy_schedule(t0_s: float, dt_s: float, decimation: int, policy_hz: float) -> PolicySchedule:
    """The ticks of a policy asked at `policy_hz` in a scene starting its event at `t0_s`, with the spine
    asked every `decimation` physics steps of `dt_s`."""
    if decimation < 1 or dt_s <= 0 or policy_hz <= 0:
        raise ValueError(
            f"policy schedule needs decimation >= 1, dt_s > 0 and policy_hz > 0 (got {decimation}, {dt_s}, {policy_hz})"
        )
    t0_step = round(t0_s / dt_s)
    first = -(-t0_step // decimation) * decimation
    periods = max(1, round(1.0 / (policy_hz * dt_s * decimation)))
    return PolicySchedule(t0_step, first, periods * decimation, dt_s)


@dataclass(frozen=True)
class Command(Generic[T]):
    tick_step: int
    apply_step: int
    plan: T


class CommandQueue(Generic[T]):
    """The actions a policy has returned, in tick order, until they take effect. `ready(step)`: every tick
    before `step` has returned its action (the graph's spine waits for that before it answers the step);
    `due(step)`: the plans to set before the spine is asked at `step`, oldest first."""

    def __init__(self, schedule: PolicySchedule) -> None:
        self.schedule = schedule
        self._pending: deque[Command[T]] = deque()
        self._received = 0

    def add(self, tick_step: int, delay_s: float, plan: T) -> None:
        if not self.schedule.is_tick(tick_step):
            raise ValueError(f"policy command for step {tick_step}, which is no policy tick")
        expected = self.schedule.first_step + self._received * self.schedule.period_steps
        if tick_step != expected:
            raise ValueError(f"policy command for step {tick_step} out of order (expected step {expected})")
        self._received += 1
        self._pending.append(Command(tick_step, self.schedule.apply_step(tick_step, delay_s), plan))

    def ready(self, step: int) -> bool:
        return self._received >= self.schedule.ticks_before(step)

    def due(self, step: int) -> list[T]:
        plans = []
        while self._pending and self._pending[0].apply_step <= step:
            plans.append(self._pending.popleft().plan)
        return plans
