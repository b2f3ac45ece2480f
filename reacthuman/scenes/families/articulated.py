"""Articulated families (real hinge joints, or free bodies where physics is free): furniture_tip,
ladder_slip, door_swing, pendulum_swing.

Frames and units: world, z up, floor z = 0, metres, kg, s, rad; the hazard moves towards +x. A hinge's
`pos`/`axis` are in its body frame; body frames are placed at the pivot so the joint sits at the origin.
"""

from __future__ import annotations

import dataclasses
import math

from reacthuman.scenes.builders import (
    BAND_FACTOR,
    FamilyContext,
    Layout,
    object_body,
    quat_axis_angle,
    quat_mul,
    r3,
    rest_half_height,
    rotate,
    static_box,
)
from reacthuman.scenes.catalog import get_object
from reacthuman.scenes.families.falls import G_MPS2
from reacthuman.scenes.envelope import default_config as envelope_config
from reacthuman.scenes.mjcf import DRAWN_SUFFIX
from reacthuman.scenes.object_meshes import physical_extent_m, visual_for
from reacthuman.scenes.spec import BodySpec, GeomSpec, JointSpec, VisualMeshSpec

HINGE_Y = JointSpec("hinge", axis=(0.0, 1.0, 0.0))
TURN_Z90 = quat_axis_angle((0, 0, 1), math.pi / 2)


def _placed_visual(
    o,
    pos: tuple[float, float, float],
    quat: tuple[float, ...] = (1.0, 0.0, 0.0, 0.0),
    fit_m: tuple[float, float, float] | None = None,
) -> VisualMeshSpec | None:
    """The object's visual mesh drawn where the family puts its geoms in the body frame: the mesh as
    `visual_for` fits it to the object (centred on the origin), turned by quat, moved by pos. fit_m: the
    full extents (object frame, before quat) the mesh is stretched to instead of the object's own, where
    the family's geoms span a slightly different box (a ladder's rails stand half their width outside the
    catalogue width). Only the drawing changes: geoms, masses and joints stay the family's."""
    v = visual_for(o)
    if v is None:
        return None
    size_m = v.size_m
    if fit_m is not None:  # per-axis factors, applied along the model's own axes (the visual's turn is 90-degree steps)
        factor = [f / e for f, e in zip(fit_m, physical_extent_m(o))]
        axes = [
            max(range(3), key=lambda j: abs(rotate(v.quat, tuple(float(i == k) for k in range(3)))[j]))
            for i in range(3)
        ]
        size_m = tuple(round(s * factor[axes[i]], 6) for i, s in enumerate(v.size_m))
    moved = rotate(quat, v.pos)
    return dataclasses.replace(
        v,
        size_m=size_m,
        quat=tuple(round(c, 12) for c in quat_mul(quat, v.quat)),
        pos=tuple(round(m + p, 6) for m, p in zip(moved, pos)),
    )


def _box_dims(o) -> tuple[float, float, float]:
    return (o.size[0], o.size[0], o.size[1]) if o.shape == "cylinder" else tuple(o.size)  # type: ignore[return-value]


