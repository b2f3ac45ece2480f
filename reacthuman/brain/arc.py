"""Where a swinging object (a bob on a rod, a hinged body's far end) will be: the observed track's points are
fitted with a circle in their plane of motion, and the swing is integrated as a rigid pendulum in that plane
(gravity's component in the plane, no damping). A ballistic path curves about a centre below it, a swing
about a pivot above it: a fit whose centre is not above the points, or whose points leave the circle, is
no swing and gives None (the caller predicts ballistically). The fit's thresholds and the integration step are
`ArcConfig`, read from config/arc.yaml."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from reacthuman.brain.observation import TrackSample
from reacthuman.core.config import config_with
from reacthuman.core.physics import GRAVITY_MPS2
from reacthuman.core.validate import require_positive


@dataclass(frozen=True)
class ArcConfig:
    """How a swing is fitted and followed (config/arc.yaml)."""

    min_samples: int = 4  # fewer track samples: no fit
    max_fit_residual_m: float = 0.01  # points this far off the fitted circle: not a swing
    max_radius_m: float = 4.0  # a larger fitted circle: not a swing
    min_pivot_above_m: float = 0.1  # the pivot at least this far above the highest tracked point
    step_s: float = 0.005  # integration step of the swing

    def __post_init__(self) -> None:
        if isinstance(self.min_samples, bool) or not isinstance(self.min_samples, int) or self.min_samples < 3:
            raise ValueError(f"ArcConfig.min_samples must be an integer >= 3, got {self.min_samples!r}")
        require_positive(self, ("max_fit_residual_m", "max_radius_m", "min_pivot_above_m", "step_s"), "ArcConfig.")


def default_config(**overrides: Any) -> ArcConfig:
    """config/arc.yaml with `overrides` applied."""
    return config_with(ArcConfig, overrides)


@dataclass(frozen=True)
class Swing:
    pivot_m: tuple[float, float, float]
    radius_m: float
    down: np.ndarray  # unit, in the plane: gravity's direction there
    side: np.ndarray  # unit, in the plane, perpendicular to down
    gravity_in_plane_mps2: float


def fit_swing(track: tuple[TrackSample, ...] | list[TrackSample], config: ArcConfig | None = None) -> Swing | None:
    config = config or default_config()
    if len(track) < config.min_samples:
        return None
    pts = np.array([s.position_m for s in track], dtype=np.float64)
    mean = pts.mean(axis=0)
    _, sv, vt = np.linalg.svd(pts - mean)
    if sv[1] < 1e-4:  # collinear: no curvature to fit
        return None
    u, v = vt[0], vt[1]
    xy = np.stack([(pts - mean) @ u, (pts - mean) @ v], axis=1)
    # algebraic circle fit: x^2 + y^2 = 2 a x + 2 b y + c
    a_mat = np.column_stack([2 * xy[:, 0], 2 * xy[:, 1], np.ones(len(xy))])
    (a, b, c), *_ = np.linalg.lstsq(a_mat, (xy**2).sum(axis=1), rcond=None)
    radius = math.sqrt(max(c + a * a + b * b, 0.0))
    if not 0 < radius <= config.max_radius_m:
        return None
    centre_2d = np.array([a, b])
    if np.max(np.abs(np.linalg.norm(xy - centre_2d, axis=1) - radius)) > config.max_fit_residual_m:
        return None
    pivot = mean + a * u + b * v
    if pivot[2] < pts[:, 2].max() + config.min_pivot_above_m:
        return None
    gravity = np.array([0.0, 0.0, -1.0])
    g_plane = (gravity @ u) * u + (gravity @ v) * v
    g_norm = float(np.linalg.norm(g_plane))
    if g_norm < 1e-3:  # a horizontal plane: gravity does not drive the swing
        return None
    down = g_plane / g_norm
    normal = np.cross(u, v)
    side = np.cross(normal, down)
    return Swing(tuple(float(x) for x in pivot), radius, down, side, GRAVITY_MPS2 * g_norm)


def swing_path(
    swing: Swing, last: TrackSample, horizon_s: float, config: ArcConfig | None = None
) -> list[tuple[float, tuple[float, float, float], float]]:
    """(seconds after `last`, position, speed) along the fitted circle, integrated from the last sample."""
    config = config or default_config()
    pivot = np.array(swing.pivot_m)
    r_vec = np.array(last.position_m) - pivot
    theta = math.atan2(float(r_vec @ swing.side), float(r_vec @ swing.down))
    tangent = -math.sin(theta) * swing.down + math.cos(theta) * swing.side
    omega = float(np.array(last.velocity_mps) @ tangent) / swing.radius_m
    k = swing.gravity_in_plane_mps2 / swing.radius_m
    out = []
    dt = config.step_s
    for i in range(int(horizon_s / dt) + 1):
        pos = pivot + swing.radius_m * (math.cos(theta) * swing.down + math.sin(theta) * swing.side)
        out.append((i * dt, tuple(float(x) for x in pos), abs(omega) * swing.radius_m))
        # semi-implicit Euler: keeps the swing's energy bounded over a few periods
        omega -= k * math.sin(theta) * dt
        theta += omega * dt
    return out
