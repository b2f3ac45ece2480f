"""Benchmark of the scene generator (not a test): labelled scenes per minute without rendering, rendered
frame-sets (three views at one instant) per second, and where the time goes.

    python -m reacthuman.perf.scene_generation --scenes 34 --frame-sets 5 [--json out.json]

Scenes cycle through the 17 families (one Genesis process, as `scenes generate` runs). No frames or units
beyond seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from reacthuman.scenes import FAMILIES, SceneInvalid, label_spec, sample_spec
from reacthuman.scenes.render import VIEWS

TARGET_SCENES = 10_000
TARGET_HOURS = round(50 / 60, 2)  # the benchmark's goal (reacthuman.perf.scenes): 10,000 scenes in 50 min


def run(n_scenes: int, n_frame_sets: int, resolutions: list[tuple[int, int]], first_seed: int = 1000) -> dict:
    t_import = time.perf_counter()
    from reacthuman.scenes.genesis_sim import GenesisSimulator

    sim = GenesisSimulator()
    first = sample_spec(FAMILIES[0], 0)
    sim.run(first)  # warm-up: kernel load/compile is a one-off per process
    startup_s = time.perf_counter() - t_import
    sim.timings_s.clear()
    sample_s = label_s = 0.0
    invalid = 0
    split = {"CATCH": 0, "DODGE": 0, "NO_ACTION": 0}
    t_all = time.perf_counter()
    for i in range(n_scenes):
        fam = FAMILIES[i % len(FAMILIES)]
        t = time.perf_counter()
        spec = sample_spec(fam, first_seed + i)
        sample_s += time.perf_counter() - t
        t = time.perf_counter()
        try:
            split[label_spec(spec, sim).ground_truth.correct_action] += 1
        except SceneInvalid:
            invalid += 1
        label_s += time.perf_counter() - t
    wall_s = time.perf_counter() - t_all
    sim_parts = dict(sim.timings_s)
    other_label_s = label_s - sum(sim_parts.values())
    per_scene_s = wall_s / max(n_scenes, 1)
    report = {
        "scenes": n_scenes,
        "invalid": invalid,
        "label_split": split,
        "startup_s": round(startup_s, 1),
        "wall_s": round(wall_s, 2),
        "labelled_scenes_per_min": round(60.0 / per_scene_s, 2),
        "seconds_per_scene": round(per_scene_s, 3),
        "breakdown_s_per_scene": {
            k: round(v / n_scenes, 4)
            for k, v in {**sim_parts, "sample_spec": sample_s, "label_and_validate": other_label_s}.items()
        },
        "hours_for_10000": round(TARGET_SCENES * per_scene_s / 3600 + startup_s / 3600, 2),
        "target_hours": TARGET_HOURS,
    }
    renders = []
    for width, height in resolutions:
        spec = label_spec(sample_spec("object_drop", 5, width=width, height=height), sim)
        frames, render_s = 0, 0.0
        marks = set(range(0, n_frame_sets * 36, 36))

        def on_step(k: int) -> None:
            nonlocal frames, render_s
            if k in marks:
                t = time.perf_counter()
                for view in VIEWS:
                    sim.cameras[view].render(rgb=True, depth=False)
                render_s += time.perf_counter() - t
                frames += 1

        t = time.perf_counter()
        sim.run(spec, on_step=on_step, cameras=True, resolution=(width, height))
        renders.append(
            {
                "resolution": f"{width}x{height}",
                "frame_sets": frames,
                "frame_sets_per_s": round(frames / render_s, 3) if render_s else None,
                "scene_wall_s": round(time.perf_counter() - t, 2),
            }
        )
    report["rendering"] = renders
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m reacthuman.perf.scene_generation")
    p.add_argument("--scenes", type=int, default=34)
    p.add_argument("--frame-sets", type=int, default=5)
    p.add_argument("--resolutions", default="1280x720,640x360")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    if args.scenes < 1 or args.frame_sets < 0:
        print("bench: --scenes must be >= 1 and --frame-sets >= 0", file=sys.stderr)
        return 2
    res = [tuple(int(v) for v in r.split("x")) for r in args.resolutions.split(",") if r]
    report = run(args.scenes, args.frame_sets, res)  # type: ignore[arg-type]
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
