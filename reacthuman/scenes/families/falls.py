"""Fall families: object_drop, shelf_slide, hanging_fall, ceiling_drop, stack_collapse.

Frames and units: world, z up, floor z = 0, metres, kg, s, rad. Each sampler lays the event out so the
hazard moves towards +x (the observer's side); walls and mounts sit at -x or overhead.
"""

from __future__ import annotations

import math

from reacthuman.core.physics import GRAVITY_MPS2 as G_MPS2  # slides and ballistic import it from here
from reacthuman.scenes.builders import (
    FamilyContext,
    Layout,
    half_extent_x,
    object_body,
    quat_axis_angle,
    r3,
    rest_half_height,
    static_box,
)


def table(
    ctx: FamilyContext,
    name: str,
    edge_x: float,
    top_z: float,
    depth: float = 0.7,
    half_width: float = 0.5,
    friction: float = 0.6,
    y: float = 0.0,
) -> list:
    """A table whose top surface is z = top_z and whose +x edge is at edge_x (top + two leg panels)."""
    wood = ctx.palette["furniture"]
    t = 0.02
    top = static_box(
        name, (edge_x - depth / 2, y, top_z - t), (depth / 2, half_width, t), wood, friction=friction, role="support"
    )
    legs = static_box(
        name + "_legs",
        (edge_x - depth / 2, y, (top_z - 2 * t) / 2),
        (depth / 2 - 0.05, half_width - 0.05, (top_z - 2 * t) / 2 - 0.001),
        ctx.palette["furniture_dark"],
    )
    return [top, legs]


def support_height(ctx: FamilyContext) -> float:
    kind = ctx.hints.get("support", "table")
    lo, hi = {"table": (0.72, 0.78), "counter": (0.88, 0.94), "desk": (0.7, 0.76)}.get(kind, (0.72, 0.78))
    return round(ctx.rng.uniform(lo, hi), 4)


