"""Occupancy grid (0.10 m cells) read from the live MuJoCo geometry, inflated by the body's radius, and
shortest routes on it (8-connected Dijkstra). A route is collision-checked by construction: every cell
on it is free for the whole body.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mujoco
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from interactiveworld.world.human_body import BODY_RADIUS_M

CELL_M = 0.10
BODY_Z_RANGE_M = (0.03, 1.9)
_SQ2 = math.sqrt(2.0)


@dataclass(frozen=True)
class Grid:
    x0: float
    y0: float
    blocked: np.ndarray  # [nx, ny] bool

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return (int(math.floor((x - self.x0) / CELL_M)), int(math.floor((y - self.y0) / CELL_M)))

    def center(self, c: tuple[int, int]) -> tuple[float, float]:
        return (self.x0 + (c[0] + 0.5) * CELL_M, self.y0 + (c[1] + 0.5) * CELL_M)

    def inside(self, c: tuple[int, int]) -> bool:
        return 0 <= c[0] < self.blocked.shape[0] and 0 <= c[1] < self.blocked.shape[1]

    def free(self, c: tuple[int, int]) -> bool:
        return self.inside(c) and not self.blocked[c]


def _geom_aabb(model: mujoco.MjModel, data: mujoco.MjData, g: int) -> tuple[np.ndarray, np.ndarray] | None:
    t = model.geom_type[g]
    s = model.geom_size[g]
    if t == mujoco.mjtGeom.mjGEOM_BOX:
        half = np.array(s)
    elif t == mujoco.mjtGeom.mjGEOM_CYLINDER:
        half = np.array([s[0], s[0], s[1]])
    elif t == mujoco.mjtGeom.mjGEOM_CAPSULE:
        half = np.array([s[0], s[0], s[1] + s[0]])
    elif t == mujoco.mjtGeom.mjGEOM_SPHERE:
        half = np.array([s[0]] * 3)
    else:
        return None
    R = data.geom_xmat[g].reshape(3, 3)
    ext = np.abs(R) @ half
    c = data.geom_xpos[g]
    return c - ext, c + ext


def build_grid(
    model: mujoco.MjModel, data: mujoco.MjData, bounds: tuple[float, float, float, float], skip_bodies: set[int]
) -> Grid:
    """bounds = (x0, y0, x1, y1) of the walkable area. Geoms of skip_bodies (the human, a held object,
    closed room doors when planning through them) are left out."""
    x0, y0, x1, y1 = bounds
    nx, ny = int(math.ceil((x1 - x0) / CELL_M)), int(math.ceil((y1 - y0) / CELL_M))
    blocked = np.zeros((nx, ny), dtype=bool)
    xs = x0 + (np.arange(nx) + 0.5) * CELL_M
    ys = y0 + (np.arange(ny) + 0.5) * CELL_M
    r = BODY_RADIUS_M
    for g in range(model.ngeom):
        if model.geom_contype[g] == 0 and model.geom_conaffinity[g] == 0:
            continue
        if model.geom_bodyid[g] in skip_bodies:
            continue
        box = _geom_aabb(model, data, g)
        if box is None:
            continue
        lo, hi = box
        if hi[2] < BODY_Z_RANGE_M[0] or lo[2] > BODY_Z_RANGE_M[1]:
            continue
        mx = (xs >= lo[0] - r) & (xs <= hi[0] + r)
        my = (ys >= lo[1] - r) & (ys <= hi[1] + r)
        blocked[np.ix_(mx, my)] = True
    return Grid(x0, y0, blocked)


ESCAPE_M = 0.45
_STEPS = ((1, 0, 1.0), (0, 1, 1.0), (1, 1, _SQ2), (1, -1, _SQ2))


def distances_from(grid: Grid, start: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Dijkstra (8-connected, no corner cutting) from start over free cells. A body that stands inside an
    inflated margin (a fridge door swung open beside it) may step out of it: when the start cell is blocked,
    blocked cells within ESCAPE_M of it are passable. Returns (dist_m [nx, ny], predecessor index [nx*ny])."""
    nx, ny = grid.blocked.shape
    ok = ~grid.blocked
    if grid.inside(start) and grid.blocked[start]:
        ix, iy = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
        ok |= np.hypot(ix - start[0], iy - start[1]) * CELL_M <= ESCAPE_M
    if grid.inside(start):
        ok[start] = True
    idx = np.arange(nx * ny).reshape(nx, ny)
    rows, cols, weights = [], [], []
    for dx, dy, w in _STEPS:
        a = (slice(0, nx - dx), slice(max(0, -dy), ny - max(0, dy)))
        b = (slice(dx, nx), slice(max(0, dy), ny + min(0, dy) if dy < 0 else ny))
        m = ok[a] & ok[b]
        if dx and dy:  # both side cells must be free too
            m &= ok[(slice(dx, nx), a[1])] & ok[(a[0], b[1])]
        rows.append(idx[a][m])
        cols.append(idx[b][m])
        weights.append(np.full(int(m.sum()), w * CELL_M))
    r, c, wt = np.concatenate(rows), np.concatenate(cols), np.concatenate(weights)
    graph = csr_matrix(
        (np.concatenate([wt, wt]), (np.concatenate([r, c]), np.concatenate([c, r]))), shape=(nx * ny, nx * ny)
    )
    dist, pred = dijkstra(graph, directed=True, indices=start[0] * ny + start[1], return_predecessors=True)
    return dist.reshape(nx, ny), pred


def path_to(grid: Grid, pred: np.ndarray, goal: tuple[int, int]) -> list[tuple[int, int]]:
    ny = grid.blocked.shape[1]
    out = []
    i = goal[0] * ny + goal[1]
    while i >= 0:
        out.append((int(i // ny), int(i % ny)))
        i = pred[i]
    return out[::-1]
