"""Slide and roll families: sliding_object, rolling_ball, surface_cascade, stair_tumble.

Frames and units: world, z up, floor z = 0, metres, kg, s, rad; the hazard moves towards +x.
"""

from __future__ import annotations

import math

from reacthuman.scenes.builders import (
    DECISION_LEAD_S,
    FamilyContext,
    Layout,
    half_extent_x,
    object_body,
    quat_axis_angle,
    rest_half_height,
    rotate,
    static_box,
)
from reacthuman.scenes.families.falls import G_MPS2, support_height, table
from reacthuman.scenes.mjcf import OBSERVER_CLEAR_RADIUS_M

# rolling_ball's lead-in, s at the nominal speed: the fast band (1.6 x) reaches the edge 1.03 s after t0, before
# DECISION_LEAD_S, and the very fast band (2.2 x) 0.75 s after, after the 0.6 s window: both come in sooner than
# the arms can meet them (docs/too-fast-to-catch.md). The normal band comes 1.65 s after t0.
ROLL_LEAD_S = 1.5 * DECISION_LEAD_S
# sliding_object's lead-in, s at the nominal speed to the ramp's end: with the slide's small acceleration the very
# fast band gets there 0.71-0.9 s after t0 and the fast one 0.87-1.05 s (after the window, before DECISION_LEAD_S:
# too soon to catch), the normal one 1.3 s, the slow one later (docs/too-fast-to-catch.md).
SLIDE_LEAD_S = 1.3


def slide_exit_s(slide_m: float, start_mps: float, accel_mps2: float) -> float:
    """Seconds a body starting at start_mps with constant acceleration accel_mps2 (> 0) takes over slide_m."""
    return (-start_mps + math.sqrt(start_mps * start_mps + 2.0 * accel_mps2 * slide_m)) / accel_mps2


