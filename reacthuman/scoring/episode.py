"""One episode's decision record from what the graph carried: the scene, the brain's reply, where the
object was at the freeze and the executed outcome. The scorer node and `reacthuman rescore` (from a bag)
both call this, after turning their messages into these types (`reacthuman.nodes.conversions`)."""

from __future__ import annotations

from reacthuman.brain.base import BrainDecision
from reacthuman.scenes.envelope import execution_extras
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scoring.decision import score_decision
from reacthuman.scoring.inputs import ExecutedOutcome, ModelReply, SceneMeta, ScoringTruth
from reacthuman.scoring.ledger import DecisionRecord

Vec3 = tuple[float, float, float]


def reply_of(decision: BrainDecision) -> ModelReply:
    """The reply the scorer scores, built from the brain's decision on both transports (in process from the
    decision itself, through the graph from the decision its ReactionPlan message carries)."""
    return ModelReply(
        raw_text=decision.raw_text,
        plan=decision.plan,
        parse_error=decision.parse_error if not decision.parse_ok else None,
        api_error=decision.api_error,
        latency_s=decision.latency_s,
        tokens=decision.tokens,
        # a count of 0 travels in a message as "none": the same reply either way
        prompt_tokens=decision.prompt_tokens or None,
        completion_tokens=decision.completion_tokens or None,
        truncated=decision.truncated,
    )


def score_episode(
    spec: SceneSpec,
    model: str,
    reply: ModelReply,
    freeze_xyz: Vec3 | None,
    executed: ExecutedOutcome,
    deflected: bool,
    modality: str | None,
) -> DecisionRecord:
    """`model`: the model that answered (the plan's, else the run's); `deflected`: a hand touched the object
    without holding it (the executed outcome's extra fact)."""
    record = score_decision(
        SceneMeta.from_scene_spec(spec, model),
        ScoringTruth.from_scene_spec(spec, freeze_xyz),
        spec.observer.pose(),
        reply,
        executed,
    )
    record.extras.update(execution_extras(spec, deflected))
    record.modality = modality
    return record


def score_unexecuted(
    spec: SceneSpec, model: str, reply: ModelReply, freeze_xyz: Vec3 | None, modality: str | None
) -> DecisionRecord:
    """The row `score_episode` writes for the same reply, before (or without) execution: every scoring field
    equal, the execution columns empty, and `executed` false (`reacthuman decide`)."""
    record = score_decision(
        SceneMeta.from_scene_spec(spec, model),
        ScoringTruth.from_scene_spec(spec, freeze_xyz),
        spec.observer.pose(),
        reply,
    )
    record.extras.update(physically_unreachable=execution_extras(spec, False)["physically_unreachable"], executed=False)
    record.modality = modality
    return record
