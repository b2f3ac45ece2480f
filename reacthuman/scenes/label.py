"""Stage 3b: ground truth from the simulated track and the catalogue.

Frames and units: world frame, metres, seconds, m/s, kg. Every threshold is a field of `LabelConfig`
(config/ground_truth.yaml), with its unit in its name.

- Impact point: the first recorded position, after t0, of a hazard surface sample point inside the G1's
  reachable workspace at the observer's pose (`reach`: arm reach from the shoulders, crouching, plus the
  step a plan can make between the freeze and that moment) while the point moves (>= moving_mps), so an
  object that merely starts near the observer does not count until it moves; None when no hazard ever
  enters (the event cannot reach the observer).
- time_to_floor_s: from t0 to the first step at which a hazard surface point that started above 0.1 m
  is within floor_contact_tol_m of the floor (spheres and capsules by their radius).
- dangerous: the arriving object's intrinsic property (paper sec. 3.1): sharp, hot or shattering by its
  catalogued physics, or heavy (mass >= heavy_mass_kg). Speed never makes an object dangerous.
- Action: NO_ACTION when nothing enters the workspace; else DODGE when the object is dangerous, cannot be
  grasped, arrives fast (>= fast_speed_mps) or with high momentum (mass x speed >= dodge_momentum_kgmps),
  or is too fast to catch (`too_fast_to_catch`, docs/too-fast-to-catch.md): it comes within the arms' reach
  sooner after the freeze than the arms take to get there (the body's measured arm_travel_s), or brings more
  kinetic energy to the hands than the G1's hands or a person's can take; else CATCH. `reasons` lists every reason for DODGE (or the danger flags of an object that never
  arrives). Looks never enter: an adversarial object is labelled by its own physics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from reacthuman.scenes.envelope import BodyEnvelope, PathVerdict, path_verdict
from reacthuman.scenes.envelope import default_config as envelope_config
from reacthuman.plan.plan import Action, Pose2D
from reacthuman.scenes.builders import rotate
from reacthuman.scenes.catalog import ObjectEntry, spec_object
from reacthuman.scenes.genesis_sim import Track
from reacthuman.scenes.label_config import LabelConfig, load_label_config
from reacthuman.scenes.reach import in_reach, to_observer_frame, walk_room
from reacthuman.scenes.spec import GeomSpec, GroundTruth, ObserverSpec, SceneSpec


def _geom_points(g: GeomSpec) -> tuple[np.ndarray, float]:
    """Sample points of a geom in its body frame and the radius to inflate them by."""
    s = g.size
    if g.shape == "box":
        pts = np.array(
            [[sx * s[0], sy * s[1], sz * s[2]] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
            + [[0.0, 0.0, 0.0]]
        )
        inflate = 0.0
    elif g.shape == "sphere":
        pts, inflate = np.zeros((1, 3)), s[0]
    elif g.shape == "cylinder":
        ring = [
            [s[0] * math.cos(a), s[0] * math.sin(a), z]
            for a in np.linspace(0, 2 * math.pi, 8, endpoint=False)
            for z in (-s[1], s[1])
        ]
        pts, inflate = np.array(ring + [[0.0, 0.0, 0.0]]), 0.0
    else:  # capsule
        pts, inflate = np.array([[0.0, 0.0, -s[1]], [0.0, 0.0, s[1]]]), s[0]
    q = g.quat
    return np.array([_rot(q, p) for p in pts]) + np.asarray(g.pos), inflate


def _rot(q, v) -> np.ndarray:
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


def _first_entry(
    spec: SceneSpec, cfg: LabelConfig, pts: np.ndarray, radii: np.ndarray, times_s: np.ndarray
) -> tuple[int, int] | None:
    speed = np.zeros(pts.shape[:2])
    speed[1:] = np.linalg.norm(np.diff(pts, axis=0), axis=-1) / spec.dt_s
    hits = np.argwhere(in_reach(spec, cfg, pts, radii, times_s) & (speed >= cfg.moving_mps))
    if len(hits) == 0:
        return None
    k = int(hits[:, 0].min())
    p = int(hits[hits[:, 0] == k][0, 1])
    return k, p


def time_to_floor(spec: SceneSpec, track: Track, name: str, cfg: LabelConfig | None = None) -> float | None:
    cfg = cfg or load_label_config()
    pts, radii = body_points(spec, track, name)
    low = pts[..., 2] - radii[None, :]
    start_k = int(round(spec.t0_s / spec.dt_s))
    elevated = low[start_k] > 0.1
    if not elevated.any():
        return None
    touched = np.argwhere(low[start_k:, elevated] <= cfg.floor_contact_tol_m)
    if len(touched) == 0:
        return None
    return round(float(track.times_s[start_k + int(touched[:, 0].min())]) - spec.t0_s, 6)


def label(spec: SceneSpec, track: Track, config: LabelConfig | None = None) -> GroundTruth:
    """Ground truth of a simulated scene (a pure function of the spec, its track and the config)."""
    cfg = config or load_label_config()
    dt = spec.dt_s
    start_k = int(round(spec.t0_s / dt))
    times = track.times_s.astype(np.float64)
    entries = []
    for name in spec.hazard_bodies:
        pts, radii = body_points(spec, track, name)
        hit = _first_entry(spec, cfg, pts[start_k:], radii, times[start_k:])
        if hit is not None:
            k, p = hit[0] + start_k, hit[1]
            prev = pts[max(k - 1, 0), p]
            speed = float(np.linalg.norm(pts[k, p] - prev) / dt) if k > 0 else 0.0
            entries.append((k, name, pts[k, p], speed))
    primary = spec.hazard_bodies[0]
    ppts, _ = body_points(spec, track, primary)
    peak = float(np.max(np.linalg.norm(np.diff(ppts[:, -1], axis=0), axis=-1)) / dt) if len(ppts) > 1 else 0.0
    if not entries:
        obj = spec_object(spec, spec.body(primary).object_id)
        reasons = danger_flags(obj, cfg)
        action, impact, t_imp, v_imp = Action.NO_ACTION, None, None, None
    else:
        k, name, point, v_imp = min(entries, key=lambda e: (e[0], spec.hazard_bodies.index(e[1])))
        obj = spec_object(spec, spec.body(name).object_id)
        impact = tuple(round(float(c), 4) for c in point)
        t_imp = round(float(track.times_s[k]) - spec.t0_s, 6)
        arrival = Arrival(hands_arrival_s(spec, track, name, cfg), v_imp, obj.mass_kg)
        reasons = danger_flags(obj, cfg) + dodge_kinematics(obj, v_imp, cfg) + too_fast_to_catch(arrival, cfg)
        action = Action.DODGE if reasons else Action.CATCH
        v_imp = round(v_imp, 4)
    floor_s = time_to_floor(spec, track, primary, cfg)
    judged = name if entries else primary
    verdict, intercept_world = body_verdict(spec, track, action.value, judged)
    return GroundTruth(
        correct_action=action.value,
        dangerous=bool(danger_flags(obj, cfg)),
        impact_point=impact,
        time_to_floor_s=floor_s,
        speed_band=spec.speed_band,
        adversarial=spec.adversarial,
        impact_time_s=t_imp,
        impact_speed_mps=v_imp,
        peak_speed_mps=round(peak, 4),
        reasons=tuple(reasons),
        track_sha256=track.digest,
        body_reachable=verdict.reachable,
        body_reach_reason=verdict.reason,
        intercept_point=intercept_world,
        intercept_time_s=verdict.intercept_time_s,
        clear_step=verdict.clear_step_robot,
    )


def truth_at(spec: SceneSpec, track: Track, t_s: float, pose: Pose2D) -> GroundTruth:
    """The labeller's rule at a later moment: `track` judged from `t_s` (s after the event began, like
    frame_times_s: a decision's freeze) on, with the observer standing at `pose` (world). The event's start is
    moved so that the freeze falls at `t_s`, so the truth's times (impact_time_s, time_to_floor_s,
    intercept_time_s) count from that moved start, `t_s - observation_window_s` after the event's."""
    t0_s = spec.t0_s + t_s - spec.observation_window_s
    shifted = replace(
        spec,
        t0_s=t0_s,
        duration_s=max(spec.duration_s, t0_s + spec.observation_window_s),
        observer=ObserverSpec(pose.x_m, pose.y_m, pose.yaw_rad),
        ground_truth=None,
    )
    return label(shifted, track)


