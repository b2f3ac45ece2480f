"""Containers: cans, jars and bottles turned as surfaces of revolution (lathe profiles), plus the dumbbell.

Each is a few lathed parts along z (metal rims, a printed label band, a translucent glass shell, a lid), so
its silhouette (rims, shoulders, necks, caps) and its label (a word a person reads: SOUP, PAINT, JAM,
WATER) say what it is. Glass and clear plastic are flat translucent parts (MuJoCo ignores a texture's
alpha; a part's rgba alpha is honoured); highlights are thin brighter strips on the glass.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from reacthuman.scenes.modelled.geometry import Part, _grid_faces, box, disc, fit_to_extents, merge, rot, tube_between
from reacthuman.scenes.modelled.registry import modelled
from reacthuman.scenes.modelled.textures import RGB, brushed_metal, canvas, speckle, text

Profile = Sequence[tuple[float, float]]  # (radius, z) pairs in metres, walked with the outside on the right
# (up the side, outwards along a bottom, inwards along a top), as geometry.cylinder_side's faces are

STEEL_RGBA = (178, 182, 188, 255)
GOLD_RGBA = (212, 168, 60, 255)


# ---------------------------------------------------------------------------------------------- shapes
def lathe(
    profile: Profile,
    segments: int = 32,
    v: Sequence[float] | None = None,
    phase_deg: float = 0.0,
    arc_deg: tuple[float, float] = (-180.0, 180.0),
) -> Part:
    """A surface of revolution about z from a (radius, z) profile walked bottom to top on the outside.

    u runs around z from the start of arc_deg (like geometry.cylinder_side), v along the profile (by arc
    length unless given). segments=6 with phase 15 degrees turns a hexagonal prism; arc_deg < 360 a band.
    """
    prof = np.asarray(profile, dtype=np.float64)
    if v is None:
        step = np.linalg.norm(np.diff(prof, axis=0), axis=1)
        along = np.concatenate([[0.0], np.cumsum(step)])
        v = along / max(along[-1], 1e-12)
    phi = np.radians(np.linspace(arc_deg[0], arc_deg[1], segments + 1) + phase_deg)
    r, z = prof[:, 0][:, None], prof[:, 1][:, None]
    verts = np.stack([r * np.cos(phi), r * np.sin(phi), np.broadcast_to(z, (len(prof), segments + 1))], -1)
    u = (np.linspace(0.0, 1.0, segments + 1))[None, :].repeat(len(prof), 0)
    vv = np.asarray(v, dtype=np.float64)[:, None].repeat(segments + 1, 1)
    return Part(verts.reshape(-1, 3), _grid_faces(len(prof) - 1, segments), np.stack([u, vv], -1).reshape(-1, 2))


def triangles(parts: list[Part]) -> int:
    return int(sum(len(p.faces) for p in parts))


def wrap_canvas(circumference_m: float, height_m: float, rgb: RGB, width_px: int = 1024) -> tuple[Image.Image, float]:
    """A canvas for a label wrapped round a cylinder with square pixels, and its px-per-metre.

    Drawn at this size and then `squash`ed to the texture size, lettering keeps its proportions on the can."""
    ppm = width_px / circumference_m
    return canvas(width_px, max(8, int(round(height_m * ppm))), rgb), ppm


def squash(img: Image.Image, max_height_px: int = 256) -> Image.Image:
    if img.height <= max_height_px:
        return img
    return img.resize((img.width, max_height_px), Image.Resampling.LANCZOS)


def rings_image(size_px: int, rgb: RGB, rings: Sequence[tuple[float, int]], seed: int) -> Image.Image:
    """A round lid seen from above: concentric grooves at radii (fractions of the disc) darker or lighter by shade."""
    img = brushed_metal(size_px, size_px, rgb, seed)
    d = ImageDraw.Draw(img)
    c = size_px / 2
    for frac, shade in rings:
        r = frac * c
        col = tuple(int(np.clip(v + shade, 0, 255)) for v in rgb)
        d.ellipse([c - r, c - r, c + r, c + r], outline=col, width=max(2, size_px // 90))
    return img.filter(ImageFilter.GaussianBlur(0.8))


def strip(
    radius_m: float, z0_m: float, z1_m: float, centre_deg: float, width_deg: float, rgba: tuple[int, int, int, int]
) -> Part:
    """A narrow vertical strip of a cylinder (a highlight on glass or plastic)."""
    return lathe(
        [(radius_m, z0_m), (radius_m, z1_m)], 3, arc_deg=(centre_deg - width_deg / 2, centre_deg + width_deg / 2)
    ).coloured(rgba)


def vertical_ridges(width_px: int, height_px: int, rgb: RGB, ridges: int, depth: float = 30.0) -> Image.Image:
    """The knurled edge of a screw lid or cap: bright and dark vertical ridges all round."""
    x = np.arange(width_px)
    shade = np.sin(x / width_px * ridges * 2 * math.pi) * depth
    a = np.asarray(canvas(width_px, height_px, rgb), np.float32) + shade[None, :, None]
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


# ---------------------------------------------------------------------------------------------- tin can
def _soup_label(circumference_m: float, height_m: float) -> Image.Image:
    """Red top, white bottom, SOUP in white on the red and a gold medallion: a soup can's label."""
    img, ppm = wrap_canvas(circumference_m, height_m, (250, 248, 240))
    w, h = img.size
    d = ImageDraw.Draw(img)
    split = int(h * 0.56)
    d.rectangle([0, 0, w, split], fill=(196, 22, 28))
    d.rectangle([0, int(h * 0.04), w, int(h * 0.075)], fill=(236, 236, 230))  # thin white line near the top
    d.rectangle([0, split, w, split + max(2, h // 60)], fill=(214, 170, 60))  # gold rule
    for k in (0.37, 0.87):  # two faces, one towards the gallery's three-quarter view
        cx = w * k
        text(d, (cx, h * 0.31), "SOUP", int(h * 0.3), (252, 252, 252), stroke_px=2, stroke_fill=(150, 10, 15))
        r = h * 0.085
        d.ellipse([cx - r, split - r, cx + r, split + r], fill=(222, 178, 62), outline=(160, 120, 30), width=2)
        text(d, (cx, h * 0.76), "TOMATO", int(h * 0.13), (196, 22, 28))
        text(d, (cx, h * 0.9), "condensed", int(h * 0.07), (60, 60, 60))
    return squash(speckle(img, 3, seed=21))


@modelled("tin_can", "Tin can (soup)", "Food")
def tin_can(ext_m: tuple[float, float, float]) -> list[Part]:
    """A soup can: a red-and-white paper label all round between steel rims, a ringed steel lid on top."""
    r, h = ext_m[0] / 2, ext_m[2]
    top, bot = h / 2, -h / 2
    rim_m, lid_drop_m = 0.006, 0.003
    label = lathe([(r * 0.985, bot + rim_m), (r * 0.985, top - rim_m)], 40)
    label = label.textured(_soup_label(2 * math.pi * r, h - 2 * rim_m))
    steel_top = lathe(
        [
            (r * 0.985, top - rim_m),
            (r, top - rim_m * 0.6),
            (r, top - 0.001),
            (r * 0.96, top),
            (r * 0.9, top - 0.0005),
            (r * 0.88, top - lid_drop_m),
        ],
        32,
    ).coloured(STEEL_RGBA)
    steel_bot = lathe(
        [(r * 0.85, bot + 0.002), (r * 0.92, bot), (r, bot + 0.001), (r, bot + rim_m * 0.6), (r * 0.985, bot + rim_m)],
        32,
    ).coloured(STEEL_RGBA)
    lid = disc(r * 0.88, top - lid_drop_m, True, 32)
    lid = lid.textured(
        rings_image(256, (190, 192, 198), [(0.9, -40), (0.78, 35), (0.62, -30), (0.45, 30), (0.3, -25)], 22)
    )
    base = disc(r * 0.85, bot + 0.002, False, 24).coloured((160, 162, 168, 255))
    return fit_to_extents([label, steel_top, steel_bot, lid, base], ext_m)


# ---------------------------------------------------------------------------------------------- paint can
PAINT_RGB: RGB = (30, 96, 206)


def _paint_drips(img: Image.Image, top_px: int, seed: int, colour: RGB, count: int) -> None:
    """Paint run down from the rim: rounded streaks of varying length, a blob at each end."""
    rng = np.random.default_rng(seed)
    d = ImageDraw.Draw(img)
    w, h = img.size
    d.rectangle([0, 0, w, top_px], fill=colour)
    for _ in range(count):
        x = rng.uniform(0, w)
        width = rng.uniform(0.006, 0.014) * w
        length = rng.uniform(0.12, 0.6) * h
        d.rounded_rectangle([x - width / 2, 0, x + width / 2, top_px + length], radius=width / 2, fill=colour)
        d.ellipse(
            [x - width * 0.8, top_px + length - width * 1.4, x + width * 0.8, top_px + length + width * 0.2],
            fill=colour,
        )


def _paint_label(circumference_m: float, height_m: float, metal_m: float) -> Image.Image:
    """Tin-plate body with a white label: a big swatch of the paint, PAINT in bold, drips down from the rim."""
    img, ppm = wrap_canvas(circumference_m, height_m, (180, 184, 190))
    img = brushed_metal(img.width, img.height, (176, 180, 186), seed=31)
    w, h = img.size
    d = ImageDraw.Draw(img)
    m = int(metal_m * ppm)
    d.rectangle([0, m, w, h - m], fill=(248, 248, 244))
    for k in (0.37, 0.87):
        cx = w * k
        sw, sh = w * 0.16, (h - 2 * m) * 0.36
        d.rounded_rectangle(
            [cx - sw / 2, m + (h - 2 * m) * 0.08, cx + sw / 2, m + (h - 2 * m) * 0.08 + sh], radius=12, fill=PAINT_RGB
        )
        text(d, (cx, m + (h - 2 * m) * 0.62), "PAINT", int((h - 2 * m) * 0.24), (24, 30, 60))
        text(d, (cx, m + (h - 2 * m) * 0.84), "INTERIOR  1 GAL", int((h - 2 * m) * 0.08), (90, 90, 100))
    for k in (0.12, 0.62):  # stripes of the paint colour round the back of the label
        d.rectangle([w * (k - 0.08), m + (h - 2 * m) * 0.3, w * (k + 0.08), m + (h - 2 * m) * 0.42], fill=PAINT_RGB)
    _paint_drips(img, int(h * 0.02), seed=32, colour=PAINT_RGB, count=9)
    return squash(img)


def _bail(radius_m: float, z_ear_m: float, drop_m: float, wire_m: float) -> list[Part]:
    """The wire handle folded down: from the ear at +x round the -y side to the ear at -x, lying on the body."""
    a = np.linspace(0.0, math.pi, 13)
    pts = [(radius_m * math.cos(-t), radius_m * math.sin(-t), z_ear_m - drop_m * math.sin(t)) for t in a]
    wire = (150, 152, 158, 255)
    return [tube_between(p, q, wire_m, wire, segments=6) for p, q in zip(pts, pts[1:])]


@modelled("paint_can", "Paint can", "Tools")
def paint_can(ext_m: tuple[float, float, float]) -> list[Part]:
    """A gallon paint tin: steel chimes and a ringed lid, a white label with a blue swatch and PAINT, blue paint
    dripped down from the rim, and the wire handle folded down along its side between two ears."""
    r, h = ext_m[0] / 2, ext_m[2]
    top, bot = h / 2, -h / 2
    wire_m = 0.0025
    rb = r - 2.4 * wire_m - 0.0005  # the body, inside the chimes; the handle lies on it
    chime_m = 0.012
    body = lathe([(rb, bot + chime_m), (rb, top - chime_m)], 48)
    body = body.textured(_paint_label(2 * math.pi * rb, h - 2 * chime_m, 0.012))
    top_chime = lathe(
        [
            (rb, top - chime_m),
            (r, top - chime_m * 0.55),
            (r, top - 0.001),
            (r - 0.002, top),
            (r - 0.006, top),
            (r - 0.0075, top - 0.004),
            (r - 0.009, top - 0.004),
        ],
        40,
    ).coloured(STEEL_RGBA)
    bot_chime = lathe(
        [(r - 0.012, bot + 0.003), (r - 0.004, bot), (r, bot + 0.002), (r, bot + chime_m * 0.55), (rb, bot + chime_m)],
        40,
    ).coloured(STEEL_RGBA)
    lid_img = rings_image(256, (188, 190, 196), [(0.97, -45), (0.9, 40), (0.84, -35), (0.5, 12)], 33)
    ImageDraw.Draw(lid_img).ellipse([150, 40, 200, 80], fill=PAINT_RGB)  # a smear of paint on the lid
    lid = disc(r - 0.009, top - 0.004, True, 40).textured(lid_img)
    base = disc(r - 0.012, bot + 0.003, False, 24).coloured((150, 152, 158, 255))
    z_ear = top - 0.03
    ears = [box((0.006, 0.018, 0.022), (160, 162, 168, 255), (sx * (rb + 0.003), 0.0, z_ear)) for sx in (1, -1)]
    bail = _bail(rb + wire_m * 1.2, z_ear, h * 0.42, wire_m)
    return fit_to_extents([body, top_chime, bot_chime, lid, base, *ears, merge(bail).coloured(bail[0].rgba)], ext_m)


# ---------------------------------------------------------------------------------------------- jars
GLASS_RGBA = (220, 234, 240, 38)


def _jam_texture(seed: int = 41) -> Image.Image:
    """Dark red jam against the glass: deep red with darker fruit pieces and pale seeds."""
    img = canvas(256, 128, (142, 6, 24))
    rng = np.random.default_rng(seed)
    d = ImageDraw.Draw(img)
    for _ in range(70):
        x, y, rr = rng.uniform(0, 256), rng.uniform(0, 128), rng.uniform(3, 9)
        d.ellipse([x - rr, y - rr * 0.7, x + rr, y + rr * 0.7], fill=(84, 0, 14))
    for _ in range(60):
        x, y = rng.uniform(0, 256), rng.uniform(0, 128)
        d.point((x, y), fill=(196, 120, 70))
    return speckle(img.filter(ImageFilter.GaussianBlur(1.0)), 5, seed + 1)


def _jam_label(arc_m: float, height_m: float) -> Image.Image:
    img, ppm = wrap_canvas(arc_m, height_m, (248, 242, 222), width_px=512)
    w, h = img.size
    d = ImageDraw.Draw(img)
    d.rectangle([4, 4, w - 5, h - 5], outline=(170, 20, 40), width=4)
    text(d, (w * 0.56, h * 0.47), "JAM", int(h * 0.55), (170, 14, 36))
    cx, cy, rr = w * 0.2, h * 0.52, h * 0.24  # a strawberry
    d.polygon([(cx - rr, cy - rr * 0.4), (cx + rr, cy - rr * 0.4), (cx, cy + rr * 1.2)], fill=(214, 30, 40))
    d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr * 0.4], fill=(214, 30, 40))
    d.polygon(
        [(cx - rr * 0.7, cy - rr * 0.9), (cx, cy - rr * 0.5), (cx + rr * 0.7, cy - rr * 0.9), (cx, cy - rr * 1.3)],
        fill=(40, 140, 50),
    )
    return squash(img)


@modelled("jam_jar", "Jam jar", "Food")
def jam_jar(ext_m: tuple[float, float, float]) -> list[Part]:
    """A jam jar: dark red jam behind clear glass with an empty band under a ridged gold screw lid, a JAM label."""
    r, h = ext_m[0] / 2, ext_m[2]
    top, bot = h / 2, -h / 2
    lid_h = 0.018
    glass = lathe(
        [
            (0.0, bot),
            (r * 0.9, bot),
            (r, bot + 0.006),
            (r, top - lid_h - 0.009),
            (r * 0.92, top - lid_h - 0.003),
            (r * 0.9, top - lid_h + 0.002),
        ],
        32,
    ).coloured(GLASS_RGBA)
    jam_top = top - lid_h - 0.013
    jam = lathe(
        [
            (0.0, bot + 0.003),
            (r * 0.88, bot + 0.003),
            (r * 0.96, bot + 0.008),
            (r * 0.96, jam_top),
            (r * 0.6, jam_top + 0.002),
            (0.0, jam_top + 0.002),
        ],
        32,
    ).textured(_jam_texture())
    lid_side = lathe(
        [(r * 0.9, top - lid_h), (r * 0.95, top - lid_h + 0.001), (r * 0.95, top - 0.002), (r * 0.92, top)], 32
    )
    lid_side = lid_side.textured(vertical_ridges(512, 32, GOLD_RGBA[:3], 60, 40))
    lid_top = disc(r * 0.92, top, True, 32).textured(rings_image(256, GOLD_RGBA[:3], [(0.92, -40), (0.8, 30)], 42))
    z0, z1 = bot + 0.017, bot + 0.05
    arc_deg = 150.0
    label = lathe([(r * 1.004, z0), (r * 1.004, z1)], 16, arc_deg=(-42 - arc_deg / 2, -42 + arc_deg / 2))
    label = label.textured(_jam_label(math.radians(arc_deg) * r, z1 - z0))
    highlight = strip(r * 1.002, bot + 0.054, top - lid_h - 0.012, -80, 5, (255, 255, 255, 110))
    return fit_to_extents([jam, glass, lid_side, lid_top, label, highlight], ext_m)


def _cork_texture(seed: int = 51) -> Image.Image:
    img = speckle(canvas(256, 128, (196, 158, 108)), 22, seed, blur_px=0.8)
    rng = np.random.default_rng(seed + 1)
    d = ImageDraw.Draw(img)
    for _ in range(90):
        x, y, rr = rng.uniform(0, 256), rng.uniform(0, 128), rng.uniform(0.8, 2.2)
        d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=(120, 86, 50))
    return img


