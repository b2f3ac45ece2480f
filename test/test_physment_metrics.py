"""The six dimensions, the Final Score and the failure-mode rules on hand-made transcripts."""

from __future__ import annotations

import pytest

from physment.cli import DEFAULT_SCENES
from physment.failures import failure_modes
from physment.metrics import WEIGHTS, diversity, final_score, groundedness
from physment.scene import load_scene


def turn(reasoning: str, results: list[tuple[str, dict, bool, dict]]) -> dict:
    return {
        "reasoning": reasoning,
        "results": [{"tool": t, "arguments": a, "ok": ok, "result": r} for t, a, ok, r in results],
    }


def test_weights_sum_to_one_and_final_score_combines_them():
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)
    rows = [
        {
            "correctness": 1.0,
            "efficiency": 0.5,
            "groundedness": 1.0,
            "validity": 1.0,
            "diversity": 0.5,
            "correct": True,
            "correct_after_regrade": True,
            "category": "Hard Multi",
        },
        {
            "correctness": 0.5,
            "efficiency": 0.0,
            "groundedness": 0.0,
            "validity": 0.5,
            "diversity": 1.0,
            "correct": False,
            "correct_after_regrade": True,
            "category": "Easy Single",
        },
    ]
    s = final_score(rows)
    expected = 100 * (0.4 * 0.75 + 0.15 * 0.25 + 0.15 * 0.5 + 0.1 * 0.75 + 0.1 * 0.75 + 0.1 * 1.0)
    assert s["final_score"] == pytest.approx(expected)
    assert s["accuracy"] == 0.5
    assert s["accuracy_after_regrade"] == 1.0
    assert s["generalisation"] == 1.0


def test_groundedness_counts_numbers_traceable_to_earlier_results():
    turns = [
        turn("I will measure for 2 s.", [("get_velocity", {}, True, {"speed_m_s": 3.924})]),
        turn("The speed is 3.924 m/s, so the energy is 7.7 J.", []),
    ]
    assert groundedness(turns) == pytest.approx(0.5)  # 3.924 traced; 7.7 not; 2 is a count, not a claim
    early = [turn("The speed is 3.924 m/s.", [("get_velocity", {}, True, {"speed_m_s": 3.924})])]
    assert groundedness(early) == 0.0  # asserted before any tool returned it
    assert groundedness([turn("", [])]) == 1.0
    assert groundedness([turn("The task says 0.4 s.", [])], given=[0.4]) == 1.0


def test_diversity_flags_looping_phrasing():
    looping = [turn("step and read step and read step and read", [])] * 3
    varied = [turn("push the box, then watch how fast it moves after one second", [])]
    assert diversity(looping) < 0.75 < diversity(varied) == 1.0


@pytest.fixture(scope="module")
def comparison_scene():
    return load_scene(DEFAULT_SCENES / "Scene16")  # which of two boxes is heavier


def test_failure_modes_object_id_confusion_and_premature_answer(comparison_scene):
    wrong = 3 - int(comparison_scene.answer)
    turns = [turn("Looks like the other one.", [("answer", {"answer": wrong}, True, {"submitted": wrong})])]
    tags = failure_modes(comparison_scene, turns, 10, 1, 0.0, 0.0)
    assert {"object_id_confusion", "premature_answer", "insufficient_simulation_time"} <= set(tags)
    assert "answer_format_mismatch" not in tags


def test_failure_modes_format_mismatch_wrong_mass_and_anomaly():
    scene = load_scene(DEFAULT_SCENES / "Scene36")  # spin-up: answer [angular speed, energy]
    turns = [
        turn(
            "The energy should grow, but my simulation shows it is inconsistent; I trust it anyway.",
            [
                ("get_parameters", {"object_id": "1"}, True, {"object_id": "1", "mass_kg": 2.0}),
                ("get_rotational_energy", {"object_id": "1", "mass": 3.14159}, True, {"rotational_energy_j": 1}),
                ("answer", {"answer": 4.2}, True, {"submitted": 4.2}),
            ],
        )
    ]
    tags = failure_modes(scene, turns, 5, 2, 0.0, 0.0)
    assert {"answer_format_mismatch", "wrong_parameter_substitution", "trusting_anomalous_simulation"} <= set(tags)
    good = [
        turn(
            "",
            [
                ("get_rotational_energy", {"object_id": "1", "mass": 2.0}, True, {}),
                ("get_parameters", {"object_id": "1"}, True, {"object_id": "1", "mass_kg": 2.0}),
                ("answer", {"answer": [12.5, 3.125]}, True, {"submitted": [12.5, 3.125]}),
            ],
        )
    ]
    assert failure_modes(scene, good, 5, 2, 1.0, 1.0) == []
