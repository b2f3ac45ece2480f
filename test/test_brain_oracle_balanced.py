"""The oracle brain on a balanced scene set (one labelled scene per family, simulated in Genesis): every
decision it commits scores SAA 1 and safe with the scorer's own metrics."""

from __future__ import annotations

import numpy as np
import pytest

from reacthuman.brain import make_brain
from reacthuman.brain.reference import path_plan
from reacthuman.plan.plan import Action
from reacthuman.evaluation.observe import build_observation, ground_truth_dict
from reacthuman.plan.plan_path import full_hand_path_robot
from reacthuman.scenes import FAMILIES, SceneInvalid, generate_spec
from reacthuman.scoring import SceneMeta, ScoringTruth, score_decision
from reacthuman.scoring.episode import reply_of


def _first_valid(family: str, seed: int):
    """Like `scenes generate`, skip seeds whose scene the validators refuse."""
    for s in range(seed, seed + 10):
        try:
            return generate_spec(family, s)
        except SceneInvalid:
            continue
    raise AssertionError(f"no valid {family} scene in seeds {seed}..{seed + 9}")


@pytest.fixture(scope="module")
def balanced_set():
    return [_first_valid(family, 11) for family in FAMILIES]


def test_oracle_scores_saa_1_and_safe_on_every_family(balanced_set):
    oracle = make_brain("oracle")
    labels = set()
    for spec in balanced_set:
        freeze_s = spec.observation_window_s
        obs = build_observation(
            spec, (0.0, freeze_s), {"egocentric": [np.zeros((9, 16, 3), np.uint8)] * 2}, {}, ground_truth_dict(spec)
        )
        decision = oracle.plan(obs)
        record = score_decision(
            SceneMeta.from_scene_spec(spec, "oracle"),
            ScoringTruth.from_scene_spec(spec),
            spec.observer.pose(),
            reply_of(decision),
        )
        labels.add(spec.ground_truth.correct_action)
        assert (record.saa, record.safe) == (1, 1), (spec.scene_id, record.action, record.correct_action, record.rule)
    assert {"CATCH", "DODGE"} <= labels  # the set exercises both sides


def test_the_truth_says_what_the_body_can_do_and_the_oracle_plans_it(balanced_set):
    """Every scene with an action carries the body's path judgement. Where it says how (a catch's intercept,
    a dodge's clearing step), the plan built from it puts the hands at the intercept before the object gets
    there, or steps the clearing way; the oracle commits it whenever it classifies as the correct action
    against the truth's impact point (the paper's rule), as it does on most of the set."""
    oracle = make_brain("oracle")
    used, offered = 0, 0
    for spec in balanced_set:
        gt = spec.ground_truth
        if gt.correct_action == "NO_ACTION":
            continue
        assert gt.body_reachable is not None, spec.scene_id
        assert gt.body_reach_reason, spec.scene_id
        freeze_s = spec.observation_window_s
        obs = build_observation(
            spec, (0.0, freeze_s), {"egocentric": [np.zeros((9, 16, 3), np.uint8)] * 2}, {}, ground_truth_dict(spec)
        )
        planned = path_plan(obs, Action(gt.correct_action))
        if planned is None:
            assert not gt.body_reachable or tuple(gt.clear_step) == (0.0, 0.0), spec.scene_id
            continue
        offered += 1
        if gt.correct_action == "CATCH":
            assert gt.intercept_time_s >= freeze_s + 0.3  # the arms need 0.3 s from the freeze
            meet = np.asarray(obs.observer_pose.to_robot(gt.intercept_point))
            t_s, left, right = full_hand_path_robot(planned)[-1]  # where the plan leaves its hands
            assert t_s <= gt.intercept_time_s - freeze_s + 1e-9, spec.scene_id  # there before it is
            assert np.linalg.norm((np.asarray(left) + np.asarray(right)) / 2 - meet) <= 0.1, spec.scene_id
        else:
            step = np.asarray(planned.walking_cmd[:2]) / np.linalg.norm(planned.walking_cmd[:2])
            assert np.allclose(step, gt.clear_step, atol=1e-6), spec.scene_id
        used += oracle.plan(obs).plan == planned
    assert offered >= 2, (used, offered)
    assert used >= offered / 2, (used, offered)
