"""What every benchmark section shares: medians of repeats, goals with verdicts, the machine's description.

Timings on shared machines are noisy, so a section reports medians of several repeats and ratios measured
in the same run; no figure here is ever a pass/fail test."""

from __future__ import annotations

import os
import platform
import statistics
import time
from dataclasses import asdict, dataclass
from typing import Callable

FAR_FACTOR = 2.0  # a stage this many times better than its goal is "far from its limit"


@dataclass(frozen=True)
class Repeats:
    """Median, spread and count of one measured quantity."""

    median: float
    min: float
    max: float
    n: int

    @classmethod
    def of(cls, values: list[float]) -> "Repeats":
        if not values:
            raise ValueError("Repeats.of needs at least one value")
        return cls(statistics.median(values), min(values), max(values), len(values))

    def to_dict(self, digits: int = 4) -> dict:
        return {k: (round(v, digits) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def time_repeats(fn: Callable[[], object], repeats: int) -> Repeats:
    """Wall seconds of `repeats` calls of fn."""
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return Repeats.of(out)


@dataclass(frozen=True)
class Goal:
    """A stage's limit: `value` in `unit`; higher_is_better says which side of it is good; `why` explains it."""

    value: float
    unit: str
    higher_is_better: bool
    why: str

    def margin(self, measured: float) -> float:
        """How many times better than the goal the measurement is (> 1: within it, < 1: missing it)."""
        if measured <= 0 or self.value <= 0:
            return 0.0 if self.higher_is_better else float("inf")
        return measured / self.value if self.higher_is_better else self.value / measured

    def verdict(self, measured: float | None) -> str:
        if measured is None:
            return "not measured"
        m = self.margin(measured)
        if m >= FAR_FACTOR:
            return f"far from limit by {m:.1f}x"
        if m >= 1.0:
            return f"meets goal ({m:.2f}x)"
        return f"misses goal by {1.0 / m:.2f}x" if m > 0 else "misses goal"

    def to_dict(self, measured: float | None) -> dict:
        return {
            "value": self.value,
            "unit": self.unit,
            "higher_is_better": self.higher_is_better,
            "why": self.why,
            "verdict": self.verdict(measured),
            "margin": None if measured is None else round(self.margin(measured), 3),
        }


def machine() -> dict:
    """The machine the figures were measured on, and how loaded it was when the run started."""
    mem_gib = None
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    mem_gib = round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return {
        "cpus": os.cpu_count(),
        "arch": platform.machine(),
        "memory_gib": mem_gib,
        "gpu": _gpu(),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
        "load_average_start": [round(v, 2) for v in os.getloadavg()],
    }


def _gpu() -> str | None:
    return "nvidia" if os.path.exists("/dev/nvidia0") else None


def load_average() -> list[float]:
    return [round(v, 2) for v in os.getloadavg()]
