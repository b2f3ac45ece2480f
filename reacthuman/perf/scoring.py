"""Scoring: decisions scored per second (score_decision), ledger rows appended (fsynced) and read back per
second, and decisions per second from a ledger to the written report (tables, plots, markdown, html).

The decisions are synthetic but varied (seeded): every action class, dangerous and harmless truths, with
and without impact points, unparseable replies and executed outcomes, over the 17 families and 3 models."""

from __future__ import annotations

import math
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reacthuman.perf.common import Goal, Repeats, time_repeats
from reacthuman.plan.plan import Keyframe, Plan, Pose2D
from reacthuman.scoring import (
    ExecutedOutcome,
    LedgerWriter,
    ModelReply,
    SceneMeta,
    ScoringTruth,
    read_ledger,
    score_decision,
)
from reacthuman.scenes import FAMILIES
from reacthuman.reporting.report import write_report

MODELS = ("model-a", "model-b", "model-c")
ACTIONS = ("CATCH", "DODGE", "NO_ACTION")
LEDGER_DECISIONS = 10_000
# Rescoring or reporting a 10,000-decision ledger should take under a minute.
RATE_GOAL = Goal(LEDGER_DECISIONS / 60.0, "decisions/s", True, "a 10,000-decision ledger within a minute")


@dataclass(frozen=True)
class DecisionInput:
    meta: SceneMeta
    truth: ScoringTruth
    observer: Pose2D
    reply: ModelReply
    outcome: ExecutedOutcome | None


def synthetic_inputs(n: int, seed: int = 0) -> list[DecisionInput]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        scene, model = divmod(i, len(MODELS))
        family = FAMILIES[scene % len(FAMILIES)]
        meta = SceneMeta(f"bench_{scene:05d}", family, "ceramic plate", MODELS[model], room="kitchen")
        correct = ACTIONS[int(rng.integers(3))]
        impact = None if rng.random() < 0.2 else tuple(float(v) for v in rng.uniform((0.2, -0.5, 0.3), (1.2, 0.5, 1.2)))
        truth = ScoringTruth.from_spec(
            {
                "correct_action": correct,
                "dangerous": correct == "DODGE",
                "impact_point": impact,
                "time_to_floor_s": 0.6,
                "speed_band": "normal",
                "adversarial": bool(rng.random() < 0.1),
            },
            object_at_freeze_world=tuple(float(v) for v in rng.uniform((0.5, -0.5, 0.5), (1.5, 0.5, 1.5))),
        )
        observer = Pose2D(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1)), float(rng.uniform(-math.pi, math.pi)))
        if rng.random() < 0.05:
            reply = ModelReply("not json", None, parse_error="not JSON at column 1", latency_s=1.0)
        else:
            vx = float(rng.uniform(-0.7, 0.7))
            reach = tuple(float(v) for v in rng.uniform(-0.3, 0.3, 3))
            plan = Plan(
                "plate",
                "Catch it" if vx > 0 else "Step back",
                float(rng.uniform(0, 1)),
                (vx, 0.0, 0.0),
                float(rng.uniform(0, 1)),
                0.0,
                (Keyframe(0.0, (0, 0, 0), (0, 0, 0)), Keyframe(0.4, reach, reach)),
            )
            reply = ModelReply("{}", plan, latency_s=float(rng.uniform(0.5, 5)), tokens=int(rng.integers(100, 900)))
        outcome = (
            None
            if rng.random() < 0.3
            else ExecutedOutcome(
                caught=bool(rng.random() < 0.3),
                struck=bool(rng.random() < 0.2),
                fell=False,
                final_left_hand_world=(0.3, 0.2, 0.9),
                final_right_hand_world=(0.3, -0.2, 0.9),
                min_hand_object_m=float(rng.uniform(0, 1)),
            )
        )
        out.append(DecisionInput(meta, truth, observer, reply, outcome))
    return out


def _rate(n: int, r: Repeats) -> dict:
    return {"per_s": round(n / r.median, 1), "seconds": r.to_dict(4)}


def scoring_section(decisions: int, repeats: int, work_dir: Path | None = None) -> dict:
    inputs = synthetic_inputs(decisions)
    records = []

    def score_all() -> None:
        records.clear()
        records.extend(score_decision(d.meta, d.truth, d.observer, d.reply, d.outcome) for d in inputs)

    score = time_repeats(score_all, repeats)
    with tempfile.TemporaryDirectory(prefix="reacthuman-bench-scoring-", dir=work_dir) as tmp:
        run_dir = Path(tmp) / "run"
        t = time.perf_counter()
        with LedgerWriter(run_dir) as writer:
            for r in records:
                writer.append(r)
        append_s = time.perf_counter() - t
        read = time_repeats(lambda: read_ledger(run_dir), repeats)

        def report() -> None:
            write_report(run_dir, Path(tmp) / "report")

        rep = time_repeats(report, repeats)
        rows = len(read_ledger(run_dir))
    score_rate = decisions / score.median
    report_rate = rows / rep.median
    return {
        "decisions": decisions,
        "models": len(MODELS),
        "score_decision": {**_rate(decisions, score), "goal": RATE_GOAL.to_dict(score_rate)},
        "ledger_append_fsync": {"per_s": round(decisions / append_s, 1), "seconds": round(append_s, 4)},
        "ledger_read": _rate(rows, read),
        "ledger_to_report": {
            **_rate(rows, rep),
            "goal": RATE_GOAL.to_dict(report_rate),
            "note": "write_report: tables, plots (matplotlib), markdown and html; fixed costs "
            "dominate at small ledgers",
        },
        "decisions_per_s": round(score_rate, 1),
    }
