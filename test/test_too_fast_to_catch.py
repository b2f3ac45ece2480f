"""The "too fast to catch" criterion of the labeller (docs/too-fast-to-catch.md) on hand-built arrivals, either
side of each threshold: the arms' travel time after the freeze (config/envelope.yaml) and the kinetic energy
the hands can take (config/ground_truth.yaml); and a hand-built track through the whole labeller. No
simulation: the tracks are written here. Also what `scenes validate` reports when a label changes."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from reacthuman.scenes.envelope import default_config as envelope_config
from reacthuman.scenes.dataset import ground_truth_changes
from reacthuman.scenes.genesis_sim import Track
from reacthuman.scenes.label import Arrival, hands_arrival_s, label, too_fast_to_catch
from reacthuman.scenes.label_config import default_config, load_label_config
from reacthuman.scenes.randomize import sample_spec

CFG = load_label_config()
ARM_TRAVEL_S = envelope_config().arm_travel_s


def _reasons(after_freeze_s, speed_mps=1.0, mass_kg=0.2, cfg=CFG):
    return too_fast_to_catch(Arrival(after_freeze_s, speed_mps, mass_kg), cfg)


def test_an_arrival_sooner_than_the_arms_travel_is_too_soon():
    assert [r for r in _reasons(ARM_TRAVEL_S - 0.01) if r.startswith("too soon")]
    assert _reasons(ARM_TRAVEL_S) == []
    assert _reasons(0.0)
    assert _reasons(0.0)[0].startswith("too soon")


def test_an_object_already_at_the_hands_or_never_there_is_not_judged_by_time():
    assert _reasons(-0.2) == []
    assert _reasons(None) == []


def test_energy_at_the_hands_either_side_of_the_limit():
    limit = CFG.catch_energy_limit_j
    mass = 0.5
    v_at = math.sqrt(2 * limit / mass)
    assert _reasons(1.0, v_at * 1.001, mass) == [f"too hard ({0.5 * mass * (v_at * 1.001) ** 2:.1f} J at the hands)"]
    assert _reasons(1.0, v_at * 0.999, mass) == []


def test_the_weaker_catcher_sets_the_limit():
    assert CFG.catch_energy_limit_j == min(CFG.g1_catch_energy_j, CFG.person_catch_energy_j)
    weak_person = default_config(person_catch_energy_j=1.0)
    assert weak_person.catch_energy_limit_j == 1.0
    assert _reasons(1.0, 2.1, 0.5, weak_person)
    assert not _reasons(1.0, 1.9, 0.5, weak_person)
    with pytest.raises(ValueError, match="g1_catch_energy_j"):
        default_config(g1_catch_energy_j=0.0)


def _straight_track(spec, speed_mps: float, height_m: float = 1.0, start_m: float = 3.0) -> Track:
    """The hazard flying straight at the observer's chest along its facing direction at a constant speed."""
    pose = spec.observer.pose()
    ux, uy = math.cos(pose.yaw_rad), math.sin(pose.yaw_rad)
    times = np.arange(0.0, 2.0 + 1e-9, spec.dt_s)
    along = start_m - speed_mps * times  # distance ahead of the observer
    pos = np.stack([pose.x_m + ux * along, pose.y_m + uy * along, np.full_like(times, height_m)], axis=1)[:, None, :]
    quat = np.tile([1.0, 0.0, 0.0, 0.0], (len(times), 1, 1))
    vel = np.tile([-ux * speed_mps, -uy * speed_mps, 0.0], (len(times), 1, 1))
    return Track(
        ("hazard",),
        times.astype(np.float32),
        pos.astype(np.float32),
        quat.astype(np.float32),
        vel.astype(np.float32),
        np.zeros_like(vel, dtype=np.float32),
    )


@pytest.fixture(scope="module")
def ball_spec():
    return sample_spec("thrown_object", 7, object_id="tennis_ball", speed_band="normal")


def _speed_for(spec, after_freeze_s: float) -> float:
    """The speed at which the ball, started 3 m away, comes within the arms' reach this long after the freeze."""
    radius = spec.body("hazard").geoms[0].size[0]
    reach = float(envelope_config().reach_m(1.0))
    return (3.0 - reach - radius) / (spec.observation_window_s + after_freeze_s)


def test_hands_arrival_of_a_hand_built_track(ball_spec):
    v = _speed_for(ball_spec, 0.3)
    t = hands_arrival_s(ball_spec, _straight_track(ball_spec, v), "hazard", CFG)
    assert t == pytest.approx(0.3, abs=2 * ball_spec.dt_s)
    assert hands_arrival_s(ball_spec, _straight_track(ball_spec, v, height_m=2.0), "hazard", CFG) is None  # overhead


def test_the_labeller_makes_a_harmless_ball_dodge_only_when_it_comes_too_soon(ball_spec):
    soon = label(ball_spec, _straight_track(ball_spec, _speed_for(ball_spec, ARM_TRAVEL_S - 0.05)))
    late = label(ball_spec, _straight_track(ball_spec, _speed_for(ball_spec, ARM_TRAVEL_S + 0.05)))
    assert (soon.correct_action, soon.dangerous) == ("DODGE", False)
    assert [r for r in soon.reasons if r.startswith("too soon")]
    assert (late.correct_action, late.dangerous, late.reasons) == ("CATCH", False, ())


def test_validate_names_a_changed_label_with_both_values(ball_spec):
    fresh = label(ball_spec, _straight_track(ball_spec, _speed_for(ball_spec, ARM_TRAVEL_S - 0.05)))
    stored = dataclasses.replace(fresh, correct_action="CATCH", reasons=())
    changes = ground_truth_changes(stored, fresh)
    assert changes[0].startswith("label changed: correct_action CATCH -> DODGE, reasons [] -> [too soon")
    assert ground_truth_changes(fresh, fresh) == []
    moved = dataclasses.replace(fresh, impact_time_s=(fresh.impact_time_s or 0.0) + 0.1)
    assert ground_truth_changes(moved, fresh) == ["ground truth differs in impact_time_s"]
