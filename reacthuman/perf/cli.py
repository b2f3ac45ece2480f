"""`reacthuman bench [--quick] [--json OUT] [--sections a,b] [--markdown OUT.md]`

Measures every stage against its own limit, each figure a median of repeats, ratios measured in the same
run; prints a table and writes JSON with the top-level sections physics, render, transport, episode,
scenes, scoring, memory, tracking (plus machine and run), and ray when named in --sections. No figure is
a pass/fail test: a section that cannot run is reported with its error and the command exits 1."""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable

from reacthuman.perf.common import load_average, machine
from reacthuman.core.atomic import atomic_write_text
from reacthuman.spine.g1_assets import WALKING_POLICIES, check_walking_policy
from reacthuman.sim_bridge.body import GRAPH_BODY_DEFAULTS
from reacthuman.perf.scene_set import generate_scenes
from reacthuman.perf import scoring, scenes, transport
from reacthuman.perf import episode, physics, render
from reacthuman.perf.study import study_section
from reacthuman.perf.tracking import tracking_section
from reacthuman.perf.memory import memory_section
from reacthuman.perf.memory import per_episode_section, run_memory_episodes
from reacthuman.perf.ray_workers import ray_section
from reacthuman.perf.table import render_markdown, render_text, verdicts

SECTIONS = ("physics", "render", "transport", "episode", "scenes", "scoring", "memory", "tracking")
# run only when named in --sections: ray (minutes of graphs, three evals on a local Ray); study (a graph and
# Genesis renders on its own sample scenes: a few minutes)
OPT_IN_SECTIONS = ("ray", "study")
NEEDS_SCENE = ("physics", "render", "episode")

log = logging.getLogger("reacthuman.perf")


@dataclass(frozen=True)
class BenchConfig:
    """How much each section measures (the full run; `quick()` is the tiny version)."""

    physics_steps: int = 480
    physics_repeats: int = 5
    render_repeats: int = 5
    transport_windows: int = 30
    transport_warmup: int = 3
    transport_repeats: int = 3
    episode_repeats: int = 3
    episode_warmup: bool = True
    scenes_per_repeat: int = 17
    scenes_repeats: int = 3
    scoring_decisions: int = 3000
    scoring_repeats: int = 3
    tracking_quick: bool = False  # the tracking grid's 3-plan version
    walking_policy: str | None = None  # the tracking grid's spine: config/spine.yaml's, or one of WALKING_POLICIES
    memory_episodes: int = 20  # episodes of the memory-per-episode run (0: none)
    ray_scenes: int = 4  # scenes of each of the ray section's three evals (local, 1 and 2 Ray workers)
    ray_engine: str = "genesis"
    study_scenes: int = 6  # sample scenes the study section runs both paths on (each with 7 models), across families
    # the study's decide path in full through `scenes render` and `decide` on this many scenes (0: off; 306
    # is the paper's balanced set: about 25 min and 3 GiB of renders), with this many requests at once
    study_full_scenes: int = 0
    study_full_concurrency: int = 8

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, int) and not isinstance(value, bool) and value < (0 if name in _MAY_BE_ZERO else 1):
                raise ValueError(f"BenchConfig.{name} must be >= 1, got {value}")

    @classmethod
    def quick(cls) -> "BenchConfig":
        return cls(
            physics_steps=60,
            physics_repeats=3,
            render_repeats=3,
            transport_windows=5,
            transport_warmup=1,
            transport_repeats=1,
            episode_repeats=1,
            episode_warmup=True,
            scenes_per_repeat=3,
            scenes_repeats=3,
            scoring_decisions=300,
            scoring_repeats=2,
            tracking_quick=True,
            ray_scenes=2,
            memory_episodes=0,
            study_scenes=1,
        )


_MAY_BE_ZERO = ("transport_warmup", "memory_episodes", "study_full_scenes")


def _parse_sections(text: str | None) -> tuple[str, ...]:
    if not text:
        return SECTIONS
    names = tuple(s.strip() for s in text.split(",") if s.strip())
    unknown = [n for n in names if n not in SECTIONS + OPT_IN_SECTIONS]
    if unknown or not names:
        raise ValueError(
            f"--sections: unknown section(s) {', '.join(unknown) or '(none given)'} "
            f"(choose from {', '.join(SECTIONS + OPT_IN_SECTIONS)})"
        )
    return names


