"""Textured primitives for the modelled objects: vertices, faces and texture coordinates built here.

Every builder returns a `Part` (Z-up, metres, centred where the caller says). Texture coordinates follow
the images drawn in `textures.py`: a sphere or a rounded box is wrapped with an equirectangular image (u
around z, v from the bottom pole to the top), a cylinder's side with u around z and v up its height, a
box's six faces each with the whole image unless the caller passes an atlas layout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from PIL import Image


@dataclass
class Part:
    """One material of a model: a triangle mesh with either a texture image (and uv) or a flat colour."""

    vertices: np.ndarray  # (n, 3) metres
    faces: np.ndarray  # (m, 3) int
    uv: np.ndarray | None = None  # (n, 2) in [0, 1]
    image: Image.Image | None = None
    rgba: tuple[int, int, int, int] = (200, 200, 200, 255)
    name: str = field(default="part")

    def moved(
        self, offset_m: tuple[float, float, float] = (0.0, 0.0, 0.0), rotation: np.ndarray | None = None
    ) -> "Part":
        v = self.vertices if rotation is None else self.vertices @ np.asarray(rotation).T
        return Part(v + np.asarray(offset_m), self.faces, self.uv, self.image, self.rgba, self.name)

    def textured(self, image: Image.Image) -> "Part":
        return Part(self.vertices, self.faces, self.uv, image, self.rgba, self.name)

    def coloured(self, rgba: tuple[int, ...]) -> "Part":
        return Part(self.vertices, self.faces, None, None, _rgba(rgba), self.name)


def _rgba(c: tuple[int, ...]) -> tuple[int, int, int, int]:
    return (int(c[0]), int(c[1]), int(c[2]), int(c[3]) if len(c) > 3 else 255)


def rot(axis: str, degrees: float) -> np.ndarray:
    """Rotation matrix about a body axis ("x", "y" or "z")."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    i, j = {"x": (1, 2), "y": (2, 0), "z": (0, 1)}[axis]
    m = np.eye(3)
    m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
    return m


def _grid_faces(rows: int, cols: int) -> np.ndarray:
    """Two triangles per cell of a (rows+1) x (cols+1) vertex grid, counter-clockwise seen from outside."""
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    a = (r * (cols + 1) + c).ravel()
    b, d = a + 1, a + cols + 1
    return np.concatenate([np.stack([a, b, d + 1], 1), np.stack([a, d + 1, d], 1)])


def ellipsoid(radii_m: tuple[float, float, float], rings: int = 16, segments: int = 32, exponent: float = 1.0) -> Part:
    """A sphere stretched to radii_m, or with exponent < 1 a rounded box (superellipsoid, both angles)."""
    theta = np.linspace(-math.pi / 2, math.pi / 2, rings + 1)  # latitude, bottom to top
    phi = np.linspace(-math.pi, math.pi, segments + 1)
    t, p = np.meshgrid(theta, phi, indexing="ij")

    def spow(x: np.ndarray) -> np.ndarray:
        return np.sign(x) * np.abs(x) ** exponent

    x = radii_m[0] * spow(np.cos(t)) * spow(np.cos(p))
    y = radii_m[1] * spow(np.cos(t)) * spow(np.sin(p))
    z = radii_m[2] * spow(np.sin(t))
    v = np.stack([x, y, z], -1).reshape(-1, 3)
    uv = np.stack([(p + math.pi) / (2 * math.pi), (t + math.pi / 2) / math.pi], -1).reshape(-1, 2)
    return Part(v, _grid_faces(rings, segments), uv)


def sphere(radius_m: float, rings: int = 16, segments: int = 32) -> Part:
    return ellipsoid((radius_m,) * 3, rings, segments)  # type: ignore[arg-type]


def cylinder_side(radius_m: float, height_m: float, segments: int = 48, radius_top_m: float | None = None) -> Part:
    """An open tube (or frustum) along z, centred on the origin; u around z from -x, v from bottom to top."""
    top = radius_m if radius_top_m is None else radius_top_m
    phi = np.linspace(-math.pi, math.pi, segments + 1)
    rows = []
    for k, (z, r) in enumerate(((-height_m / 2, radius_m), (height_m / 2, top))):
        rows.append(np.stack([r * np.cos(phi), r * np.sin(phi), np.full_like(phi, z)], -1))
    v = np.concatenate(rows)
    uv = np.concatenate([np.stack([(phi + math.pi) / (2 * math.pi), np.full_like(phi, k)], -1) for k in (0.0, 1.0)])
    return Part(v, _grid_faces(1, segments), uv)


