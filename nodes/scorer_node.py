"""scorer: scores each decision against exact ground truth (reacthuman.scoring) once the plan and the
executed outcome of the announced scene are in, publishes the score, and optionally appends the ledger. An
episode it cannot score fails at once with the reason (graph.EPISODE_FAULT).

In the closed loop (`loop` closed) it also waits for the hazard's recorded path (graph.HAZARD_PATH, which says how
many decisions the body held) and every decision's freeze state and plan, and adds the closed-loop fields
(scoring.closed_loop) as the in-process loop does (conversions.score_closed_episode_msgs)."""

from __future__ import annotations

import json

from reacthuman_msgs.msg import EpisodeScore

from reacthuman import ros_contract as graph
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.runtime import ContractNode, one_of, run
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scoring import LedgerWriter


class ScorerNode(ContractNode):
    """Messages of one episode arrive on different topics in no guaranteed order (a replayed bag sends them
    as fast as it can): they are kept per scene id until the scene, the freeze state, the outcome and (when one
    was received) the plan are all in. All are small: the scorer never takes the window's frames."""

    KEEP_SCENES = 8

    def __init__(self) -> None:
        self._episodes: dict[str, dict[str, object]] = {}
        super().__init__(
            "scorer",
            {t: self._keep(t) for t in (graph.SCENE, graph.PLAN, graph.FREEZE_STATE, graph.HAZARD_PATH, graph.OUTCOME)},
        )
        self.model = self.declare("model", "", "model name recorded when no plan arrives")
        run_dir = self.declare(
            "ledger_dir", "", "append each decision to <ledger_dir>/ledger.jsonl; empty: publish only"
        )
        self.ledger = LedgerWriter(run_dir) if run_dir else None
        self.loop = self.declare(
            "loop", "open", "open: one decision per episode; closed: re-plans", one_of("open", "closed")
        )

    def _keep(self, topic: str):
        def on(msg) -> None:
            episode = self._episodes.setdefault(msg.scene_id, {})
            episode[topic] = msg
            if topic in (graph.PLAN, graph.FREEZE_STATE):  # one per decision (the closed loop), by index
                episode.setdefault((topic, "by_decision"), {})[_decision(msg)] = msg
            while len(self._episodes) > self.KEEP_SCENES:
                self._episodes.pop(next(iter(self._episodes)))
            self._maybe_score(msg.scene_id)

        return on

    def _maybe_score(self, scene_id: str) -> None:
        seen = self._episodes[scene_id]
        scene, freeze, plan, outcome = (
            seen.get(t) for t in (graph.SCENE, graph.FREEZE_STATE, graph.PLAN, graph.OUTCOME)
        )
        if scene is None or outcome is None or freeze is None or (plan is None and outcome.plan_received):
            return
        path = seen.get(graph.HAZARD_PATH)
        plans, freezes = (seen.get((t, "by_decision"), {}) for t in (graph.PLAN, graph.FREEZE_STATE))
        if self.loop == "closed" and (
            path is None
            or (outcome.plan_received and 0 not in plans)
            or not _all_decisions(path.decisions, plans, freezes)
        ):
            return
        del self._episodes[scene_id]
        try:
            spec = SceneSpec.from_json(scene.spec_json)
            if self.loop == "closed":
                record = conv.score_closed_episode_msgs(spec, plans, freezes, path, outcome, self.model)
            else:
                record = conv.score_episode_msgs(spec, plan, conv.object_at_freeze(freeze), outcome, self.model)
        except Exception as exc:  # noqa: BLE001 (an episode it cannot score fails at once, saying why)
            self.report_fault(scene_id, f"scoring failed: {type(exc).__name__}: {exc}")
            return
        if self.ledger is not None:
            self.ledger.append(record)
        self.pub[graph.SCORE].publish(score_msg(record.to_dict()))


def _decision(msg) -> int:
    return int(msg.decision_index)


def _all_decisions(decisions: int, plans: dict, freezes: dict) -> bool:
    """Every decision's freeze state is in, and every re-plan's plan (the first plan is awaited as in the open
    loop: when the outcome says one was received)."""
    return all(k in freezes for k in range(decisions)) and all(k in plans for k in range(1, decisions))


def score_msg(row: dict) -> EpisodeScore:
    return EpisodeScore(scene_id=row["scene_id"], model=row["model"], record_json=json.dumps(row, sort_keys=True))


def main(args: list[str] | None = None) -> int:
    return run(ScorerNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
