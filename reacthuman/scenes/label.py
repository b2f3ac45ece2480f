"""Stage 3b: ground truth from the simulated track and the catalogue.

Frames and units: world frame, metres, seconds, m/s, kg.

- Reach zone: a box in the observer's frame (x forward, y left, from plan.Pose2D): x in REACH_X_M, |y| <=
  REACH_HALF_WIDTH_M, z in REACH_Z_M: what the arms reach with one step. Its front face x = REACH_X_M[1] is
  the reach plane; falling things enter through its top. The impact point is the first recorded position
  of a hazard surface sample point inside the zone while moving (>= MOVING_MPS), so an object that merely
  starts near the observer does not count until it moves; None when no hazard ever enters.
- time_to_floor_s: from t0 to the first step at which a hazard surface point that started above 0.1 m
  is within FLOOR_CONTACT_TOL_M of the floor (spheres and capsules by their radius).
- Action: NO_ACTION when nothing enters the envelope (the event cannot reach the observer); else DODGE when
  the object that arrives is dangerous by its catalogued physics (sharp, hot, shattering, heavy, not
  graspable) or by its kinematics (fast, or high momentum at impact); else CATCH. Looks never enter.
"""

from __future__ import annotations

import math

import numpy as np

from reacthuman.plan import Action
from reacthuman.scenes.catalog import OBJECTS
from reacthuman.scenes.genesis_sim import Track
from reacthuman.scenes.spec import GeomSpec, GroundTruth, SceneSpec

REACH_X_M = (-0.2, 0.7)  # arm reach (~0.5 m) plus a short step
REACH_HALF_WIDTH_M = 0.6
REACH_Z_M = (0.1, 1.6)
MOVING_MPS = 0.3
FLOOR_CONTACT_TOL_M = 0.002
FAST_SPEED_MPS = 8.0
DANGER_MOMENTUM_KGMPS = 5.0


