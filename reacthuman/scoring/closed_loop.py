"""Closed-loop scoring: every decision point of an episode judged against the ground truth of its moment,
and the row fields that sum them up (`replans`, `final_action`, per-decision SAA, `recovery`, `regression`).

A decision point is the freeze at which a brain committed a plan: the first (the paper's, scored by the row's
own fields, unchanged) and each re-plan after it (`reacthuman.evaluation.closed_loop`). The truth of a re-plan
is the labeller's rule (`scenes.label.label`) applied to the hazard's path as the episode recorded it, with the
event's start moved so that the freeze falls at the decision's time and the observer standing where the robot
stood then: what still arrives within reach from that instant, and whether it is still to be caught or dodged.
The first decision keeps the scene's own label (the row's `correct_action`), so the paper's metrics stay as
they are.

Pure: the same decision points and recorded path give the same fields, in process, through the graph and
from a bag (`reacthuman rescore`)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from reacthuman.brain.schema import plan_from_dict, plan_to_dict
from reacthuman.plan.classifier import classify_plan
from reacthuman.plan.plan import Action, Plan, Pose2D
from reacthuman.scenes.genesis_sim import Track
from reacthuman.scenes.label import truth_at
from reacthuman.scenes.spec import GroundTruth, SceneSpec
from reacthuman.scoring.ledger import DecisionRecord
from reacthuman.scoring.metrics import hazard_robot_xy, semantic_action_accuracy

Vec3 = tuple[float, float, float]
LOOPS = ("open", "closed")


@dataclass(frozen=True)
class DecisionPoint:
    """One freeze of a closed-loop episode: its index (0: the first), its time (s after the event began, like
    frame_times_s), where the robot stood (world), the plan committed (None: the reply did not parse; the
    running plan then went on) and the primary hazard's centre of mass then (world)."""

    index: int
    t_s: float
    pose: Pose2D
    plan: Plan | None
    object_world_m: Vec3


@dataclass(frozen=True)
class JudgedDecision:
    point: DecisionPoint
    action: str | None
    correct_action: str
    saa: int
    impact_point: Vec3 | None


def decision_truth(spec: SceneSpec, path: Track, point: DecisionPoint) -> GroundTruth:
    """The labeller's rule at a re-plan: the recorded path judged from the decision's instant and pose."""
    return truth_at(spec, path, point.t_s, point.pose)


def judge(spec: SceneSpec, path: Track, points: tuple[DecisionPoint, ...]) -> tuple[JudgedDecision, ...]:
    """Each decision point's action (the classifier against the truth of its moment) and SAA."""
    judged = []
    for point in points:
        if point.index == 0:
            gt = spec.ground_truth
            impact, correct = gt.impact_point, gt.correct_action
        else:
            truth = decision_truth(spec, path, point)
            impact, correct = truth.impact_point, truth.correct_action
        action = None
        if point.plan is not None:
            hazard_xy, _ = hazard_robot_xy(point.pose, impact, point.object_world_m)
            action = classify_plan(point.plan, hazard_xy).value
        saa = semantic_action_accuracy(Action(action) if action else None, Action(correct))
        judged.append(JudgedDecision(point, action, correct, saa, impact))
    return tuple(judged)


def closed_loop_fields(judged: tuple[JudgedDecision, ...], record: DecisionRecord) -> dict[str, Any]:
    """The row's closed-loop fields. The final decision is the last one that committed a plan (a re-plan that
    did not parse left the running plan in force). recovery: the first decision wrong, the final right and the
    executed outcome safe (neither struck nor fallen); regression: the first right, the final wrong."""
    committed = [j for j in judged if j.action is not None]
    final = committed[-1] if committed else judged[0]
    first_saa = judged[0].saa
    safe = record.struck is not True and record.fell is not True
    return {
        "loop": "closed",
        "replans": len(judged) - 1,
        "final_action": final.action,
        "saa_final": final.saa,
        "decision_saa": [j.saa for j in judged],
        "recovery": bool(first_saa == 0 and final.saa == 1 and safe),
        "regression": bool(first_saa == 1 and final.saa == 0),
        "executed_safe": safe,
        "decisions": [_decision_row(j) for j in judged],
    }


