"""Small constructors the family samplers share: static boxes, catalogue objects as bodies, rotations.

Frames and units: world frame, z up, floor z = 0, metres, kg, radians; quaternions (w, x, y, z).
By convention a family lays its event out so the hazard moves towards world +x (the observer side);
the room puts its walls behind (-x) and beside the event.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from reacthuman.scenes.catalog import MATERIALS, ObjectEntry
from reacthuman.scenes.object_meshes import fixture_visual, visual_for

# The samplers import the rotations from here.
from reacthuman.scenes.rotations import Vec3, quat_axis_angle, quat_mul, rotate, to_body_frame  # noqa: F401
from reacthuman.scenes.spec import BodySpec, GeomSpec, JointSpec

# s after t0 by which the fastest band's hazard may first come within the hands' reach: the paper's 0.6 s
# window ends "before the outcome is visually resolved" (sec. 3.1), and the G1's arms then need 0.5 s
# (config/envelope.yaml, arm_travel_s) to be where a catch meets it. Samplers with a lead-in size it from this.
DECISION_LEAD_S = 1.1
# The speed bands scale a family's nominal speed; nothing else differs within a speed group.
BAND_FACTOR: dict[str, float] = {"slow": 0.45, "normal": 1.0, "fast": 1.6, "very_fast": 2.2}
FASTEST_BAND_FACTOR = max(BAND_FACTOR.values())  # a lead-in is sized for it


def r3(v: Any) -> Vec3:
    """Round to 0.1 mm / 1e-4 so specs read cleanly (the rounded value is the truth thereafter)."""
    return tuple(round(float(x), 4) for x in v)  # type: ignore[return-value]


def static_box(
    name: str,
    center: Vec3,
    half: Vec3,
    rgba: tuple[float, ...],
    quat: tuple[float, ...] = (1, 0, 0, 0),
    friction: float = 0.8,
    role: str = "static",
    look: str | None = None,
) -> BodySpec:
    """A fixed box; `look` names a fixture model (reacthuman.scenes.modelled.fixtures) drawn over it."""
    return BodySpec(
        name=name,
        pos=r3(center),
        quat=tuple(quat),
        role=role,
        friction=friction,
        geoms=(GeomSpec("box", r3(half), rgba=tuple(rgba)),),
        visual=fixture_visual(look, r3(half)) if look else None,
    )


def rest_half_height(entry: ObjectEntry) -> float:
    """Height of the object's centre above the surface it rests on, upright (identity orientation)."""
    s = entry.size
    return {"box": s[2] if len(s) > 2 else s[0], "sphere": s[0], "cylinder": s[-1], "capsule": s[-1] + s[0]}[
        entry.shape
    ]


def half_extent_x(entry: ObjectEntry) -> float:
    s = entry.size
    return s[0]  # box: half length; sphere/cylinder/capsule: radius


def object_geoms(entry: ObjectEntry) -> tuple[GeomSpec, ...]:
    """The object's shape with its appearance: base colour plus a pattern the cameras can see."""
    base = GeomSpec(entry.shape, entry.size, rgba=entry.color)
    accent = (1.0 - entry.color[0] * 0.8, 1.0 - entry.color[1] * 0.8, 1.0 - entry.color[2] * 0.8, 1.0)
    s = entry.size
    if entry.texture == "plain":
        return (base,)
    if entry.shape == "box":
        patch = GeomSpec("box", (s[0] * 0.5, s[1] * 0.5, 0.002), pos=(0, 0, s[2]), rgba=accent)
        return (base, patch)
    if entry.shape == "cylinder":
        band = GeomSpec("cylinder", (s[0] * 1.02, s[1] * 0.25), rgba=accent)
        return (base, band)
    if entry.shape == "sphere":
        band = GeomSpec("cylinder", (s[0] * 1.01, s[0] * 0.15), rgba=accent)
        return (base, band)
    return (base,)


def object_body(
    entry: ObjectEntry,
    name: str,
    pos: Vec3,
    *,
    quat: tuple[float, ...] = (1, 0, 0, 0),
    lin_vel: Vec3 = (0, 0, 0),
    ang_vel: Vec3 = (0, 0, 0),
    friction: float | None = None,
    restitution: float | None = None,
    role: str = "hazard",
    joint: JointSpec | None = None,
) -> BodySpec:
    return BodySpec(
        name=name,
        pos=r3(pos),
        quat=tuple(round(q, 6) for q in quat),
        geoms=object_geoms(entry),
        joint=joint or JointSpec("free"),
        mass_kg=entry.mass_kg,
        friction=round(MATERIALS[entry.material][2] if friction is None else friction, 4),
        restitution=round(entry.rest if restitution is None else restitution, 4),
        lin_vel=r3(lin_vel),
        ang_vel=r3(ang_vel),
        role=role,
        object_id=entry.object_id,
        visual=visual_for(entry),
    )


@dataclass
class FamilyContext:
    """What a family sampler gets: the selection (object, room, hints) and the speed scaling."""

    rng: random.Random
    obj: ObjectEntry
    room: str
    hints: dict[str, str]
    speed_factor: float  # 1.0 for gravity-paced families
    palette: dict[str, tuple[float, float, float, float]]


@dataclass
class Layout:
    """What a family sampler returns. approach_xy is the horizontal direction the hazard heads in."""

    bodies: list[BodySpec]
    hazards: list[str]
    event_origin: Vec3
    event_target: Vec3
    approach_xy: tuple[float, float] = (1.0, 0.0)
    support: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    duration_s: float = 3.0
    observer_distance_m: tuple[float, float] = (0.3, 0.6)
    back_wall_x: float | None = None  # the family placed its own wall here (shelves, frames, ladders)
    observer_xy: tuple[float, float] | None = None  # the family fixes where the observer stands (throws)