def run_bench(
    cfg: BenchConfig,
    sections: tuple[str, ...],
    work: Path,
    domain_base: int,
    progress: Callable[[str], None] = lambda s: None,
    plot_dir: Path | None = None,
    memory_run: Path | None = None,
) -> dict:
    report: dict = {
        "machine": machine(),
        "run": {
            "quick": cfg == BenchConfig.quick(),
            "config": asdict(cfg),
            "sections": list(sections),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
    }
    durations: dict[str, float] = {}
    spec, scenes_dir = None, work / "scenes"
    state: dict = {}

    def section(name: str, fn: Callable[[], dict]) -> None:
        if name not in sections:
            report[name] = {"skipped": "not in --sections"}
            return
        progress(f"bench: {name} ...")
        t = time.perf_counter()
        try:
            report[name] = fn()
            report[name]["load_average"] = load_average()
        except Exception as exc:  # one broken stage must not hide the others' figures
            log.debug("section %s failed", name, exc_info=True)
            report[name] = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()[-3000:]}
        durations[name] = round(time.perf_counter() - t, 1)
        progress(f"bench: {name} done in {durations[name]:.0f} s")

    if any(n in sections for n in NEEDS_SCENE):
        progress("bench: generating the benchmark scene ...")
        try:
            spec = generate_scenes(scenes_dir, 1)[0]
        except Exception as exc:
            for name in NEEDS_SCENE:
                report[name] = {"error": f"no benchmark scene: {exc}"}
            sections = tuple(n for n in sections if n not in NEEDS_SCENE)

    section("scoring", lambda: scoring.scoring_section(cfg.scoring_decisions, cfg.scoring_repeats, work))
    section(
        "transport",
        lambda: transport.transport_section(
            domain_base, cfg.transport_windows, cfg.transport_warmup, cfg.transport_repeats
        ),
    )
    section("scenes", lambda: scenes.scenes_section(cfg.scenes_per_repeat, cfg.scenes_repeats))
    if spec is not None:
        section("physics", lambda: physics.physics_section(spec, cfg.physics_steps, cfg.physics_repeats))
        section(
            "render",
            lambda: render.render_section(
                spec, cfg.render_repeats, frames_per_window=GRAPH_BODY_DEFAULTS["frame_count"]
            ),
        )

        def run_episode_section() -> dict:
            out = episode.episode_section(
                spec, scenes_dir, work, cfg.episode_repeats, cfg.episode_warmup, domain_base + 1
            )
            state["nodes_mib"] = out.pop("_nodes_peak_mib")
            return out

        section("episode", run_episode_section)
    if "study" in sections:
        section(
            "study",
            lambda: study_section(
                work, domain_base + 3, cfg.study_scenes, cfg.study_full_scenes, cfg.study_full_concurrency
            ),
        )

    section(
        "tracking",
        lambda: tracking_section(cfg.tracking_quick, (plot_dir or work) / "tracking.png", cfg.walking_policy),
    )

    def run_memory_section() -> dict:
        return memory_section(
            state.get("nodes_mib"),
            per_episode=_memory_per_episode(cfg, work, domain_base + 2, memory_run, plot_dir, progress),
        )

    section("memory", run_memory_section)
    if "ray" in sections:
        section("ray", lambda: _ray(cfg, work, domain_base + 20))
    for name in SECTIONS:
        report.setdefault(name, {"skipped": "not in --sections"})
    report["run"].update(
        {
            "ended": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "section_wall_s": durations,
            "load_average_end": load_average(),
        }
    )
    return report


def _memory_per_episode(
    cfg: BenchConfig,
    work: Path,
    domain_base: int,
    memory_run: Path | None,
    plot_dir: Path | None,
    progress: Callable[[str], None],
) -> dict | None:
    """Each node's memory per episode: over an existing run (--memory-run), or over a run of
    cfg.memory_episodes episodes of the benchmark scene made here."""

    if memory_run is None and not cfg.memory_episodes:
        return None
    if memory_run is None:
        progress(f"bench: memory over {cfg.memory_episodes} episodes through the graph ...")
        generate_scenes(work / "memory_source", 1)
        memory_run = run_memory_episodes(work / "memory_source", work, cfg.memory_episodes, domain_base)
    return per_episode_section(memory_run, (plot_dir or work) / "memory_per_episode.png")


def _ray(cfg: BenchConfig, work: Path, domain_base: int) -> dict:
    generate_scenes(work / "ray-scenes", cfg.ray_scenes)
    return ray_section(work / "ray-scenes", work, cfg.ray_engine, domain_base)


