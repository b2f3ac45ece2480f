"""What the scorer is given for one decision: the truth, the scene, the model's reply, the executed outcome.

`ScoringTruth` holds the part of a scene's ground truth the metrics need. It is built from the spec's
`ground_truth` object (`reacthuman.scenes.spec.GroundTruth`, or its JSON dict) with `ScoringTruth.from_spec`;
keys the scorer does not use (impact_time_s, reasons, ...) are ignored so the scene schema can grow without
breaking scoring. Two facts the spec does not hold are passed alongside: the hazard's world position at the
freeze (used for the classifier's hazard direction when the scene has no impact point) and, for adversarial
objects, the object id of the genuine look-alike (for the adversarial analysis).

All positions are world frame, metres (the spec's frame); the observer's `Pose2D` maps them to the
freeze-time robot frame of `reacthuman.plan.plan`.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from reacthuman.plan.plan import Action, Plan
from reacthuman.scenes.catalog import OBJECTS

if TYPE_CHECKING:
    from reacthuman.scenes.spec import SceneSpec

Vec3 = tuple[float, float, float]


def _vec3(name: str, value: Any) -> Vec3 | None:
    if value is None:
        return None
    try:
        out = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be 3 numbers or null, got {value!r}") from None
    if len(out) != 3 or not all(math.isfinite(v) for v in out):
        raise ValueError(f"{name} must be 3 finite numbers, got {value!r}")
    return out  # type: ignore[return-value]


def _opt_number(name: str, value: Any, lo: float | None = None) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number or null, got {value!r}")
    if lo is not None and value < lo:
        raise ValueError(f"{name} must be >= {lo}, got {value}")
    return float(value)


@dataclass(frozen=True)
class ScoringTruth:
    """Ground truth of one scene as scoring sees it (world frame, metres, seconds)."""

    correct_action: Action
    dangerous: bool
    impact_point_world: Vec3 | None
    time_to_floor_s: float | None
    speed_band: str | None
    adversarial: bool
    object_at_freeze_world: Vec3 | None = None
    looks_like: str | None = None  # genuine look-alike object id, adversarial objects only

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "correct_action", Action(self.correct_action))
        except ValueError:
            raise ValueError(f"correct_action must be CATCH, DODGE or NO_ACTION, got {self.correct_action!r}") from None
        if not isinstance(self.dangerous, bool):
            raise ValueError(f"dangerous must be true or false, got {self.dangerous!r}")
        if not isinstance(self.adversarial, bool):
            raise ValueError(f"adversarial must be true or false, got {self.adversarial!r}")
        object.__setattr__(self, "impact_point_world", _vec3("impact_point", self.impact_point_world))
        object.__setattr__(self, "object_at_freeze_world", _vec3("object_at_freeze", self.object_at_freeze_world))
        _opt_number("time_to_floor_s", self.time_to_floor_s, 0.0)

    @staticmethod
    def from_spec(
        ground_truth: Mapping[str, Any] | Any,
        object_at_freeze_world: Vec3 | None = None,
        looks_like: str | None = None,
    ) -> "ScoringTruth":
        """From a spec's ground_truth (the dataclass or its JSON dict). Missing required keys raise
        ValueError naming them."""
        if dataclasses.is_dataclass(ground_truth) and not isinstance(ground_truth, type):
            ground_truth = dataclasses.asdict(ground_truth)
        if not isinstance(ground_truth, Mapping):
            raise ValueError(f"ground_truth must be an object, got {type(ground_truth).__name__}")
        required = ("correct_action", "dangerous", "impact_point", "adversarial")
        absent = [k for k in required if k not in ground_truth]
        if absent:
            raise ValueError(f"ground_truth is missing field(s): {', '.join(absent)}")
        return ScoringTruth(
            correct_action=ground_truth["correct_action"],
            dangerous=ground_truth["dangerous"],
            impact_point_world=ground_truth["impact_point"],
            time_to_floor_s=ground_truth.get("time_to_floor_s"),
            speed_band=ground_truth.get("speed_band"),
            adversarial=ground_truth["adversarial"],
            object_at_freeze_world=object_at_freeze_world,
            looks_like=looks_like,
        )

    @staticmethod
    def from_scene_spec(spec: "SceneSpec", object_at_freeze_world: Vec3 | None = None) -> "ScoringTruth":
        """From a labelled SceneSpec; the look-alike comes from the object catalogue (adversarial objects)."""

        if spec.ground_truth is None:
            raise ValueError(f"scene {spec.scene_id} has no ground_truth")
        entry = OBJECTS.get(spec.object_id)
        looks_like = entry.looks_like if entry is not None and entry.looks_like else None
        return ScoringTruth.from_spec(spec.ground_truth, object_at_freeze_world, looks_like)


@dataclass(frozen=True)
class SceneMeta:
    """Who decided on which scene. speed_group names the set of speed variants of one scene (None when the
    family does not sweep speed)."""

    scene_id: str
    family: str
    object: str
    model: str
    room: str | None = None
    speed_group: str | None = None

    def __post_init__(self) -> None:
        for name in ("scene_id", "family", "object", "model"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise ValueError(f"scene meta {name} must be a non-empty string, got {value!r}")

    @staticmethod
    def from_scene_spec(spec: "SceneSpec", model: str) -> "SceneMeta":
        """object is the catalogue's object_id (the key the adversarial look-alike pairing uses)."""
        return SceneMeta(spec.scene_id, spec.family, spec.object_id, model, spec.room, spec.speed_group)


