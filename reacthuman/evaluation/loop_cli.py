"""`reacthuman loop`: run brains over scenes in process, open or closed loop, into a run's ledger.

    reacthuman loop --scenes SCENES --models oracle,heuristic --out RUN --loop closed [--engine mujoco]

Each episode runs with direct calls (`evaluation.episode.run_episode`, or `evaluation.closed_loop.
run_closed_episode` for `--loop closed`) on a body at the graph node's defaults, so an open-loop row equals
the graph's for a deterministic brain. Rows go to RUN/ledger.jsonl (append-only; an existing run is resumed
pair by pair) and `reacthuman report RUN` reads them; each episode's wall time goes to RUN/loop_walls.jsonl.
Through the ROS 2 graph: `reacthuman eval --loop closed` (the same rows)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from reacthuman.brain import DEFAULT_MODALITY, MODALITIES, make_brain
from reacthuman.core.jsonl import JsonlAppender
from reacthuman.evaluation.cli import done_pairs
from reacthuman.policy.loading import models_option
from reacthuman.evaluation.scene_set import load_scene_set
from reacthuman.scenes.spec import SceneSpec
from reacthuman.recording.episode_files import EpisodeFolder
from reacthuman.scoring.closed_loop import LOOPS, save_path
from reacthuman.scoring.ledger import LedgerWriter, ledger_path

WALLS_NAME = "loop_walls.jsonl"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="reacthuman loop", description=__doc__.splitlines()[0])
    p.add_argument("--scenes", type=Path, required=True, help="folder of generated scenes")
    models_option().add_to(p)
    p.add_argument("--out", type=Path, required=True, help="run folder (created; an existing one is resumed)")
    p.add_argument(
        "--loop",
        default="open",
        choices=LOOPS,
        help="open: one frozen observation, one plan (the paper's); closed: re-plans every "
        "replan_interval_s of simulated time (config/closed_loop.yaml)",
    )
    p.add_argument("--engine", default="genesis", choices=("genesis", "mujoco"))
    p.add_argument("--modality", default=DEFAULT_MODALITY, choices=MODALITIES, help="what LLM brains see")
    p.add_argument("--limit", type=int, default=None, help="only the first N scenes")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        specs = models_option().parse(args)
        if args.limit is not None and args.limit < 1:
            raise ValueError("--limit must be >= 1")
        scenes, _ = load_scene_set(args.scenes, args.limit)
        args.out.mkdir(parents=True, exist_ok=True)
        done = done_pairs(args.out)
    except (ValueError, OSError) as exc:
        print(f"reacthuman loop: {exc}", file=sys.stderr)
        return 2
    from reacthuman.spine.spine import Spine, default_config as spine_config
    from reacthuman.evaluation.closed_loop import run_closed_episode_with_path
    from reacthuman.evaluation.episode import run_episode
    from reacthuman.sim_bridge.body import Body, graph_config

    def run(spec: SceneSpec, brain, body, spine):
        """The episode's row; a closed-loop one's folder gets spec.json and the recorded hazard path first."""
        if args.loop == "open":
            return run_episode(spec, brain, body, spine)
        result, path = run_closed_episode_with_path(spec, brain, body, spine)
        folder = EpisodeFolder(args.out, result.record.model, spec.scene_id).final
        save_path(folder, path)
        (folder / "spec.json").write_text(spec.to_json())
        return result

    body = Body(graph_config(engine=args.engine))
    count = 0
    try:
        with LedgerWriter(args.out) as ledger, JsonlAppender(args.out / WALLS_NAME) as walls:
            for model in specs:
                brain = make_brain(model.entry, modality=args.modality)
                try:
                    for scene in scenes:
                        if (scene.scene_id, model.name) in done:
                            continue
                        spec = SceneSpec.from_json((scene.path / "spec.json").read_text())
                        started = time.perf_counter()
                        result = run(spec, brain, body, Spine(spine_config()))
                        wall_s = time.perf_counter() - started
                        ledger.append(result.record)
                        walls.append(
                            {
                                "scene_id": scene.scene_id,
                                "model": model.name,
                                "loop": args.loop,
                                "engine": args.engine,
                                "wall_s": round(wall_s, 3),
                            }
                        )
                        count += 1
                        print(
                            f"{scene.scene_id} x {model.name}: {result.record.action} "
                            f"(saa {result.record.saa}, {wall_s:.1f} s)",
                            flush=True,
                        )
                finally:
                    brain.close()
    finally:
        body.close()
    print(f"{count} episode(s) added to {ledger_path(args.out)}; report: reacthuman report {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