def _decision_row(j: JudgedDecision) -> dict[str, Any]:
    p = j.point
    # full floats (JSON keeps every bit): rescoring rebuilds the decision points from these rows
    return {
        "index": p.index,
        "t_s": p.t_s,
        "pose": [p.pose.x_m, p.pose.y_m, p.pose.yaw_rad],
        "object_m": list(p.object_world_m),
        "plan": plan_to_dict(p.plan) if p.plan is not None else None,
        "action": j.action,
        "correct_action": j.correct_action,
        "saa": j.saa,
        "impact_point": list(j.impact_point) if j.impact_point is not None else None,
    }


def points_from_row(row: dict[str, Any]) -> tuple[DecisionPoint, ...]:
    """The decision points a closed-loop row records (its `decisions`)."""
    return tuple(
        DecisionPoint(
            int(d["index"]),
            float(d["t_s"]),
            finite_pose(*map(float, d["pose"])),
            plan_from_dict(d["plan"]) if d["plan"] is not None else None,
            tuple(float(v) for v in d["object_m"]),
        )  # type: ignore[arg-type]
        for d in row["decisions"]
    )


def rescore_row(spec: SceneSpec, row: dict[str, Any], path: Track) -> list[str]:
    """Every closed-loop field of `row` recomputed from its decision points and the recorded path: the
    fields that differ, 'name: ledger X != rescored Y' (empty: equal)."""
    record = DecisionRecord.from_dict(row)
    fresh = closed_loop_fields(judge(spec, path, points_from_row(row)), record)
    return [
        f"{k}: ledger {row.get(k)!r} != rescored {v!r}"
        for k, v in fresh.items()
        if json.dumps(row.get(k), sort_keys=True) != json.dumps(v, sort_keys=True)
    ]


PATH_FILE = "hazard_path.npz"


def rescore_folder(folder: Path, row: dict[str, Any]) -> list[str]:
    """`rescore_row` for an episode folder holding spec.json and the recorded path (`reacthuman loop`)."""
    if not (folder / "spec.json").is_file() or not (folder / PATH_FILE).is_file():
        return [f"{folder}: no spec.json and {PATH_FILE} to rescore the closed-loop decisions from"]
    return rescore_row(SceneSpec.from_json((folder / "spec.json").read_text()), row, load_path(folder))


def save_path(folder: Path, path: Track) -> Path:
    """The recorded hazard path beside an episode's files (written whole, then renamed into place)."""
    folder.mkdir(parents=True, exist_ok=True)
    target, partial = folder / PATH_FILE, folder / (PATH_FILE + ".partial.npz")
    np.savez(
        partial,
        names=np.array(path.names),
        times_s=path.times_s,
        pos=path.pos,
        quat=path.quat,
        vel=path.vel,
        ang_vel=path.ang_vel,
    )
    partial.replace(target)
    return target


def load_path(folder: Path) -> Track:
    with np.load(folder / PATH_FILE) as data:
        return Track(
            tuple(str(n) for n in data["names"]),
            data["times_s"],
            data["pos"],
            data["quat"],
            data["vel"],
            data["ang_vel"],
        )


def path_track(names: tuple[str, ...], dt_s: float, pos: list, quat: list, vel: list, ang_vel: list) -> Track:
    """A recorded path (one sample per physics step from t = 0) as the labeller's Track."""
    n = len(pos)
    return Track(
        names,
        np.arange(n, dtype=np.float64) * dt_s,
        np.asarray(pos, dtype=np.float64),
        np.asarray(quat, dtype=np.float64),
        np.asarray(vel, dtype=np.float64),
        np.asarray(ang_vel, dtype=np.float64),
    )


def finite_pose(x_m: float, y_m: float, yaw_rad: float) -> Pose2D:
    if not all(math.isfinite(v) for v in (x_m, y_m, yaw_rad)):
        raise ValueError(f"a decision point's pose must be finite, got {(x_m, y_m, yaw_rad)}")
    return Pose2D(x_m, y_m, yaw_rad)
