"""The strict matcher (no substring matching, tolerances, partial credit) and each regrade rule."""

from __future__ import annotations

import pytest

from physment.scoring import (
    embedded_numbers,
    is_correct,
    regrade,
    rule_conceptual_description,
    rule_object_id_alias,
    rule_partial_formatting,
    rule_trivial_rounding,
    score_answer,
)


@pytest.mark.parametrize(
    "predicted, truth",
    [
        ("1", 10),
        (1, "10"),
        ("2", 0.2),
        (2, "0.2"),
        ("-1.96", 1.96),
        (-1.96, "1.96"),
        ("10", 1),
        ("0.2", 2),
        ("12.5 J", 12.5),
        ("object_2", "2"),
        ("stops", "reverses"),
        ("does not stop", "stops"),
        ([1, 2], [1, 2, 3]),
        (None, 0),
        (True, 1),
        ("", "stops"),
        ("slow", "slows"),
    ],
)
def test_strict_matcher_rejects_false_positives(predicted, truth):
    assert not is_correct(predicted, truth)


@pytest.mark.parametrize(
    "predicted, truth",
    [
        (3.27, "3.27"),
        ("3.3", 3.27),
        (2.837, 2.843),
        ("0.0005", 0),
        (0, 1e-12),
        ("-1.96", -1.96),
        (" Stops. ", "stops"),
        ("2", "2"),
        ([12.6, 25.2], [12.6, 25.2]),
        ("[12.6, 25.2]", [12.6, 25.2]),
        (1.05, 1.0),
        ("1e3", 1000),
    ],
)
def test_strict_matcher_accepts_within_tolerance(predicted, truth):
    assert is_correct(predicted, truth)


def test_tolerance_is_mixed_absolute_and_relative():
    assert is_correct(1.049, 1.0)
    assert not is_correct(1.052, 1.0)
    assert is_correct(0.0009, 0.0)
    assert not is_correct(0.002, 0.0)
    assert is_correct(0.5, 0.0, abs_tol=1.0)


def test_categorical_ids_need_exact_match():
    assert not is_correct("2.05", 2, categorical=True)
    assert is_correct("2", 2, categorical=True)
    assert is_correct(2.0, "2", categorical=True)


def test_partial_credit_per_list_element():
    truth = [12.6, 25.2, 18.9, 56.7]
    assert score_answer([12.6, 25.2, 0, 0], truth) == 0.5
    assert score_answer([12.6, 25.2, 18.9, 56.7], truth) == 1.0
    assert score_answer(12.6, truth) == 0.0
    assert not is_correct([12.6, 25.2, 18.9], truth)


def test_rule_object_id_alias():
    assert rule_object_id_alias("object_2", "2")
    assert rule_object_id_alias("Object 2", 2)
    assert rule_object_id_alias("obj #2", "2")
    assert rule_object_id_alias("hollow ball", 2, {"2": "Hollow Ball"})
    assert not rule_object_id_alias("object_12", "2")
    assert not rule_object_id_alias("object_2", "3")
    assert not rule_object_id_alias("hollow ball", 1, {"2": "hollow ball"})


def test_rule_trivial_rounding():
    assert rule_trivial_rounding("2.8", 2.837)
    assert rule_trivial_rounding(0.24, 0.2449)
    assert not rule_trivial_rounding("3", 2.837)  # one significant digit is not a rounding of the truth
    assert not rule_trivial_rounding("2.9", 2.837)
    assert not rule_trivial_rounding("-2.8", 2.837)


def test_rule_conceptual_description():
    assert rule_conceptual_description("it slows, stops, and reverses", "reverses")
    assert rule_conceptual_description("The ball bounces back", "reverses")
    assert rule_conceptual_description("comes to rest after the hit", "stops")
    assert not rule_conceptual_description("it does not stop", "stops")
    assert not rule_conceptual_description("unstoppable", "stops")
    assert not rule_conceptual_description("keeps moving", "reverses")


def test_rule_partial_formatting():
    assert rule_partial_formatting("12.5 J", 12.5)
    assert rule_partial_formatting("v = -3.2 m/s", -3.2)
    assert rule_partial_formatting("[12.6 rad/s, 25.2 J]", [12.6, 25.2])
    assert rule_partial_formatting("a = 3.27 m/s^2", 3.27)  # the exponent is not a number of the answer
    assert not rule_partial_formatting("1.96 m/s", -1.96)
    assert not rule_partial_formatting("between 2 and 3", 2)
    assert not rule_partial_formatting("object_2", 2)
    assert not rule_partial_formatting("10 kg", 1)
    assert embedded_numbers("F = -2.5e1 N at m/s^2 on object_3") == [-25.0]


def test_regrade_names_the_first_rule_that_applies():
    assert regrade("object_2", "2") == "object_id_alias"
    assert regrade("2.8", 2.837) == "trivial_rounding"
    assert regrade("it bounces back", "reverses") == "conceptual_description"
    assert regrade("about 12.5 J", 12.5) == "partial_formatting"
    assert regrade("42", 12.5) is None
    assert regrade(None, 1) is None
