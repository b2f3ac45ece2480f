"""The oracle brain on a balanced scene set (one labelled scene per family, simulated in Genesis): every
decision it commits scores SAA 1 and safe with the scorer's own metrics."""

from __future__ import annotations

import numpy as np
import pytest

from reacthuman.brain import make_brain
from reacthuman.evaluation.episode import ground_truth_dict, reply_of
from reacthuman.evaluation.observe import build_observation
from reacthuman.scenes import FAMILIES, SceneInvalid, generate_spec
from reacthuman.scoring import SceneMeta, ScoringTruth, score_decision


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
        obs = build_observation(spec, (0.0, freeze_s), {"egocentric": [np.zeros((9, 16, 3), np.uint8)] * 2}, {},
                                ground_truth_dict(spec))
        decision = oracle.plan(obs)
        record = score_decision(SceneMeta.from_scene_spec(spec, "oracle"), ScoringTruth.from_scene_spec(spec),
                                spec.observer.pose(), reply_of(decision))
        labels.add(spec.ground_truth.correct_action)
        assert (record.saa, record.safe) == (1, 1), (spec.scene_id, record.action, record.correct_action, record.rule)
    assert {"CATCH", "DODGE"} <= labels  # the set exercises both sides