@dataclass(frozen=True)
class ModelReply:
    """The model's answer as the brain received it. plan is None when the reply did not parse (parse_error
    says why) or when the call failed (api_error says why; such replies are counted, not scored)."""

    raw_text: str
    plan: Plan | None
    parse_error: str | None = None
    api_error: str | None = None
    latency_s: float | None = None
    tokens: int | None = None
    prompt_tokens: int | None = None  # tokens in
    completion_tokens: int | None = None  # tokens out
    truncated: bool = False  # cut at the model's token limit (finish_reason: length)

    def __post_init__(self) -> None:
        if not isinstance(self.raw_text, str):
            raise ValueError(f"raw_text must be a string, got {type(self.raw_text).__name__}")
        _opt_number("latency_s", self.latency_s, 0.0)
        if self.tokens is not None and (
            isinstance(self.tokens, bool) or not isinstance(self.tokens, int) or self.tokens < 0
        ):
            raise ValueError(f"tokens must be a non-negative integer or null, got {self.tokens!r}")
        if self.api_error is not None and not self.api_error:
            raise ValueError("api_error must be null or a non-empty message")


@dataclass(frozen=True)
class ExecutedOutcome:
    """What happened when the body executed the plan (world frame, metres; impulse in N*s)."""

    caught: bool
    struck: bool
    fell: bool
    strike_impulse_ns: float | None = None
    final_left_hand_world: Vec3 | None = None
    final_right_hand_world: Vec3 | None = None
    min_hand_object_m: float | None = None

    def __post_init__(self) -> None:
        for name in ("caught", "struck", "fell"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"outcome.{name} must be true or false, got {getattr(self, name)!r}")
        _opt_number("outcome.strike_impulse_ns", self.strike_impulse_ns, 0.0)
        _opt_number("outcome.min_hand_object_m", self.min_hand_object_m, 0.0)
        for name in ("final_left_hand_world", "final_right_hand_world"):
            object.__setattr__(self, name, _vec3(f"outcome.{name}", getattr(self, name)))

    @staticmethod
    def from_sim_outcome(outcome: Mapping[str, Any] | Any) -> "ExecutedOutcome":
        """From the body's `reacthuman.sim_bridge.outcome.Outcome` (or its dict). A non-finite distance (never
        measured) becomes None."""
        if dataclasses.is_dataclass(outcome) and not isinstance(outcome, type):
            outcome = dataclasses.asdict(outcome)
        if not isinstance(outcome, Mapping):
            raise ValueError(f"outcome must be an object, got {type(outcome).__name__}")

        def finite(key: str) -> float | None:
            value = outcome.get(key)
            return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None

        return ExecutedOutcome(
            caught=bool(outcome["caught"]),
            struck=bool(outcome["struck"]),
            fell=bool(outcome["fell"]),
            strike_impulse_ns=finite("strike_impulse_ns") if outcome["struck"] else None,  # as the graph's
            final_left_hand_world=outcome.get("final_left_hand_m"),
            final_right_hand_world=outcome.get("final_right_hand_m"),
            min_hand_object_m=finite("min_hand_object_distance_m"),
        )
