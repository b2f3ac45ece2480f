"""Geometric validators: does the simulated scene match its spec? Run before anything is rendered.

Frames and units: world frame, metres, seconds. Checks (each returns a one-line problem or nothing):
- in frame: the primary hazard is inside all three camera images at every observation-window sample
  (cameras.keeps_course_in_view: the egocentric view may lose it once it is within EGO_NEAR_M of the eyes;
  the close-up, the object's portrait, holds it from the middle of the window to the freeze);
- on support: at t0 the hazard touches the support the family put it on (within SUPPORT_TOL_M);
- starts at t0: the hazard moves between t0 and the next step and has moved MIN_EVENT_MOTION_M by the
  window's end (no delayed or scripted start);
- settled (chain_reaction): the target is at rest when the trigger reaches it;
- above the floor: no dynamic body tunnels through the floor.
"""

from __future__ import annotations

import numpy as np

from reacthuman.scenes.builders import rotate
from reacthuman.scenes.cameras import keeps_course_in_view
from reacthuman.scenes.genesis_sim import Track
from reacthuman.scenes.label import body_points
from reacthuman.scenes.spec import SceneSpec

SUPPORT_TOL_M = 0.006
MIN_EVENT_MOTION_M = 0.02
SETTLED_MPS = 0.05
RENDER_INTERVAL_S = 0.15  # the page's observation frames: t0 + 0, 0.15, ... 0.6 s


def window_steps(spec: SceneSpec, interval_s: float = RENDER_INTERVAL_S) -> list[int]:
    n = int(round(spec.observation_window_s / interval_s))
    return [int(round((spec.t0_s + i * interval_s) / spec.dt_s)) for i in range(n + 1)]


def hazard_window_points(spec: SceneSpec, track: Track) -> list[tuple[float, float, float]]:
    """The primary hazard's centre (its first geom's centre) at the observation-window samples."""
    pts, _ = body_points(spec, track, spec.hazard_bodies[0])
    centre = pts[:, -1] if spec.hazard.geoms[0].shape in ("box", "cylinder") else pts[:, 0]
    steps = [min(k, len(track.times_s) - 1) for k in window_steps(spec)]
    return [tuple(map(float, centre[k])) for k in steps]


def check_in_frame(spec: SceneSpec, track: Track) -> list[str]:
    points = hazard_window_points(spec, track)
    return [
        f"hazard leaves the {cam.name} view during the observation window"
        for cam in spec.cameras
        if not keeps_course_in_view(cam, points)
    ]


def _box_distance(spec: SceneSpec, support: str, pts: np.ndarray) -> float:
    body = spec.body(support)
    best = float("inf")
    w, x, y, z = body.quat
    for g in body.geoms:
        for p in pts:
            local = rotate((w, -x, -y, -z), tuple(p - np.asarray(body.pos)))
            d = np.maximum(np.abs(np.asarray(local) - np.asarray(g.pos)) - np.asarray(g.size), 0.0)
            best = min(best, float(np.linalg.norm(d)))
    return best


def check_on_support(spec: SceneSpec, track: Track) -> list[str]:
    support = spec.params.get("support")
    if not support:
        return []
    k0 = int(round(spec.t0_s / spec.dt_s))
    name = spec.hazard_bodies[-1] if spec.family in ("stack_collapse",) else spec.hazard_bodies[0]
    pts, radii = body_points(spec, track, name)
    pts0 = pts[k0]
    # Spheres touch with their surface: move their centre sample down by the radius before measuring.
    pts0 = pts0 - np.stack([np.zeros_like(radii), np.zeros_like(radii), radii], axis=-1)
    gap = _box_distance(spec, support, pts0)
    return [] if gap <= SUPPORT_TOL_M else [f"hazard is {gap * 1000:.1f} mm from its support '{support}' at t0"]


def check_starts_at_t0(spec: SceneSpec, track: Track) -> list[str]:
    k0 = int(round(spec.t0_s / spec.dt_s))
    k_end = min(window_steps(spec)[-1], len(track.times_s) - 1)
    moved_first, moved_window = 0.0, 0.0
    for name in spec.hazard_bodies:
        pts, _ = body_points(spec, track, name)
        moved_first = max(moved_first, float(np.abs(pts[k0 + 1] - pts[k0]).max()))
        moved_window = max(moved_window, float(np.linalg.norm(pts[k_end] - pts[k0], axis=-1).max()))
    problems = []
    if moved_first == 0.0:
        problems.append("no hazard moves at t0")
    if moved_window < MIN_EVENT_MOTION_M:
        problems.append(f"hazards move only {moved_window * 1000:.1f} mm in the observation window")
    return problems


def check_settled(spec: SceneSpec, track: Track) -> list[str]:
    if "target" not in spec.hazard_bodies or "trigger" not in spec.hazard_bodies:
        return []
    t, g = track.index("target"), track.index("trigger")
    reach = spec.body("target").geoms[0].size[0] + spec.body("trigger").geoms[0].size[0] + 0.005
    dist = np.linalg.norm(track.pos[:, t, :2] - track.pos[:, g, :2], axis=-1)
    close = np.argwhere(dist <= reach)
    if len(close) == 0:
        return ["the trigger never reaches the target"]
    k = max(int(close[0, 0]) - 1, 0)
    speed = float(np.linalg.norm(track.vel[k, t]))
    return [] if speed <= SETTLED_MPS else [f"target still moving ({speed:.3f} m/s) when the trigger strikes"]


def check_above_floor(spec: SceneSpec, track: Track) -> list[str]:
    low = track.pos[..., 2].min(axis=0)
    return [f"body {name} passes through the floor (z {z:.2f} m)" for name, z in zip(track.names, low) if z < -0.05]


def validate_track(spec: SceneSpec, track: Track) -> list[str]:
    """Every problem found (empty: the simulation matches the spec)."""
    return (
        check_above_floor(spec, track)
        + check_in_frame(spec, track)
        + check_on_support(spec, track)
        + check_starts_at_t0(spec, track)
        + check_settled(spec, track)
    )
