"""Scenes: labelled scenes per minute without rendering, measured by the scene generator's own benchmark
(reacthuman.scenes.bench) in a child process (it owns its Genesis settings), repeated for a median.

    python -m reacthuman.bench.scenes --scenes N --repeats R     # the child: one JSON line"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from reacthuman.bench.common import Goal, Repeats

# The performance issue's target: 10,000 labelled scenes in under an hour (50 min), medians of >= 3 repeats.
SCENES_GOAL = Goal(200.0, "scenes/min", True, "10,000 labelled scenes within 50 minutes")


def scenes_section(n_scenes: int, repeats: int, timeout_s: float = 3600.0) -> dict:
    cmd = [sys.executable, "-m", "reacthuman.bench.scenes", "--scenes", str(n_scenes), "--repeats", str(repeats)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"scene benchmark failed ({done.returncode}): {done.stderr.strip()[-1500:]}")
    runs = json.loads(lines[-1])["runs"]
    per_min = Repeats.of([r["labelled_scenes_per_min"] for r in runs])
    best = min(runs, key=lambda r: abs(r["labelled_scenes_per_min"] - per_min.median))
    return {"scenes_per_repeat": n_scenes, "families": "cycled through all 17",
            "labelled_scenes_per_min": per_min.to_dict(2), "startup_s": runs[0]["startup_s"],
            "invalid": sum(r["invalid"] for r in runs), "breakdown_s_per_scene": best["breakdown_s_per_scene"],
            "hours_for_10000": round(10_000 / per_min.median / 60.0, 2),
            "goal": SCENES_GOAL.to_dict(per_min.median)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m reacthuman.bench.scenes")
    p.add_argument("--scenes", type=int, required=True)
    p.add_argument("--repeats", type=int, default=3)
    a = p.parse_args(argv)
    if a.scenes < 1 or a.repeats < 1:
        print("bench scenes: --scenes and --repeats must be >= 1", file=sys.stderr)
        return 2
    from reacthuman.scenes.bench import run

    runs = [run(a.scenes, 0, []) for _ in range(a.repeats)]
    print(json.dumps({"runs": runs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
