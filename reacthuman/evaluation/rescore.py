"""`reacthuman rescore RUN_DIR`: recompute every decision from its episode bag (scene, observation, plan,
outcome, exactly as they crossed the graph) and check the result equals the ledger row, field by field.
Exits non-zero naming every row that differs."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reacthuman import graph
from reacthuman.evaluation.episode_files import EpisodeFolder
from reacthuman.recording.bag import BagError, read_bag
from reacthuman.scoring.ledger import LedgerError, read_ledger

TOPICS = {graph.SCENE, graph.PLAN, graph.OBSERVATION, graph.OUTCOME}


def rescore_bag(bag: Path, model: str) -> dict:
    from rclpy.serialization import deserialize_message

    from reacthuman.nodes.runtime import msg_type
    from reacthuman.nodes.scorer_node import score_episode
    from reacthuman.scenes.spec import SceneSpec

    last: dict[str, object] = {}
    for m in read_bag(bag, TOPICS):
        last[m.topic] = deserialize_message(m.raw, msg_type(m.msgtype))
    if graph.SCENE not in last or graph.OUTCOME not in last:
        raise BagError(f"{bag}: the bag lacks the scene announcement or the outcome")
    spec = SceneSpec.from_json(last[graph.SCENE].spec_json)
    return score_episode(spec, last.get(graph.PLAN), last.get(graph.OBSERVATION), last[graph.OUTCOME], model).to_dict()


def differences(ledger_row: dict, rescored: dict) -> list[str]:
    keys = sorted(set(ledger_row) | set(rescored))
    return [f"{k}: ledger {ledger_row.get(k)!r} != bag {rescored.get(k)!r}" for k in keys
            if json.dumps(ledger_row.get(k), sort_keys=True) != json.dumps(rescored.get(k), sort_keys=True)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="reacthuman rescore", description=__doc__.splitlines()[0])
    p.add_argument("run_dir", type=Path)
    args = p.parse_args(argv)
    try:
        rows = read_ledger(args.run_dir)
    except LedgerError as exc:
        print(f"reacthuman rescore: {exc}", file=sys.stderr)
        return 2
    bad = 0
    for record in rows:
        row = record.to_dict()
        bag = EpisodeFolder(args.run_dir, row["model"], row["scene_id"]).final / "bag"
        try:
            diff = differences(row, rescore_bag(bag, row["model"]))
        except (BagError, ValueError) as exc:
            diff = [str(exc)]
        if diff:
            bad += 1
            print(f"DIFFERS {row['scene_id']} x {row['model']}: " + "; ".join(diff))
    print(f"rescored {len(rows)} decisions from their bags: {len(rows) - bad} identical, {bad} different")
    return 1 if bad else 0
