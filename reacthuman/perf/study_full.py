"""Study, decide side in full: the paper's study shape run through the real commands on this machine, not
extrapolated from a sample (`BenchConfig.study_full_scenes`, `reacthuman bench --sections study --study-full N`;
306 is the whole balanced set, 18 scenes per family).

A scene set of N scenes is generated first (untimed: the study's input), then timed one after the other, each a
child process as a user runs it:

    reacthuman scenes render SCENES --workers 2
    reacthuman decide --scenes SCENES --models instant_0,...,instant_6 --out RUN --concurrency C

Wall seconds around each, and the CPU seconds of the child and every process it waited for (its render
workers) from resource.getrusage(RUSAGE_CHILDREN) taken before and after. The 7 models are the study's
instant loopback presets (perf.study._InstantModels), served from this process: their server's CPU is the
model's, not the suite's, and is not counted. The graph path stays the sample's extrapolation (perf.study)."""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

from reacthuman.perf.common import Goal
from reacthuman.scoring.ledger import read_ledger

FAMILIES = 17
STUDY_SCENES = 306
FULL_GOAL_S = 25 * 60.0


def _run_timed(cmd: list[str], what: str) -> dict:
    """{"wall_s", "cpu_s"} of one child process run to its end; RuntimeError with its last words on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall_s = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-2000:]}")
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall_s, 1), "cpu_s": round(cpu_s, 1)}


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "reacthuman.cli", *args]


def generate_study_set(out: Path, scenes: int, seed: int = 0) -> None:
    """N scenes: the balanced set (N/17 per family) when N is a multiple of 17, else N scenes of all families."""
    size = ["--balanced", str(scenes // FAMILIES)] if scenes % FAMILIES == 0 else ["--count", str(scenes)]
    _run_timed(_cli("scenes", "generate", *size, "--seed", str(seed), "--workers", "2", "--out", str(out)), "generate")


def full_decide_path(work: Path, scenes: int, models: list[str], concurrency: int, render_workers: int = 2) -> dict:
    """The decide path of the study on `scenes` scenes x `models`, through `scenes render` and `decide`."""
    scenes_dir, run_dir = work / "study_full_scenes", work / "study_full_run"
    generate_study_set(scenes_dir, scenes)
    count = len(list(scenes_dir.glob("*/spec.json")))
    if count != scenes:
        raise RuntimeError(f"scenes generate wrote {count} scenes into {scenes_dir}, expected {scenes}")
    render = _run_timed(_cli("scenes", "render", str(scenes_dir), "--workers", str(render_workers)), "scenes render")
    decide = _run_timed(
        _cli(
            "decide",
            "--scenes",
            str(scenes_dir),
            "--models",
            ",".join(models),
            "--out",
            str(run_dir),
            "--concurrency",
            str(concurrency),
        ),
        "decide",
    )
    rows = read_ledger(run_dir)
    scored = sum(r.scored for r in rows)
    if len(rows) != scenes * len(models) or scored != len(rows):
        raise RuntimeError(f"decide wrote {len(rows)} rows ({scored} scored) for {scenes} x {len(models)} pairs")
    wall_s = render["wall_s"] + decide["wall_s"]
    cpu_s = render["cpu_s"] + decide["cpu_s"]
    goal = Goal(FULL_GOAL_S, "s", False, "the whole study (306 renders + 2,142 decisions) in 25 min on 2 cores")
    return {
        "scenes": scenes,
        "models": len(models),
        "decisions": len(rows),
        "render_workers": render_workers,
        "concurrency": concurrency,
        "render": render,
        "decide": decide,
        "wall_s": round(wall_s, 1),
        "cpu_s": round(cpu_s, 1),
        "cpu_s_per_decision": round(cpu_s / len(rows), 4),
        # the goal is the paper's 306 x 7: a smaller check set has none (start-up costs would dominate it)
        "goal": goal.to_dict(wall_s) if scenes == STUDY_SCENES and len(models) == 7 else None,
    }