def object_drop(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    top = support_height(ctx)
    ext = half_extent_x(o)
    # Sphere-like objects roll off; others sit with their centre of mass past the edge, so they tip.
    overhang = -0.3 * ext if o.rolls else rng.uniform(0.03, 0.25) * ext
    push_mps = rng.uniform(0.3, 0.6) * ctx.speed_factor
    pos = (overhang, rng.uniform(-0.15, 0.15), top + rest_half_height(o))
    ang = (0.0, push_mps / ext, 0.0) if o.rolls else (0.0, 0.0, 0.0)
    hazard = object_body(o, "hazard", pos, lin_vel=(push_mps, 0, 0), ang_vel=ang)
    fall_s = math.sqrt(2 * top / G_MPS2)
    target = (pos[0] + ext + 0.5 * fall_s * push_mps / ctx.speed_factor, pos[1], 0.5)
    return Layout(
        table(ctx, "table", 0.0, top) + [hazard],
        ["hazard"],
        pos,
        target,
        support="table",
        observer_distance_m=(0.25, 0.5),
        params={"support_top_m": top, "overhang_m": round(overhang, 4), "push_mps": round(push_mps, 4)},
        duration_s=2.0,
    )


def shelf_slide(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    wall_x = -round(rng.uniform(0.3, 0.4), 4)
    shelf_z = round(rng.uniform(1.35, 1.75), 4)
    mu = round(rng.uniform(0.15, 0.35), 4)
    ext = half_extent_x(o)
    edge_gap = ext + rng.uniform(0.005, 0.03)  # centre of mass to the shelf's front edge
    # Slowest band must still reach the edge: v_slow^2 > 2 mu g d, with margin.
    v_min = math.sqrt(2 * mu * G_MPS2 * edge_gap) / 0.45
    v = v_min * rng.uniform(1.2, 1.5) * ctx.speed_factor
    pos = (-edge_gap, rng.uniform(-0.2, 0.2), shelf_z + rest_half_height(o))
    ang = (0.0, v / ext, 0.0) if o.rolls else (0.0, 0.0, 0.0)
    hazard = object_body(o, "hazard", pos, lin_vel=(v, 0, 0), ang_vel=ang, friction=mu)
    board = static_box(
        "shelf",
        ((wall_x + 0.0) / 2, 0.0, shelf_z - 0.012),
        (-wall_x / 2, 0.45, 0.012),
        ctx.palette["furniture"],
        friction=0.05,
        role="support",
        look="wood_plank",
    )
    bracket = static_box(
        "shelf_bracket",
        (wall_x + 0.03, 0.0, shelf_z - 0.1),
        (0.03, 0.02, 0.08),
        ctx.palette["furniture_dark"],
        look="metal_bracket",
    )
    fall_s = math.sqrt(2 * shelf_z / G_MPS2)
    # Where the slowest band lands: every band then passes the observer's reach.
    target = (0.45 * v / ctx.speed_factor * fall_s, pos[1], 0.9)
    return Layout(
        [board, bracket, hazard],
        ["hazard"],
        pos,
        target,
        support="shelf",
        back_wall_x=wall_x,
        observer_distance_m=(0.15, 0.4),
        params={"shelf_top_m": shelf_z, "friction": mu, "edge_gap_m": round(edge_gap, 4), "slide_mps": round(v, 4)},
        duration_s=2.5,
    )


def hanging_fall(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    wall_x = -round(rng.uniform(0.25, 0.4), 4)
    z = round(rng.uniform(1.35, 1.8), 4)
    # Fixtures hang flat against the wall: cylinders (clocks) turn their face to +x.
    quat = quat_axis_angle((0, 1, 0), math.pi / 2) if o.shape == "cylinder" else (1.0, 0.0, 0.0, 0.0)
    thick = o.size[1] if o.shape == "cylinder" else o.size[0]
    pos = (wall_x + thick + 0.002, rng.uniform(-0.2, 0.2), z)
    away_mps = rng.uniform(0.1, 0.35)
    tilt_rps = rng.uniform(0.5, 1.8)  # top tips away from the wall as the hanger lets go
    hazard = object_body(o, "hazard", pos, quat=quat, lin_vel=(away_mps, 0, 0), ang_vel=(0, tilt_rps, 0))
    hook = static_box(
        "hook",
        (wall_x + 0.01, pos[1], z + (o.size[-1] if o.shape == "box" else o.size[0]) + 0.04),
        (0.01, 0.01, 0.01),
        ctx.palette["metal"],
    )
    target = (pos[0] + 0.25, pos[1], 0.8)
    return Layout(
        [hook, hazard],
        ["hazard"],
        pos,
        target,
        back_wall_x=wall_x,
        observer_distance_m=(0.25, 0.45),
        params={"mount_height_m": z, "detach_mps": round(away_mps, 4), "tilt_rps": round(tilt_rps, 4)},
        duration_s=2.0,
    )


def ceiling_drop(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    ceiling_z = round(rng.uniform(2.4, 2.8), 4)
    pos = (0.0, 0.0, ceiling_z - rest_half_height(o))
    drift = (rng.uniform(-0.15, 0.15), rng.uniform(-0.15, 0.15), 0.0)
    hazard = object_body(o, "hazard", pos, lin_vel=drift)
    mount = static_box(
        "ceiling_mount", (0.0, 0.0, ceiling_z + 0.01), (0.35, 0.35, 0.01), ctx.palette["ceiling"], role="support"
    )
    fall_s = math.sqrt(2 * (pos[2] - 1.0) / G_MPS2)
    target = (drift[0] * fall_s, drift[1] * fall_s, 1.0)
    return Layout(
        [mount, hazard],
        ["hazard"],
        pos,
        target,
        support="ceiling_mount",
        observer_distance_m=(0.1, 0.5),
        params={"ceiling_m": ceiling_z, "drift_mps": list(r3(drift))},
        duration_s=2.0,
    )


def stack_collapse(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    top = support_height(ctx)
    ext = half_extent_x(o)
    h = rest_half_height(o)
    n = max(2, min(rng.randint(3, 5), int(0.65 / (2 * h))))  # stacks stay below about eye level
    # Offset per level large enough that the upper part's centre of mass passes the lower item's edge.
    step = rng.uniform(2.2, 2.8) * ext / n
    x0 = -ext - rng.uniform(0.0, 0.02)
    y = rng.uniform(-0.15, 0.15)
    bodies = table(ctx, "counter", 0.0, top)
    names = []
    for i in range(n):
        pos = (x0 + i * step, y, top + h + 2 * h * i)
        names.append(f"stack_{i}")
        bodies.append(object_body(o, f"stack_{i}", pos, role="hazard"))
    names.reverse()  # the top item falls farthest: it is the primary hazard
    origin = bodies[-1].pos
    target = (0.2, y, 0.5)
    return Layout(
        bodies,
        names,
        origin,
        target,
        support=None,
        observer_distance_m=(0.15, 0.4),
        params={"support_top_m": top, "levels": n, "step_m": round(step, 4)},
        duration_s=2.5,
    )