def body_verdict(
    spec: SceneSpec, track: Track, action: str, name: str
) -> tuple[PathVerdict, tuple[float, float, float] | None]:
    """Whether the G1 can carry `action` out against the simulated path (scenes.envelope): a catch against
    body `name`'s, a dodge against every hazard body's, its walks stopped by the scene's furniture
    (`reach.walk_room`); and the world point where a catch first meets it."""
    start_k = int(round(spec.t0_s / spec.dt_s))
    names = spec.hazard_bodies if action == Action.DODGE.value else (name,)
    sampled = [body_points(spec, track, n) for n in names]
    pts = np.concatenate([p for p, _ in sampled], axis=1)[start_k:]
    radii = np.concatenate([r for _, r in sampled])
    times = track.times_s[start_k:].astype(np.float64) - spec.t0_s
    verdict = path_verdict(
        action, to_observer_frame(spec, pts), radii, times, spec.observation_window_s, room=walk_room(spec)
    )
    if verdict.intercept_sample is None:
        return verdict, None
    k, p = verdict.intercept_sample
    return verdict, tuple(round(float(c), 4) for c in pts[k, p])  # type: ignore[return-value]


def danger_flags(obj: ObjectEntry, cfg: LabelConfig) -> list[str]:
    """The intrinsic hazards that make an object dangerous (empty: it is not)."""
    flags = [n for n in ("sharp", "hot", "shattering") if getattr(obj, n)]
    if obj.mass_kg >= cfg.heavy_mass_kg:
        flags.append("heavy")
    return flags


