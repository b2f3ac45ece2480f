"""`reacthuman rescore RUN_DIR`: recompute every decision from its episode bag (scene, freeze state, plan,
outcome, exactly as they crossed the graph; in the closed loop every decision's freeze state and plan and the
hazard's recorded path too) and check the result equals the ledger row, field by field, and
that the bag holds the whole episode (every message on every recorded topic, reacthuman.recording.completeness).
A policy's episode is replayed from its ticks: the plan the body executed is rebuilt from the robot's recorded
state at each of the policy's recorded commands (`policy_episode.replay_trace`), not read from the plan the
policy node published. Exits non-zero naming every row that differs or whose bag is incomplete."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reacthuman import ros_contract as graph
from reacthuman.recording.episode_files import BAG_DROPPED, EpisodeFolder
from reacthuman.core.bag import BagError, read_bag, whole_raw
from reacthuman.recording.completeness import EpisodeEnd, EpisodeTally, cdr_stamp_ns, missing
from reacthuman.recording.ros_msgs import stamp_ns as header_stamp_ns
from reacthuman.scoring.closed_loop import rescore_folder
from reacthuman.scoring.ledger import LedgerError, read_ledger
from reacthuman.scenes.spec import SceneSpec
from reacthuman.brain.base import BrainDecision
from reacthuman.evaluation.policy_episode import MODALITY as POLICY_MODALITY, executed_plan, replay_trace, trace_text
from reacthuman.spine.g1_assets import G1_JOINT_NAMES

TOPICS = {graph.SCENE, graph.PLAN, graph.OBSERVATION, graph.FREEZE_STATE, graph.HAZARD_PATH, graph.OUTCOME}
BY_DECISION = (graph.PLAN, graph.FREEZE_STATE)  # one per decision in the closed loop
STATE_TOPICS = (graph.JOINT_STATES, graph.BASE_STATE, graph.HAND_POSITIONS)  # a policy tick's robot state, in order


def rescore_bag(bag: Path, model: str, loop: str = "open") -> dict:
    """The row the bag's messages score to; `loop` closed: with every decision point's fields, from the freeze
    states, plans and hazard path the bag recorded (as the scorer node computes them)."""
    from rclpy.serialization import deserialize_message

    from reacthuman.nodes.conversions import (
        carries_legacy_freeze_point,
        decision_to_msg,
        legacy_object_at_freeze,
        object_at_freeze,
        plan_msg_to_dict,
        robot_state_from_msgs,
        score_closed_episode_msgs,
        score_episode_msgs,
        xyz,
    )
    from reacthuman.nodes.runtime import msg_type

    last: dict[str, object] = {}
    by_decision: dict[str, dict[int, object]] = {t: {} for t in BY_DECISION}
    tally = EpisodeTally()
    commands: list = []  # a policy's, in the order recorded
    states: dict[str, dict[int, tuple[str, bytes]]] = {t: {} for t in STATE_TOPICS}  # topic -> stamp -> message
    for m in read_bag(bag):
        tally.add(m.topic, m.raw)
        if m.topic in TOPICS:
            last[m.topic] = msg = deserialize_message(whole_raw(m.raw, m.msgtype), msg_type(m.msgtype))
            if m.topic in BY_DECISION and loop == "closed":
                by_decision[m.topic][int(msg.decision_index)] = msg
        elif m.topic == graph.POLICY_COMMAND:
            commands.append(deserialize_message(whole_raw(m.raw, m.msgtype), msg_type(m.msgtype)))
        elif m.topic in STATE_TOPICS:
            states[m.topic][cdr_stamp_ns(m.raw)] = (m.msgtype, m.raw)
    if graph.SCENE not in last or graph.OUTCOME not in last:
        raise BagError(f"{bag}: the bag lacks the scene announcement or the outcome")
    spec = SceneSpec.from_json(last[graph.SCENE].spec_json)
    lacks = missing(tally, _end_from_bag(last, tally, len(set(spec.hazard_bodies)), loop == "closed"))
    freeze, obs = last.get(graph.FREEZE_STATE), last.get(graph.OBSERVATION)
    if freeze is not None:
        freeze_xyz = object_at_freeze(freeze)
    elif obs is not None and carries_legacy_freeze_point(obs):  # recorded before FreezeState existed
        lacks = [t for t in lacks if t != graph.FREEZE_STATE]
        freeze_xyz = legacy_object_at_freeze(obs)
    else:
        freeze_xyz = None  # the bag is incomplete: `lacks` names the freeze state
    if lacks:
        raise BagError(f"{bag}: incomplete, it lacks {'; '.join(lacks)}")
    if loop == "closed":
        plans, freezes = (by_decision[t] for t in BY_DECISION)
        return score_closed_episode_msgs(
            spec, plans, freezes, last[graph.HAZARD_PATH], last[graph.OUTCOME], model
        ).to_dict()
    plan = last.get(graph.PLAN)
    if plan is not None and plan.modality == POLICY_MODALITY:
        # a policy's row: the plan the body executed rebuilt from the recorded ticks (the robot's state of each
        # command's stamp and the command), as the policy node built it, then scored as the scorer scored it
        if not commands:
            raise BagError(
                f"{bag}: a policy's episode, and the bag holds none of its commands ({graph.POLICY_COMMAND})"
            )
        ticks = []
        for command in sorted(commands, key=lambda c: header_stamp_ns(c.header)):
            ns = header_stamp_ns(command.header)
            if any(ns not in states[t] for t in STATE_TOPICS):
                raise BagError(f"{bag}: no robot state recorded at the policy tick of {ns * 1e-9:.4f} s")
            joints, base, hands = (
                deserialize_message(whole_raw(raw, kind), msg_type(kind))
                for kind, raw in (states[t][ns] for t in STATE_TOPICS)
            )
            state = robot_state_from_msgs(joints, base, G1_JOINT_NAMES)
            ticks.append((state, xyz(base.pose.position), (xyz(hands.left), xyz(hands.right)), command.raw_text))
        trace = replay_trace(ticks)
        decision = BrainDecision(
            brain=plan.model,
            plan=executed_plan(trace, plan.model),
            raw_text=trace_text(trace),
            parse_ok=True,
            latency_s=plan.latency_s,
            modality=POLICY_MODALITY,
        )
        replayed = decision_to_msg(decision, spec.scene_id, type(plan)())
        published = plan_msg_to_dict(plan) | {"raw_text": plan.raw_text}
        again = plan_msg_to_dict(replayed) | {"raw_text": replayed.raw_text}
        if apart := [k for k in sorted(again) if json.dumps(again[k]) != json.dumps(published[k])]:
            raise BagError(
                f"{bag}: the policy's episode replayed from its ticks differs from its plan in {', '.join(apart)}"
            )
        plan = replayed
    return score_episode_msgs(spec, plan, freeze_xyz, last[graph.OUTCOME], model).to_dict()


def _end_from_bag(last: dict, tally: EpisodeTally, hazard_count: int, closed: bool) -> EpisodeEnd | None:
    obs, outcome = last.get(graph.OBSERVATION), last[graph.OUTCOME]
    if obs is None:
        return None
    # frames recorded once (inside the observation) leave the image topics out of the bag altogether
    frames = {v.view_name: len(v.frames) if tally.counts[graph.image_topic(v.view_name)] else 0 for v in obs.views}
    return EpisodeEnd(
        header_stamp_ns(outcome.header),
        outcome.plan_received or outcome.plan_late,
        outcome.controller_fault,
        frames,
        hazard_count,
        path_expected=closed,
    )


def differences(ledger_row: dict, rescored: dict) -> list[str]:
    keys = sorted(set(ledger_row) | set(rescored))
    return [
        f"{k}: ledger {ledger_row.get(k)!r} != bag {rescored.get(k)!r}"
        for k in keys
        if json.dumps(ledger_row.get(k), sort_keys=True) != json.dumps(rescored.get(k), sort_keys=True)
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="reacthuman rescore", description=__doc__.splitlines()[0])
    p.add_argument("run_dir", type=Path)
    args = p.parse_args(argv)
    try:
        rows = read_ledger(args.run_dir)
    except LedgerError as exc:
        print(f"reacthuman rescore: {exc}", file=sys.stderr)
        return 2
    bad = dropped = 0
    for record in rows:
        row = record.to_dict()
        folder = EpisodeFolder(args.run_dir, row["model"], row["scene_id"]).final
        bag = folder / "bag"
        if not bag.exists() and (folder / BAG_DROPPED).is_file():
            dropped += 1
            continue
        if row.get("loop") == "closed" and not bag.exists():  # in process (`reacthuman loop`): from its recorded path
            diff = rescore_folder(folder, row)
            bad += bool(diff)
            if diff:
                print(f"DIFFERS {row['scene_id']} x {row['model']}: " + "; ".join(diff))
            continue
        try:
            diff = differences(row, rescore_bag(bag, row["model"], row.get("loop") or "open"))
        except (BagError, ValueError) as exc:
            diff = [str(exc)]
        if diff:
            bad += 1
            print(f"DIFFERS {row['scene_id']} x {row['model']}: " + "; ".join(diff))
    kept = len(rows) - dropped
    note = f" ({dropped} without a bag: the run kept bags only for failures)" if dropped else ""
    print(
        f"rescored {kept} decisions from their bags (closed-loop rows run in process: from their recorded paths): "
        f"{kept - bad} identical, {bad} different{note}"
    )
    return 1 if bad else 0