def _geom_points(g: GeomSpec) -> tuple[np.ndarray, float]:
    """Sample points of a geom in its body frame and the radius to inflate them by."""
    s = g.size
    if g.shape == "box":
        pts = np.array([[sx * s[0], sy * s[1], sz * s[2]] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
                       + [[0.0, 0.0, 0.0]])
        inflate = 0.0
    elif g.shape == "sphere":
        pts, inflate = np.zeros((1, 3)), s[0]
    elif g.shape == "cylinder":
        ring = [[s[0] * math.cos(a), s[0] * math.sin(a), z] for a in np.linspace(0, 2 * math.pi, 8, endpoint=False)
                for z in (-s[1], s[1])]
        pts, inflate = np.array(ring + [[0.0, 0.0, 0.0]]), 0.0
    else:  # capsule
        pts, inflate = np.array([[0.0, 0.0, -s[1]], [0.0, 0.0, s[1]]]), s[0]
    q = g.quat
    return np.array([_rot(q, p) for p in pts]) + np.asarray(g.pos), inflate


def _rot(q, v) -> np.ndarray:
    from reacthuman.scenes.builders import rotate

    return np.asarray(rotate(tuple(q), tuple(v)))


def _rotate_many(quat: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Rotate body-frame points (p, 3) by per-sample quaternions (n, 4) -> (n, p, 3)."""
    w, u = quat[:, None, :1], quat[:, None, 1:]
    v = pts[None, :, :]
    c = np.cross(u, v)
    return v + 2 * w * c + 2 * np.cross(u, c)


def body_points(spec: SceneSpec, track: Track, name: str) -> tuple[np.ndarray, np.ndarray]:
    """World positions (n, p, 3) of a body's surface samples over the track, and each point's radius (p,)."""
    body = spec.body(name)
    b = track.index(name)
    pos, quat = track.pos[:, b].astype(np.float64), track.quat[:, b].astype(np.float64)
    all_pts, radii = [], []
    for g in body.geoms:
        pts, inflate = _geom_points(g)
        all_pts.append(pts)
        radii += [inflate] * len(pts)
    local = np.concatenate(all_pts)
    return pos[:, None, :] + _rotate_many(quat, local), np.asarray(radii)


def in_reach(spec: SceneSpec, pts: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Boolean mask (..., p): points (world, inflated by their radius) inside the observer's reach zone."""
    o = spec.observer
    c, s = math.cos(o.yaw_rad), math.sin(o.yaw_rad)
    dx, dy = pts[..., 0] - o.x_m, pts[..., 1] - o.y_m
    xr, yr = c * dx + s * dy, -s * dx + c * dy
    return ((xr - radii <= REACH_X_M[1]) & (xr + radii >= REACH_X_M[0]) & (np.abs(yr) - radii <= REACH_HALF_WIDTH_M)
            & (pts[..., 2] + radii >= REACH_Z_M[0]) & (pts[..., 2] - radii <= REACH_Z_M[1]))


def _first_entry(spec: SceneSpec, pts: np.ndarray, radii: np.ndarray) -> tuple[int, int] | None:
    speed = np.zeros(pts.shape[:2])
    speed[1:] = np.linalg.norm(np.diff(pts, axis=0), axis=-1) / spec.dt_s
    hits = np.argwhere(in_reach(spec, pts, radii) & (speed >= MOVING_MPS))
    if len(hits) == 0:
        return None
    k = int(hits[:, 0].min())
    p = int(hits[hits[:, 0] == k][0, 1])
    return k, p


def time_to_floor(spec: SceneSpec, track: Track, name: str) -> float | None:
    pts, radii = body_points(spec, track, name)
    low = pts[..., 2] - radii[None, :]
    start_k = int(round(spec.t0_s / spec.dt_s))
    elevated = low[start_k] > 0.1
    if not elevated.any():
        return None
    touched = np.argwhere(low[start_k:, elevated] <= FLOOR_CONTACT_TOL_M)
    if len(touched) == 0:
        return None
    return round(float(track.times_s[start_k + int(touched[:, 0].min())]) - spec.t0_s, 6)


def label(spec: SceneSpec, track: Track) -> GroundTruth:
    """Ground truth of a simulated scene (a pure function of the spec and its track)."""
    dt = spec.dt_s
    start_k = int(round(spec.t0_s / dt))
    entries = []
    for name in spec.hazard_bodies:
        pts, radii = body_points(spec, track, name)
        hit = _first_entry(spec, pts[start_k:], radii)
        if hit is not None:
            k, p = hit[0] + start_k, hit[1]
            prev = pts[max(k - 1, 0), p]
            speed = float(np.linalg.norm(pts[k, p] - prev) / dt) if k > 0 else 0.0
            entries.append((k, name, pts[k, p], speed))
    primary = spec.hazard_bodies[0]
    ppts, _ = body_points(spec, track, primary)
    peak = float(np.max(np.linalg.norm(np.diff(ppts[:, -1], axis=0), axis=-1)) / dt) if len(ppts) > 1 else 0.0
    obj = OBJECTS[spec.body(primary).object_id]
    reasons: list[str] = []
    if not entries:
        action, impact, t_imp, v_imp = Action.NO_ACTION, None, None, None
        dangerous = _static_danger(obj, reasons)
    else:
        k, name, point, v_imp = min(entries, key=lambda e: (e[0], spec.hazard_bodies.index(e[1])))
        obj = OBJECTS[spec.body(name).object_id]
        impact = tuple(round(float(c), 4) for c in point)
        t_imp = round(float(track.times_s[k]) - spec.t0_s, 6)
        dangerous = _static_danger(obj, reasons)
        if v_imp >= FAST_SPEED_MPS:
            reasons.append(f"fast ({v_imp:.1f} m/s)")
        if obj.mass_kg * v_imp >= DANGER_MOMENTUM_KGMPS:
            reasons.append(f"momentum ({obj.mass_kg * v_imp:.1f} kg m/s)")
        dangerous = bool(reasons)
        action = Action.DODGE if dangerous else Action.CATCH
        v_imp = round(v_imp, 4)
    return GroundTruth(
        correct_action=action.value, dangerous=dangerous, impact_point=impact,
        time_to_floor_s=time_to_floor(spec, track, primary), speed_band=spec.speed_band, adversarial=spec.adversarial,
        impact_time_s=t_imp, impact_speed_mps=v_imp, peak_speed_mps=round(peak, 4), reasons=tuple(reasons), track_sha256=track.digest,
    )


def _static_danger(obj, reasons: list[str]) -> bool:
    reasons += list(obj.hazard_flags)
    if not obj.graspable:
        reasons.append("not graspable")
    return bool(reasons)
