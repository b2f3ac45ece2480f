"""Where the human stands and how they get there: anchors of entities, collision-checked stances from
which the target is reachable, routes on the occupancy grid, and the walk itself (distance-phased gait)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import mujoco
import numpy as np

from interactiveworld.world import human_body as hb
from interactiveworld.world.grid import CELL_M, build_grid, distances_from, path_to
from interactiveworld.world.layout import DOOR_W_M
from interactiveworld.world.sim import World

WALK_SPEED_M_S = 0.8
STANCE_RANGE_M = (0.3, 1.0)
PREFERRED_STANDOFF_M = 0.55
FRAMES_PER_WALK = 4


@dataclass(frozen=True)
class Anchor:
    """Where an entity is for the body: a point to stand near, a point to reach, the room it is in."""

    x: float
    y: float
    reach_z: float | None  # None: nothing to reach (a room, a person's face)
    room: str | None
    front: tuple[float, float] | None  # outward normal of a fixture's front, stance must be on that side


def _fixture_front(world: World, name: str) -> tuple[np.ndarray, np.ndarray]:
    f = world.fixtures[name]
    n = np.array([math.sin(f.yaw_rad), -math.cos(f.yaw_rad)])  # local -y in the world
    c = np.array([f.x, f.y]) + n * (f.dims_m[1] / 2)
    return c, n


def anchor_of(world: World, kind: str, name: str) -> Anchor:
    ap = world.apartment
    if kind == "room":
        cx, cy = ap.room(name).center
        return Anchor(cx, cy, None, name, None)
    if kind == "door":
        d = world.doors[name]
        return Anchor(d.wall_x, d.y_center, 1.0, None, None)
    if kind in ("fixture", "person"):
        c, n = _fixture_front(world, name)
        f = world.fixtures[name]
        z = {"drawer": f.dims_m[2] - 0.2, "lamp": 1.0, "tv": 0.6, "person": 1.0}.get(f.kind, min(1.0, f.dims_m[2]))
        return Anchor(float(c[0]), float(c[1]), z, f.room, (float(n[0]), float(n[1])))
    if kind == "burner":
        b = mujoco.mj_name2id(world.model, mujoco.mjtObj.mjOBJ_BODY, f"K:{name}")
        p = world.data.xpos[b]
        _, n = _fixture_front(world, "stove")
        return Anchor(float(p[0]), float(p[1]), float(p[2]), world.fixtures["stove"].room, (float(n[0]), float(n[1])))
    if kind == "faucet":
        return anchor_of(world, "fixture", "sink")
    if kind == "spill":
        s = world.machine.spills[name]
        return Anchor(s.x, s.y, 0.05, ap.room_at(s.x, s.y), None)
    p = world.object_pos(name)
    region = world.region_of(name)
    front = None
    if region is not None and region.owner in world.fixtures:
        _, n = _fixture_front(world, region.owner)
        front = (float(n[0]), float(n[1]))
    return Anchor(float(p[0]), float(p[1]), float(p[2]), ap.room_at(float(p[0]), float(p[1])), front)


def can_reach(x: float, y: float, target: tuple[float, float, float]) -> bool:
    d = math.hypot(target[0] - x, target[1] - y)
    horizontal = math.sqrt(max(d * d - hb.SHOULDER_Y_M**2, 0.0))
    return hb.reach_posture(horizontal, target[2]) is not None


def is_near(world: World, a: Anchor) -> bool:
    """Close enough to act: within the stance range, in the anchor's room, and (with a height) in reach."""
    x, y = world.pose.x, world.pose.y
    if math.hypot(a.x - x, a.y - y) > STANCE_RANGE_M[1] + 0.05:
        return False
    if a.room is not None and world.apartment.room_at(x, y) != a.room:
        return False
    return a.reach_z is None or can_reach(x, y, (a.x, a.y, a.reach_z))


def facing(x: float, y: float, tx: float, ty: float) -> float:
    return math.atan2(ty - y, tx - x)


def _bounds(world: World) -> tuple[float, float, float, float]:
    rooms = world.apartment.rooms
    return (rooms[0].x0 - 0.1, rooms[0].y0 - 0.1, rooms[-1].x1 + 0.1, rooms[0].y1 + 0.1)


