"""Memory over a long run: after every episode the eval writes each node's resident memory (VmRSS) to
RUN_DIR/logs/memory.jsonl, and `summarize` says whether it stayed flat after warm-up (the goal: within 10%
of the level right after the warm-up episodes, per node)."""

from __future__ import annotations

import ctypes
import gc
import json
import os
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

from reacthuman.core.processes import children, process_name
import argparse

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


M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8  # glibc mallopt() parameters


MMAP_THRESHOLD_KIB = 256
ARENA_MAX = 2


def tune_allocator(mmap_threshold_kib: int = MMAP_THRESHOLD_KIB, arena_max: int = ARENA_MAX) -> bool:
    """Serve every allocation of at least `mmap_threshold_kib` with its own mapping, given back to the OS when
    freed (a fixed threshold: glibc's adaptive one climbs to the largest block freed, the 10 MB observation,
    after which such blocks fragment the heap), and cap the per-thread arenas. False where this is not glibc."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, mmap_threshold_kib * 1024)) and bool(mallopt(M_ARENA_MAX, arena_max))


def release_memory() -> None:
    """Hand freed memory back to the OS between episodes. An episode's large messages (the 10 MB observation,
    its frames) are freed on the executor threads that took them, into glibc arenas that keep the pages: a
    long-lived node's resident memory then climbs with the arenas' high-water marks, not with live objects
    (traced Python memory stays flat). `malloc_trim(0)` returns every arena's free pages."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to trim
        pass


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def heap_stats() -> dict[str, float | None]:
    """This process's resident MiB and glibc's heap totals over all arenas (mallinfo2): in use, free but kept
    by the allocator, and mmapped; None where this is not glibc."""
    out: dict[str, float | None] = {"rss_mib": rss_mib_self()}
    try:
        fn = ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return out | {"heap_used_mib": None, "heap_free_mib": None, "mmapped_mib": None}
    fn.restype = _MallInfo2
    info = fn()
    mib = lambda v: round(v / 2**20, 1)  # noqa: E731
    return out | {
        "heap_used_mib": mib(info.uordblks),
        "heap_free_mib": mib(info.fordblks),
        "mmapped_mib": mib(info.hblkhd),
    }


def rss_mib_self() -> float | None:
    value = rss_mib(os.getpid())
    return None if value is None else round(value, 1)


class AllocationTracer:
    """tracemalloc snapshots of a node taken after each episode, diffed against the previous one, as rows of
    `path` (JSON lines): resident and traced MiB, and the allocation sites that grew the most. Resident memory
    that grows while traced memory stays flat is native (allocator, DDS), not Python objects."""

    def __init__(self, path: Path, frames: int = 8, top: int = 12) -> None:
        self.path, self.top = Path(path), top
        self._previous: tracemalloc.Snapshot | None = None
        self._episodes = 0
        if not tracemalloc.is_tracing():
            tracemalloc.start(frames)

    def after_episode(self, scene_id: str, heap: dict, heap_after_trim: dict | None = None) -> dict:
        """`heap`: heap_stats() at the episode's end; `heap_after_trim`: after release_memory(), if it ran."""
        gc.collect()
        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        traced, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        self._episodes += 1
        row = {
            "episode": self._episodes,
            "scene_id": scene_id,
            "heap": heap,
            "heap_after_trim": heap_after_trim,
            "traced_mib": round(traced / 2**20, 2),
            "traced_peak_mib": round(peak / 2**20, 2),
            "grew": [],
        }
        if self._previous is not None:
            for stat in snapshot.compare_to(self._previous, "lineno")[: self.top]:
                frame = stat.traceback[0]
                row["grew"].append(
                    {
                        "site": f"{frame.filename}:{frame.lineno}",
                        "kib": round(stat.size_diff / 1024, 1),
                        "count": stat.count_diff,
                    }
                )
        self._previous = snapshot
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        return row


def append_sample(run_dir: Path, row: dict) -> None:
    path = Path(run_dir) / MEMORY_LOG
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fh.write(json.dumps(dict(row, time=round(time.time(), 3)), sort_keys=True) + "\n")


# Nodes the eval launch file marks `respawn: true`: a worker restarts them alone between episodes.
RESPAWNED_NODES = ("body",)


@dataclass(frozen=True)
class Restart:
    """Why to restart before the next episode, and what: `nodes` alone (respawned by the launcher), or the
    whole graph when `nodes` is empty."""

    reason: str
    nodes: tuple[str, ...] = ()


