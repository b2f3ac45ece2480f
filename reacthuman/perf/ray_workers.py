"""Ray: episodes per minute of `reacthuman eval` with the local executor, and with `--executor ray` on 1 and
2 Ray workers (a local Ray instance on this machine), the same (oracle, scene) pairs each time, end to end
(graph start-up, Ray start-up and the driver writing every episode folder included), each in a child
process as a user runs it. The verdicts: what Ray costs one worker against the local executor, and how
far a second worker scales. A "steady" rate (median gap between episodes of one graph) was tried and left
out: with two workers it came out at half the time any single-graph episode takes, so it did not measure
episodes; end to end is what a run of this size costs. Memory-triggered graph restarts are off in all three (--restart-above-pct 0):
one costs a whole graph start and falls on whichever run a node's memory happens to cross the threshold in,
which would measure the restart policy, not the executor."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from reacthuman.perf.common import Goal

RAY_TAX_GOAL = Goal(0.8, "x local", True, "one Ray worker keeps at least 80% of the local executor's episodes/min")
SCALING_GOAL = Goal(1.5, "x 1 worker", True, "a second Ray worker (a core of its own) adds at least half a worker")
RUNS = (
    ("local", ()),
    ("ray_1_worker", ("--executor", "ray", "--workers", "1")),
    ("ray_2_workers", ("--executor", "ray", "--workers", "2")),
)
MODEL = "oracle"


def _eval(scenes_dir: Path, out: Path, extra: tuple[str, ...], engine: str, domain_base: int, timeout_s: float) -> dict:
    cmd = [
        sys.executable,
        "-m",
        "reacthuman.cli",
        "eval",
        "--scenes",
        str(scenes_dir),
        "--models",
        MODEL,
        "--out",
        str(out),
        "--engine",
        engine,
        "--domain-base",
        str(domain_base),
        "--restart-above-pct",
        "0",
        *extra,
    ]
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    wall_s = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[3:])} failed ({done.returncode}): {done.stderr.strip()[-1500:]}")
    episodes = sum(1 for line in (out / "ledger.jsonl").read_text().splitlines() if line.strip())
    manifest = json.loads((out / "manifest.json").read_text())
    return {
        "wall_s": round(wall_s, 1),
        "episodes": episodes,
        "episodes_per_min": round(episodes / wall_s * 60.0, 2),
        "executor": manifest.get("executor"),
    }


def ray_section(scenes_dir: Path, work: Path, engine: str, domain_base: int, timeout_s: float = 3600.0) -> dict:
    """The three runs over every scene in scenes_dir, each into a fresh run folder under work."""
    runs = {}
    for i, (label, extra) in enumerate(RUNS):
        runs[label] = _eval(scenes_dir, work / f"ray-bench-{label}", extra, engine, domain_base + 10 * i, timeout_s)
    rate = {label: r["episodes_per_min"] for label, r in runs.items()}
    tax, scaling = rate["ray_1_worker"] / rate["local"], rate["ray_2_workers"] / rate["ray_1_worker"]
    return {
        "engine": engine,
        "model": MODEL,
        "scenes": runs["local"]["episodes"],
        "runs": runs,
        "ray_1_vs_local": round(tax, 3),
        "ray_2_vs_ray_1": round(scaling, 3),
        "goal": RAY_TAX_GOAL.to_dict(tax),
        "scaling_goal": SCALING_GOAL.to_dict(scaling),
    }