def disc(radius_m: float, z_m: float, up: bool = True, segments: int = 48) -> Part:
    """A flat disc at height z_m facing +z (or -z); uv maps the disc into the unit square."""
    phi = np.linspace(-math.pi, math.pi, segments, endpoint=False)
    rim = np.stack([radius_m * np.cos(phi), radius_m * np.sin(phi), np.full_like(phi, z_m)], -1)
    v = np.concatenate([[[0.0, 0.0, z_m]], rim])
    n = segments
    f = np.array([[0, 1 + i, 1 + (i + 1) % n] for i in range(n)])
    if not up:
        f = f[:, ::-1]
    uv = np.concatenate([[[0.5, 0.5]], np.stack([0.5 + 0.5 * np.cos(phi), 0.5 + 0.5 * np.sin(phi)], -1)])
    return Part(v, f, uv)


def cylinder(radius_m: float, height_m: float, segments: int = 48) -> list[Part]:
    """Side, top and bottom of a closed cylinder along z (three parts: texture each as wanted)."""
    return [
        cylinder_side(radius_m, height_m, segments),
        disc(radius_m, height_m / 2, True, segments),
        disc(radius_m, -height_m / 2, False, segments),
    ]


FACE_ORDER = ("+x", "-x", "+y", "-y", "+z", "-z")


def box_faces(ext_m: tuple[float, float, float]) -> dict[str, Part]:
    """The six faces of a box of full extents ext_m centred on the origin, each its own part with uv over the
    whole image. Seen from outside, u runs to the viewer's right and v up (for +z/-z, u along +x, v along +y
    seen from above/below)."""
    hx, hy, hz = (e / 2 for e in ext_m)
    quads = {  # corners bottom-left, bottom-right, top-right, top-left as seen from outside
        "+x": [(hx, -hy, -hz), (hx, hy, -hz), (hx, hy, hz), (hx, -hy, hz)],
        "-x": [(-hx, hy, -hz), (-hx, -hy, -hz), (-hx, -hy, hz), (-hx, hy, hz)],
        "+y": [(hx, hy, -hz), (-hx, hy, -hz), (-hx, hy, hz), (hx, hy, hz)],
        "-y": [(-hx, -hy, -hz), (hx, -hy, -hz), (hx, -hy, hz), (-hx, -hy, hz)],
        "+z": [(-hx, -hy, hz), (hx, -hy, hz), (hx, hy, hz), (-hx, hy, hz)],
        "-z": [(-hx, hy, -hz), (hx, hy, -hz), (hx, -hy, -hz), (-hx, -hy, -hz)],
    }
    uv = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    faces = np.array([[0, 1, 2], [0, 2, 3]])
    return {k: Part(np.array(q, dtype=np.float64), faces, uv.copy(), name=k) for k, q in quads.items()}


def box(
    ext_m: tuple[float, float, float],
    rgba: tuple[int, ...] = (200, 200, 200, 255),
    offset_m: tuple[float, float, float] = (0.0, 0.0, 0.0),
) -> Part:
    """A closed flat-coloured box (one part) of full extents ext_m at offset_m."""
    faces = list(box_faces(ext_m).values())
    return merge(faces).coloured(rgba).moved(offset_m)


def merge(parts: list[Part]) -> Part:
    """Parts sharing one material as one mesh (uv kept only when every part has it)."""
    offsets = np.cumsum([0] + [len(p.vertices) for p in parts[:-1]])
    v = np.concatenate([p.vertices for p in parts])
    f = np.concatenate([p.faces + o for p, o in zip(parts, offsets)])
    uv = np.concatenate([p.uv for p in parts]) if all(p.uv is not None for p in parts) else None
    return Part(v, f, uv, parts[0].image, parts[0].rgba, parts[0].name)


