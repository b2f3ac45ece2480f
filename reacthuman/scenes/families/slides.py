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

# rolling_ball's lead-in, s at the nominal speed: the fast band (1.6 x) reaches the edge 1.03 s after t0, before
# DECISION_LEAD_S, and the very fast band (2.2 x) 0.75 s after, after the 0.6 s window: both come in sooner than
# the arms can meet them (docs/too-fast-to-catch.md). The normal band comes 1.65 s after t0.
ROLL_LEAD_S = 1.5 * DECISION_LEAD_S


def sliding_object(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    mu = round(rng.uniform(0.2, 0.45), 4)
    # Steeper than the friction cone (atan mu) by a sampled margin: sliding is guaranteed.
    angle = math.atan(mu) + math.radians(rng.uniform(6.0, 16.0))
    half_len = rng.uniform(0.3, 0.45)
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
    ext, h = half_extent_x(o), rest_half_height(o)
    along = -half_len + ext + 0.03
    pos = tuple(center[i] + u[i] * along + n[i] * (t + h) for i in range(3))
    v = rng.uniform(0.5, 1.0) * ctx.speed_factor
    hazard = object_body(o, "hazard", pos, quat=q, lin_vel=tuple(v * c for c in u), friction=mu)
    accel = G_MPS2 * (math.sin(angle) - mu * math.cos(angle))
    v_exit = math.sqrt((v / ctx.speed_factor) ** 2 + 2 * accel * 2 * half_len)
    target = (v_exit * math.cos(angle) * math.sqrt(2 * low_z / G_MPS2) + 0.1, 0.0, 0.4)
    return Layout(
        [ramp, post, hazard],
        ["hazard"],
        pos,
        target,
        support="ramp",
        observer_distance_m=(0.15, 0.45),
        params={
            "ramp_angle_rad": round(angle, 5),
            "friction": mu,
            "ramp_end_m": round(low_z, 4),
            "slide_mps": round(v, 4),
        },
        duration_s=2.5,
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
    target = ((n - 1) * run + 0.35, pos[1], 0.4)
    return Layout(
        bodies,
        ["hazard"],
        pos,
        target,
        support="landing",
        observer_distance_m=(0.2, 0.5),
        params={"steps": n, "rise_m": rise, "run_m": run, "start_mps": round(v, 4)},
        duration_s=3.5,
    )
