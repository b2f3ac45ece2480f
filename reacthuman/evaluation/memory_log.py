"""Memory over a long run: after every episode the eval writes each node's resident memory (VmRSS) to
RUN_DIR/logs/memory.jsonl, and `summarize` says whether it stayed flat after warm-up (the goal: within 10%
of the level right after the warm-up episodes, per node)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from reacthuman.bench.memory import children, process_name

MEMORY_LOG = Path("logs") / "memory.jsonl"
FLAT_TOLERANCE = 0.10


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        return None
    return None


def graph_rss_mib(launcher_pid: int) -> dict[str, float]:
    """Resident MiB now of each node of the graph started by `launcher_pid`, by node name."""
    out = {}
    for pid in children(launcher_pid):
        value = rss_mib(pid)
        if value is not None:
            out[process_name(pid)] = round(value, 1)
    return out


def append_sample(run_dir: Path, row: dict) -> None:
    path = Path(run_dir) / MEMORY_LOG
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fh.write(json.dumps(dict(row, time=round(time.time(), 3)), sort_keys=True) + "\n")


@dataclass(frozen=True)
class NodeDrift:
    node: str
    after_warmup_mib: float
    last_mib: float
    max_mib: float

    @property
    def growth(self) -> float:
        return (self.max_mib - self.after_warmup_mib) / self.after_warmup_mib

    def flat(self) -> bool:
        return self.growth <= FLAT_TOLERANCE


def read_samples(run_dir: Path) -> list[dict]:
    path = Path(run_dir) / MEMORY_LOG
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.is_file() else []


def summarize(samples: list[dict], warmup: int = 2) -> list[NodeDrift]:
    """Per node of one worker's graphs: the level after `warmup` episodes against the highest later one."""
    series: dict[str, list[float]] = {}
    for row in samples:
        for node, mib in row["rss_mib"].items():
            series.setdefault(node, []).append(mib)
    return [NodeDrift(node, values[warmup - 1], values[-1], max(values[warmup - 1:]))
            for node, values in sorted(series.items()) if len(values) > warmup]
