"""Reference brains: fixed dispositions (always_catch, always_dodge, freeze, random), a rule-based
`heuristic` that reads only the observation, and the `oracle` that reads the ground truth.

The heuristic and the fixed brains predict where the hazard is heading from the last observed track
sample with simple ballistic physics (free flight under gravity, no supports, no drag): the point of the
predicted path closest to the observer while at body height, else where it lands on the floor.
What they assume (the prediction's step and horizon, the body band, the heuristic's danger words, where
the oracle meets a swing, how the motor plans of brain/motion.py reach and dodge) is `ReferenceBrainConfig`
(`brain/reference_config.py`), read from config/reference_brains.yaml.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
import re
from dataclasses import dataclass
from typing import Any, Mapping

from reacthuman.brain.base import Brain, BrainDecision, register_brain
from reacthuman.brain.arc import fit_swing, swing_path
from reacthuman.brain.motion import plan_clear, plan_reach, plan_stay, plan_step
from reacthuman.brain.observation import Observation
from reacthuman.brain.schema import plan_to_dict
from reacthuman.plan.classifier import classify_plan
from reacthuman.scenes.envelope import default_config as default_envelope
from reacthuman.brain.reference_config import default_config
from reacthuman.core.physics import GRAVITY_MPS2
from reacthuman.plan.plan import Action, Plan
from reacthuman.scenes.label_config import load_label_config

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class Prediction:
    point_m: Vec3  # where the hazard is heading, robot frame
    arrival_s: float  # seconds after the freeze
    speed_mps: float  # speed there
    moving: bool


def predict(obs: Observation) -> Prediction | None:
    """Ballistic prediction from the last observed track sample; None when nothing was tracked."""
    if not obs.track:
        return None
    cfg = default_config()
    last = obs.track[-1]
    (px, py, pz), (vx, vy, vz) = last.position_m, last.velocity_mps
    if math.sqrt(vx * vx + vy * vy + vz * vz) < cfg.moving_min_mps:
        return Prediction((px, py, pz), 0.0, 0.0, False)
    best: tuple[float, Vec3, float, float] | None = None  # (planar distance, point, t, speed)
    landing: tuple[float, Vec3, float, float] | None = None
    for i in range(int(cfg.predict_horizon_s / cfg.predict_dt_s) + 1):
        t_s = i * cfg.predict_dt_s
        x, y, z = px + vx * t_s, py + vy * t_s, pz + vz * t_s - 0.5 * GRAVITY_MPS2 * t_s * t_s
        speed = math.sqrt(vx * vx + vy * vy + (vz - GRAVITY_MPS2 * t_s) ** 2)
        if z <= 0.0:
            landing = (math.hypot(x, y), (x, y, 0.0), t_s, speed)
            break
        if cfg.body_band_m[0] <= z <= cfg.body_band_m[1] and (best is None or math.hypot(x, y) < best[0]):
            best = (math.hypot(x, y), (x, y, z), t_s, speed)
    chosen = best if best is not None and (landing is None or best[0] <= landing[0]) else landing
    if chosen is None:  # still airborne above the body band at the horizon: head for where it is then
        chosen = (0.0, (x, y, z), t_s, speed)
    return Prediction(chosen[1], chosen[2], chosen[3], True)


def looks_dangerous(look: str) -> bool:
    return bool(_danger_re(default_config().danger_words).search(look.lower()))


@functools.lru_cache(maxsize=4)
def _danger_re(words: tuple[str, ...]) -> re.Pattern[str]:
    """A whole word of `words`, or its plural."""
    return re.compile(r"\b(" + "|".join(words) + r")s?\b")


def _decision(name: str, plan: Plan, modality: str) -> BrainDecision:
    return BrainDecision(
        brain=name, plan=plan, raw_text=json.dumps(plan_to_dict(plan)), parse_ok=True, model_id=name, modality=modality
    )


def _plan_for(action: Action, obs: Observation, prediction: Prediction | None, confidence: float) -> Plan:
    label = obs.object_look or "object"
    cfg = default_config()
    target = prediction.point_m if prediction is not None else cfg.default_target_m
    now_xy = (obs.track[-1].position_m[0], obs.track[-1].position_m[1]) if obs.track else None
    if action is Action.CATCH:
        return plan_reach(target, prediction.arrival_s if prediction else None, label, confidence, config=cfg)
    if action is Action.DODGE:
        velocity_xy = (obs.track[-1].velocity_mps[0], obs.track[-1].velocity_mps[1]) if obs.track else None
        return plan_clear((target[0], target[1]), now_xy, label, confidence, velocity_xy, config=cfg)
    return plan_stay(label, confidence)


class FixedBrain(Brain):
    """The same disposition in every scene: CATCH (always_catch), DODGE (always_dodge) or NO_ACTION (freeze)."""

    def __init__(self, name: str, action: Action) -> None:
        self.name, self.action = name, action

    def plan(self, obs: Observation) -> BrainDecision:
        prediction = predict(obs) if self.action is not Action.NO_ACTION else None
        return _decision(self.name, _plan_for(self.action, obs, prediction, 0.5), "track" if prediction else "none")


class RandomBrain(Brain):
    """A uniformly random disposition per scene, a pure function of (seed, scene_id)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = int(seed)

    def plan(self, obs: Observation) -> BrainDecision:
        action = random.Random(f"{self.seed}:{obs.scene_id}").choice(list(Action))
        return _decision(self.name, _plan_for(action, obs, predict(obs), 1.0 / len(Action)), "track")


