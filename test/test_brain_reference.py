"""Reference brains: the oracle plans the correct, reachable action; the heuristic reads only the
observation; fixed and random dispositions are what they say."""

from __future__ import annotations

import math

import pytest

from reacthuman.brain import Observation, TrackSample, make_brain, reference_brain_names
from reacthuman.brain.schema import PLAN_SCHEMA, validate, plan_to_dict
from reacthuman.plan.classifier import classify_plan
from reacthuman.scenes.envelope import default_config as default_envelope
from reacthuman.plan.plan import Action, Pose2D, planned_hand_path_robot

TIMES = (0.0, 0.15, 0.3, 0.45, 0.6)


def falling_track(x: float, y: float, z0: float, vxy=(0.0, 0.0)) -> tuple[TrackSample, ...]:
    return tuple(
        TrackSample(t, (x + vxy[0] * t, y + vxy[1] * t, z0 - 4.905 * t * t), (vxy[0], vxy[1], -9.81 * t)) for t in TIMES
    )


def still_track(x: float, y: float, z: float) -> tuple[TrackSample, ...]:
    return tuple(TrackSample(t, (x, y, z), (0.0, 0.0, 0.0)) for t in TIMES)


def obs(track=(), look="a green block", pose=Pose2D(0.0, 0.0, 0.0), gt=None, scene_id="scene-1") -> Observation:
    return Observation(scene_id, TIMES, {}, tuple(track), look, "kitchen", pose, gt)


POSE = Pose2D(2.0, -1.0, math.radians(30))


def world(p_robot):
    return POSE.to_world(p_robot)


@pytest.mark.parametrize(
    "impact_robot",
    [(0.35, 0.05, 1.0), (1.6, 0.4, 0.9), (-1.2, 0.3, 1.1), (0.02, 0.0, 1.2), (0.5, -0.9, 0.5), (2.0, 0.0, 0.2)],
)
def test_oracle_catch_is_classified_catch_and_reaches_the_impact_point(impact_robot):
    gt = {"correct_action": "CATCH", "impact_point": world(impact_robot), "time_to_floor_s": 1.4}
    decision = make_brain("oracle").plan(obs(falling_track(1.0, 0.0, 1.5), pose=POSE, gt=gt))
    plan = decision.plan
    assert decision.parse_ok
    assert decision.modality == "ground_truth"
    assert classify_plan(plan, impact_robot[:2]) is Action.CATCH
    validate(plan_to_dict(plan), PLAN_SCHEMA)
    # Where the plan leaves the hands: beside the impact point, with the arm within its reach.
    _, left, right = planned_hand_path_robot(plan)[-1]
    body = default_envelope()
    target_z = min(max(impact_robot[2], body.lowest_hand_m), body.highest_hand_m)  # the heights the hands go to
    for hand in (left, right):
        assert math.dist(hand[:2], impact_robot[:2]) < 0.1
        assert hand[2] == pytest.approx(target_z)
    walked = plan.walk_displacement_m()
    # one model of the body: the walk ends with the point inside the workspace that judges a catch reachable
    assert math.dist(walked[:2], impact_robot[:2]) <= body.reach_m(target_z) + 1e-9
    for hand in (left, right):  # within what the prompt tells a model its hands reach (hands 5-10 cm apart)
        assert math.dist(hand[:2], walked[:2]) <= body.reach_m(hand[2]) + 0.1
    assert max(abs(plan.walking_cmd[0]), abs(plan.walking_cmd[1])) <= 0.5 + 1e-9


@pytest.mark.parametrize("short_m,walks", [(0.05, False), (0.12, True)])
def test_a_catch_short_of_reach_by_less_than_half_a_step_does_not_step(short_m, walks):
    """Less than half the smallest step short, the arms stay short (the object's size closes the gap; a step
    could run the body into the table under it); more, the plan takes the smallest step."""
    from reacthuman.brain.motion import plan_reach
    from reacthuman.brain.reference_config import default_config as brain_config
    from reacthuman.plan.classifier import default_config as classifier_config

    body = default_envelope()
    plan = plan_reach((body.reach_m(1.0) + short_m, 0.0, 1.0), 1.5, "a ball", 1.0, config=brain_config())
    walked = math.hypot(*plan.walk_displacement_m())
    assert walked == (pytest.approx(classifier_config().walk_min_m) if walks else 0.0)
    _, left, _ = planned_hand_path_robot(plan)[-1]
    assert left[0] == pytest.approx(body.reach_m(1.0) + (short_m if walks else 0.0), abs=0.01)