def furniture_tip(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    d, w, h = _box_dims(o)
    pivot_z = 0.004
    # Centre of mass just past the front edge: it tips over on its own (gravity-paced).
    lean = math.atan2(d, h) + math.radians(rng.uniform(0.5, 3.0))
    q = quat_axis_angle((0, 1, 0), lean)
    geom = GeomSpec(o.shape, o.size, pos=(-d, 0.0, h), rgba=o.color)
    body = BodySpec(
        "furniture",
        (0.0, 0.0, pivot_z),
        (geom,),
        quat=q,
        joint=HINGE_Y,
        mass_kg=o.mass_kg,
        friction=0.6,
        role="hazard",
        object_id=o.object_id,
        visual=_placed_visual(o, (-d, 0.0, h)),
    )
    bodies = [body]
    if o.shape == "box":  # something on top: it comes down with the furniture
        vase = get_object("ceramic_vase")
        top_local = (-d, 0.0, 2 * h + rest_half_height(vase) + 0.001)
        p = rotate(q, top_local)
        bodies.append(object_body(vase, "top_item", (p[0], p[1], p[2] + pivot_z), quat=q, role="prop"))
    origin = rotate(q, (-d, 0.0, 1.4 * h))
    target = (1.2 * h, 0.0, 0.9)
    return Layout(
        bodies,
        ["furniture"],
        origin,
        target,
        back_wall_x=-2 * d - 0.05,
        observer_distance_m=(0.0, 0.4),
        params={"lean_rad": round(lean, 5), "height_m": 2 * h},
        duration_s=3.0,
    )


def _ladder_geoms(half_w: float, half_len: float, t: float, rgba) -> tuple[GeomSpec, ...]:
    rails = tuple(GeomSpec("box", (t, 0.02, half_len), pos=(0.0, s * half_w, half_len), rgba=rgba) for s in (-1, 1))
    rungs = tuple(
        GeomSpec("box", (t * 0.6, half_w, 0.012), pos=(0.0, 0.0, half_len * f), rgba=rgba) for f in (0.4, 0.8, 1.2, 1.6)
    )
    return rails + rungs


def _ladder_visual(o, half_w: float, half_len: float, t: float) -> VisualMeshSpec | None:
    """The ladder's mesh over `_ladder_geoms`: foot at the body origin, rails' outer faces on the geoms'."""
    rail_half_w = 0.02  # the rails' half width in _ladder_geoms
    return _placed_visual(o, (0.0, 0.0, half_len), fit_m=(2 * t, 2 * (half_w + rail_half_w), 2 * half_len))


def ladder_slip(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    t, half_w, half_len = o.size
    regime = ctx.hints.get("regime") or rng.choice(["slide", "tip"])
    regime = regime if regime in ("slide", "tip") else "slide"
    mu = round(rng.uniform(0.15, 0.3), 4)
    geoms = _ladder_geoms(half_w, half_len, t, o.color)
    look = _ladder_visual(o, half_w, half_len, t)
    bodies: list = []
    if regime == "slide":
        # Leaning on the wall past the no-slip limit: tan(a) > 2 mu / (1 - mu^2) (floor and wall friction mu).
        limit = math.atan(2 * mu / (1 - mu * mu))
        lean = limit + math.radians(rng.uniform(4.0, 10.0))
        q = quat_axis_angle((0, 1, 0), -lean)
        axis = rotate(q, (0, 0, 1))
        normal = rotate(q, (1, 0, 0))
        foot = (t * normal[0], 0.0, t * abs(normal[2]) + 0.001)
        wall_x = round(foot[0] + axis[0] * 2 * half_len - t * normal[0] - 0.002, 4)
        body = BodySpec(
            "ladder",
            r3(foot),
            geoms,
            quat=q,
            joint=JointSpec("free"),
            mass_kg=o.mass_kg,
            friction=mu,
            role="hazard",
            object_id=o.object_id,
            visual=look,
        )
        bodies += [
            static_box("ladder_wall", (wall_x - 0.05, 0.0, 1.4), (0.05, 0.8, 1.4), ctx.palette["wall"], friction=0.01)
        ]
        origin = (foot[0] + axis[0] * half_len, 0.0, foot[2] + axis[2] * half_len)
        target = (0.9, 0.0, 0.6)
    else:
        lean = math.radians(rng.uniform(1.0, 4.0))  # past vertical, away from the wall: it tips over
        q = quat_axis_angle((0, 1, 0), lean)
        wall_x = -round(rng.uniform(0.15, 0.3), 4)
        body = BodySpec(
            "ladder",
            (0.0, 0.0, t + 0.004),
            geoms,
            quat=q,
            joint=HINGE_Y,
            mass_kg=o.mass_kg,
            friction=mu,
            role="hazard",
            object_id=o.object_id,
            visual=look,
        )
        bodies.append(static_box("ladder_wall", (wall_x - 0.05, 0.0, 1.4), (0.05, 0.8, 1.4), ctx.palette["wall"]))
        origin = rotate(q, (0, 0, half_len))
        target = (1.3 * half_len, 0.0, 0.9)
    bodies.append(body)
    return Layout(
        bodies,
        ["ladder"],
        origin,
        target,
        back_wall_x=wall_x,
        observer_distance_m=(0.0, 0.35),
        params={"regime": regime, "lean_rad": round(lean, 5), "friction": mu},
        duration_s=3.0,
    )


# door_swing's lead-in, s at the nominal swing rate until the latch edge comes within the arms' reach: the very fast
# band (2.2 x) 0.70 s after t0, the fast one (1.6 x) 0.97 s (after the freeze, before DECISION_LEAD_S: too soon to
# catch), the normal one 1.55 s and the slow one 3.4 s (docs/too-fast-to-catch.md).
DOOR_LEAD_S = 1.55
# m, from the panel's latch edge to the middle of its latch block (lock case and lever), at LATCH_HEIGHT_M.
LATCH_INSET_M = 0.06
LATCH_HEIGHT_M = 1.0


def door_swing(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    half_w, half_t, half_h = o.size
    hinge = (0.0, -half_w, 0.012)
    # A double-action (swing) door: it starts open on the far side (-x), pushed from there, and swings through
    # the doorway to +x. The hands meet its latch edge at hand height first (the latch block below), which moves
    # at the band's rate x its radius: 0.36 m/s or more in the slow band, above the labeller's moving_mps.
    rate_nominal = rng.uniform(1.1, 1.3)
    rate = rate_nominal * ctx.speed_factor
    # The observer stands in the door's swing, on the latch's circle at `sweep` from the closed panel; the latch
    # comes within the arms' reach `reach_angle` before it gets there.
    latch_r = 2 * half_w - LATCH_INSET_M
    sweep = math.radians(rng.uniform(55.0, 80.0))
    reach_angle = 2 * math.asin(envelope_config().arm_reach_m / (2 * latch_r))
    # Lead-in: the door starts as far open on the far side as makes the nominal swing reach the observer's arms
    # DOOR_LEAD_S after t0 (49-96 degrees).
    start = rate_nominal * DOOR_LEAD_S - (sweep - reach_angle)
    observer_r = latch_r
    # The catalogue gives (half width, half thickness, half height); the closed panel lies along body y.
    geom = GeomSpec("box", (half_t, half_w, half_h), pos=(0.0, half_w, half_h), rgba=o.color)
    # The latch block (lock case and lever) inside the panel at the latch edge: the labeller samples a box at its
    # corners and centre, and this is the part of the leading edge at hand height.
    latch = GeomSpec(
        "box", (half_t, LATCH_INSET_M, 0.1), pos=(0.0, latch_r, LATCH_HEIGHT_M), rgba=o.color, name="door_latch"
    )
    door = BodySpec(
        "door",
        hinge,
        (geom, latch),
        quat=quat_axis_angle((0, 0, 1), start),
        # hinge damping scaled to the door (a light prop door would otherwise stall at once)
        joint=JointSpec("hinge", axis=(0, 0, 1), damping=round(0.01 * o.mass_kg, 4), initial_rate=-rate),
        mass_kg=o.mass_kg,
        friction=0.5,
        role="hazard",
        object_id=o.object_id,
        # the door model's width runs along its x: turned a quarter about z onto the panel's y
        visual=_placed_visual(o, (0.0, half_w, half_h), TURN_Z90),
    )
    frame = ctx.palette["furniture_dark"]
    top_z = 2 * half_h + 0.03
    bodies = [
        door,
        # 3 cm clear of the hinge: the panel's corner swings through a small circle there
        static_box("door_post_hinge", (0.0, -half_w - 0.06, top_z / 2), (0.05, 0.03, top_z / 2), frame),
        static_box("door_post_latch", (0.0, half_w + 0.045, top_z / 2), (0.05, 0.03, top_z / 2), frame),
        static_box("door_lintel", (0.0, 0.0, top_z + 0.05), (0.05, half_w + 0.07, 0.05), frame),
        static_box("door_wall_a", (0.0, -half_w - 0.59, 1.3), (0.05, 0.5, 1.3), ctx.palette["wall"]),
        static_box("door_wall_b", (0.0, half_w + 0.58, 1.3), (0.05, 0.5, 1.3), ctx.palette["wall"]),
    ]
    target = (observer_r * math.sin(sweep), hinge[1] + observer_r * math.cos(sweep), 1.0)
    origin = (0.0, 0.0, half_h)
    return Layout(
        bodies,
        ["door"],
        origin,
        target,
        approach_xy=(math.sin(sweep), math.cos(sweep)),
        observer_distance_m=(0.0, 0.02),
        params={"start_angle_rad": round(start, 5), "swing_rps": round(rate, 4), "observer_r_m": round(observer_r, 4)},
        duration_s=round(DOOR_LEAD_S / BAND_FACTOR["slow"] + 0.8, 2),
    )


# pendulum_swing's timing (docs/too-fast-to-catch.md): a pendulum is paced by gravity, so the bands differ in how far
# the push carries the bob more than in when. The observer stands the arms' reach past the angle where the bob meets
# them, chosen so that the very fast band's bob gets there no sooner than PENDULUM_SOONEST_S after t0 and the fast
# one's by PENDULUM_FAST_BY_S (after the freeze, before DECISION_LEAD_S: too soon to catch), while the normal and
# slow swings have stayed PENDULUM_SHORT_RAD short of it until PENDULUM_SLOW_FROM_S (then within a step: catchable).
PENDULUM_SOONEST_S = 0.68
PENDULUM_FAST_BY_S = 0.98
PENDULUM_SLOW_FROM_S = 1.12
PENDULUM_SHORT_RAD = math.radians(1.5)
PENDULUM_GAP_RAD = math.radians(1.0)  # the narrowest range of meeting angles a set-up may leave
PENDULUM_MEET_MAX_Z_M = 1.12  # the bob's centre where it meets the arms: within the hands' heights for every bob
PENDULUM_TRIES = 60  # set-ups drawn (from the seed) until one leaves such a range
SWING_DT_S = 0.002


def swing_course(length_m: float, start_rad: float, rate_rps: float, damping_per_s: float, end_s: float) -> list[float]:
    """Angles (rad) every SWING_DT_S of a point-mass pendulum of length_m released at -start_rad with rate_rps
    towards positive angles, under gravity and a joint damping of damping_per_s (torque per rate over inertia)."""
    angle, rate, out = -start_rad, rate_rps, []
    for _ in range(int(end_s / SWING_DT_S) + 1):
        out.append(angle)
        rate += (-G_MPS2 / length_m * math.sin(angle) - damping_per_s * rate) * SWING_DT_S
        angle += rate * SWING_DT_S
    return out


def first_reach_s(course: list[float], angle_rad: float) -> float | None:
    """When a swing_course first reaches angle_rad (None: never)."""
    return next((i * SWING_DT_S for i, a in enumerate(course) if a >= angle_rad), None)


def farthest_by(course: list[float], t_s: float) -> float:
    """The largest angle (rad) a swing_course reaches by t_s."""
    return max(course[: int(round(t_s / SWING_DT_S)) + 1])


def _pendulum_timing(rng, o) -> tuple[float, float, float, float, float]:
    """(pivot height, length, start angle, nominal push rate, angle at which the bob meets the arms) of a
    set-up whose bands keep the PENDULUM_* timing; the last one drawn if none of PENDULUM_TRIES does."""
    for _ in range(PENDULUM_TRIES):
        pivot_z = round(rng.uniform(2.5, 2.9), 4)
        length = pivot_z - rng.uniform(0.7, 0.85)
        theta0 = math.radians(rng.uniform(20.0, 30.0))
        rate = rng.uniform(0.3, 0.6)
        damping = 0.05 / (o.mass_kg * length * length)  # the hinge's 0.05 N m s/rad over the bob's inertia
        course = {
            b: swing_course(length, theta0, rate * f, damping, PENDULUM_SLOW_FROM_S) for b, f in BAND_FACTOR.items()
        }
        low = max(
            farthest_by(course["very_fast"], PENDULUM_SOONEST_S),
            farthest_by(course["normal"], PENDULUM_SLOW_FROM_S) + PENDULUM_SHORT_RAD,
            farthest_by(course["slow"], PENDULUM_SLOW_FROM_S) + PENDULUM_SHORT_RAD,
        )
        high = min(
            farthest_by(course["fast"], PENDULUM_FAST_BY_S),
            math.acos(min(1.0, (pivot_z - PENDULUM_MEET_MAX_Z_M) / length)),
        )
        if high - low >= PENDULUM_GAP_RAD:
            break
    return pivot_z, length, theta0, rate, (low + high) / 2


def pendulum_swing(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    pivot_z, length, theta0, rate_nominal, meet = _pendulum_timing(rng, o)
    rate = rate_nominal * ctx.speed_factor
    top = o.size[0] if o.shape == "sphere" else rest_half_height(o)
    # the rod stays drawn over the bob's mesh (mjcf.DRAWN_SUFFIX): the cord it hangs from
    rod = GeomSpec(
        "capsule",
        (0.008, (length - top) / 2),
        pos=(0.0, 0.0, -(length - top) / 2),
        rgba=(0.2, 0.2, 0.2, 1),
        name="pendulum_rod" + DRAWN_SUFFIX,
    )
    bob = GeomSpec(o.shape, o.size, pos=(0.0, 0.0, -length), rgba=o.color)
    body = BodySpec(
        "pendulum",
        (0.0, 0.0, pivot_z),
        (rod, bob),
        quat=quat_axis_angle((0, 1, 0), theta0),
        joint=JointSpec("hinge", axis=(0, 1, 0), damping=0.05, initial_rate=-rate),
        mass_kg=o.mass_kg,
        friction=0.5,
        role="hazard",
        object_id=o.object_id,
        visual=_placed_visual(o, (0.0, 0.0, -length)),
    )
    mount = static_box("pendulum_mount", (0.0, 0.0, pivot_z + 0.03), (0.08, 0.08, 0.02), ctx.palette["metal"])
    origin = rotate(body.quat, (0, 0, -length))
    origin = (origin[0], origin[1], origin[2] + pivot_z)
    # The observer stands in the swing's plane, the arms' reach beyond the bob's near side at the meeting angle.
    meet_x = length * math.sin(meet)
    observer_x = meet_x + o.size[0] + envelope_config().arm_reach_m
    target = (meet_x, 0.0, pivot_z - length * math.cos(meet))
    return Layout(
        [mount, body],
        ["pendulum"],
        origin,
        target,
        observer_xy=(round(observer_x, 4), 0.0),
        params={
            "pivot_m": pivot_z,
            "length_m": round(length, 4),
            "start_angle_rad": round(theta0, 5),
            "start_rate_rps": round(rate, 4),
            "meet_angle_rad": round(meet, 5),
        },
        duration_s=3.0,
    )
