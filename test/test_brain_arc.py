"""Without a simulator: the oracle's swing prediction (reacthuman.brain.arc) follows a pendulum's circle,
and a ballistic path is not taken for a swing."""

from __future__ import annotations

import math

import pytest

from reacthuman.brain.arc import ArcConfig, fit_swing, swing_path
from reacthuman.brain.observation import TrackSample

PIVOT_M = (0.4, 0.0, 2.5)
LENGTH_M = 1.2
FINE_DT_S = 1e-4


def _pendulum(theta_rad: float, omega_radps: float, seconds: float) -> tuple[float, float]:
    for _ in range(int(round(seconds / FINE_DT_S))):
        omega_radps -= 9.81 / LENGTH_M * math.sin(theta_rad) * FINE_DT_S
        theta_rad += omega_radps * FINE_DT_S
    return theta_rad, omega_radps


def _sample(t_s: float, theta: float, omega: float) -> TrackSample:
    return TrackSample(
        t_s,
        (PIVOT_M[0] + LENGTH_M * math.sin(theta), 0.0, PIVOT_M[2] - LENGTH_M * math.cos(theta)),
        (LENGTH_M * omega * math.cos(theta), 0.0, LENGTH_M * omega * math.sin(theta)),
    )


def test_a_swing_is_fitted_and_followed_along_its_circle():
    theta, omega, track = 0.5, -0.3, []
    for i in range(7):  # 0.6 s observed, a sample every 0.1 s
        track.append(_sample(0.1 * i, theta, omega))
        theta, omega = _pendulum(theta, omega, 0.1)
    theta, omega = track_end = _pendulum(0.5, -0.3, 0.6)  # state at the last sample
    swing = fit_swing(track)
    assert swing is not None
    assert swing.pivot_m == pytest.approx(PIVOT_M, abs=1e-6)
    assert swing.radius_m == pytest.approx(LENGTH_M, abs=1e-6)
    path = swing_path(swing, track[-1], 0.5)
    later = _sample(0.0, *_pendulum(*track_end, 0.5))
    assert path[-1][0] == pytest.approx(0.5)
    assert math.dist(path[-1][1], later.position_m) < 0.01, (path[-1], later)


def test_a_ballistic_arc_curves_about_a_centre_below_and_is_no_swing():
    track = [
        TrackSample(0.1 * i, (0.1 * i, 0.0, 2.0 - 4.905 * (0.1 * i) ** 2), (1.0, 0.0, -0.981 * i)) for i in range(6)
    ]
    assert fit_swing(track) is None
    assert fit_swing(track[:2]) is None  # too few samples to fit


def test_bad_arc_config_names_the_field():
    with pytest.raises(ValueError, match="min_samples"):
        ArcConfig(min_samples=2)
