"""`interactiveworld <command>`: run, matrix, report, static, tasks (generate | release | validate | list), primitives, ros-episode."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from interactiveworld.agents.assistants import (
    REFERENCE_ASSISTANTS,
    REFERENCE_HUMANS,
    agent_name,
    make_assistant,
    viewed_assistant,
)
from interactiveworld.bench.taskpack import TaskPackError, default_tasks_dir
from reacthuman.core.model_spec import EXPLICIT_FORM, ModelSpec, ModelsOption, models_help
from interactiveworld.bench.release import check_release, release_table
from interactiveworld.bench.taskpack import load_packs
from interactiveworld.bench.runner import folder_name
from reacthuman.core.ray_cluster import check_address
from interactiveworld.bench.runner import default_render, run_tasks
from interactiveworld.bench.ray_run import RunSettings, run_tasks_on_ray
from reacthuman.core.ray_pool import PoolPlan
from interactiveworld.bench.matrix import matrix_table, run_matrix
from interactiveworld.bench.static import run_static
import json
from interactiveworld.bench.taskpack import load_pack
from interactiveworld.bench.report import write_report
from interactiveworld.actions.primitives import catalogue_markdown
from interactiveworld.bench.taskgen import generate

# Every command names its assistants with the suite's `--models` grammar; the old flags are hidden aliases.
ASSISTANTS = ModelsOption(REFERENCE_ASSISTANTS, aliases=("--assistant",))
MATRIX_ASSISTANTS = ModelsOption(REFERENCE_ASSISTANTS, aliases=("--assistants",))
HUMAN = ModelsOption(
    REFERENCE_HUMANS,
    flag="--human",
    default="scripted",
    help=models_help(REFERENCE_HUMANS, lead="the simulated human (one entry)"),
)
HUMANS = ModelsOption(
    REFERENCE_HUMANS,
    flag="--humans",
    default="scripted",
    help=models_help(REFERENCE_HUMANS, lead="comma-separated humans, each paired with every model"),
)
JUDGE = ModelsOption(
    {},
    flag="--judge",
    required=False,
    help=f"also grade with the frozen LLM judge: a model preset or {EXPLICIT_FORM} (beside the key facts)",
)


def _add_view(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--assistant-view",
        choices=("frames", "none"),
        default="frames",
        help="none: a model assistant runs with its frames withheld (the perception ablation); a "
        "model known to take no images is refused unless this says none",
    )


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="interactiveworld", description="InteractiveWorld / InteractiveBench")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run an assistant with a human over a task folder (resumable)")
    r.add_argument("--tasks", type=Path, default=default_tasks_dir())
    ASSISTANTS.add_to(r)
    HUMAN.add_to(r)
    r.add_argument("--out", type=Path, required=True, help="RUN_DIR (with several models: RUN_DIR/<model>/ each)")
    r.add_argument("--memory", action="store_true", help="memory-augmentation ablation (a factual ledger)")
    r.add_argument("--render", choices=("auto", "yes", "no"), default="auto", help="render first-person frames")
    _add_view(r)
    r.add_argument("--only", default="", help="only task ids starting with this")
    r.add_argument("--limit", type=int, default=None)
    r.add_argument("--bags", action="store_true", help="also record each episode as rosbag2 in RUN_DIR/bags/")
    r.add_argument(
        "--body",
        choices=("capsule", "cmu"),
        default="capsule",
        help="the human's body: primitives capsules or dm_control's CMU humanoid",
    )
    r.add_argument(
        "--executor",
        default="local",
        choices=("local", "ray"),
        help="local: in this process; ray: episodes on Ray workers (--workers of them), same results",
    )
    r.add_argument("--ray-address", default=None, help="Ray cluster to join (default: a local Ray instance)")
    r.add_argument("--workers", type=int, default=2, help="Ray workers (with --executor ray)")
    r.add_argument("--retries", type=int, default=2, help="retries of an episode whose Ray worker was lost")
    mx = sub.add_parser("matrix", help="every assistant with every human: pass rate and MCR per pairing")
    mx.add_argument("--tasks", type=Path, default=default_tasks_dir())
    MATRIX_ASSISTANTS.add_to(mx)
    HUMANS.add_to(mx)
    _add_view(mx)
    mx.add_argument("--out", type=Path, required=True, help="folder of one run folder per pairing")
    mx.add_argument("--only", default="", help="only task ids starting with this")
    mx.add_argument("--limit", type=int, default=None)
    rep = sub.add_parser("report", help="tables, efficiency, capability chart and error taxonomy of runs")
    rep.add_argument("run_dirs", type=Path, nargs="+")
    st = sub.add_parser("static", help="the static variant: fixed frames and one question per task")
    st.add_argument("--tasks", type=Path, default=default_tasks_dir())
    ASSISTANTS.add_to(st)
    JUDGE.add_to(st)
    st.add_argument(
        "--out", type=Path, required=True, help="folder of static.jsonl (with several models: OUT/<model>/ each)"
    )
    t = sub.add_parser("tasks", help="task packs")
    tsub = t.add_subparsers(dest="tcmd", required=True)
    for verb in ("release", "validate"):
        v = tsub.add_parser(
            verb,
            help="the release controls on every pack in DIR (oracle, no help, incorrect help, "
            "early help) per family; refuses a pack or family that fails one"
            + ("" if verb == "release" else " (as release)"),
        )
        v.add_argument("dir", type=Path, nargs="?", default=default_tasks_dir())
    g = tsub.add_parser("generate", help="build, admit and freeze the 120 tasks")
    g.add_argument("--out", type=Path, default=default_tasks_dir())
    g.add_argument("--only", default=None)
    ls = tsub.add_parser("list", help="list the tasks of DIR")
    ls.add_argument("dir", type=Path, nargs="?", default=default_tasks_dir())
    sub.add_parser("primitives", help="print the table of the 36 action primitives")
    ro = sub.add_parser("ros-episode", help="one episode through the ROS 2 node graph (world, human, assistant, judge)")
    ro.add_argument("--tasks", type=Path, default=default_tasks_dir())
    ro.add_argument("--task", required=True, help="task id")
    ASSISTANTS.add_to(ro)
    HUMAN.add_to(ro)
    _add_view(ro)
    ro.add_argument("--bag", type=Path, default=None, help="record the graph's topics as rosbag2 here")
    ro.add_argument("--body", choices=("capsule", "cmu"), default="capsule")
    return p


def _release(folder: Path) -> int:
    packs = load_packs(folder)
    rel = check_release(packs)
    print(release_table(rel), end="")
    for line in rel.refused_packs:
        print(f"REFUSED {line}")
    for line in rel.refused_families:
        print(f"REFUSED task set: {line}")
    print(
        f"{len(packs) - len(rel.refused_packs)}/{len(packs)} tasks pass every control; "
        f"{'released' if rel.released else 'NOT released'}"
    )
    return 0 if rel.released else 1


def _folders(out: Path, specs: list[ModelSpec]) -> list[tuple[str, Path]]:
    """(agent name, output folder) per model: OUT itself for one model (today's layout), else OUT/<model>/,
    since a run folder holds one assistant's run."""

    if len(specs) == 1:
        return [(agent_name(specs[0]), out)]
    return [(agent_name(spec), out / folder_name(spec.name)) for spec in specs]


def _with_view(folders: list[tuple[str, Path]], view: str) -> list[tuple[str, Path]]:
    """The assistants as the run names them: `llm:<model>+noview` with frames withheld. Refuses (one line) a
    reference assistant under `--assistant-view none` and, with frames, a model known to take no images."""
    out = []
    for assistant, folder in folders:
        named = viewed_assistant(assistant, view)
        if view == "frames" and assistant.startswith("llm:"):
            a = make_assistant(assistant, None)
            try:
                a.check_view()
            finally:
                a.close()
        out.append((named, folder))
    return out


def _run(args: argparse.Namespace) -> int:
    folders, human = _folders(args.out, ASSISTANTS.parse(args)), agent_name(HUMAN.parse_one(args))
    folders = _with_view(folders, args.assistant_view)
    if args.executor == "ray" and args.ray_address:
        check_address(args.ray_address)
    status = 0
    for assistant, out in folders:  # one model after another
        status = max(status, _run_one(args, assistant, human, out))
    return status


def _run_one(args: argparse.Namespace, assistant: str, human: str, out: Path) -> int:
    """One assistant's run folder, locally or on Ray; 1 when Ray lost episodes."""

    render = None if args.render == "auto" else args.render == "yes"
    if args.executor == "local":
        rows = run_tasks(
            args.tasks, assistant, human, out, args.memory, render, args.only, args.limit, args.bags, args.body
        )
        print(f"ran {len(rows)} episodes -> {out / 'results.jsonl'}")
        return 0

    settings = RunSettings(
        assistant, human, args.memory, default_render(assistant, human, render), args.bags, args.body
    )
    try:
        rows, failed = run_tasks_on_ray(
            args.tasks, settings, out, PoolPlan(args.workers, args.retries, args.ray_address), args.only, args.limit
        )
    except RuntimeError as exc:  # the Ray executor ran out of workers
        print(f"interactiveworld: {exc}", file=sys.stderr)
        return 1
    print(f"ran {len(rows)} episodes on Ray -> {out / 'results.jsonl'}")
    if failed:
        print(
            f"interactiveworld: {len(failed)} episode(s) lost with their Ray workers; run the same command again "
            "to finish",
            file=sys.stderr,
        )
    return 1 if failed else 0


def _matrix(args: argparse.Namespace) -> None:
    assistants = [
        a
        for a, _ in _with_view(
            [(agent_name(spec), None) for spec in MATRIX_ASSISTANTS.parse(args)], args.assistant_view
        )
    ]
    humans = [agent_name(spec) for spec in HUMANS.parse(args)]
    print(matrix_table(run_matrix(args.tasks, assistants, humans, args.out, args.only, args.limit)), end="")


def _static(args: argparse.Namespace) -> None:
    folders, judge = _folders(args.out, ASSISTANTS.parse(args)), JUDGE.parse_one(args)
    judge_name = agent_name(judge) if judge else ""
    for assistant, out in folders:
        rows = run_static(args.tasks, assistant, out, judge_name)
        extra = f"; judge {judge_name}: {sum(r['judge_correct'] for r in rows)}/{len(rows)}" if judge else ""
        print(
            f"{assistant}: static accuracy (key facts) {sum(r['correct'] for r in rows)}/{len(rows)}{extra} "
            f"-> {out / 'static.jsonl'}"
        )


def _ros_episode(args: argparse.Namespace) -> None:
    """The nodes build their agents from their parameters (the entries as given, checked here before ROS loads)."""
    spec, human = ASSISTANTS.parse_one(args), HUMAN.parse_one(args).name
    _with_view([(agent_name(spec), None)], args.assistant_view)  # refused here, in one line, before ROS loads

    from interactiveworld.ros_graph import run_ros_episode

    task = args.tasks / f"{args.task}.json"
    load_pack(task)  # a bad pack: one line, before ROS loads
    print(
        json.dumps(
            run_ros_episode(task, spec.name, human, args.bag, body=args.body, assistant_view=args.assistant_view),
            sort_keys=True,
        )
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        if args.cmd == "run":
            return _run(args)
        elif args.cmd == "matrix":
            _matrix(args)
        elif args.cmd == "report":
            print(write_report(args.run_dirs), end="")
        elif args.cmd == "static":
            _static(args)
        elif args.cmd == "ros-episode":
            _ros_episode(args)
        elif args.cmd == "primitives":
            print(catalogue_markdown())
        elif args.tcmd in ("release", "validate"):
            return _release(args.dir)
        elif args.tcmd == "generate":
            frozen, rejected = generate(args.out, args.only)
            for adm in rejected:
                print(f"{adm.task_id}: rejected ({adm.detail})")
            print(f"{len(frozen)} tasks frozen in {args.out}")
            return 1 if rejected else 0
        elif args.tcmd == "list":
            for p in load_packs(args.dir):
                print(f"{p.task_id:28} {p.family:14} {p.title}")
        return 0
    except (TaskPackError, ValueError, FileNotFoundError, TimeoutError) as exc:
        print(f"interactiveworld: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
