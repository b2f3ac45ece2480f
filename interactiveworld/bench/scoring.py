"""Aggregate scores from results rows: Pass, mean completion rate (families weighted equally), action
efficiency on passed tasks only, capability scores from pooled points, and the first-error taxonomy.
Voided rows (executor or simulator failure) count for nothing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from interactiveworld.bench.capabilities import FIRST_ERROR_COLUMNS
from interactiveworld.bench.record import TaskRecord
from interactiveworld.bench.taskpack import CAPABILITIES, FAMILIES
from reacthuman.core.records import read_records


@dataclass
class Summary:
    assistant: str
    human: str
    n: int = 0
    voided: int = 0
    family_pass: dict[str, float] = field(default_factory=dict)
    family_mcr: dict[str, float] = field(default_factory=dict)
    family_efficiency: dict[str, float | None] = field(default_factory=dict)
    family_n: dict[str, int] = field(default_factory=dict)
    pass_rate: float = 0.0
    mcr: float = 0.0
    efficiency: float | None = None
    capabilities: dict[str, float | None] = field(default_factory=dict)
    capability_points: dict[str, tuple[int, int]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)


def read_results(run_dir: Path) -> list[TaskRecord]:
    """Rows of results.jsonl; the last row of a task wins (a resumed run may re-run voided tasks)."""
    path = Path(run_dir) / "results.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{path}: no results (run `interactiveworld run` first)")
    return list({r.task_id: r for r in read_records(path, TaskRecord.from_dict)}.values())


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def summarize(rows: list[TaskRecord]) -> Summary:
    s = Summary(rows[0].assistant if rows else "", rows[0].human if rows else "")
    valid = [r for r in rows if not r.voided]
    s.n, s.voided = len(valid), len(rows) - len(valid)
    fams = [f for f in FAMILIES if any(r.family == f for r in valid)]
    for f in fams:
        fr = [r for r in valid if r.family == f]
        s.family_n[f] = len(fr)
        s.family_pass[f] = sum(r.passed for r in fr) / len(fr)
        s.family_mcr[f] = sum(r.completion for r in fr) / len(fr)
        s.family_efficiency[f] = _mean([r.efficiency for r in fr if r.passed and r.efficiency])
    s.pass_rate = _mean(list(s.family_pass.values())) or 0.0
    s.mcr = _mean(list(s.family_mcr.values())) or 0.0
    s.efficiency = _mean([r.efficiency for r in valid if r.passed and r.efficiency])
    for cap in CAPABILITIES:
        pts = [p for r in valid for p in r.points if p["cap"] == cap and p["status"] != "unobserved"]
        passed = sum(p["status"] == "pass" for p in pts)
        s.capability_points[cap] = (passed, len(pts))
        s.capabilities[cap] = passed / len(pts) if pts else None
    counts = Counter(r.first_error for r in valid if r.first_error)
    s.errors = {e: counts.get(e, 0) for e in FIRST_ERROR_COLUMNS}
    return s
