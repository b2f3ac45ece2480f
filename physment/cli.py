"""`physment <command>`: run, report, check, scenes build|verify|list.

physment run --scenes physment/scenes --models local --budget 5 --out runs/pm1
physment run --models oracle,local --budget 5 --out runs/pm1      # one model after another, one run folder
physment run --scenes Scenes/ --protocol paper --models pm-gpt-5.5 --budget 10 --out runs/pm1
physment run --models local --budget 5 --out runs/pm1 --executor ray [--workers 2] [--ray-address HOST:6379]
physment check Scenes/
physment report runs/pm1
physment scenes build [--out physment/scenes]
physment scenes verify [--scenes physment/scenes] [--all-budgets]
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from physment import REFERENCE_AGENTS
from reacthuman.core.headless import use_egl_when_headless
from reacthuman.core.model_spec import ModelSpec, ModelsOption
from reacthuman.core.ray_cluster import check_address
from reacthuman.core.ray_pool import PoolPlan
from physment.runner import RunConfig
from physment.runner import RunError, run
from reacthuman.core.records import LedgerError
from physment.ray_run import run_on_ray
from physment.cells import assign_cells, cell_options
from physment.check import check
from physment.scene import load_scenes_lenient
from physment.scene import load_scenes
from physment.scenegen.build import verify, write_scenes
from physment.authors.logs import LogError
from physment.authors.rescore import manual_table, rescore, summary_json, table_lines
from reacthuman.core.atomic import atomic_write_text
from physment.authors.replay import report_lines, replay
from physment.authors.prompts import check_prompts
from physment.authors.tools import mujoco_version, parse_switches
from physment.authors.engine import EngineError, replay_with
from physment.scene import SceneError
from physment.report import ReportError, write_report

if TYPE_CHECKING:
    from physment.runner import RunConfig
    from reacthuman.core.ray_pool import PoolPlan

DEFAULT_SCENES = Path(__file__).resolve().parent / "scenes"
# `--models` (default: the embedded model); `--agent` is its deprecated spelling.
MODELS = ModelsOption(REFERENCE_AGENTS, aliases=("--agent",), default="local")


def _fail(message: str) -> int:
    print(f"physment: {message}", file=sys.stderr)
    return 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="physment", description="Interactive physics reasoning in a MuJoCo lab.")
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run episodes of each model at one budget (resumable)")
    run.add_argument("--scenes", type=Path, default=DEFAULT_SCENES)
    MODELS.add_to(run)
    run.add_argument("--budget", type=int, required=True, help="iterations I_max (paper: 5, 10, 15, 20)")
    run.add_argument("--out", type=Path, required=True, help="run folder (results.jsonl, transcripts/)")
    run.add_argument("--prompting", default="zero-shot", choices=("zero-shot", "one-shot", "few-shot"))
    run.add_argument(
        "--tool-mode",
        default="auto",
        choices=("auto", "native", "json", "text"),
        help="auto: typed JSON for schema-enforcing presets (the local model), else native tool calls",
    )
    run.add_argument("--all-scenes", action="store_true", help="also scenes assigned only to larger budgets")
    run.add_argument("--limit", type=int, default=None, help="at most this many scenes")
    run.add_argument(
        "--max-tokens",
        type=int,
        default=None,
        help="output-token limit per reply (default: strict 512; paper: the preset's own max_tokens)",
    )
    run.add_argument("--brief-api", action="store_true", help="tool signatures only in the prompt (small contexts)")
    run.add_argument(
        "--protocol",
        default="strict",
        choices=("strict", "paper"),
        help="strict (default): this project's; paper: Eq. 4, untrimmed context, every scene at "
        "every budget, the paper's 26 tools",
    )
    run.add_argument(
        "--tools",
        default=None,
        help="ours, or authors[:-switch,...] (their tool semantics; default under --protocol paper on "
        "their published scenes)",
    )
    run.add_argument(
        "--matcher",
        default=None,
        choices=("strict", "paper", "authors"),
        help="which verdict is `correct` (default: the protocol's); rows record all three",
    )
    run.add_argument(
        "--dialogue",
        default=None,
        choices=("ours", "authors", "authors-early"),
        help="whose prompt, call format and loop: authors = their zero-shot prompt, JSON tool-call "
        "arrays in the reply text, an answer ends the episode (default under --protocol paper "
        "on their published scenes); authors-early: their prompt before late February 2026",
    )
    run.add_argument(
        "--cell-map",
        default=None,
        help="YAML/JSON file: scene id -> category (overrides metadata and inference); `authors`: the "
        "authors' number ranges for every undeclared scene; `inferred`: inference only",
    )
    _ray_options(run)
    chk = sub.add_parser("check", help="lint a scene folder: one line per problem, naming the scene")
    chk.add_argument("scenes", type=Path)
    chk.add_argument("--cells", action="store_true", help="also list each scene's cell and where it came from")
    chk.add_argument(
        "--cell-map", default=None, help="scene id -> category overrides, or authors / inferred (implies --cells)"
    )
    res = sub.add_parser(
        "rescore-authors",
        help="grade the authors' logged final answers with each matcher "
        "beside their manual_grading_summary.csv (Table 2)",
    )
    res.add_argument("results_dir", type=Path, help="the authors' TestResults/ folder")
    res.add_argument("--scenes", type=Path, default=None, help="their Scenes/ (default: beside TESTRESULTS_DIR)")
    res.add_argument("--json", type=Path, default=None, help="write model folder -> budget -> matcher -> accuracy %%")
    prm = sub.add_parser(
        "prompts-authors",
        help="hold our --dialogue authors first prompt against the first "
        "prompt of every logged episode under TESTRESULTS_DIR/iterations_*",
    )
    prm.add_argument("results_dir", type=Path)
    prm.add_argument("--scenes", type=Path, default=None, help="their Scenes/ (default: beside TESTRESULTS_DIR)")
    prm.add_argument(
        "--git",
        type=Path,
        default=None,
        help="their repository's git dir: build each prompt from the scene as committed before its log",
    )
    prm.add_argument("--json", type=Path, default=None, help="write the counts per class")
    rpl = sub.add_parser(
        "replay",
        help="re-execute the authors' logged tool calls under their tool semantics and "
        "compare each result with the logged one",
    )
    rpl.add_argument("results_dir", type=Path, help="the authors' TestResults/ folder")
    rpl.add_argument("--scenes", type=Path, default=None, help="their Scenes/ (default: beside TESTRESULTS_DIR)")
    rpl.add_argument(
        "--git",
        type=Path,
        default=None,
        help="their repository's git directory: each episode replays the scene as committed before "
        "its log's time stamp",
    )
    rpl.add_argument("--tools", default="authors", help="authors, or authors:-switch,... (physment.authors.tools)")
    rpl.add_argument(
        "--json", type=Path, default=None, help="write the summary (calls, reproduced, per tool, per scene, mismatches)"
    )
    rpl.add_argument(
        "--mujoco",
        default=None,
        metavar="VERSION",
        help="also replay under this MuJoCo release in a managed environment (the authors ran 3.3.3); "
        "its figures lead, this environment's are reported beside them",
    )
    rep = sub.add_parser("report", help="write the report of a run folder")
    rep.add_argument("run_dir", type=Path)
    rep.add_argument("--out", type=Path, default=None)
    scn = sub.add_parser("scenes", help="build, verify or list the scene set")
    scn.add_argument("action", choices=("build", "verify", "list"))
    scn.add_argument("--scenes", "--out", dest="scenes", type=Path, default=DEFAULT_SCENES)
    scn.add_argument("--all-budgets", action="store_true", help="verify: run the oracle at every assigned budget")
    return p


def _ray_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--executor",
        default="local",
        choices=("local", "ray"),
        help="local: in this process; ray: episodes on Ray workers (--workers of them), same results",
    )
    parser.add_argument("--ray-address", default=None, help="Ray cluster to join (default: a local Ray instance)")
    parser.add_argument("--workers", type=int, default=2, help="Ray workers (with --executor ray)")
    parser.add_argument("--retries", type=int, default=2, help="retries of an episode whose Ray worker was lost")


def _ray_plan(args: argparse.Namespace):
    """The Ray plan of `--executor ray` (None for a local run); ValueError names a bad option."""
    if args.executor != "ray":
        return None

    if args.ray_address:
        check_address(args.ray_address)
    return PoolPlan(args.workers, args.retries, args.ray_address)


def _config(args: argparse.Namespace, spec: ModelSpec) -> "RunConfig":
    """The run configuration of one model: every model of `--models` shares the run folder (its rows and
    transcripts carry the model's name), as separate `physment run` calls on the folder would."""

    # rows name the model without its ?options, as ReactHuman's do; the client is built from the entry with them
    return RunConfig(
        scenes=args.scenes,
        agent=spec.name,
        agent_options=spec.entry.partition("?")[2] if spec.is_llm else "",
        budget=args.budget,
        out=args.out,
        prompting=args.prompting,
        tool_mode=args.tool_mode,
        all_scenes=args.all_scenes,
        limit=args.limit,
        max_tokens=args.max_tokens,
        brief_api=args.brief_api,
        protocol=args.protocol,
        tools=args.tools,
        matcher=args.matcher,
        cell_map=args.cell_map,
        dialogue=args.dialogue,
    )


def _run(args: argparse.Namespace) -> int:
    try:
        configs = [_config(args, spec) for spec in MODELS.parse(args)]
        plan = _ray_plan(args)
    except ValueError as exc:
        return _fail(str(exc))
    status = 0
    for cfg in configs:  # one model after another; a model that cannot start stops the run (exit 2)
        status = max(status, _run_one(cfg, plan))
        if status == 2:
            break
    return status


def _run_one(cfg: "RunConfig", plan: "PoolPlan | None") -> int:
    """The missing episodes of one model; 0, 1 when Ray lost episodes, 2 when the model could not run."""

    failed: list[str] = []
    try:
        if plan is None:
            rows = run(cfg)
        else:
            rows, failed = run_on_ray(cfg, plan)
    except (RunError, RuntimeError, LedgerError) as exc:  # RuntimeError: the Ray executor ran out of workers
        return _fail(str(exc))
    for line in cfg.skipped:
        print(f"skipped {line}", file=sys.stderr)
    correct = sum(r.correct for r in rows)
    strict, paper = sum(bool(r.correct_strict) for r in rows), sum(bool(r.correct_paper) for r in rows)
    print(
        f"{cfg.agent}: {len(rows)} episode(s) run ({cfg.protocol} protocol), {correct} correct (strict {strict}, "
        f"paper Eq. 4 {paper}); {len(cfg.skipped)} scene(s) skipped; results in {cfg.out / 'results.jsonl'}"
    )
    if failed:
        print(
            f"{len(failed)} episode(s) lost with their Ray workers; run the same command again to finish",
            file=sys.stderr,
        )
    return 1 if failed else 0


def _check(args: argparse.Namespace) -> int:
    n, problems = check(args.scenes)
    for line in problems:
        print(line)
    if args.cells or args.cell_map is not None:
        scenes, _ = load_scenes_lenient(args.scenes)
        for s in assign_cells(scenes, *cell_options(args.cell_map)):
            print(
                f"{s.scene_id}\t{s.extra['category']}\t{s.problem_type}\t{s.extra['category_source']}"
                + (f"\t{s.extra['authors_category']}" if s.extra.get("authors_category") else "")
            )
    print(f"{'OK' if not problems else 'PROBLEMS'}: {n} scene(s), {len(problems)} problem(s)")
    return 0 if not problems else 1


def _scenes(args: argparse.Namespace) -> int:
    if args.action == "build":
        n = write_scenes(args.scenes)
        print(f"wrote {n} scenes to {args.scenes}")
        return 0
    if args.action == "verify":
        problems = verify(args.scenes, all_budgets=args.all_budgets)
        for line in problems:
            print(line)
        print(f"{'OK' if not problems else 'FAILED'}: {len(problems)} problem(s)")
        return 0 if not problems else 1
    for s in load_scenes(args.scenes):
        print(f"{s.scene_id}\t{s.category}\t{s.problem_type}\t{s.extra.get('topic', '')}\t{s.budgets}\t{s.name}")
    return 0


def _rescore_authors(args: argparse.Namespace) -> int:
    try:
        cells = rescore(args.results_dir, args.scenes)
    except LogError as exc:
        return _fail(str(exc))
    print("\n".join(table_lines(cells, manual_table(args.results_dir))))
    if args.json is not None:
        atomic_write_text(args.json, json.dumps(summary_json(cells), indent=1) + "\n")
        print(f"wrote {args.json}")
    return 0


def _prompts_authors(args: argparse.Namespace) -> int:
    try:
        found = check_prompts(args.results_dir, args.scenes, args.git).to_json()
    except LogError as exc:
        return _fail(str(exc))
    print(
        f"first prompts of {found['episodes']} logged episodes: "
        + ", ".join(f"{k} {v}" for k, v in sorted(found["classes"].items(), key=lambda kv: -kv[1]))
    )
    print("identical, per dialogue: " + ", ".join(f"{k} {v}" for k, v in found["identical_by_dialogue"].items()))
    if args.json is not None:
        atomic_write_text(args.json, json.dumps(found, indent=1) + "\n")
        print(f"wrote {args.json}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    try:
        summary = replay(args.results_dir, args.scenes, switches=parse_switches(args.tools), git_dir=args.git)
    except (LogError, ValueError) as exc:
        return _fail(str(exc))
    print("\n".join(report_lines(summary)))
    out = {**summary.to_json(), "mujoco": mujoco_version()}
    if args.mujoco is not None and args.mujoco != out["mujoco"]:
        try:
            managed = replay_with(args.mujoco, args.results_dir, args.scenes, args.tools, args.git)
        except EngineError as exc:
            return _fail(str(exc))
        out = {**managed, "beside": {k: out[k] for k in ("mujoco", "calls", "reproduced", "same_scene")}}
        print(
            f"under MuJoCo {managed['mujoco']} (managed environment): {managed['reproduced']} of {managed['calls']} "
            f"reproduced ({100.0 * managed['reproduced'] / max(managed['calls'], 1):.1f} %); same scene "
            f"{managed['same_scene']['reproduced']} of {managed['same_scene']['calls']}"
        )
    if args.json is not None:
        atomic_write_text(args.json, json.dumps(out, indent=1) + "\n")
        print(f"wrote {args.json}")
    return 0


def _report(args: argparse.Namespace) -> int:
    try:
        print(write_report(args.run_dir, args.out))
    except (ReportError, LedgerError) as exc:
        return _fail(str(exc))
    return 0


def main(argv: list[str] | None = None) -> int:
    use_egl_when_headless()  # before the lab imports MuJoCo
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")

    try:
        if args.command == "run":
            return _run(args)
        if args.command == "report":
            return _report(args)
        if args.command == "check":
            return _check(args)
        if args.command == "replay":
            return _replay(args)
        if args.command == "prompts-authors":
            return _prompts_authors(args)
        if args.command == "rescore-authors":
            return _rescore_authors(args)
        return _scenes(args)
    except (SceneError, FileNotFoundError) as exc:
        return _fail(str(exc))


if __name__ == "__main__":
    sys.exit(main())