def tube_between(
    a_m: tuple[float, float, float],
    b_m: tuple[float, float, float],
    radius_m: float,
    rgba: tuple[int, ...],
    segments: int = 12,
) -> Part:
    """A closed flat-coloured rod from a to b (rungs, handles, bars, needles)."""
    a, b = np.asarray(a_m, float), np.asarray(b_m, float)
    axis = b - a
    length = float(np.linalg.norm(axis))
    z = axis / length
    x = np.cross(z, [1.0, 0.0, 0.0] if abs(z[0]) < 0.9 else [0.0, 1.0, 0.0])
    x /= np.linalg.norm(x)
    r = np.stack([x, np.cross(z, x), z], 1)
    rod = merge(cylinder(radius_m, length, segments)).coloured(rgba)
    return rod.moved((a + b) / 2, r)


def fit_to_extents(parts: list[Part], ext_m: tuple[float, float, float]) -> list[Part]:
    """Parts moved and scaled (per axis) so their union spans exactly [-ext/2, ext/2] (the mesh pipeline's box)."""
    allv = np.concatenate([p.vertices for p in parts])
    lo, hi = allv.min(axis=0), allv.max(axis=0)
    scale = np.asarray(ext_m) / np.maximum(hi - lo, 1e-12)
    centre = (lo + hi) / 2
    return [Part((p.vertices - centre) * scale, p.faces, p.uv, p.image, p.rgba, p.name) for p in parts]


def rounded_rect_outline(hx: float, hy: float, r: float, per_corner: int = 5) -> np.ndarray:
    """Counter-clockwise points of a rectangle with rounded corners (plan view), starting on the -y side."""
    pts = []
    for cx, cy, a0 in ((hx - r, -hy + r, -90), (hx - r, hy - r, 0), (-hx + r, hy - r, 90), (-hx + r, -hy + r, 180)):
        for k in range(per_corner + 1):
            a = math.radians(a0 + 90 * k / per_corner)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.asarray(pts)


def extrusion(outline: np.ndarray, z0: float, z1: float) -> tuple[Part, Part, Part]:
    """A prism over a convex plan outline: its side (u along the perimeter from the outline's first point, v up),
    its top and its bottom (uv: the plan's bounding box)."""
    n = len(outline)
    closed = np.vstack([outline, outline[:1]])
    seg = np.linalg.norm(np.diff(closed, axis=0), axis=1)
    u = np.concatenate([[0.0], np.cumsum(seg)]) / seg.sum()
    v = np.concatenate([np.column_stack([closed, np.full(n + 1, z0)]), np.column_stack([closed, np.full(n + 1, z1)])])
    uv = np.concatenate([np.column_stack([u, np.zeros(n + 1)]), np.column_stack([u, np.ones(n + 1)])])
    f = np.array([[i, i + 1, n + 2 + i] for i in range(n)] + [[i, n + 2 + i, n + 1 + i] for i in range(n)])
    side = Part(v, f, uv, name="side")
    lo, hi = outline.min(0), outline.max(0)
    puv = (outline - lo) / (hi - lo)
    centre = outline.mean(0)
    cap_uv = np.vstack([(centre - lo) / (hi - lo), puv])
    tri = np.array([[0, 1 + i, 1 + (i + 1) % n] for i in range(n)])
    top = Part(np.column_stack([np.vstack([centre, outline]), np.full(n + 1, z1)]), tri, cap_uv, name="top")
    bottom = Part(
        np.column_stack([np.vstack([centre, outline]), np.full(n + 1, z0)]), tri[:, ::-1], cap_uv.copy(), name="bottom"
    )
    return side, top, bottom


def perimeter_u(outline: np.ndarray, point: tuple[float, float]) -> float:
    """u (0-1 along the extrusion's side) of the outline point nearest a plan point."""
    closed = np.vstack([outline, outline[:1]])
    seg = np.linalg.norm(np.diff(closed, axis=0), axis=1)
    u = np.concatenate([[0.0], np.cumsum(seg)]) / seg.sum()
    return float(u[int(np.argmin(np.linalg.norm(outline - np.asarray(point), axis=1)))])
