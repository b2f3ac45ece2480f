"""`reacthuman <command> ...`: one entry point; each command's module is imported only when used,
so `reacthuman report` never pays for importing Genesis."""

from __future__ import annotations

import importlib
import sys

from reacthuman.core.headless import use_egl_when_headless
from reacthuman.core.program_exit import exit_program

# command -> (module with main(argv) -> int, one-line description)
COMMANDS: dict[str, tuple[str, str]] = {
    "launch": ("reacthuman.launching.launcher", "start a node graph from a launch file (the pip-only `ros2 launch`)"),
    "scenes": ("reacthuman.scenes.cli", "generate, validate and show scenes"),
    "eval": ("reacthuman.evaluation.cli", "evaluate models over scenes through the ROS 2 graph"),
    "loop": ("reacthuman.evaluation.loop_cli", "run brains over scenes in process, open or closed loop, into a ledger"),
    "report": ("reacthuman.reporting.report_cli", "write the report of a run (or compare two runs)"),
    "decide": ("reacthuman.evaluation.decide", "decide any model on rendered observations and score it (no execution)"),
    "dataset": ("reacthuman.evaluation.dataset_export", "export a scene set's observations as a Hugging Face dataset"),
    "rescore": ("reacthuman.evaluation.rescore", "recompute every score of a run from its bags and ledger"),
    "bag": ("reacthuman.evaluation.bag_cli", "inspect and replay episode bags"),
    "bench": ("reacthuman.perf.cli", "measure every stage against its own limit"),
}


def _usage() -> str:
    width = max(len(c) for c in COMMANDS)
    lines = ["usage: reacthuman <command> [args...]", "", "commands:"]
    lines += [f"  {name:<{width}}  {desc}" for name, (_, desc) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run a command; called without `argv` (as the `reacthuman` program) the process ends with the command
    (`core.program_exit`), called with it (in process) it returns the exit status."""
    use_egl_when_headless()  # before any command imports MuJoCo
    as_program = argv is None
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"reacthuman: unknown command '{name}' (one of: {', '.join(COMMANDS)})", file=sys.stderr)
        return 2
    module_name, _ = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            print(f"reacthuman: command '{name}' is not available in this build", file=sys.stderr)
            return 2
        raise
    code = int(module.main(rest) or 0)
    if as_program:
        exit_program(code)
    return code


if __name__ == "__main__":
    sys.exit(main())