@modelled("glass_jar", "Glass storage jar", "Kitchen")
def glass_jar(ext_m: tuple[float, float, float]) -> list[Part]:
    """A clear, empty glass storage jar: a pale blue-grey see-through body with bright highlights, a thick base
    and neck ring, and a cork stopper."""
    r, h = ext_m[0] / 2, ext_m[2]
    top, bot = h / 2, -h / 2
    neck_r, lip_z = 0.8 * r, top - 0.016
    outer = [
        (0.0, bot),
        (r * 0.9, bot),
        (r, bot + 0.01),
        (r, top - 0.05),
        (r * 0.94, top - 0.04),
        (r * 0.86, top - 0.032),
        (neck_r, top - 0.026),
        (neck_r, lip_z - 0.004),
        (neck_r + 0.003, lip_z - 0.003),
        (neck_r + 0.003, lip_z),
    ]
    glass = lathe(outer, 28).coloured((206, 222, 232, 60))
    inner = lathe([(rr - 0.003, z) for rr, z in outer[::-1] if rr > 0.01][:-1] + [(0.0, bot + 0.012)], 24)
    inner = inner.coloured((206, 222, 232, 40))
    base = disc(r * 0.94, bot + 0.011, True, 28).coloured((190, 212, 222, 105))
    lip = lathe(
        [
            (neck_r - 0.001, lip_z - 0.009),
            (neck_r + 0.0035, lip_z - 0.009),
            (neck_r + 0.0035, lip_z),
            (neck_r - 0.001, lip_z),
        ],
        28,
    ).coloured((196, 216, 226, 190))
    cork = lathe(
        [
            (neck_r * 0.95, top - 0.034),
            (neck_r * 0.99, lip_z),
            (neck_r * 1.02, top - 0.002),
            (neck_r * 0.99, top),
            (0.0, top),
        ],
        28,
    ).textured(_cork_texture())
    shine = [
        strip(r * 1.001, bot + 0.02, top - 0.055, -75, 7, (255, 255, 255, 120)),
        strip(r * 1.001, bot + 0.03, top - 0.06, -20, 3, (255, 255, 255, 100)),
        strip(r * 1.001, bot + 0.02, top - 0.055, 110, 5, (255, 255, 255, 70)),
    ]
    return fit_to_extents([base, cork, inner, glass, lip, *shine], ext_m)


