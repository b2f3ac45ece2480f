"""`physment <command>`: run, report, scenes build|verify|list.

    physment run --scenes physment/scenes --agent local --budget 5 --out runs/pm1
    physment report runs/pm1
    physment scenes build [--out physment/scenes]
    physment scenes verify [--scenes physment/scenes] [--all-budgets]
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

DEFAULT_SCENES = Path(__file__).resolve().parent / "scenes"


def _fail(message: str) -> int:
    print(f"physment: {message}", file=sys.stderr)
    return 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="physment", description="Interactive physics reasoning in a MuJoCo lab.")
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run episodes of one agent at one budget (resumable)")
    run.add_argument("--scenes", type=Path, default=DEFAULT_SCENES)
    run.add_argument("--agent", default="local", help="oracle, local (the embedded model) or a model preset")
    run.add_argument("--budget", type=int, required=True, help="iterations I_max (paper: 5, 10, 15, 20)")
    run.add_argument("--out", type=Path, required=True, help="run folder (results.jsonl, transcripts/)")
    run.add_argument("--prompting", default="zero-shot", choices=("zero-shot", "one-shot", "few-shot"))
    run.add_argument("--tool-mode", default="auto", choices=("auto", "native", "json", "text"),
                     help="auto: typed JSON for schema-enforcing presets (the local model), else native tool calls")
    run.add_argument("--all-scenes", action="store_true", help="also scenes assigned only to larger budgets")
    run.add_argument("--limit", type=int, default=None, help="at most this many scenes")
    run.add_argument("--max-tokens", type=int, default=512)
    run.add_argument("--brief-api", action="store_true", help="tool signatures only in the prompt (small contexts)")
    rep = sub.add_parser("report", help="write the report of a run folder")
    rep.add_argument("run_dir", type=Path)
    rep.add_argument("--out", type=Path, default=None)
    scn = sub.add_parser("scenes", help="build, verify or list the scene set")
    scn.add_argument("action", choices=("build", "verify", "list"))
    scn.add_argument("--scenes", "--out", dest="scenes", type=Path, default=DEFAULT_SCENES)
    scn.add_argument("--all-budgets", action="store_true", help="verify: run the oracle at every assigned budget")
    return p


def _run(args: argparse.Namespace) -> int:
    from physment.runner import RunConfig, RunError, run

    try:
        cfg = RunConfig(scenes=args.scenes, agent=args.agent, budget=args.budget, out=args.out,
                        prompting=args.prompting, tool_mode=args.tool_mode, all_scenes=args.all_scenes,
                        limit=args.limit, max_tokens=args.max_tokens, brief_api=args.brief_api)
    except ValueError as exc:
        return _fail(str(exc))
    try:
        rows = run(cfg)
    except RunError as exc:
        return _fail(str(exc))
    correct = sum(r["correct"] for r in rows)
    print(f"{len(rows)} episode(s) run, {correct} correct; results in {cfg.out / 'results.jsonl'}")
    return 0


def _scenes(args: argparse.Namespace) -> int:
    from physment.scene import load_scenes
    from physment.scenegen.build import verify, write_scenes

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


def _report(args: argparse.Namespace) -> int:
    from physment.report import ReportError, write_report

    try:
        print(write_report(args.run_dir, args.out))
    except ReportError as exc:
        return _fail(str(exc))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    from physment.scene import SceneError

    try:
        if args.command == "run":
            return _run(args)
        if args.command == "report":
            return _report(args)
        return _scenes(args)
    except (SceneError, FileNotFoundError) as exc:
        return _fail(str(exc))


if __name__ == "__main__":
    sys.exit(main())
