"""`make demo`: the main job, offline, no configuration. Generates a small balanced scene set (one scene
per family), evaluates the embedded local model and the oracle and heuristic brains through the real ROS 2
graph with Genesis, writes the report, and prints the main table and where the report is.

Re-running continues where it stopped (the scene set and the run are kept under runs/demo/)."""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from reacthuman.brain import reference_brains
from reacthuman.core.model_spec import ModelSpecError, ModelsOption

ROOT = Path(__file__).resolve().parents[2]
MODELS = "local,oracle,heuristic"


def _step(title: str, args: list[str]) -> None:
    print(f"\n== {title}\n$ reacthuman {' '.join(args)}", flush=True)
    started = time.monotonic()
    code = subprocess.call([sys.executable, "-m", "reacthuman.cli", *args], cwd=ROOT)
    if code != 0:
        raise SystemExit(f"demo: `reacthuman {' '.join(args)}` failed with status {code}")
    print(f"   ({time.monotonic() - started:.0f} s)", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m reacthuman.evaluation.demo", description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "runs" / "demo")
    p.add_argument("--per-family", type=int, default=1)
    models = ModelsOption(reference_brains(), default=MODELS)
    models.add_to(p)
    args = p.parse_args(argv)
    try:  # a bad name fails here, in one line, not after the scene set is generated
        specs = models.parse(args)
    except ModelSpecError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 2
    names = ",".join(spec.name for spec in specs)
    # a model answers in 15-30 s while its body waits: a second graph of its own runs the next scene meanwhile
    workers = ",".join(["1", *(f"{spec.name}=2" for spec in specs if spec.is_llm)])
    scenes, run = args.out / "scenes", args.out / "run"
    started = time.monotonic()
    if not (scenes / "index.jsonl").is_file():
        _step(
            "generate a balanced scene set",
            ["scenes", "generate", "--balanced", str(args.per_family), "--seed", "7", "--out", str(scenes)],
        )
    # side by side: the local model's thinking leaves a core idle that the reference brains' graphs use
    _step(
        "evaluate through the ROS 2 graph",
        [
            "eval",
            "--scenes",
            str(scenes),
            "--models",
            names,
            "--out",
            str(run),
            "--models-side-by-side",
            "--workers",
            workers,
        ],
    )
    _step("write the report", ["report", str(run)])
    report = (run / "report.md").read_text()
    for line in report.splitlines():  # which modality the table is (a text-only model runs on state_text)
        if line.startswith(("Modality:", "Shown state_text")):
            print(line)
    start = report.find("## Main results")
    end = report.find("\n## ", start + 1)
    print(report[start : end if end > 0 else None].strip())
    print(
        f"\ndemo: done in {(time.monotonic() - started) / 60:.1f} min; report: {run / 'report.html'} "
        f"(and report.md, plots/, tables/)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