def sliding_object(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    mu = round(rng.uniform(0.2, 0.45), 4)
    # Steeper than the friction cone (atan mu) by a small sampled margin: sliding is guaranteed, at nearly the
    # speed it starts with, so the band's speed (not gravity) paces the arrival.
    angle = math.atan(mu) + math.radians(rng.uniform(2.0, 3.5))
    accel = G_MPS2 * (math.sin(angle) - mu * math.cos(angle))
    v_nominal = rng.uniform(0.5, 0.8)
    v = v_nominal * ctx.speed_factor
    # Lead-in: at the nominal speed the object reaches the ramp's end SLIDE_LEAD_S after t0; the fast bands
    # get there after the freeze but before DECISION_LEAD_S (too soon to catch), the slow ones later.
    ext, h = half_extent_x(o), rest_half_height(o)
    slide = v_nominal * SLIDE_LEAD_S + 0.5 * accel * SLIDE_LEAD_S**2
    half_len = (slide + ext + 0.03) / 2
    low_z = rng.uniform(0.7, 1.0)  # the ramp ends about hand height: the object leaves it within reach
    t = 0.015
    q = quat_axis_angle((0, 1, 0), angle)
    u = rotate(q, (1, 0, 0))
    n = rotate(q, (0, 0, 1))
    end_x = 0.0
    center = (end_x - half_len * u[0] - t * n[0], 0.0, low_z - half_len * u[2] - t * n[2])
    ramp = static_box(
        "ramp",
        center,
        (half_len, 0.25, t),
        ctx.palette["furniture"],
        quat=q,
        friction=0.02,
        role="support",
        look="wood_plank",
    )
    post = static_box(
        "ramp_post",
        (center[0] - half_len * 0.8, 0.0, (center[2] - 0.1) / 2),
        (0.03, 0.2, (center[2] - 0.1) / 2),
        ctx.palette["furniture_dark"],
        look="wood_post",
    )
    along = -half_len + ext + 0.03
    pos = tuple(center[i] + u[i] * along + n[i] * (t + h) for i in range(3))
    hazard = object_body(o, "hazard", pos, quat=q, lin_vel=tuple(v * c for c in u), friction=mu)
    # The observer stands just in front of the ramp's end, as near as the ramp leaves the floor free (the
    # footprint reach.clear_of_geometry sees: a turned box counts as a square of its largest half extent), so
    # the object leaves the ramp within the arms' reach in every band.
    front_x = center[0] + max(half_len, 0.25) + OBSERVER_CLEAR_RADIUS_M
    target = (front_x, 0.0, low_z)
    return Layout(
        [ramp, post, hazard],
        ["hazard"],
        pos,
        target,
        support="ramp",
        observer_distance_m=(0.0, 0.03),
        params={
            "ramp_angle_rad": round(angle, 5),
            "friction": mu,
            "ramp_end_m": round(low_z, 4),
            "slide_mps": round(v, 4),
            "slide_m": round(slide, 4),
            "slide_accel_mps2": round(accel, 4),
        },
        duration_s=round(slide_exit_s(slide, v, accel) + 1.2, 2),
    )


def rolling_ball(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    top = support_height(ctx)
    r = o.size[0]
    v_nominal = rng.uniform(0.5, 0.8)
    v = v_nominal * ctx.speed_factor
    # Lead-in: at the nominal speed the ball reaches the edge, where the hands meet it, ROLL_LEAD_S after t0: the
    # fast bands too soon to catch, as the paper's fast rolling objects; the slow band 3.7 s after t0, or later
    # for a ball that slows as it rolls.
    dist = v_nominal * ROLL_LEAD_S + rng.uniform(0.0, 0.05)
    pos = (-dist, rng.uniform(-0.15, 0.15), top + r)
    hazard = object_body(o, "hazard", pos, lin_vel=(v, 0, 0), ang_vel=(0, v / r, 0))
    target = (0.0, pos[1], top)  # the observer stands at the edge the ball rolls off
    return Layout(
        table(ctx, "table", 0.0, top, depth=dist + 0.4) + [hazard],
        ["hazard"],
        pos,
        target,
        support="table",
        observer_distance_m=(0.35, 0.5),
        params={"support_top_m": top, "roll_distance_m": round(dist, 4), "roll_mps": round(v, 4)},
        duration_s=round(dist / v + 1.5, 2),
    )


SURFACES = {
    "stool": (0.45, 0.16, 0.16),
    "chair": (0.46, 0.22, 0.22),
    "box": (0.35, 0.2, 0.18),
    "bench": (0.45, 0.18, 0.4),
}


def surface_cascade(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    top = support_height(ctx)
    kind = ctx.hints.get("surface", rng.choice(sorted(SURFACES)))
    if kind not in SURFACES:
        kind = "stool"
    s_top, s_hx, s_hy = SURFACES[kind]
    s_top = round(s_top + rng.uniform(-0.05, 0.05), 4)
    s_x = rng.uniform(0.04, 0.1) + s_hx
    ext, h = half_extent_x(o), rest_half_height(o)
    v = rng.uniform(1.3, 1.9) * ctx.speed_factor  # fast enough that the slow band still leaves the stool
    # Rolling things start on the table; others with their centre of mass past the edge, so they go over.
    overhang = -0.3 * ext if o.rolls else rng.uniform(0.03, 0.2) * ext
    pos = (overhang, rng.uniform(-0.08, 0.08), top + h)
    ang = (0.0, v / ext, 0.0) if o.rolls else (0.0, 0.0, 0.0)
    hazard = object_body(o, "hazard", pos, lin_vel=(v, 0, 0), ang_vel=ang)
    seat = static_box(kind, (s_x, 0.0, s_top - 0.02), (s_hx, s_hy, 0.02), ctx.palette["accent"], role="prop")
    base = static_box(
        kind + "_base",
        (s_x, 0.0, (s_top - 0.04) / 2),
        (s_hx * 0.4, s_hy * 0.4, (s_top - 0.04) / 2 - 0.001),
        ctx.palette["furniture_dark"],
    )
    target = (s_x, pos[1], s_top)  # the intermediate surface is within reach, seen from beside it
    side = math.radians(rng.uniform(35.0, 60.0)) * rng.choice((-1.0, 1.0))
    return Layout(
        table(ctx, "table", 0.0, top) + [seat, base, hazard],
        ["hazard"],
        pos,
        target,
        support="table",
        approach_xy=(math.cos(side), math.sin(side)),
        observer_distance_m=(0.0, 0.2),
        params={"support_top_m": top, "surface": kind, "surface_top_m": s_top, "launch_mps": round(v, 4)},
        duration_s=2.5,
    )


def stair_tumble(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    n = rng.randint(4, 6)
    rise = round(rng.uniform(0.15, 0.19), 4)
    run = round(rng.uniform(0.25, 0.3), 4)
    height = n * rise
    width = 0.5
    color = ctx.palette["furniture"]
    bodies = [
        static_box(
            "landing", (-0.5, 0.0, height / 2), (0.5, width, height / 2), color, role="support", look="stair_block"
        )
    ]
    for i in range(1, n):
        z_top = height - i * rise
        bodies.append(
            static_box(
                f"step_{i}", ((i - 0.5) * run, 0.0, z_top / 2), (run / 2, width, z_top / 2), color, look="stair_block"
            )
        )
    # Balls roll; cylinders lie on their side (axis along y) and roll too.
    quat = quat_axis_angle((1, 0, 0), math.pi / 2) if o.shape == "cylinder" else (1.0, 0.0, 0.0, 0.0)
    radius = o.size[0]
    v = rng.uniform(0.5, 0.9) * ctx.speed_factor
    pos = (-radius - rng.uniform(0.05, 0.2), rng.uniform(-0.2, 0.2), height + radius)
    bodies.append(object_body(o, "hazard", pos, quat=quat, lin_vel=(v, 0, 0), ang_vel=(0.0, v / radius, 0.0)))
    # The observer stands at the foot of the stairs in the object's lane, as near the lowest step as leaves its
    # feet clear (reach.clear_of_geometry): an object that leaves the stairs does so within the arms' reach.
    target = ((n - 1) * run + OBSERVER_CLEAR_RADIUS_M, pos[1], 0.4)
    return Layout(
        bodies,
        ["hazard"],
        pos,
        target,
        support="landing",
        observer_distance_m=(0.0, 0.05),
        params={"steps": n, "rise_m": rise, "run_m": run, "start_mps": round(v, 4)},
        duration_s=3.5,
    )
