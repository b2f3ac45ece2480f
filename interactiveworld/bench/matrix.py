"""`interactiveworld matrix`: every assistant with every human on one task folder (the paper's 4x4 pairing
study), one resumable run folder per cell, and a table of pass rate and MCR per cell."""

from __future__ import annotations

import json
from pathlib import Path

from interactiveworld.bench.record import TaskRecord
from interactiveworld.bench.runner import folder_name, run_tasks
from interactiveworld.bench.scoring import summarize
from interactiveworld.bench.taskpack import write_atomic
from reacthuman.core.records import read_records


def cell_dir(out: Path, assistant: str, human: str) -> Path:
    """A folder name per pairing."""
    return Path(out) / f"{folder_name(assistant)}__{folder_name(human)}"


def run_matrix(
    tasks_dir: Path, assistants: list[str], humans: list[str], out: Path, only: str = "", limit: int | None = None
) -> dict[tuple[str, str], dict]:
    if not assistants or not humans:
        raise ValueError("matrix needs at least one assistant (--models) and one human (--humans)")
    cells = {}
    for a in assistants:
        for h in humans:
            d = cell_dir(out, a, h)
            run_tasks(tasks_dir, a, h, d, only=only, limit=limit)
            rows = read_records(d / "results.jsonl", TaskRecord.from_dict)
            s = summarize(rows)
            cells[(a, h)] = {
                "assistant": a,
                "human": h,
                "episodes": len(rows),
                "voided": sum(r.voided for r in rows),
                "pass_rate": s.pass_rate,
                "mcr": s.mcr,
            }
    write_atomic(Path(out) / "matrix.json", json.dumps(list(cells.values()), indent=1) + "\n")
    return cells


def matrix_table(cells: dict[tuple[str, str], dict]) -> str:
    """Markdown: assistants as rows, humans as columns, 'pass % / MCR %' per cell."""
    assistants = list(dict.fromkeys(a for a, _ in cells))
    humans = list(dict.fromkeys(h for _, h in cells))
    lines = ["| assistant \\ human | " + " | ".join(humans) + " |", "|---|" + "---|" * len(humans)]
    for a in assistants:
        row = [f"{100 * cells[(a, h)]['pass_rate']:.1f} / {100 * cells[(a, h)]['mcr']:.1f}" for h in humans]
        lines.append(f"| {a} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n\n(pass rate % / mean completion rate %, families weighted equally)\n"
