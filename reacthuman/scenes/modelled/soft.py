"""Soft things: stuffed shapes (a cushion, a pillow) puffed up in the middle and pinched to their seam, and a
sneaker lofted from cross-sections on its sole."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from reacthuman.scenes.modelled.blocks import shade
from reacthuman.scenes.modelled.geometry import Part, _grid_faces, extrusion, fit_to_extents, merge
from reacthuman.scenes.modelled.registry import modelled
from reacthuman.scenes.modelled.textures import RGB, canvas, fabric, speckle


# --- stuffed shapes ---------------------------------------------------------------------------------------


def edge_dense(n: int) -> np.ndarray:
    """n + 1 samples of [-1, 1], closer together near the ends (where a stuffed shape's surface turns fastest)."""
    return np.sin(np.linspace(-math.pi / 2, math.pi / 2, n + 1))


def stuffed(
    hx: float,
    hy: float,
    hz: float,
    cols: int,
    rows: int,
    waist: float = 0.05,
    puff_exp: float = 3.0,
    dimple: float = 0.0,
) -> tuple[Part, Part]:
    """Top and bottom of a stuffed cover: a rectangle in plan (sides drawn in a little by the stuffing, corners
    pointed), thickest in the middle and pinched to nothing at its seam; an optional dimple at the centre (a
    tufted button). uv: the plan over the whole image, top and bottom alike."""
    s, t = np.meshgrid(edge_dense(cols), edge_dense(rows), indexing="xy")  # rows along y, columns along x
    x = hx * s * (1 - waist * (1 - t**2))
    y = hy * t * (1 - waist * (1 - s**2))
    puff = np.sqrt(np.clip((1 - np.abs(s) ** puff_exp) * (1 - np.abs(t) ** puff_exp), 0, 1))
    r2 = (s**2 + t**2) / 0.05
    z = hz * (puff - dimple * np.exp(-r2))
    uv = np.stack([(s + 1) / 2, (t + 1) / 2], -1).reshape(-1, 2)
    f = _grid_faces(rows, cols)
    top = Part(np.stack([x, y, z], -1).reshape(-1, 3), f, uv, name="top")
    bottom = Part(np.stack([x, y, -z], -1).reshape(-1, 3), f[:, ::-1], uv.copy(), name="bottom")
    return top, bottom


def seam_path(hx: float, hy: float, waist: float, per_side: int) -> np.ndarray:
    """The stuffed cover's seam (z = 0), closed, counter-clockwise from the (-x, -y) corner."""
    k = edge_dense(per_side)[:-1]
    sides = [(k, -np.ones_like(k)), (np.ones_like(k), k), (-k, np.ones_like(k)), (-np.ones_like(k), -k)]
    s = np.concatenate([a for a, _ in sides])
    t = np.concatenate([b for _, b in sides])
    return np.stack([hx * s * (1 - waist * (1 - t**2)), hy * t * (1 - waist * (1 - s**2)), np.zeros_like(s)], 1)


def tube_along(path: np.ndarray, radius_m: float, sides: int = 6) -> Part:
    """A closed tube swept along a closed planar (z = 0) path: piping."""
    n = len(path)
    tangent = np.roll(path, -1, 0) - np.roll(path, 1, 0)
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    outward = np.stack([tangent[:, 1], -tangent[:, 0], np.zeros(n)], 1)  # counter-clockwise path: right is out
    up = np.array([0.0, 0.0, 1.0])
    a = np.linspace(0, 2 * math.pi, sides, endpoint=False)
    ring = np.cos(a)[None, :, None] * outward[:, None, :] + np.sin(a)[None, :, None] * up[None, None, :]
    v = (path[:, None, :] + radius_m * ring).reshape(-1, 3)
    f = []
    for i in range(n):
        j = (i + 1) % n
        for k in range(sides):
            m = (k + 1) % sides
            f += [[i * sides + k, j * sides + k, j * sides + m], [i * sides + k, j * sides + m, i * sides + m]]
    return Part(v, np.asarray(f), name="piping")


CUSHION_RGB: RGB = (28, 118, 128)
CUSHION_PATTERN_RGB: RGB = (236, 226, 196)
CUSHION_PIPING_RGBA = (226, 172, 48, 255)
CUSHION_PIPING_M = 0.007


def cushion_texture(px: int, seed: int) -> Image.Image:
    """Teal woven cloth with a cream lattice of diamonds and dots, a dark button at the centre."""
    img = fabric(px, px, CUSHION_RGB, seed, weave_px=3)
    d = ImageDraw.Draw(img)
    n = 4
    step = px / n
    for k in range(-n, 2 * n + 1):  # diagonal lattice
        d.line([(k * step, 0), (k * step + px, px)], fill=CUSHION_PATTERN_RGB, width=max(4, px // 60))
        d.line([(k * step, 0), (k * step - px, px)], fill=CUSHION_PATTERN_RGB, width=max(4, px // 60))
    for i in range(n + 1):
        for j in range(n + 1):
            cx, cy = (i + 0.5) * step, j * step
            r = px * 0.028
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(226, 172, 48))
    c, r = px / 2, px * 0.035
    d.ellipse([c - r, c - r, c + r, c + r], fill=shade(CUSHION_RGB, -70), outline=(226, 172, 48), width=3)
    return speckle(img, 3, seed + 1)


@modelled("cushion", "Cushion", "Furniture")
def cushion(ext_m: tuple[float, float, float]) -> list[Part]:
    """A square throw cushion: puffed up, pinched to its seam at pointed corners, a tufted button dimpling its
    middle, teal cloth with a cream lattice and mustard piping round the seam (shape, piping and pattern)."""
    hx, hy, hz = (e / 2 for e in ext_m)
    waist = 0.05
    inner = (hx - CUSHION_PIPING_M, hy - CUSHION_PIPING_M)
    top, bottom = stuffed(*inner, hz, cols=14, rows=14, waist=waist, dimple=0.18)
    cover = merge([top, bottom]).textured(cushion_texture(512, seed=91))
    piping = tube_along(seam_path(*inner, waist, per_side=12), CUSHION_PIPING_M).coloured(CUSHION_PIPING_RGBA)
    return fit_to_extents([cover, piping], ext_m)


PILLOW_RGB: RGB = (240, 237, 226)


def pillowcase_texture(px: tuple[int, int], seed: int) -> Image.Image:
    """White cotton: fine weave, soft creases running in from the corners, the case's hemmed open end."""
    w, h = px
    img = fabric(w, h, PILLOW_RGB, seed, weave_px=2)
    d = ImageDraw.Draw(img)
    rng = np.random.default_rng(seed)
    for cx, cy in ((0, 0), (w, 0), (0, h), (w, h)):  # creases from the corners towards the middle
        for _ in range(3):
            a = math.atan2(h / 2 - cy, w / 2 - cx) + rng.uniform(-0.35, 0.35)
            n = rng.uniform(0.12, 0.25) * w
            d.line([(cx, cy), (cx + n * math.cos(a), cy + n * math.sin(a))], fill=shade(PILLOW_RGB, -28), width=3)
    hem = int(w * 0.86)  # the hem band of the open end, along +x
    d.rectangle([hem, 0, w, h], fill=shade(PILLOW_RGB, -8))
    d.line([(hem, 0), (hem, h)], fill=shade(PILLOW_RGB, -45), width=3)
    for y in range(0, h, 10):  # the hem's stitching
        d.line([(hem + 10, y), (hem + 10, y + 5)], fill=(150, 160, 185), width=2)
    d.rectangle([0, 0, w - 1, h - 1], outline=shade(PILLOW_RGB, -30), width=3)
    return speckle(img, 3, seed + 1)


@modelled("pillow", "Bed pillow", "Bedroom")
def pillow(ext_m: tuple[float, float, float]) -> list[Part]:
    """A bed pillow in a white cotton case: oblong, puffed up in the middle and pinched to its seam, creases
    from the corners and the hemmed open end of the case (white oblong puff says pillow)."""
    hx, hy, hz = (e / 2 for e in ext_m)
    top, bottom = stuffed(hx, hy, hz, cols=18, rows=14, waist=0.06, puff_exp=2.5)
    case = merge([top, bottom]).textured(pillowcase_texture((512, 352), seed=95))
    return fit_to_extents([case], ext_m)


# --- sneaker ----------------------------------------------------------------------------------------------

SHOE_SOLE_SHARE = 0.24  # the sole's share of the height
SHOE_UPPER_RGB: RGB = (36, 84, 190)
SHOE_SECTIONS = 24  # cross-sections heel to toe
SHOE_ARCH_POINTS = 16  # segments of each cross-section, side to side over the top
# The upper's top line heel (0) to toe (1), as a share of its height above the sole: the heel tab, the collar
# dipping round the ankle, the tongue standing up, the laces sloping down to a low toe.
SHOE_TOP_S = (0.0, 0.05, 0.18, 0.32, 0.5, 0.7, 0.88, 1.0)
SHOE_TOP_H = (0.92, 1.0, 0.74, 0.93, 0.68, 0.46, 0.3, 0.14)


def foot_halfwidth(s: np.ndarray) -> np.ndarray:
    """The sole's half-width (share of the widest) heel (0) to toe (1): rounded heel, waisted arch, wide ball,
    rounded toe."""
    width = 0.76 + 0.24 * np.clip((s - 0.25) / 0.45, 0, 1) ** 1.5 - 0.06 * np.exp(-(((s - 0.42) / 0.1) ** 2))
    heel_cap, toe_cap = 0.12, 0.22
    e = np.clip(np.maximum((heel_cap - s) / heel_cap, (s - (1 - toe_cap)) / toe_cap), 0, 1)
    return width * np.sqrt(1 - e**2)


def shoe_samples() -> np.ndarray:
    """Heel-to-toe samples, finer at the rounded ends, always including the widest point."""
    s = (1 - np.cos(np.linspace(0, math.pi, SHOE_SECTIONS + 1))) / 2
    return np.unique(np.concatenate([s, [0.72]]))


def sneaker_upper_texture(px: tuple[int, int]) -> Image.Image:
    """The upper unrolled: u heel to toe, v side over the top to side. Blue mesh, white accent stripe on each
    side, grey heel counter and toe cap, the dark collar opening and white laces over the tongue on top."""
    w, h = px
    img = fabric(w, h, SHOE_UPPER_RGB, seed=101, weave_px=2)
    d = ImageDraw.Draw(img)
    dark = shade(SHOE_UPPER_RGB, -45)
    d.rectangle([0, 0, w * 0.13, h], fill=dark)  # heel counter
    d.rectangle([w * 0.86, 0, w, h], fill=dark)  # toe cap
    d.rectangle([0, 0, w, h * 0.05], fill=(235, 235, 235))  # foxing along the sole, both sides
    d.rectangle([0, h * 0.95, w, h], fill=(235, 235, 235))
    for v0, sgn in ((0.2, 1), (0.8, -1)):  # side accent: a sweeping stripe
        pts = []
        for k in range(21):
            u = 0.18 + 0.62 * k / 20
            vv = v0 + sgn * 0.12 * math.sin(math.pi * k / 20) * (1 - 0.5 * k / 20)
            pts.append((u * w, (1 - vv) * h))
        d.line(pts, fill=(250, 250, 250), width=max(6, h // 18), joint="curve")
    # tongue and laces (top centre line v = 0.5 is the image's middle row)
    mid = h / 2
    d.rounded_rectangle([w * 0.33, mid - h * 0.12, w * 0.74, mid + h * 0.12], radius=8, fill=shade(SHOE_UPPER_RGB, 30))
    eyelets = [w * (0.38 + 0.065 * k) for k in range(6)]
    for k, x in enumerate(eyelets):
        for sgn in (-1, 1):
            d.ellipse([x - 3, mid + sgn * h * 0.1 - 3, x + 3, mid + sgn * h * 0.1 + 3], fill=(20, 20, 30))
        d.line([(x, mid - h * 0.1), (x, mid + h * 0.1)], fill=(252, 252, 252), width=5)
        if k + 1 < len(eyelets):
            nx = eyelets[k + 1]
            d.line([(x, mid - h * 0.1), (nx, mid + h * 0.1)], fill=(232, 232, 232), width=4)
            d.line([(x, mid + h * 0.1), (nx, mid - h * 0.1)], fill=(232, 232, 232), width=4)
    # the collar: padded rim round the dark opening where the foot goes in
    d.ellipse([w * 0.03, mid - h * 0.2, w * 0.35, mid + h * 0.2], fill=shade(SHOE_UPPER_RGB, -60))
    d.ellipse([w * 0.05, mid - h * 0.15, w * 0.33, mid + h * 0.15], fill=(28, 28, 34))
    return img


def sole_side_texture(px: tuple[int, int]) -> Image.Image:
    """The midsole's wall: white, a grey outsole strip with tread notches along the bottom."""
    w, h = px
    img = canvas(w, h, (244, 244, 240))
    d = ImageDraw.Draw(img)
    d.rectangle([0, int(h * 0.8), w, h], fill=(150, 150, 152))
    for x in range(0, w, 14):
        d.rectangle([x, int(h * 0.9), x + 5, h], fill=(95, 95, 98))
    d.line([(0, int(h * 0.3)), (w, int(h * 0.3))], fill=(215, 215, 212), width=2)
    return img


def sole_bottom_texture(px: int) -> Image.Image:
    """Grey rubber tread: zigzag grooves."""
    img = canvas(px, px // 2, (120, 120, 124))
    d = ImageDraw.Draw(img)
    for y in range(0, px // 2, 12):
        d.line([(x, y + (6 if (x // 12) % 2 else 0)) for x in range(0, px + 12, 12)], fill=(70, 70, 74), width=3)
    return img


def sneaker_upper(hx: float, hy: float, z0: float, height: float) -> Part:
    """The upper lofted from cross-sections on the sole: each a rounded arch, narrowing and lowering to the toe."""
    s = shoe_samples()
    x = -hx + 2 * hx * s
    half = hy * 0.93 * foot_halfwidth(s)
    top = z0 + height * np.interp(s, SHOE_TOP_S, SHOE_TOP_H)
    a = np.linspace(0, math.pi, SHOE_ARCH_POINTS + 1)

    def spow(c: np.ndarray, e: float) -> np.ndarray:
        return np.sign(c) * np.abs(c) ** e

    ys = half[:, None] * spow(np.cos(a), 0.55)[None, :]
    zs = z0 + (top - z0)[:, None] * spow(np.sin(a), 0.5)[None, :]
    xs = np.broadcast_to(x[:, None], ys.shape)
    v = np.stack([xs, ys, zs], -1).reshape(-1, 3)
    uv = np.stack(np.meshgrid(s, a / math.pi, indexing="ij"), -1).reshape(-1, 2)
    f = _grid_faces(len(s) - 1, SHOE_ARCH_POINTS)  # rows heel to toe, columns from +y over the top to -y
    return Part(v, f, uv, name="upper")


@modelled("shoe", "Sneaker", "Clothing")
def shoe(ext_m: tuple[float, float, float]) -> list[Part]:
    """One sneaker, toe to +x: a white rubber sole slab in a foot-shaped outline, a blue upper lofted on it that
    is highest at the heel collar and slopes to a low rounded toe, a dark collar opening, white laces over the
    tongue and a white sweep on each side (silhouette + white sole + laces say sneaker)."""
    x, y, z = ext_m
    hx, hy, hz = x / 2, y / 2, z / 2
    sole_top = -hz + z * SHOE_SOLE_SHARE
    s = shoe_samples()
    w = hy * foot_halfwidth(s)
    xs = -hx + 2 * hx * s
    outline = np.concatenate([np.stack([xs, -w], 1)[:-1], np.stack([xs[::-1], w[::-1]], 1)[:-1]])
    side, cap, bottom = extrusion(outline, -hz, sole_top)
    sole = [
        side.textured(sole_side_texture((1024, 64))),
        cap.coloured((244, 244, 240, 255)),
        bottom.textured(sole_bottom_texture(256)),
    ]
    upper = sneaker_upper(hx, hy, sole_top, hz - sole_top).textured(sneaker_upper_texture((512, 256)))
    return fit_to_extents([*sole, upper], ext_m)