# ---------------------------------------------------------------------------------------------- bottle
def _water_label(circumference_m: float, height_m: float) -> Image.Image:
    img, ppm = wrap_canvas(circumference_m, height_m, (20, 86, 196))
    w, h = img.size
    d = ImageDraw.Draw(img)
    xs = np.linspace(0, w, 200)
    wave = h * 0.78 + np.sin(xs / w * 6 * 2 * math.pi) * h * 0.06
    d.polygon([(0, h)] + list(zip(xs, wave)) + [(w, h)], fill=(120, 196, 246))
    d.line(list(zip(xs, wave - h * 0.05)), fill=(250, 250, 255), width=max(2, h // 30))
    for k in (0.37, 0.87):
        text(d, (w * k, h * 0.4), "WATER", int(h * 0.36), (255, 255, 255))
    return squash(img)


@modelled("water_bottle", "Water bottle", "Kitchen")
def water_bottle(ext_m: tuple[float, float, float]) -> list[Part]:
    """A plastic water bottle: a clear blue-tinted ribbed body narrowing to a neck, a blue WATER label band, and a
    ridged blue screw cap."""
    r, h = ext_m[0] / 2, ext_m[2]
    top, bot = h / 2, -h / 2
    label0, label1 = bot + 0.055, bot + 0.105
    prof = [(0.0, bot + 0.004), (0.84 * r, bot), (r, bot + 0.008)]
    z = bot + 0.012
    while z < label0 - 0.006:  # ribs below the label
        prof += [(0.95 * r, z), (r, z + 0.004)]
        z += 0.01
    prof += [(r, label0), (r, label1)]
    z = label1 + 0.008
    while z < top - 0.08:  # and above it
        prof += [(0.95 * r, z), (r, z + 0.004)]
        z += 0.01
    prof += [
        (r, top - 0.075),
        (0.92 * r, top - 0.058),
        (0.7 * r, top - 0.043),
        (0.48 * r, top - 0.031),
        (0.42 * r, top - 0.026),
        (0.42 * r, top - 0.022),
        (0.56 * r, top - 0.021),
        (0.56 * r, top - 0.019),
        (0.42 * r, top - 0.018),
    ]
    body = lathe(prof, 24).coloured((176, 214, 244, 100))
    water = lathe([(0.0, bot + 0.005), (0.93 * r, bot + 0.01), (0.93 * r, top - 0.07), (0.0, top - 0.066)], 12)
    water = water.coloured((120, 180, 236, 70))
    label = lathe([(r * 1.004, label0), (r * 1.004, label1)], 28).textured(
        _water_label(2 * math.pi * r, label1 - label0)
    )
    cap_r = 0.5 * r
    cap_side = lathe([(cap_r, top - 0.019), (cap_r, top - 0.0015), (cap_r * 0.95, top)], 16)
    cap_side = cap_side.textured(vertical_ridges(256, 16, (24, 84, 200), 40, 45))
    cap_top = disc(cap_r * 0.95, top, True, 16).coloured((30, 96, 214, 255))
    shine = strip(r * 1.003, label1 + 0.004, top - 0.08, -80, 6, (255, 255, 255, 120))
    return fit_to_extents([water, body, label, cap_side, cap_top, shine], ext_m)


# ---------------------------------------------------------------------------------------------- dumbbell
def _iron_texture(seed: int = 61) -> Image.Image:
    """Cast iron painted black: dark grey with a faint grain."""
    return speckle(canvas(128, 128, (44, 44, 48)), 3, seed, blur_px=1.5)


def _knurl_texture(seed: int = 62) -> Image.Image:
    """Chrome with a diamond knurl: fine crossing grooves over a bright-and-dark chrome shading."""
    w, h = 256, 256
    y, x = np.mgrid[0:h, 0:w]
    cross = ((x + y) % 8 < 2) | ((x - y) % 8 < 2)
    a = np.full((h, w, 3), 190.0) + (np.sin(x / w * 4 * math.pi) * 40)[..., None]
    a[cross] *= 0.62
    return speckle(Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)), 4, seed)