class HeuristicBrain(Brain):
    """Observation only: ballistic prediction from the track, danger judged from the object's look and the
    predicted arrival speed (fast: at or above the labeller's fast_speed_mps, the one definition of "fast").
    Not moving, or passing farther than near_m (ReferenceBrainConfig) -> stay; dangerous or fast -> dodge; else catch."""

    name = "heuristic"

    def plan(self, obs: Observation) -> BrainDecision:
        prediction = predict(obs)
        if prediction is None or not prediction.moving or math.hypot(*prediction.point_m[:2]) > default_config().near_m:
            action = Action.NO_ACTION
        elif looks_dangerous(obs.object_look) or prediction.speed_mps >= load_label_config().fast_speed_mps:
            action = Action.DODGE
        else:
            action = Action.CATCH
        return _decision(self.name, _plan_for(action, obs, prediction, 0.6), "track")


def _truth(gt: Mapping[str, Any] | Any, key: str) -> Any:
    if dataclasses.is_dataclass(gt):
        return getattr(gt, key, None)
    return gt.get(key)


class OracleBrain(Brain):
    """Reads the ground truth (observation.ground_truth, a mapping or `reacthuman.scenes.spec.GroundTruth`:
    correct_action, impact_point in the world frame, impact_time_s or time_to_floor_s counted from the
    event's start like frame_times_s) and plans the correct action with an interception the G1 can reach.
    Where the truth carries the body's path judgement (`scenes.envelope.path_verdict`), a catch goes to its
    `intercept_point` at `intercept_time_s` and a dodge steps along its `clear_step`, as long as the plan
    still classifies as the correct action against the truth's impact point. Otherwise: the hands as far as
    the body envelope's reach (`brain.motion.plan_reach`), walking 0.5 m/s for the rest, and a catch whose
    truth impact lies before the freeze is aimed at the object's predicted path. At a closed-loop re-plan the
    truth it is shown is the truth of that moment (`evaluation.remaining_truth`), read the same way."""

    name = "oracle"
    needs_ground_truth = True

    @staticmethod
    def _intercept(obs: Observation, target: Vec3) -> Plan | None:
        """Where the truth's impact lies before the freeze, aim at the predicted path instead, as long as
        the plan still classifies as a catch against the truth's point."""
        arrival = _truth(obs.ground_truth, "impact_time_s")
        if arrival is None or float(arrival) > obs.freeze_time_s:
            return None
        aimed = _intercept_plan(obs)
        if aimed is None or classify_plan(aimed, (target[0], target[1])) is not Action.CATCH:
            return None
        return aimed

    def plan(self, obs: Observation) -> BrainDecision:
        gt = obs.ground_truth
        if gt is None:
            raise ValueError(f"brain 'oracle' needs observation.ground_truth, and scene {obs.scene_id} has none")
        action = Action(_truth(gt, "correct_action"))
        impact_world = _truth(gt, "impact_point")
        arrival_s = _truth(gt, "impact_time_s") or _truth(gt, "time_to_floor_s")
        if arrival_s is not None:  # truth times count from the event's start, like frame_times_s
            arrival_s = max(0.0, float(arrival_s) - obs.freeze_time_s)
        if impact_world is not None:
            target = obs.observer_pose.to_robot(tuple(float(v) for v in impact_world))  # type: ignore[arg-type]
        elif obs.track:
            target = obs.track[-1].position_m
        else:
            target = default_config().default_target_m
        prediction = Prediction(target, arrival_s if arrival_s is not None else 1.0, 0.0, True)
        plan = _plan_for(action, obs, prediction, 1.0)
        along_path = path_plan(obs, action)
        if along_path is not None and classify_plan(along_path, (target[0], target[1])) is action:
            plan = along_path
        elif action is Action.CATCH:
            plan = self._intercept(obs, target) or plan
        got = classify_plan(plan, (target[0], target[1]))
        if got is not action:  # a planning bug, not a judgement: fail loudly
            raise RuntimeError(
                f"oracle planned {got.value} for scene {obs.scene_id} whose correct action is {action.value}"
            )
        return _decision(self.name, plan, "ground_truth")


