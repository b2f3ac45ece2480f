"""Ballistic and causal-chain families: thrown_object, bouncing_object, chain_reaction, multi_object.

Frames and units: world, z up, floor z = 0, metres, kg, s, rad; the hazard moves towards +x.
No physics is scripted mid-scene: launches are initial velocities at t = 0 and chains are set up so the
trigger reaches a target that has already settled on its support.
"""

from __future__ import annotations

import math

from reacthuman.scenes.builders import (
    FamilyContext,
    Layout,
    half_extent_x,
    object_body,
    quat_axis_angle,
    rest_half_height,
)
from reacthuman.scenes.catalog import get_object
from reacthuman.scenes.families.falls import G_MPS2, support_height, table


def launch_angle(dx: float, dz: float, speed: float) -> float:
    """The lower launch elevation that puts a projectile through (dx, dz); 45 deg when out of range."""
    v2 = speed * speed
    disc = v2 * v2 - G_MPS2 * (G_MPS2 * dx * dx + 2 * dz * v2)
    if disc < 0:
        return math.radians(45.0)
    return math.atan2(v2 - math.sqrt(disc), G_MPS2 * dx)


def thrown_object(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    start = (0.0, 0.0, rng.uniform(1.1, 1.6))
    # A hard household throw: the normal band arrives at fast_speed_mps (8 m/s) or more, so only the slow band of a
    # harmless object is catchable (the paper's "fast" objects are DODGE whatever they are).
    base = rng.uniform(8.5, 10.5)
    # The slowest band (0.45 x) must still reach the observer: cap the distance by its 45-degree range
    # down to chest height, plus the reach in front of the body.
    v_slow = 0.45 * base
    drop = start[2] - 1.0
    reach_slow = (
        v_slow
        * math.cos(math.pi / 4)
        / G_MPS2
        * (v_slow * math.sin(math.pi / 4) + math.sqrt(v_slow**2 / 2 + 2 * G_MPS2 * drop))
    )
    dist = min(rng.uniform(2.0, 3.0), reach_slow + 0.4)
    lateral = rng.uniform(-0.3, 0.3)
    obs_xy = (dist, lateral)
    aim = (dist - 0.15, lateral + rng.uniform(-0.2, 0.2), rng.uniform(0.9, 1.3))
    speed = base * ctx.speed_factor
    dx = math.hypot(aim[0] - start[0], aim[1] - start[1])
    elev = launch_angle(dx, aim[2] - start[2], speed)
    heading = math.atan2(aim[1] - start[1], aim[0] - start[0])
    vel = (
        speed * math.cos(elev) * math.cos(heading),
        speed * math.cos(elev) * math.sin(heading),
        speed * math.sin(elev),
    )
    spin = (rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-5, 5))
    hazard = object_body(o, "hazard", start, lin_vel=vel, ang_vel=spin)
    return Layout(
        [hazard],
        ["hazard"],
        start,
        aim,
        observer_xy=obs_xy,
        duration_s=2.0,
        params={"throw_mps": round(speed, 4), "elevation_rad": round(elev, 5), "distance_m": round(dist, 4)},
    )


# bouncing_object's lead-in, s at the nominal speed from where the ball is dropped to the table's end, where the
# hands meet it: the very fast band (2.2 x) gets there about 0.7 s after t0, the fast one (1.6 x) 0.97 s (after the
# freeze, before DECISION_LEAD_S: too soon to catch), the normal one 1.55 s, the slow one 3.4 s
# (docs/too-fast-to-catch.md).
BOUNCE_LEAD_S = 1.55


