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


@dataclass
class RestartPolicy:
    """When a worker starts a fresh graph between episodes: after `every_episodes` episodes (0: never), or
    once a node's resident memory has grown more than `above_warmup_pct` over its level after the first
    graph's `warmup_episodes` (0: never), whichever comes first."""

    every_episodes: int = 0
    above_warmup_pct: float = 8.0
    warmup_episodes: int = 2
    reference_mib: dict[str, float] | None = None

    def __post_init__(self) -> None:
        if self.every_episodes < 0:
            raise ValueError(f"RestartPolicy.every_episodes must be >= 0, got {self.every_episodes}")
        if not self.above_warmup_pct >= 0:
            raise ValueError(f"RestartPolicy.above_warmup_pct must be >= 0, got {self.above_warmup_pct}")
        if self.warmup_episodes < 1:
            raise ValueError(f"RestartPolicy.warmup_episodes must be >= 1, got {self.warmup_episodes}")

    def due(self, graph_episodes: int, rss_mib: dict[str, float]) -> str | None:
        """Why the graph should be restarted before the next episode, or None."""
        if self.every_episodes and graph_episodes >= self.every_episodes:
            return f"{graph_episodes} episodes on this graph"
        if not self.above_warmup_pct:
            return None
        if self.reference_mib is None:
            if graph_episodes >= self.warmup_episodes:
                self.reference_mib = dict(rss_mib)
            return None
        limit = 1.0 + self.above_warmup_pct / 100.0
        grown = [f"{n} {mib:.0f} MiB" for n, mib in sorted(rss_mib.items())
                 if n in self.reference_mib and mib > self.reference_mib[n] * limit]
        return f"memory above {self.above_warmup_pct:g}% over its warm-up level ({', '.join(grown)})" if grown else None


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


def report_lines(run_dir: Path, warmup: int = 2) -> list[str]:
    """Per episode (resident MiB of each node) and per node whether it stayed flat after warm-up."""
    samples = read_samples(run_dir)
    if not samples:
        return [f"no memory samples in {Path(run_dir) / MEMORY_LOG}"]
    nodes = sorted({n for row in samples for n in row["rss_mib"]})
    lines = ["episode  graph_ep  " + "  ".join(f"{n:>15}" for n in nodes) + "  (resident MiB after the episode)"]
    for k, row in enumerate(samples, 1):
        cells = "  ".join(f"{row['rss_mib'].get(n, float('nan')):>15.1f}" for n in nodes)
        lines.append(f"{k:>7}  {row.get('graph_episode', 0):>8}  {cells}")
    for model in sorted({row["model"] for row in samples}):
        for d in summarize([row for row in samples if row["model"] == model], warmup):
            verdict = "flat" if d.flat() else f"GROWS beyond {FLAT_TOLERANCE:.0%}"
            lines.append(f"{model} {d.node}: {d.after_warmup_mib:.1f} MiB after {warmup} episodes, at most "
                         f"{d.max_mib:.1f} later ({d.growth:+.1%}): {verdict}")
    return lines


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m reacthuman.evaluation.memory_log", description=__doc__.splitlines()[0])
    p.add_argument("run_dir", type=Path)
    p.add_argument("--warmup", type=int, default=2, help="episodes before the reference level")
    args = p.parse_args(argv)
    if args.warmup < 1:
        print("memory_log: --warmup must be >= 1")
        return 2
    print("\n".join(report_lines(args.run_dir, args.warmup)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