def path_plan(obs: Observation, action: Action) -> Plan | None:
    """The plan the truth's path judgement points to: reach the intercept (CATCH), step along the clearing
    direction (DODGE); None where the truth has none (labelled before it, or nothing this body can do)."""
    gt, label = obs.ground_truth, obs.object_look or "object"
    intercept, meet_s = _truth(gt, "intercept_point"), _truth(gt, "intercept_time_s")
    if action is Action.CATCH and intercept is not None and meet_s is not None:
        point = obs.observer_pose.to_robot(tuple(float(v) for v in intercept))  # type: ignore[arg-type]
        return plan_reach(point, float(meet_s) - obs.freeze_time_s, label, 1.0, config=default_config())
    step = _truth(gt, "clear_step")
    if action is Action.DODGE and step is not None and tuple(step) != (0.0, 0.0):
        return plan_step(
            (float(step[0]), float(step[1])), default_envelope().dodge_max_m, label, 1.0, config=default_config()
        )
    return None


def _intercept_plan(obs: Observation) -> Plan | None:
    """A catch aimed where the object will be after the freeze (ballistic prediction from the track), or
    where it lies now when it came to rest before the freeze (an object that hopped onto a lower surface is
    taken from there); None without a track. The truth's impact point is where the object first entered the
    reach zone, which can lie before the freeze: the hands would go where it was."""
    prediction = _swing_intercept(obs) or predict(obs)
    if prediction is None or (prediction.moving and prediction.arrival_s <= 0.0):
        return None
    return _plan_for(Action.CATCH, obs, prediction, 1.0)


def _swing_intercept(obs: Observation) -> Prediction | None:
    """For a swinging object (brain.arc): the first point of its arc, once the arms have had time to rise,
    inside the zone in front of the chest where the hands can meet it; None when it is no swing or never
    passes there within the horizon."""
    swing = fit_swing(obs.track)
    if swing is None:
        return None
    cfg, body = default_config(), default_envelope()
    for t_s, (x, y, z), speed in swing_path(swing, obs.track[-1], cfg.predict_horizon_s):
        if (
            t_s >= body.arm_travel_s
            and body.min_reach_m <= x <= body.reach_m(z)
            and abs(y) <= cfg.swing_meet_half_width_m
            and body.lowest_hand_m <= z <= body.highest_hand_m
        ):
            return Prediction((x, y, z), t_s, speed, True)
    return None


register_brain("always_catch", lambda **_: FixedBrain("always_catch", Action.CATCH), "catches in every scene")
register_brain("always_dodge", lambda **_: FixedBrain("always_dodge", Action.DODGE), "dodges in every scene")
register_brain("freeze", lambda **_: FixedBrain("freeze", Action.NO_ACTION), "never acts")
register_brain("random", lambda seed=0, **_: RandomBrain(seed), "a seeded random disposition per scene")
register_brain("heuristic", lambda **_: HeuristicBrain(), "ballistic prediction from what it sees")
register_brain("oracle", lambda **_: OracleBrain(), "reads the ground truth")
