"""Scenes: labelled scenes per minute without rendering, measured by the scene generator's own benchmark
(reacthuman.perf.scene_generation) in child processes (each owns its Genesis settings), repeated for a median: one
process alone, then one per core at once.

    python -m reacthuman.perf.scenes --scenes N --repeats R     # the child: one JSON line"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from reacthuman.perf.common import Goal, Repeats
from reacthuman.perf.scene_generation import run

# The performance issue's target: 10,000 labelled scenes in under an hour (50 min), medians of >= 3 repeats.
SCENES_GOAL = Goal(200.0, "scenes/min", True, "10,000 labelled scenes within 50 minutes")


def scenes_section(n_scenes: int, repeats: int, workers: int | None = None, timeout_s: float = 3600.0) -> dict:
    """One process labelling alone, then `workers` processes (default: one per core) at once, as `scenes
    generate --workers` runs them; the goal is judged on the machine's rate, all processes together."""
    workers = workers or os.cpu_count() or 1
    alone = _children(1, n_scenes, repeats, timeout_s)[0]
    together = _children(workers, n_scenes, repeats, timeout_s) if workers > 1 else [alone]
    per_min = Repeats.of([r["labelled_scenes_per_min"] for r in alone])
    best = min(alone, key=lambda r: abs(r["labelled_scenes_per_min"] - per_min.median))
    # A process's repeats run on their own clock; the machine's rate is the sum of the processes' medians.
    per_process = [Repeats.of([r["labelled_scenes_per_min"] for r in runs]).median for runs in together]
    machine_rate = sum(per_process)
    return {
        "scenes_per_repeat": n_scenes,
        "families": "cycled through all 17",
        "labelled_scenes_per_min": per_min.to_dict(2),
        "startup_s": alone[0]["startup_s"],
        "invalid": sum(r["invalid"] for r in alone),
        "breakdown_s_per_scene": best["breakdown_s_per_scene"],
        "all_cores": {
            "workers": workers,
            "labelled_scenes_per_min": round(machine_rate, 2),
            "per_process_median": [round(v, 2) for v in per_process],
        },
        "hours_for_10000": round(10_000 / machine_rate / 60.0, 2),
        "goal": SCENES_GOAL.to_dict(machine_rate),
    }


def _children(n: int, n_scenes: int, repeats: int, timeout_s: float) -> list[list[dict]]:
    """The runs of n benchmark processes started together, each on its own seeds."""
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "reacthuman.perf.scenes",
                "--scenes",
                str(n_scenes),
                "--repeats",
                str(repeats),
                "--first-seed",
                str(FIRST_SEED + i * SEEDS_PER_PROCESS),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(n)
    ]
    out = []
    for proc in procs:
        try:
            stdout, stderr = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            raise RuntimeError(f"scene benchmark ran past {timeout_s:.0f} s") from None
        lines = [line for line in stdout.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or not lines:
            raise RuntimeError(f"scene benchmark failed ({proc.returncode}): {stderr.strip()[-1500:]}")
        out.append(json.loads(lines[-1])["runs"])
    return out


FIRST_SEED = 1000
SEEDS_PER_PROCESS = 100_000  # processes run together never label the same scene


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m reacthuman.perf.scenes")
    p.add_argument("--scenes", type=int, required=True)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--first-seed", type=int, default=FIRST_SEED)
    a = p.parse_args(argv)
    if a.scenes < 1 or a.repeats < 1:
        print("bench scenes: --scenes and --repeats must be >= 1", file=sys.stderr)
        return 2

    runs = [run(a.scenes, 0, [], first_seed=a.first_seed) for _ in range(a.repeats)]
    print(json.dumps({"runs": runs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