def bouncing_object(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    r = o.size[0]
    top = support_height(ctx)
    # The ball is dropped onto the far end of a long table with the band's speed along it: it lands, bounces and
    # runs on at about that speed to the end, where the observer stands. A bounce off the floor would not do: the
    # rigid solver rebounds a ball from it by 5-20 cm whatever its restitution, below any hand, so a ball must
    # reach the hands in the air or on something at hand height; the table keeps it there for a lead-in.
    v_nominal = rng.uniform(0.9, 1.4)
    v = v_nominal * ctx.speed_factor
    drop = rng.uniform(0.25, 0.5)
    dist = v_nominal * BOUNCE_LEAD_S + rng.uniform(0.0, 0.05)
    pos = (-dist, rng.uniform(-0.15, 0.15), top + r + drop)
    hazard = object_body(o, "hazard", pos, lin_vel=(v, 0, 0), ang_vel=(0, v / r, 0))
    target = (0.0, pos[1], top)  # the observer stands at the end the ball runs off
    return Layout(
        table(ctx, "table", 0.0, top, depth=dist + 0.4) + [hazard],
        ["hazard"],
        pos,
        target,
        observer_distance_m=(0.35, 0.45),
        duration_s=round(dist / v + 1.5, 2),
        params={
            "support_top_m": top,
            "drop_m": round(drop, 4),
            "run_distance_m": round(dist, 4),
            "forward_mps": round(v, 4),
        },
    )


# chain_reaction's lead-in, s at the nominal trigger speed: the strike comes 0.84 s after t0 in the fast band
# (1.6 x), 0.61 s in the very fast one (2.2 x), 1.35 s in the normal one.
CHAIN_LEAD_S = 1.35
TRIGGERS = ("steel_ball", "bowling_ball", "baseball", "rubber_ball", "soccer_ball")


def chain_reaction(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    top = support_height(ctx)
    ext, h = half_extent_x(o), rest_half_height(o)
    # The trigger outweighs its target (twice its mass) so the strike carries the target over the edge.
    heavy_enough = [t for t in TRIGGERS if get_object(t).mass_kg >= 2 * o.mass_kg] or ["bowling_ball"]
    trigger = get_object(rng.choice(heavy_enough))
    r = trigger.size[0]
    y = rng.uniform(-0.1, 0.1)
    target_pos = (-ext - rng.uniform(0.02, 0.05), y, top + h + 0.001)  # settles onto the table first
    v_nominal = rng.uniform(1.0, 1.6)
    v = v_nominal * ctx.speed_factor
    # Lead-in: at the nominal speed the trigger strikes CHAIN_LEAD_S after t0, so the target, launched about
    # 0.1-0.15 s later, comes in after the freeze in the fast and very fast bands but sooner than the arms can
    # get there (before DECISION_LEAD_S), and well after the target has settled in every band.
    gap = v_nominal * CHAIN_LEAD_S + rng.uniform(0.0, 0.05)
    start = (target_pos[0] - ext - r - gap, y, top + r)
    bodies = table(ctx, "table", 0.0, top, depth=max(1.4, gap + 2 * ext + 2 * r + 0.3))
    bodies.append(object_body(o, "target", target_pos))
    bodies.append(object_body(trigger, "trigger", start, lin_vel=(v, 0, 0), ang_vel=(0, v / r, 0), role="trigger"))
    target = (0.35, y, 0.5)
    return Layout(
        bodies,
        ["target", "trigger"],
        target_pos,
        target,
        support="table",
        duration_s=round(max(3.0, CHAIN_LEAD_S / 0.45 + 1.0), 2),
        params={
            "support_top_m": top,
            "trigger_object": trigger.object_id,
            "trigger_mps": round(v, 4),
            "trigger_gap_m": round(gap, 4),
        },
    )


def _upright(o) -> tuple[tuple[float, float, float, float], float, float]:
    """Orientation standing a box on its thinnest face towards +x; returns (quat, half-thickness, half-height)."""
    a, b, c = o.size
    if a <= b and a <= c:  # already thin along x, tall along z (a domino)
        return (1.0, 0.0, 0.0, 0.0), a, c
    if c <= a and c <= b:  # lying flat (a book): rotate 90 deg about y
        return quat_axis_angle((0, 1, 0), math.pi / 2), c, a
    return quat_axis_angle((0, 0, 1), math.pi / 2), b, c  # thin along y (a cereal box): turn about z


def multi_object(ctx: FamilyContext) -> Layout:
    rng, o = ctx.rng, ctx.obj
    top = support_height(ctx)
    q, thick, half_h = _upright(o)
    # Lead-in: the wave runs at about 0.09 s a piece (mostly paced by gravity), so a row of 8 or 9 sets the last
    # piece moving after the freeze (0.6 s) but before DECISION_LEAD_S in the fast bands: too soon to catch, as a
    # fast chain of falling objects is; the slow band reaches it after DECISION_LEAD_S.
    n = rng.randint(8, 9)
    spacing = 2 * half_h * rng.uniform(0.5, 0.65)
    y = rng.uniform(-0.1, 0.1)
    last_x = -thick - rng.uniform(0.005, 0.02)
    xs = [last_x - spacing * (n - 1 - i) for i in range(n)]
    bodies = table(ctx, "table", 0.0, top, depth=max(0.8, spacing * n + 0.3))
    w = rng.uniform(3.5, 5.0) * ctx.speed_factor  # the first piece is tipped towards the row
    names = []
    for i, x in enumerate(xs):
        name = f"row_{i}"
        names.append(name)
        if i == 0:
            lin, ang = (w * half_h, 0.0, w * thick), (0.0, w, 0.0)
        else:
            lin, ang = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
        bodies.append(object_body(o, name, (x, y, top + half_h), quat=q, lin_vel=lin, ang_vel=ang, role="hazard"))
    names.reverse()  # the last piece in the row goes over the edge: primary hazard
    target = (0.0, y, top)  # the observer stands at the edge the last piece goes over
    return Layout(
        bodies,
        names,
        bodies[-1].pos,
        target,
        support="table",
        duration_s=4.0,
        observer_distance_m=(0.35, 0.5),
        params={"support_top_m": top, "pieces": n, "spacing_m": round(spacing, 4), "push_rps": round(w, 4)},
    )
