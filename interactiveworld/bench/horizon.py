"""The task-horizon analysis: does success fall as tasks get longer? Task length is the oracle's action count
(not the model's), min-max normalised within each family (0 = the family's shortest task, 1 = its longest);
per task the pass outcomes of all runs given are averaged; a linear probability model with family fixed
effects gives the slope (success change from shortest to longest), with a seeded bootstrap over tasks."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from interactiveworld.bench.record import TaskRecord

BOOTSTRAP_REPS = 1000
BOOTSTRAP_SEED = 0


@dataclass(frozen=True)
class HorizonFit:
    slope: float | None  # None when the horizons do not vary within any family
    ci95: tuple[float, float] | None
    n_tasks: int


def task_table(rows: list[TaskRecord]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """-> (normalised horizon, mean pass, family) per task, valid episodes only."""
    by_task: dict[str, list[TaskRecord]] = defaultdict(list)
    for r in rows:
        if not r.voided:
            by_task[r.task_id].append(r)
    fam_len: dict[str, list[int]] = defaultdict(list)
    for rs in by_task.values():
        fam_len[rs[0].family].append(int(rs[0].oracle_actions))
    h, y, fams = [], [], []
    for rs in by_task.values():
        f, n = rs[0].family, int(rs[0].oracle_actions)
        lo, hi = min(fam_len[f]), max(fam_len[f])
        h.append(0.0 if hi == lo else (n - lo) / (hi - lo))
        y.append(sum(bool(r.passed) for r in rs) / len(rs))
        fams.append(f)
    return np.array(h), np.array(y), fams


def _slope(h: np.ndarray, y: np.ndarray, fams: list[str]) -> float | None:
    names = sorted(set(fams))
    x = np.column_stack([h] + [np.array([f == n for f in fams], float) for n in names])
    if np.linalg.matrix_rank(x) < x.shape[1]:
        return None
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    return float(coef[0])


def fit(rows: list[TaskRecord]) -> HorizonFit:
    h, y, fams = task_table(rows)
    slope = _slope(h, y, fams) if len(h) else None
    if slope is None:
        return HorizonFit(None, None, len(h))
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    boots = []
    for _ in range(BOOTSTRAP_REPS):
        idx = rng.integers(0, len(h), len(h))
        s = _slope(h[idx], y[idx], [fams[i] for i in idx])
        if s is not None:
            boots.append(s)
    ci = (float(np.percentile(boots, 2.5)), float(np.percentile(boots, 97.5))) if boots else None
    return HorizonFit(slope, ci, len(h))


def summary(rows: list[TaskRecord]) -> str:
    """One sentence on the family-adjusted task-horizon slope, beside the paper's."""
    f = fit(rows)
    if f.slope is None:
        return "Not estimable: task lengths do not vary within the families run."
    ci = f"95% bootstrap CI {f.ci95[0]:+.3f} to {f.ci95[1]:+.3f}" if f.ci95 else "no CI"
    return (
        f"Family-adjusted slope of success on normalised oracle task length: {f.slope:+.3f} "
        f"({ci}; {f.n_tasks} tasks; paper: -0.431, CI -0.581 to -0.289)."
    )
