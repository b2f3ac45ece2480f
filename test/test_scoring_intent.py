"""Action-Intent Alignment keyword rules with negation, and material-doubt detection."""

import pytest

from reacthuman.plan.plan import Action
from reacthuman.scoring.intent import action_intent_alignment, doubts_material, find_goals

C, D, N = Action.CATCH, Action.DODGE, Action.NO_ACTION


@pytest.mark.parametrize(
    "intent, truth, expected",
    [
        ("Catch the plate before it hits the floor.", C, 1.0),
        ("Reach for the ball with both hands", C, 1.0),
        ("Catch the plate to avoid it shattering", C, 1.0),  # protective "avoid" states no evade goal
        ("Step back quickly to dodge the knife", D, 1.0),
        ("Stay clear of the falling fan", D, 1.0),  # "stay clear" is evasion, not staying
        ("It will not reach me; stay where I am.", N, 1.0),
        ("I will not move.", N, 1.0),
        ("No need to catch or dodge, it won't reach me", N, 1.0),  # negation carries over "or"
        ("Do not catch the knife; step back.", D, 1.0),
        ("Rather than catching it, I will move away", D, 1.0),
        ("Avoid catching the knife", D, 1.0),
        ("Catch it, or dodge if it is too heavy", C, 0.5),  # hedge: the true goal plus another
        ("Catch it, or dodge if it is too heavy", D, 0.5),
        ("Don't catch it, it is sharp", D, 0.5),  # rejects the wrong goal, states none
        ("Do not catch the plate", C, 0.0),  # the true goal negated
        ("Step back and let it fall", C, 0.0),
        ("Catch the knife", D, 0.0),
        ("The object is a red cube.", C, 0.0),  # no goal at all
        ("", N, 0.0),
    ],
)
def test_aia(intent, truth, expected):
    assert action_intent_alignment(intent, truth) == expected


def test_negation_does_not_cross_a_clause():
    hits = find_goals("Not heavy, so catch it")
    assert [(h.goal, h.negated) for h in hits] == [("catch", False)]
    hits = find_goals("I don't want to wait, but I will catch it")
    assert [(h.goal, h.negated) for h in hits] == [("stay", True), ("catch", False)]


def test_negation_window_is_three_words():
    assert find_goals("do not try to catch")[0].negated
    assert not find_goals("no, the plan is simple: catch")[0].negated
    assert not find_goals("never mind the noise and the light and catch")[0].negated


def test_curly_apostrophe_negates():
    assert find_goals("Don\u2019t grab it")[0].negated


@pytest.mark.parametrize(
    "text, expected",
    [
        ("The anvil might actually be foam, it falls slowly", True),
        ("It is lighter than it looks", True),
        ("Despite its appearance the can seems dense", True),
        ("Appearances can be deceiving here", True),
        ("It falls unusually slowly for an anvil", True),
        ("A heavy cast-iron anvil made of steel: dodge", False),
        ("A light rubber ball, catch it", False),
        ("", False),
        (None, False),
    ],
)
def test_doubts_material(text, expected):
    assert doubts_material(text) is expected