def walk_grid(world: World, doors_block: bool = False):
    """The grid the human plans on: the body, whatever it carries and (unless doors_block) closed room
    doors, which are opened on the way, left out."""
    skip = set()
    for b in range(world.model.nbody):
        nm = mujoco.mj_id2name(world.model, mujoco.mjtObj.mjOBJ_BODY, b) or ""
        if nm.startswith("H:"):
            skip.add(b)
        elif nm.startswith("D:") and nm[2:] in world.doors and not doors_block and not world.is_open(nm[2:]):
            skip.add(b)
        elif nm.startswith("O:") and world.held and nm[2:] in getattr(world, "_held_group", []):
            skip.add(b)
    return build_grid(world.model, world.data, _bounds(world), skip)


def plan_walk(world: World, a: Anchor) -> tuple[list[tuple[float, float]], float] | None:
    """Shortest collision-free route to a stance that satisfies `is_near` for the anchor."""
    grid = walk_grid(world)
    start = grid.cell(world.pose.x, world.pose.y)
    dist, pred = distances_from(grid, start)
    lo, hi = (0.0, 1.2) if a.reach_z is None else STANCE_RANGE_M
    nx, ny = dist.shape
    xs = grid.x0 + (np.arange(nx) + 0.5) * CELL_M
    ys = grid.y0 + (np.arange(ny) + 0.5) * CELL_M
    X, Y = np.meshgrid(xs, ys, indexing="ij")
    R = np.hypot(a.x - X, a.y - Y)
    mask = np.isfinite(dist) & (R >= lo) & (R <= hi)
    if a.front is not None:
        mask &= (X - a.x) * a.front[0] + (Y - a.y) * a.front[1] >= 0.1
    best = None
    for i, j in zip(*np.nonzero(mask)):
        x, y = float(X[i, j]), float(Y[i, j])
        if a.room is not None and world.apartment.room_at(x, y) != a.room:
            continue
        if a.reach_z is not None and not can_reach(x, y, (a.x, a.y, a.reach_z)):
            continue
        key = (round(float(dist[i, j]), 6), round(abs(float(R[i, j]) - PREFERRED_STANDOFF_M), 6), (int(i), int(j)))
        if best is None or key < best[0]:
            best = (key, (int(i), int(j)))
    if best is None:
        return None
    cells = path_to(grid, pred, best[1])
    pts = [grid.center(c) for c in cells]
    pts[0] = (world.pose.x, world.pose.y)
    length = sum(math.hypot(b[0] - a_[0], b[1] - a_[1]) for a_, b in zip(pts, pts[1:]))
    return pts, length


def doors_on_route(world: World, pts: list[tuple[float, float]]) -> list[str]:
    out = []
    for d in world.apartment.doors:
        if world.is_open(d.name):
            continue
        if any(abs(x - d.wall_x) < 0.3 and abs(y - d.y_center) < DOOR_W_M / 2 for x, y in pts):
            out.append(d.name)
    return out


def walk(world: World, pts: list[tuple[float, float]], face_to: tuple[float, float], on_frame=None) -> float:
    """Move the body along the route with a distance-phased gait; open closed doors met on the way.
    Returns metres walked. Only when on_frame is given are intermediate poses set (for rendering)."""
    for d in doors_on_route(world, pts):
        world.set_open(d, True)
    walked = 0.0
    marks = set(np.linspace(0, len(pts) - 1, FRAMES_PER_WALK + 2).astype(int)[1:-1]) if on_frame else set()
    for i in range(1, len(pts)):
        walked += math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1])
        if i in marks:
            yaw = facing(*pts[i - 1], *pts[i])
            world.set_pose(hb.Pose(pts[i][0], pts[i][1], yaw, gait_phase_rad=hb.gait_phase(walked), gait_amp=1.0))
            on_frame("walking")
    x, y = pts[-1]
    world.set_pose(hb.Pose(x, y, facing(x, y, *face_to)))
    return walked


def step(world: World, forward_m: float) -> bool:
    """A straight step, allowed only if every cell along it is free (a closed door blocks it)."""
    grid = walk_grid(world, doors_block=True)
    x, y, yaw = world.pose.x, world.pose.y, world.pose.yaw
    for s in np.linspace(0, forward_m, int(abs(forward_m) / (CELL_M / 2)) + 2)[1:]:
        if not grid.free(grid.cell(x + s * math.cos(yaw), y + s * math.sin(yaw))):
            return False
    world.set_pose(hb.Pose(x + forward_m * math.cos(yaw), y + forward_m * math.sin(yaw), yaw))
    return True
