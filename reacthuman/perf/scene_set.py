"""The labelled scenes the benchmark runs on, written by `reacthuman scenes generate` in a child process
(the generator's own Genesis settings, and the bench process never labels anything itself)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from reacthuman.scenes.spec import SceneSpec

BENCH_FAMILY = "object_drop"  # a falling object over the G1: every stage of an episode does real work
BENCH_SEED = 7


def generate_scenes(out: Path, count: int, family: str = BENCH_FAMILY, seed: int = BENCH_SEED) -> list[SceneSpec]:
    """Labelled scenes in out/<scene_id>/spec.json (the layout the graph's scene generator reads)."""
    cmd = [
        sys.executable,
        "-m",
        "reacthuman.cli",
        "scenes",
        "generate",
        "--count",
        str(count),
        "--families",
        family,
        "--seed",
        str(seed),
        "--out",
        str(out),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"scenes generate failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    specs = [SceneSpec.from_json(p.read_text()) for p in sorted(out.glob("*/spec.json"))]
    if len(specs) < count:
        raise RuntimeError(f"scenes generate wrote {len(specs)} scenes into {out}, expected {count}")
    return specs[:count]
