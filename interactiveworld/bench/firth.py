"""Firth's penalised logistic regression of success on normalised task length, one per model and family (the
paper's per-curve fits): finite estimates where a model passes all or none of the short or long tasks, where
plain maximum likelihood diverges."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from interactiveworld.bench.horizon import task_table
from interactiveworld.bench.record import TaskRecord

MAX_ITER = 100
TOL = 1e-8


def firth_logit(x: np.ndarray, y: np.ndarray) -> tuple[float, float] | None:
    """(intercept, slope) of logit P(y=1) = b0 + b1 x under Firth's (Jeffreys-prior) penalty; None when x does not
    vary. Newton steps on the modified score X'(y - p + h (1/2 - p)), h the hat matrix's diagonal, halved while the
    penalised log-likelihood does not rise."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 2 or np.ptp(x) == 0:
        return None
    X = np.column_stack([np.ones_like(x), x])

    def penalised(b: np.ndarray) -> float:
        p = np.clip(1 / (1 + np.exp(-X @ b)), 1e-12, 1 - 1e-12)
        info = X.T @ (X * (p * (1 - p))[:, None])
        return float(np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)) + 0.5 * np.linalg.slogdet(info)[1])

    b = np.zeros(2)
    for _ in range(MAX_ITER):
        p = 1 / (1 + np.exp(-X @ b))
        w = p * (1 - p)
        info = X.T @ (X * w[:, None])
        inv = np.linalg.inv(info)
        h = np.einsum("ij,jk,ik->i", X * np.sqrt(w)[:, None], inv, X * np.sqrt(w)[:, None])
        step = inv @ (X.T @ (y - p + h * (0.5 - p)))
        old, t = penalised(b), 1.0
        while penalised(b + t * step) < old - 1e-12 and t > 1e-6:
            t /= 2
        b = b + t * step
        if np.max(np.abs(t * step)) < TOL:
            break
    return float(b[0]), float(b[1])


@dataclass(frozen=True)
class FirthCurve:
    model: str
    family: str
    slope: float | None  # log-odds change from the family's shortest to its longest task; None: all outcomes alike
    n_episodes: int


def firth_curves(rows: list[TaskRecord]) -> list[FirthCurve]:
    """One fit per (model, family) over that model's valid episodes, horizons normalised as `bench.horizon` does
    (over every task in `rows`)."""
    h, _, _ = task_table(rows)
    tasks = list(dict.fromkeys(r.task_id for r in rows if not r.voided))
    horizon = dict(zip(tasks, h))
    groups: dict[tuple[str, str], list[TaskRecord]] = defaultdict(list)
    for r in rows:
        if not r.voided:
            groups[(r.assistant, r.family)].append(r)
    out = []
    for (model, fam), rs in sorted(groups.items()):
        y = np.array([float(r.passed) for r in rs])
        # all passed or all failed: the penalty alone would set a slope, from where the tasks lie, not from outcomes
        fit = firth_logit(np.array([horizon[r.task_id] for r in rs]), y) if 0 < y.sum() < len(y) else None
        out.append(FirthCurve(model, fam, None if fit is None else fit[1], len(rs)))
    return out