def test_oracle_catch_too_far_to_walk_walks_toward_with_hands_within_reach():
    impact_robot = (4.5, 1.0, 1.0)
    gt = {"correct_action": "CATCH", "impact_point": world(impact_robot), "impact_time_s": 1.2}
    plan = make_brain("oracle").plan(obs(falling_track(4.0, 1.0, 2.0), pose=POSE, gt=gt)).plan
    assert classify_plan(plan, impact_robot[:2]) is Action.CATCH
    for t_s, left, right in planned_hand_path_robot(plan):
        base = (
            plan.walking_cmd[0] * min(t_s, plan.walking_duration_s),
            plan.walking_cmd[1] * min(t_s, plan.walking_duration_s),
        )
        assert math.dist(left[:2], base) <= default_envelope().arm_reach_m + 0.1


@pytest.mark.parametrize("impact_robot", [(0.8, 0.0, 1.0), (0.03, 0.02, 1.5), (-0.6, 0.6, 0.8)])
def test_oracle_dodge_walks_clear(impact_robot):
    gt = {"correct_action": "DODGE", "impact_point": world(impact_robot), "time_to_floor_s": 0.9}
    plan = make_brain("oracle").plan(obs(falling_track(0.3, 0.4, 2.0), pose=POSE, gt=gt)).plan
    assert classify_plan(plan, impact_robot[:2]) is Action.DODGE
    dx, dy = plan.walk_displacement_m()
    assert math.dist((dx, dy), impact_robot[:2]) >= 1.0


def test_oracle_no_action_and_truth_without_impact_point():
    gt = {"correct_action": "NO_ACTION", "impact_point": None, "time_to_floor_s": None}
    plan = make_brain("oracle").plan(obs(still_track(3.0, 2.0, 0.8), gt=gt)).plan
    assert classify_plan(plan, (3.0, 2.0)) is Action.NO_ACTION
    assert plan.walk_displacement_m() == (0.0, 0.0)


def test_oracle_needs_ground_truth():
    with pytest.raises(ValueError, match="needs observation.ground_truth"):
        make_brain("oracle").plan(obs(still_track(1.0, 0.0, 1.0)))


def test_heuristic_catches_a_light_looking_object_falling_nearby():
    o = obs(falling_track(0.9, 0.1, 2.4), look="a white ceramic plate")
    plan = make_brain("heuristic").plan(o).plan
    assert classify_plan(plan, (0.9, 0.1)) is Action.CATCH


def test_heuristic_dodges_a_dangerous_looking_object():
    o = obs(falling_track(0.9, 0.1, 2.4), look="a chef's knife")
    assert classify_plan(make_brain("heuristic").plan(o).plan, (0.9, 0.1)) is Action.DODGE


def test_heuristic_dodges_something_fast_whatever_its_look():
    fast = tuple(TrackSample(t, (8.0 - 9.0 * t, 0.0, 1.2), (-9.0, 0.0, 0.0)) for t in TIMES)
    plan = make_brain("heuristic").plan(obs(fast, look="a tennis ball")).plan
    assert classify_plan(plan, (0.2, 0.0)) is Action.DODGE


def test_heuristic_stays_for_still_or_far_objects_and_ignores_truth():
    truth = {"correct_action": "DODGE", "impact_point": (0.5, 0.0, 1.0), "time_to_floor_s": 0.5}
    still = make_brain("heuristic").plan(obs(still_track(1.0, 0.0, 1.0), gt=truth)).plan
    assert classify_plan(still, (1.0, 0.0)) is Action.NO_ACTION
    far = make_brain("heuristic").plan(obs(falling_track(6.0, 3.0, 2.0))).plan
    assert classify_plan(far, (6.0, 3.0)) is Action.NO_ACTION
    nothing = make_brain("heuristic").plan(obs(())).plan
    assert classify_plan(nothing, (1.0, 0.0)) is Action.NO_ACTION


@pytest.mark.parametrize(
    "name, action", [("always_catch", Action.CATCH), ("always_dodge", Action.DODGE), ("freeze", Action.NO_ACTION)]
)
def test_fixed_dispositions(name, action):
    for track, hazard in ((falling_track(1.2, -0.3, 2.0), (1.2, -0.3)), (still_track(0.6, 0.5, 1.0), (0.6, 0.5))):
        decision = make_brain(name).plan(obs(track))
        assert decision.brain == name
        assert decision.parse_ok
        assert classify_plan(decision.plan, hazard) is action


def test_random_is_a_pure_function_of_seed_and_scene():
    track = falling_track(1.0, 0.0, 2.0)

    def actions(seed: int) -> list[Action]:
        brain = make_brain("random", seed=seed)
        return [classify_plan(brain.plan(obs(track, scene_id=f"s{i}")).plan, (1.0, 0.0)) for i in range(30)]

    first = actions(7)
    assert actions(7) == first
    assert set(first) == set(Action)
    assert actions(8) != first


def test_registry_names_and_errors():
    assert reference_brain_names() == ["always_catch", "always_dodge", "freeze", "heuristic", "oracle", "random"]
    with pytest.raises(ValueError, match="unknown model"):
        make_brain("no-such-brain")
    with pytest.raises(ValueError, match="reference brain"):
        make_brain("heuristic", temperature=0.5)
