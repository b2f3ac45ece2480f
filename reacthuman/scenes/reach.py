"""The G1's reachable workspace at the observer's pose, for the impact point (`label`).

Frames and units: the observer's frame (`plan.Pose2D`: x forward, y left, z up from the floor), metres,
seconds. A point is reachable at time t when it lies within arm reach (`arm_reach_m`) of where a shoulder
can be by then: the shoulders stand at `shoulder_height_m`, `shoulder_half_width_m` either side of the
body axis, can drop by `crouch_drop_m` (knees bent), and can move horizontally in any direction by the step a
plan can make between the freeze and t (`LabelConfig.step_m`). Before the freeze the base has not moved,
so only the arms' own reach counts. A sampled object point is inflated by its radius (spheres, capsules).
"""

from __future__ import annotations

import numpy as np

from reacthuman.scenes.label_config import LabelConfig
from reacthuman.scenes.spec import SceneSpec


def to_observer_frame(spec: SceneSpec, pts: np.ndarray) -> np.ndarray:
    """World points (..., 3) in the observer's frame (x forward, y left, z up from the floor)."""
    pose = spec.observer.pose()
    c, s = np.cos(pose.yaw_rad), np.sin(pose.yaw_rad)
    dx, dy = pts[..., 0] - pose.x_m, pts[..., 1] - pose.y_m
    return np.stack([c * dx + s * dy, -s * dx + c * dy, pts[..., 2]], axis=-1)


def distance_outside_reach_m(spec: SceneSpec, cfg: LabelConfig, pts: np.ndarray, radii: np.ndarray,
                             times_s: np.ndarray) -> np.ndarray:
    """(n, p): how far each point (world, samples n x points p, inflated by radii (p,)) at times_s (n,) lies
    outside the workspace; <= 0 inside."""
    robot = to_observer_frame(spec, pts)
    xr, yr = robot[..., 0], robot[..., 1]
    to_shoulder = np.minimum(np.hypot(xr, yr - cfg.shoulder_half_width_m), np.hypot(xr, yr + cfg.shoulder_half_width_m))
    freeze_s = spec.t0_s + spec.observation_window_s
    step = np.minimum(cfg.max_step_m, cfg.walk_speed_mps * np.maximum(0.0, np.asarray(times_s) - freeze_s))
    horizontal = np.maximum(0.0, to_shoulder - step[:, None])
    top, bottom = cfg.shoulder_height_m, cfg.shoulder_height_m - cfg.crouch_drop_m
    vertical = np.maximum(0.0, np.maximum(pts[..., 2] - top, bottom - pts[..., 2]))
    return np.hypot(horizontal, vertical) - radii[None, :] - cfg.arm_reach_m


def in_reach(spec: SceneSpec, cfg: LabelConfig, pts: np.ndarray, radii: np.ndarray, times_s: np.ndarray) -> np.ndarray:
    """Boolean (n, p): the point is inside the reachable workspace at its time."""
    return distance_outside_reach_m(spec, cfg, pts, radii, times_s) <= 0.0