def _end_face(seed: int = 63) -> Image.Image:
    img = _iron_texture(seed).resize((256, 256))
    text(ImageDraw.Draw(img), (128, 128), "10 kg", 64, (236, 236, 236))
    return img


COLLAR_M = 0.012  # the chrome collars between the heads and the handle


@modelled("dumbbell", "Dumbbell", "Sports")
def dumbbell(ext_m: tuple[float, float, float]) -> list[Part]:
    """A hex dumbbell standing on end: two dark cast-iron hexagonal heads marked 10 kg, chrome collars and a
    knurled chrome handle between them."""
    r, h = ext_m[0] / 2, ext_m[2]
    top, bot = h / 2, -h / 2
    rc = r / math.cos(math.radians(15))  # a hexagon turned 15 degrees spans the same in x and y
    head_m = 0.065
    parts: list[Part] = []
    for sign in (-1, 1):
        end, inner = sign * top, sign * (top - head_m)
        prof = [
            (0.0, inner),
            (rc * 0.92, inner),
            (rc, inner + sign * 0.004),
            (rc, end - sign * 0.004),
            (rc * 0.92, end),
        ]
        if sign < 0:
            prof = prof[::-1]
        parts.append(lathe(prof, 6, phase_deg=15).textured(_iron_texture()))
        face = disc(rc * 0.92, end, sign > 0, 6).moved(rotation=rot("z", 15)).textured(_end_face())
        parts.append(face)
        collar_z = sorted((inner, inner - sign * COLLAR_M))
        parts.append(lathe([(0.44 * r, collar_z[0]), (0.44 * r, collar_z[1])], 20).coloured((214, 216, 222, 255)))
    handle = lathe([(0.31 * r, bot + head_m + COLLAR_M), (0.31 * r, top - head_m - COLLAR_M)], 20)
    parts.append(handle.textured(_knurl_texture()))
    return fit_to_extents(parts, ext_m)
