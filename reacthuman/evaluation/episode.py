"""One episode in one process with direct calls: scene -> body (window, freeze) -> brain -> spine + body
(execution) -> scorer. The graph runs the same steps across processes; this path is the reference the
benchmark compares the graph's overhead against, and a quick way to debug a scene."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from reacthuman.brain.base import Brain, BrainDecision
from reacthuman.control.envelope import execution_extras
from reacthuman.control.spine import Spine
from reacthuman.evaluation.observe import WindowTracker, build_observation
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scoring import ExecutedOutcome, ModelReply, SceneMeta, ScoringTruth, score_decision
from reacthuman.scoring.ledger import DecisionRecord
from reacthuman.sim_bridge.body import Body


@dataclass
class EpisodeResult:
    record: DecisionRecord
    decision: BrainDecision
    outcome: object
    timings_s: dict[str, float] = field(default_factory=dict)


def ground_truth_dict(spec: SceneSpec) -> dict:
    gt = spec.ground_truth
    return {"correct_action": gt.correct_action, "dangerous": gt.dangerous, "impact_point": gt.impact_point,
            "time_to_floor_s": gt.time_to_floor_s, "impact_time_s": gt.impact_time_s,
            "speed_band": gt.speed_band, "adversarial": gt.adversarial, "intercept_point": gt.intercept_point,
            "intercept_time_s": gt.intercept_time_s, "clear_step": gt.clear_step}


def reply_of(decision: BrainDecision) -> ModelReply:
    return ModelReply(raw_text=decision.raw_text, plan=decision.plan,
                      parse_error=decision.parse_error if not decision.parse_ok else None,
                      api_error=decision.api_error, latency_s=decision.latency_s, tokens=decision.tokens)


def run_episode(spec: SceneSpec, brain: Brain, body: Body, spine: Spine) -> EpisodeResult:
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = now - clock
        clock = now

    body.load(spec)
    lap("scene_build")
    spine.reset(None)
    tracker = WindowTracker(body, spine.command, spec, body.frame_times_s())
    framesets = body.simulate_window(tracker)
    lap("window")
    images = {name: [f.images[name] for f in framesets] for name in framesets[0].images} if framesets else {}
    times = tuple(f.t_s for f in framesets)
    obs = build_observation(spec, times, images, tracker.samples, ground_truth_dict(spec))
    decision = brain.plan(obs)
    lap("plan")
    body.offer_plan(spec.scene_id)
    spine.set_plan(decision.plan)
    outcome = body.execute(spine.command)
    lap("execution")
    freeze_pos = tracker.freeze_state()[0]
    record = score_decision(SceneMeta.from_scene_spec(spec, decision.brain),
                            ScoringTruth.from_scene_spec(spec, tuple(float(v) for v in freeze_pos)),
                            spec.observer.pose(), reply_of(decision), ExecutedOutcome.from_sim_outcome(outcome))
    record.extras.update(execution_extras(spec, outcome.deflected))
    lap("scoring")
    return EpisodeResult(record, decision, outcome, timings)
