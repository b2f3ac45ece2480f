"""The G1's reachable workspace at the observer's pose, for the impact point (`label`).

Frames and units: the observer's frame (`plan.Pose2D`: x forward, y left, z up from the floor), metres,
seconds. A point is reachable at time t when it lies within arm reach (`arm_reach_m`) of where a shoulder
can be by then: the shoulders stand at `shoulder_height_m`, `shoulder_half_width_m` either side of the
body axis, can drop by `crouch_drop_m` (knees bent), and can move horizontally in any direction by the step a
plan can make between the freeze and t (`LabelConfig.step_m`). Before the freeze the base has not moved,
so only the arms' own reach counts. A sampled object point is inflated by its radius (spheres, capsules).
Also where the G1 may stand (`clear_of_geometry`) and how far it can walk before the furniture stops it
(`walk_room`, for the body's path judgement in `scenes.envelope`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

import numpy as np

from reacthuman.scenes.envelope import default_config
from reacthuman.scenes.label_config import LabelConfig
from reacthuman.scenes.mjcf import OBSERVER_CLEAR_RADIUS_M
from reacthuman.scenes.spec import BodySpec, SceneSpec

if TYPE_CHECKING:
    from reacthuman.scenes.envelope import BodyEnvelope

WALK_PROBE_STEP_M = 0.05  # resolution of the walkable distance along a direction
WALK_PROBE_MAX_M = 2.0  # beyond any step a plan of this body takes before an object arrives
WALK_DIRECTIONS = 72  # directions probed about the observer (5 degrees apart)


def to_observer_frame(spec: SceneSpec, pts: np.ndarray) -> np.ndarray:
    """World points (..., 3) in the observer's frame (x forward, y left, z up from the floor)."""
    pose = spec.observer.pose()
    c, s = np.cos(pose.yaw_rad), np.sin(pose.yaw_rad)
    dx, dy = pts[..., 0] - pose.x_m, pts[..., 1] - pose.y_m
    return np.stack([c * dx + s * dy, -s * dx + c * dy, pts[..., 2]], axis=-1)


def distance_outside_reach_m(
    spec: SceneSpec, cfg: LabelConfig, pts: np.ndarray, radii: np.ndarray, times_s: np.ndarray
) -> np.ndarray:
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


def _floor_footprints(bodies: list[BodySpec], below_m: float = 2.0) -> np.ndarray:
    """(g, 6): centre x, y, half extents x, y (world), bottom and top z of every fixed geom whose bottom lies
    below `below_m` (overhead mounts and lintels leave the floor free); a turned box or a round geom counts as
    a square of its largest half extent."""
    rows = []
    for b in bodies:
        if b.dynamic:
            continue
        for g in b.geoms:
            reach = max(g.size[:2]) if g.shape == "box" else g.size[0]
            half_z = g.size[2] if g.shape == "box" else g.size[-1]
            bottom = b.pos[2] + g.pos[2] - half_z
            if bottom > below_m:
                continue
            half = (g.size[0], g.size[1]) if g.shape == "box" and b.quat == (1.0, 0.0, 0.0, 0.0) else (reach, reach)
            rows.append((b.pos[0] + g.pos[0], b.pos[1] + g.pos[1], half[0], half[1], bottom, bottom + 2 * half_z))
    return np.asarray(rows, dtype=np.float64).reshape(-1, 6)


def _clear(
    footprints: np.ndarray, xy: np.ndarray, radius_m: float | np.ndarray = OBSERVER_CLEAR_RADIUS_M
) -> np.ndarray:
    """(n,): whether a footprint of radius_m (one value, or one per geom) about each point xy (n, 2) is clear of
    them."""
    dx = np.maximum(np.abs(xy[:, None, 0] - footprints[None, :, 0]) - footprints[None, :, 2], 0.0)
    dy = np.maximum(np.abs(xy[:, None, 1] - footprints[None, :, 1]) - footprints[None, :, 3], 0.0)
    return ~(np.hypot(dx, dy) < np.broadcast_to(radius_m, footprints.shape[:1])[None, :]).any(axis=1)


def clear_of_geometry(bodies: list[BodySpec], x: float, y: float) -> bool:
    """Whether the G1's footprint (OBSERVER_CLEAR_RADIUS_M about (x, y), world) is clear of every fixed body
    below 2 m: where the observer may stand, and where its walk may go."""
    return bool(_clear(_floor_footprints(bodies), np.array([[x, y]]))[0])


def walk_room(spec: SceneSpec, body: "BodyEnvelope | None" = None) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """How far the observer can walk along unit directions (ux, uy) of its own frame before its body meets a
    table, a wall or a shelf (the hazards do not count): the path judgement's walks stop there. The body is the
    envelope's (`scenes.envelope.BodyEnvelope`): its legs' cylinder up to the hips, its torso's above, so it
    walks up to a table until its legs touch it and under a shelf above its head. Probed once per scene over
    WALK_DIRECTIONS directions; a direction takes the nearest's."""
    body = body or default_config()
    prints = _floor_footprints(list(spec.bodies), below_m=body.body_height_m)
    radius = np.where(prints[:, 5] > body.hip_height_m, body.torso_radius_m, body.leg_radius_m)
    pose = spec.observer.pose()
    angles = 2 * math.pi * np.arange(WALK_DIRECTIONS) / WALK_DIRECTIONS
    steps = WALK_PROBE_STEP_M * np.arange(1, int(round(WALK_PROBE_MAX_M / WALK_PROBE_STEP_M)) + 1)
    world = pose.yaw_rad + angles
    xy = np.stack([pose.x_m + np.outer(np.cos(world), steps), pose.y_m + np.outer(np.sin(world), steps)], axis=-1)
    blocked = ~_clear(prints, xy.reshape(-1, 2), radius).reshape(len(angles), len(steps))
    first = np.where(blocked.any(axis=1), blocked.argmax(axis=1), len(steps))
    free = np.where(first < len(steps), first * WALK_PROBE_STEP_M, math.inf)  # the last clear step's distance

    def room(ux: np.ndarray, uy: np.ndarray) -> np.ndarray:
        k = np.rint(np.arctan2(uy, ux) / (2 * math.pi / WALK_DIRECTIONS)).astype(int) % WALK_DIRECTIONS
        return free[k]

    return room