@dataclass
class RestartPolicy:
    """When a worker restarts between episodes: the body after `every_episodes` episodes (0: never), or
    before a node's resident memory could pass `above_warmup_pct` over its level after the first graph's
    `warmup_episodes` (0: never), the nodes concerned: the body alone where it is the only one (Genesis does
    not free a built scene), else the whole graph.

    "Could pass": the next episode may add as much as the largest rise one episode has added to that node
    so far (the body's level depends on the scene: up to 70 MiB on one episode, while it grows about 20 MiB
    per episode on average), so the node restarts once its level plus that rise would be over the limit;
    a policy that waited for the level itself to pass let the body end 12% over after one large scene.
    A node that has grown by less than `min_growth_mib` is left alone (a small node's allocator moving
    between plateaus, 10 MiB on a 110 MiB brain, is not worth a restart)."""

    every_episodes: int = 0
    above_warmup_pct: float = 10.0
    warmup_episodes: int = 2
    min_growth_mib: float = 32.0
    reference_mib: dict[str, float] | None = None
    max_rise_mib: dict[str, float] = field(default_factory=dict)
    _last_mib: dict[str, float] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.every_episodes < 0:
            raise ValueError(f"RestartPolicy.every_episodes must be >= 0, got {self.every_episodes}")
        if not self.above_warmup_pct >= 0:
            raise ValueError(f"RestartPolicy.above_warmup_pct must be >= 0, got {self.above_warmup_pct}")
        if self.warmup_episodes < 1:
            raise ValueError(f"RestartPolicy.warmup_episodes must be >= 1, got {self.warmup_episodes}")
        if not self.min_growth_mib >= 0:
            raise ValueError(f"RestartPolicy.min_growth_mib must be >= 0, got {self.min_growth_mib}")

    def due(self, episodes: int, rss_mib: dict[str, float]) -> Restart | None:
        """What to restart before the next episode (`episodes`: run since the last restart), or None."""
        self._note_rises(episodes, rss_mib)
        if self.every_episodes and episodes >= self.every_episodes:
            return Restart(f"{episodes} episodes on this body", RESPAWNED_NODES)
        if not self.above_warmup_pct:
            return None
        if self.reference_mib is None:
            if episodes >= self.warmup_episodes:
                self.reference_mib = dict(rss_mib)
            return None
        limit = 1.0 + self.above_warmup_pct / 100.0
        ref = self.reference_mib
        grown = sorted(
            n
            for n, mib in rss_mib.items()
            if n in ref and mib + self.max_rise_mib.get(n, 0.0) > ref[n] * limit and mib - ref[n] >= self.min_growth_mib
        )
        if not grown:
            return None
        reason = (
            f"memory within one episode's rise of {self.above_warmup_pct:g}% over its warm-up level "
            f"({', '.join(f'{n} {rss_mib[n]:.0f} MiB, +{self.max_rise_mib.get(n, 0.0):.0f}' for n in grown)})"
        )
        return Restart(reason, tuple(grown) if set(grown) <= set(RESPAWNED_NODES) else ())

    def _note_rises(self, episodes: int, rss_mib: dict[str, float]) -> None:
        """The largest rise of each node over one episode after warm-up. The first episode after a restart is
        not one: its previous sample was another process's."""
        if episodes >= 2 and self.reference_mib is not None:
            for n, mib in rss_mib.items():
                if n in self._last_mib:
                    self.max_rise_mib[n] = max(self.max_rise_mib.get(n, 0.0), mib - self._last_mib[n])
        self._last_mib = dict(rss_mib)


@dataclass(frozen=True)
class NodeDrift:
    node: str
    after_warmup_mib: float
    last_mib: float
    max_mib: float
    slope_mib_per_episode: float = 0.0  # least-squares slope over the episodes after warm-up

    @property
    def growth(self) -> float:
        return (self.max_mib - self.after_warmup_mib) / self.after_warmup_mib

    def flat(self) -> bool:
        return self.growth <= FLAT_TOLERANCE


def read_samples(run_dir: Path) -> list[dict]:
    path = Path(run_dir) / MEMORY_LOG
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.is_file() else []


def node_series(samples: list[dict]) -> dict[str, list[float]]:
    """Resident MiB per node, one value per episode it was measured after (in run order)."""
    series: dict[str, list[float]] = {}
    for row in samples:
        for node, mib in row["rss_mib"].items():
            series.setdefault(node, []).append(mib)
    return series


def slope(values: list[float]) -> float:
    """Least-squares MiB per episode; 0 for fewer than two values."""
    n = len(values)
    if n < 2:
        return 0.0
    mean_x, mean_y = (n - 1) / 2.0, sum(values) / n
    return sum((k - mean_x) * (v - mean_y) for k, v in enumerate(values)) / sum((k - mean_x) ** 2 for k in range(n))


def summarize(samples: list[dict], warmup: int = 2) -> list[NodeDrift]:
    """Per node of one worker's graphs: the level after `warmup` episodes against the highest later one."""
    return [
        NodeDrift(
            node, values[warmup - 1], values[-1], max(values[warmup - 1 :]), round(slope(values[warmup - 1 :]), 3)
        )
        for node, values in sorted(node_series(samples).items())
        if len(values) > warmup
    ]


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
            lines.append(
                f"{model} {d.node}: {d.after_warmup_mib:.1f} MiB after {warmup} episodes, at most "
                f"{d.max_mib:.1f} later ({d.growth:+.1%}), last {d.last_mib:.1f}, "
                f"{d.slope_mib_per_episode:+.2f} MiB/episode: {verdict}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
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