def write_json_atomic(path: Path, data: dict) -> None:
    atomic_write_text(path, json.dumps(data, indent=1) + "\n")


def _failed_sections(report: dict) -> list[str]:
    return [n for n in SECTIONS + OPT_IN_SECTIONS if "error" in report.get(n, {})]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="reacthuman bench", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a tiny version of every section (a few minutes)")
    p.add_argument("--json", type=Path, default=None, help="write the JSON report here")
    p.add_argument("--markdown", type=Path, default=None, help="also write the table as Markdown here")
    p.add_argument(
        "--sections",
        default=None,
        help=f"comma-separated subset of: {', '.join(SECTIONS)} (default: all "
        f"of them); also {', '.join(OPT_IN_SECTIONS)}, run only when named",
    )
    p.add_argument(
        "--domain-base",
        type=int,
        default=None,
        help="ROS domains used: base .. base+3, and base+20 .. for ray (default from pid)",
    )
    p.add_argument("--work-dir", type=Path, default=None, help="scratch folder (default: a temporary one)")
    p.add_argument(
        "--memory-run",
        type=Path,
        default=None,
        help="memory section: each node's memory per episode over this eval run (its logs/memory.jsonl) "
        "instead of running one",
    )
    p.add_argument(
        "--walking-policy",
        default=None,
        help=f"tracking section: the spine's walking policy, one of {', '.join(WALKING_POLICIES)} "
        "(default: config/spine.yaml's)",
    )
    p.add_argument(
        "--study-full",
        type=int,
        default=0,
        metavar="N",
        help="study section: also run its decide path in full on N scenes through `scenes render --workers 2` "
        "and `decide` (306: the paper's balanced set x 7 models, about half an hour); implies --sections study "
        "unless --sections is given",
    )
    args = p.parse_args(argv)
    try:
        if args.study_full < 0:
            raise ValueError(f"--study-full must be >= 0, got {args.study_full}")
        if args.study_full and args.sections is None:
            args.sections = "study"
        sections = _parse_sections(args.sections)
        if args.study_full and "study" not in sections:
            raise ValueError("--study-full measures in the study section: name it in --sections")
        if args.walking_policy is not None:
            check_walking_policy(args.walking_policy, "--walking-policy")
        domain_base = 30 + os.getpid() % 60 if args.domain_base is None else args.domain_base
        if not 0 <= domain_base <= 99:
            raise ValueError(f"--domain-base must be in [0, 99], got {domain_base}")
        if args.memory_run is not None and not (args.memory_run / "logs" / "memory.jsonl").is_file():
            raise ValueError(f"--memory-run {args.memory_run}: no logs/memory.jsonl (not an eval run folder)")
        if args.json is not None and args.json.is_dir():
            raise ValueError(f"--json {args.json} is a folder, not a file")
    except ValueError as exc:
        print(f"reacthuman bench: {exc}", file=sys.stderr)
        return 2
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # shared machines: one thread per process, as the nodes run
    cfg = replace(
        BenchConfig.quick() if args.quick else BenchConfig(),
        walking_policy=args.walking_policy,
        study_full_scenes=args.study_full,
    )
    # plots go beside the JSON report (or the work folder); a temporary work folder keeps none
    plot_dir = args.json.parent if args.json is not None else args.work_dir
    progress = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    if args.work_dir is not None:
        args.work_dir.mkdir(parents=True, exist_ok=True)
        report = run_bench(cfg, sections, args.work_dir, domain_base, progress, plot_dir, args.memory_run)
    else:
        # a section's error names logs in the work folder: keep the folder then, remove it otherwise
        tmp = Path(tempfile.mkdtemp(prefix="reacthuman-bench-"))
        report = run_bench(cfg, sections, tmp, domain_base, progress, plot_dir, args.memory_run)
        if _failed_sections(report):
            print(f"reacthuman bench: kept the work folder {tmp} for the failed section's logs", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    report["run"]["verdicts"] = verdicts(report)
    print(render_text(report))
    for label, key in (("far from limit", "far_from_limit"), ("missing goal", "missing_goal")):
        if report["run"]["verdicts"][key]:
            print(f"\n{label}:\n  " + "\n  ".join(report["run"]["verdicts"][key]))
    if args.json is not None:
        write_json_atomic(args.json, report)
    if args.markdown is not None:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(render_markdown(report) + "\n")
    failed = _failed_sections(report)
    if failed:
        print(f"reacthuman bench: section(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