def dodge_kinematics(obj: ObjectEntry, arrival_speed_mps: float, cfg: LabelConfig) -> list[str]:
    """Reasons besides danger to dodge rather than catch what arrives: it cannot be grasped, or it comes too
    fast or with too much momentum to take in the hands."""
    reasons = [] if obj.graspable else ["not graspable"]
    if arrival_speed_mps >= cfg.fast_speed_mps:
        reasons.append(f"fast ({arrival_speed_mps:.1f} m/s)")
    if obj.mass_kg * arrival_speed_mps >= cfg.dodge_momentum_kgmps:
        reasons.append(f"momentum ({obj.mass_kg * arrival_speed_mps:.1f} kg m/s)")
    return reasons


@dataclass(frozen=True)
class Arrival:
    """An arrival as the hands meet it: when it first comes within the arms' reach after the freeze (s; None:
    never; negative: already there at the freeze), its speed where it enters the workspace, and its mass."""

    after_freeze_s: float | None
    speed_mps: float
    mass_kg: float

    @property
    def energy_j(self) -> float:
        return 0.5 * self.mass_kg * self.speed_mps**2


def hands_arrival_s(
    spec: SceneSpec, track: Track, name: str, cfg: LabelConfig, env: BodyEnvelope | None = None
) -> float | None:
    """Seconds from the freeze until a moving point of body `name` first comes within the arms' reach of the
    body standing where it is (scenes.envelope: planar reach at that height, between the lowest and highest
    hand heights); negative when that happened before the freeze, None when it never does."""
    env = env or envelope_config()
    start_k = int(round(spec.t0_s / spec.dt_s))
    pts, radii = body_points(spec, track, name)
    pts = pts[start_k:]
    local = to_observer_frame(spec, pts)
    speed = np.zeros(pts.shape[:2])
    speed[1:] = np.linalg.norm(np.diff(pts, axis=0), axis=-1) / spec.dt_s
    z = local[..., 2]
    near = (
        (np.hypot(local[..., 0], local[..., 1]) - radii[None, :] <= env.reach_m(z))
        & (z + radii[None, :] >= env.lowest_hand_m)
        & (z - radii[None, :] <= env.highest_hand_m)
        & (speed >= cfg.moving_mps)
    )
    hits = np.nonzero(near.any(axis=1))[0]
    if len(hits) == 0:
        return None
    return round(float(track.times_s[start_k + int(hits[0])]) - spec.t0_s - spec.observation_window_s, 6)


def too_fast_to_catch(arrival: Arrival, cfg: LabelConfig, env: BodyEnvelope | None = None) -> list[str]:
    """Why the hands cannot take this arrival (empty: they can): it reaches the arms sooner after the freeze
    than the arms take to get there (the body's measured arm_travel_s), or it brings the hands more kinetic
    energy than the lower of the G1's and a person's limits (config/ground_truth.yaml)."""
    env = env or envelope_config()
    reasons = []
    t = arrival.after_freeze_s
    if t is not None and 0.0 <= t < env.arm_travel_s:
        reasons.append(f"too soon ({t:.2f} s after the freeze, the arms need {env.arm_travel_s:.2f} s)")
    if arrival.energy_j >= cfg.catch_energy_limit_j:
        reasons.append(f"too hard ({arrival.energy_j:.1f} J at the hands)")
    return reasons
