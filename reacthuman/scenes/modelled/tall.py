"""Modelled objects: tall and hanging things (ladders, doors, a punching bag, a pendant lamp, a sandbag).

Each model is built at the object's physical extents (x, y, z in its body frame) and fills exactly that
box: ladders stand with their depth along x, width along y and length along z; doors with their width
along x, thickness along y and height along z (handles, bars and hinges stay inside the box); the hanging
things with their suspension (ring, cord grip) at the top of the box.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageOps

from reacthuman.scenes.modelled.geometry import Part, _grid_faces, box_faces, merge, tube_between
from reacthuman.scenes.modelled.registry import modelled
from reacthuman.scenes.modelled.textures import RGB, brushed_metal, canvas, fabric, speckle, text, wood

Ext = tuple[float, float, float]
Vec = tuple[float, float, float]

ALUMINIUM_RGB: RGB = (196, 200, 206)
STEEL_RGBA = (205, 208, 214, 255)
RUBBER_RGBA = (32, 32, 34, 255)


# --- small builders shared by the models below ---------------------------------------------------------


def tex_box(ext_m: Ext, centre_m: Vec, image: Image.Image) -> Part:
    """A closed box of full extents ext_m at centre_m, every face showing the whole image."""
    return merge(list(box_faces(ext_m).values())).textured(image).moved(centre_m)


def flat_box(ext_m: Ext, centre_m: Vec, rgba: tuple[int, ...]) -> Part:
    return merge(list(box_faces(ext_m).values())).coloured(rgba).moved(centre_m)


def box_between(lo_m: Vec, hi_m: Vec, rgba: tuple[int, ...]) -> Part:
    """A flat-coloured box given by two opposite corners (in any order)."""
    a, b = np.asarray(lo_m, float), np.asarray(hi_m, float)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    return flat_box(tuple(hi - lo), tuple((lo + hi) / 2), rgba)  # type: ignore[arg-type]


def lathe(profile_rz: Sequence[tuple[float, float]], segments: int = 32, inward: bool = False) -> Part:
    """A surface of revolution about z through the (radius, z) points (bottom to top); u around z, v along
    the profile by arc length. inward: faces turned to be seen from the axis (a shade's inside)."""
    pr = np.asarray(profile_rz, float)
    phi = np.linspace(-math.pi, math.pi, segments + 1)
    v = np.concatenate([np.stack([r * np.cos(phi), r * np.sin(phi), np.full_like(phi, z)], -1) for r, z in pr])
    arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(pr, axis=0), axis=1))])
    arc = arc / max(arc[-1], 1e-9)
    uv = np.concatenate([np.stack([(phi + math.pi) / (2 * math.pi), np.full_like(phi, a)], -1) for a in arc])
    faces = _grid_faces(len(pr) - 1, segments)
    return Part(v, faces[:, ::-1] if inward else faces, uv)


def torus(
    major_m: float,
    minor_m: float,
    centre_m: Vec,
    rgba: tuple[int, ...],
    axis: str = "y",
    segments: int = 16,
    sides: int = 6,
) -> Part:
    """A flat-coloured ring (hanging rings, swivels) around the given axis."""
    a = np.linspace(0, 2 * math.pi, segments + 1)
    b = np.linspace(0, 2 * math.pi, sides + 1)
    aa, bb = np.meshgrid(a, b, indexing="ij")
    r = major_m + minor_m * np.cos(bb)
    pts = np.stack([r * np.cos(aa), r * np.sin(aa), minor_m * np.sin(bb)], -1).reshape(-1, 3)
    if axis == "y":  # ring in the x-z plane
        pts = pts[:, [0, 2, 1]]
    elif axis == "x":
        pts = pts[:, [2, 0, 1]]
    return Part(pts + np.asarray(centre_m), _grid_faces(segments, sides)).coloured(rgba)


def dashed(
    d: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    fill: RGB,
    width_px: int = 2,
    dash_px: float = 6.0,
) -> None:
    """A stitched (dashed) line from a to b."""
    n = max(1, int(math.dist(a, b) / dash_px))
    for k in range(0, n, 2):
        t0, t1 = k / n, min(1.0, (k + 1) / n)
        d.line(
            [
                (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
            ],
            fill=fill,
            width=width_px,
        )


# --- ladders ---------------------------------------------------------------------------------------------

LADDER_RUNGS = 9  # every 10 % of the length: the four physics rungs (20, 40, 60, 80 %) are among them
RIVET_M = 0.002  # how far a rivet head or tie-rod nut stands off the rail's outer face


def _rung_heights(hz: float) -> list[float]:
    return [-hz + 2 * hz * k / (LADDER_RUNGS + 1) for k in range(1, LADDER_RUNGS + 1)]


def _rail_image(rgb: RGB, seed: int, metal: bool) -> Image.Image:
    """A rail face: brushed aluminium with dark flange lines, or wood grain along the rail."""
    if metal:
        img = brushed_metal(48, 512, rgb, seed)
        d = ImageDraw.Draw(img)
        for x in (3, 44):
            d.line([(x, 0), (x, 511)], fill=(120, 124, 130), width=2)
        return img
    return wood(48, 512, rgb, seed, grain_along_x=False)


@modelled("aluminium_ladder", "Aluminium ladder", "Tools")
def aluminium_ladder(ext_m: Ext) -> list[Part]:
    """Silver brushed rails, nine round rungs with rivet heads, black rubber feet, grey top caps and a yellow
    safety label: the rail-and-rung silhouette and the bare metal sheen read as an aluminium ladder."""
    hx, hy, hz = (e / 2 for e in ext_m)
    rail_w = 0.036
    outer = hy - RIVET_M  # the rivet heads reach the box's side
    rail_img = _rail_image(ALUMINIUM_RGB, 3, True)
    rails, rivets, feet, caps = [], [], [], []
    for s in (-1, 1):
        yc = s * (outer - rail_w / 2)
        y0, y1 = yc - rail_w / 2, yc + rail_w / 2
        rails.append(tex_box((2 * hx - 0.004, rail_w, 2 * hz - 0.08), (0.0, yc, 0.0), rail_img))
        feet.append(box_between((-hx, y0 - 0.002, -hz), (hx, y1 + 0.002, -hz + 0.07), RUBBER_RGBA))
        caps.append(box_between((-hx + 0.002, y0, hz - 0.04), (hx - 0.002, y1, hz), (70, 72, 76, 255)))
        rivets += [
            tube_between((0.0, s * outer, z), (0.0, s * hy, z), 0.011, (150, 153, 160, 255), segments=8)
            for z in _rung_heights(hz)
        ]
    inner = outer - rail_w
    rungs = [
        tube_between((0.0, -inner, z), (0.0, inner, z), 0.016, (176, 180, 187, 255), segments=10)
        for z in _rung_heights(hz)
    ]
    label = canvas(64, 128, (250, 205, 30))
    d = ImageDraw.Draw(label)
    d.rectangle([4, 4, 59, 40], fill=(20, 20, 20))
    text(d, (32, 22), "!", 28, (250, 205, 30))
    for k in range(5):
        d.line([(8, 56 + 13 * k), (56, 56 + 13 * k)], fill=(40, 40, 40), width=4)
    yl = -(outer - rail_w / 2)
    sticker = tex_box((0.002, rail_w - 0.008, 0.16), (hx - 0.002, yl, -hz + 0.55), label)
    return [merge(rails), merge(rungs), merge(rivets), merge(feet), merge(caps), sticker]


@modelled("wooden_ladder", "Wooden ladder", "Tools")
def wooden_ladder(ext_m: Ext) -> list[Part]:
    """Honey-coloured wooden rails and flat wooden rungs with visible grain, steel tie rods under three rungs
    with their nuts on the rails: the classic wooden step ladder look (warm wood, not metal)."""
    hx, hy, hz = (e / 2 for e in ext_m)
    rail_w = 0.036
    outer = hy - RIVET_M
    rails, nuts, rods = [], [], []
    rail_img = _rail_image((186, 132, 74), 5, False)
    for s in (-1, 1):
        yc = s * (outer - rail_w / 2)
        rails.append(tex_box((2 * hx, rail_w, 2 * hz), (0.0, yc, 0.0), rail_img))
    rung_img = wood(256, 32, (198, 146, 86), 7, grain_along_x=True)
    inner = outer - rail_w
    rungs = [tex_box((2 * hx * 0.8, 2 * inner, 0.028), (0.0, 0.0, z), rung_img) for z in _rung_heights(hz)]
    for k in (0, LADDER_RUNGS // 2, LADDER_RUNGS - 1):
        z = _rung_heights(hz)[k] - 0.03
        rods.append(tube_between((0.0, -outer, z), (0.0, outer, z), 0.005, (90, 92, 96, 255), segments=8))
        for s in (-1, 1):
            nuts.append(tube_between((0.0, s * outer, z), (0.0, s * hy, z), 0.011, (70, 72, 76, 255), segments=6))
    return [merge(rails), merge(rungs), merge(rods + nuts)]


# --- doors -----------------------------------------------------------------------------------------------


def _door_slab(
    ext_m: Ext,
    face: Image.Image,
    edge: Image.Image,
    depth_m: float,
    rgba: tuple[int, int, int, int] = (255, 255, 255, 255),
) -> list[Part]:
    """The door leaf (thickness depth_m, centred): the face image on -y, its mirror on +y (so a feature
    through the door, a window, lines up from both sides), the edge image on the four edges."""
    hx, _, hz = (e / 2 for e in ext_m)
    faces = box_faces((2 * hx, depth_m, 2 * hz))
    front = faces["-y"].textured(face)
    back = faces["+y"].textured(ImageOps.mirror(face))
    edges = merge([faces[k] for k in ("+x", "-x", "+z", "-z")]).textured(edge)
    parts = [front, back, edges]
    for p in parts:
        p.rgba = rgba
    return parts


def _lever_handle(x_m: float, z_m: float, face_y_m: float, reach_m: float, rgba: tuple[int, ...]) -> list[Part]:
    """A lever handle on both faces: a round rose on the leaf and a lever pointing towards the hinge (-x)."""
    parts = []
    for s in (-1, 1):
        y0, y1 = s * face_y_m, s * reach_m
        parts.append(tube_between((x_m, y0, z_m), (x_m, y0 + s * 0.003, z_m), 0.028, rgba, segments=12))
        parts.append(tube_between((x_m, y0 + s * 0.003, z_m), (x_m, (y0 + y1) / 2, z_m), 0.008, rgba, segments=8))
        parts.append(box_between((x_m - 0.13, y0 + (y1 - y0) * 0.45, z_m - 0.009), (x_m + 0.01, y1, z_m + 0.009), rgba))
    return parts


def _hinges(hx: float, hz: float, half_t: float, rgba: tuple[int, ...]) -> Part:
    """Three hinge leaves and knuckles on the hinge edge (-x)."""
    return merge(
        [
            box_between((-hx, -half_t, z - 0.05), (-hx + 0.006, half_t, z + 0.05), rgba)
            for z in (-hz * 0.8, 0.0, hz * 0.8)
        ]
    )


def _bevel_rect(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], light: RGB, dark: RGB, width: int) -> None:
    """A raised panel's moulding: lit along the top and left, shadowed along the bottom and right."""
    x0, y0, x1, y1 = box
    for k in range(width):
        d.line([(x0 + k, y1 - k), (x0 + k, y0 + k), (x1 - k, y0 + k)], fill=light)
        d.line([(x1 - k, y0 + k), (x1 - k, y1 - k), (x0 + k, y1 - k)], fill=dark)


def _panel_door_face(w_px: int, h_px: int) -> Image.Image:
    """A six-panel door in mid-brown wood: stiles and rails with vertical grain, raised panels with bevels."""
    base: RGB = (150, 96, 52)
    img = wood(w_px, h_px, base, 21, grain_along_x=False)
    panel = wood(w_px, h_px, (162, 106, 60), 23, grain_along_x=False)
    d = ImageDraw.Draw(img)
    margin, gap = int(w_px * 0.14), int(w_px * 0.11)
    col_w = (w_px - 2 * margin - gap) // 2
    rows = [(0.06, 0.24), (0.30, 0.62), (0.68, 0.94)]  # top small, middle tall, bottom medium (fractions of height)
    for top, bottom in rows:
        for c in range(2):
            x0 = margin + c * (col_w + gap)
            box = (x0, int(top * h_px), x0 + col_w, int(bottom * h_px))
            img.paste(panel.crop(box), box[:2])
            _bevel_rect(d, box, (196, 140, 88), (92, 56, 28), 4)
            inner = (box[0] + 9, box[1] + 9, box[2] - 9, box[3] - 9)
            _bevel_rect(d, inner, (104, 64, 34), (188, 134, 84), 2)
    return img


@modelled("wooden_door", "Wooden panel door", "Doors")
def wooden_door(ext_m: Ext) -> list[Part]:
    """A mid-brown six-panel wooden door with bevelled raised panels and vertical grain, a satin-chrome lever
    handle on both faces and three hinges: the panel pattern alone says "door"."""
    hx, hy, hz = (e / 2 for e in ext_m)
    leaf_t = hy * 1.3  # the leaf; the levers stand off it to the box's faces
    slab = _door_slab(ext_m, _panel_door_face(256, 512), wood(64, 256, (140, 90, 48), 25, grain_along_x=False), leaf_t)
    handle = _lever_handle(hx - 0.07, -0.02 * hz, leaf_t / 2, hy, (196, 198, 204, 255))
    key = [
        box_between(
            (hx - 0.085, s * leaf_t / 2 - 0.0015, -0.12 * hz - 0.03),
            (hx - 0.055, s * leaf_t / 2 + 0.0015, -0.12 * hz + 0.03),
            (196, 198, 204, 255),
        )
        for s in (-1, 1)
    ]
    return [*slab, merge(handle + key), _hinges(hx, hz, leaf_t / 2 + 0.001, (176, 150, 84, 255))]


def _glass_image() -> Image.Image:
    """Light-blue glass with two soft reflection streaks and a frosted band of safety dots at eye level."""
    w, h = 256, 512
    img = canvas(w, h, (168, 212, 236))
    d = ImageDraw.Draw(img)
    for x0, width in ((40, 26), (88, 10), (170, 18)):
        d.polygon([(x0, h), (x0 + width, h), (x0 + width + 150, 0), (x0 + 150, 0)], fill=(214, 236, 248))
    y = int(h * 0.28)
    d.rectangle([0, y - 14, w, y + 14], fill=(226, 236, 242))
    for k in range(12):
        cx = 10 + k * 21
        d.ellipse([cx - 6, y - 6, cx + 6, y + 6], fill=(250, 252, 255))
    return img


@modelled("glass_door", "Glass door", "Doors")
def glass_door(ext_m: Ext) -> list[Part]:
    """A dark aluminium frame (stiles, top rail, tall kick rail) around one large translucent light-blue pane
    with reflection streaks and a dotted safety band, a long steel pull bar on both faces: a glass door."""
    hx, hy, hz = (e / 2 for e in ext_m)
    frame_t = hy * 1.2
    stile, top, bottom = 0.085, 0.11, 0.22
    frame_img = brushed_metal(64, 256, (62, 64, 70), 31)
    frame = merge(
        [tex_box((stile, frame_t, 2 * hz), (s * (hx - stile / 2), 0.0, 0.0), frame_img) for s in (-1, 1)]
        + [
            tex_box((2 * hx - 2 * stile, frame_t, top), (0.0, 0.0, hz - top / 2), frame_img),
            tex_box((2 * hx - 2 * stile, frame_t, bottom), (0.0, 0.0, -hz + bottom / 2), frame_img),
        ]
    )
    pane_ext = (2 * hx - 2 * stile + 0.01, 0.008, 2 * hz - top - bottom + 0.01)
    pane = tex_box(pane_ext, (0.0, 0.0, (bottom - top) / 2), _glass_image())
    pane.rgba = (255, 255, 255, 105)
    pane.name = "glass"
    bar_x, bar_len = hx - stile / 2, 0.9
    bar = []
    for s in (-1, 1):  # a pull bar on each face, on two stand-offs
        face, off = s * frame_t / 2, s * (frame_t / 2 + 0.004)
        bar.append(box_between((bar_x - 0.013, off, -bar_len / 2), (bar_x + 0.013, s * hy, bar_len / 2), STEEL_RGBA))
        for z in (-bar_len / 2 + 0.06, bar_len / 2 - 0.06):
            bar.append(box_between((bar_x - 0.008, face, z - 0.01), (bar_x + 0.008, off, z + 0.01), STEEL_RGBA))
    return [frame, merge(bar), pane]


def _fire_door_face(w_px: int, h_px: int) -> Image.Image:
    """Grey painted steel: a folded-edge border with rivets, a wired-glass vision panel, a round blue
    FIRE DOOR / KEEP SHUT sign and a brushed kick plate."""
    img = speckle(canvas(w_px, h_px, (164, 170, 176)), 4, seed=41)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, w_px - 1, h_px - 1], outline=(120, 124, 130), width=5)
    for y in range(14, h_px - 10, 36):  # rivets along both stiles
        for x in (12, w_px - 13):
            d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=(176, 180, 186), outline=(90, 94, 100))
    # vision panel: upper half, towards the handle side (+x, the right of this face seen from outside)
    wx0, wx1, wy0, wy1 = int(w_px * 0.50), int(w_px * 0.74), int(h_px * 0.10), int(h_px * 0.40)
    glass = canvas(wx1 - wx0, wy1 - wy0, (56, 78, 96))
    g = ImageDraw.Draw(glass)
    step = 12
    for k in range(-glass.height // step - 1, glass.width // step + 2):  # the wire mesh, in diamonds
        g.line([(k * step, 0), (k * step + glass.height, glass.height)], fill=(120, 140, 156), width=1)
        g.line([(k * step + glass.height, 0), (k * step, glass.height)], fill=(120, 140, 156), width=1)
    d.rectangle([wx0 - 6, wy0 - 6, wx1 + 6, wy1 + 6], fill=(70, 72, 78))
    img.paste(glass, (wx0, wy0))
    cx, cy, r = int(w_px * 0.32), int(h_px * 0.30), int(w_px * 0.15)
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(20, 72, 160), outline=(240, 240, 240), width=3)
    text(d, (cx, cy - r * 0.32), "FIRE", max(10, r // 2), (250, 250, 250))
    text(d, (cx, cy + r * 0.05), "DOOR", max(10, r // 2), (250, 250, 250))
    text(d, (cx, cy + r * 0.48), "KEEP SHUT", max(8, r // 4), (250, 250, 250))
    plate = brushed_metal(w_px - 16, int(h_px * 0.11), (186, 190, 196), 43)
    img.paste(plate, (8, h_px - 8 - plate.height))
    return img


@modelled("metal_door", "Steel fire door", "Doors")
def metal_door(ext_m: Ext) -> list[Part]:
    """A grey painted steel door with rivets, a wired-glass vision panel, a blue FIRE DOOR sign, a brushed kick
    plate, a red push bar across the front and a black lever on the back: a metal fire door."""
    hx, hy, hz = (e / 2 for e in ext_m)
    leaf_t = hy * 0.96
    face = _fire_door_face(256, 512)
    slab = _door_slab(ext_m, face, brushed_metal(64, 256, (120, 124, 130), 45), leaf_t)
    y0 = -leaf_t / 2
    z_bar = -0.02 * hz
    red = (196, 32, 30, 255)
    bar = [box_between((-hx + 0.07, -hy + 0.002, z_bar - 0.014), (hx - 0.07, -hy + 0.010, z_bar + 0.014), red)]
    housings = [
        box_between((x0, -hy, z_bar - 0.045), (x1, y0, z_bar + 0.045), (40, 40, 44, 255))
        for x0, x1 in ((-hx + 0.04, -hx + 0.12), (hx - 0.16, hx - 0.04))
    ]
    arms = [
        box_between((x - 0.01, -hy + 0.006, z_bar - 0.01), (x + 0.01, y0, z_bar + 0.01), (40, 40, 44, 255))
        for x in (-hx + 0.2, hx - 0.22)
    ]
    lever = [
        p
        for p in _lever_handle(hx - 0.09, z_bar, leaf_t / 2, hy, (36, 36, 40, 255))
        if float(np.mean(p.vertices[:, 1])) > 0
    ]  # the back face only: the push bar is the front's handle
    return [*slab, merge(bar), merge(housings + arms + lever), _hinges(hx, hz, leaf_t / 2 + 0.001, (90, 94, 100, 255))]


# --- hanging things --------------------------------------------------------------------------------------


def _bag_image() -> Image.Image:
    """Black leather with four stitched vertical seams, seams round top and bottom, and a red band with
    the word BOXING in white twice around."""
    w, h = 512, 256
    img = speckle(canvas(w, h, (30, 30, 33)), 6, seed=51, blur_px=1.0)
    d = ImageDraw.Draw(img)
    stitch: RGB = (150, 150, 150)
    for k in range(4):
        x = (k + 0.5) * w / 4
        d.line([(x, 0), (x, h)], fill=(12, 12, 12), width=3)
        for dx in (-5, 5):
            dashed(d, (x + dx, 0), (x + dx, h), stitch, 1, 5)
    band0, band1 = int(h * 0.22), int(h * 0.48)  # image rows run from the top of the bag (v = 1) down
    d.rectangle([0, band0, w, band1], fill=(188, 26, 30))
    for y in (band0 + 4, band1 - 4):
        dashed(d, (0, y), (w, y), (240, 200, 200), 1, 5)
    for u in (0.25, 0.75):
        text(d, (u * w, (band0 + band1) / 2), "BOXING", int((band1 - band0) * 0.62), (250, 250, 250))
    for y in (6, h - 6):
        dashed(d, (0, y), (w, y), stitch, 1, 5)
    return img  # the image's top row is the top of the bag (v = 1)


@modelled("punching_bag", "Punching bag", "Sports")
def punching_bag(ext_m: Ext) -> list[Part]:
    """A tall black leather heavy bag with stitched seams and a red BOXING band, a rounded bottom, a flat top
    with four steel chains to a swivel ring at the top: a boxing heavy bag as it hangs in a gym."""
    r, _, hz = ext_m[0] / 2, ext_m[1] / 2, ext_m[2] / 2
    top = hz - 0.16 * (2 * hz)  # the top of the leather; chains and ring above it
    side = lathe(
        [
            (r * 0.82, -hz + 0.004),
            (r * 0.94, -hz + 0.012),
            (r, -hz + 0.05),
            (r, top - 0.03),
            (r * 0.96, top - 0.008),
            (r * 0.88, top),
        ]
    ).textured(_bag_image())
    caps = merge(
        [lathe([(0.0, -hz), (r * 0.82, -hz), (r * 0.82, -hz + 0.004)]), lathe([(r * 0.88, top), (0.0, top + 0.004)])]
    ).coloured((24, 24, 26, 255))
    swivel_z = hz - 0.05
    chains = [
        tube_between(
            (r * 0.7 * math.cos(a), r * 0.7 * math.sin(a), top + 0.002),
            (0.0, 0.0, swivel_z - 0.015),
            0.005,
            (150, 152, 158, 255),
            segments=6,
        )
        for a in (math.pi / 4, 3 * math.pi / 4, 5 * math.pi / 4, 7 * math.pi / 4)
    ]
    d_rings = [
        tube_between(
            (r * 0.7 * math.cos(a), r * 0.7 * math.sin(a), top - 0.002),
            (r * 0.7 * math.cos(a), r * 0.7 * math.sin(a), top + 0.02),
            0.012,
            (120, 122, 128, 255),
            8,
        )
        for a in (math.pi / 4, 3 * math.pi / 4, 5 * math.pi / 4, 7 * math.pi / 4)
    ]
    swivel = tube_between((0.0, 0.0, swivel_z - 0.02), (0.0, 0.0, swivel_z + 0.01), 0.012, (150, 152, 158, 255), 10)
    ring = torus(0.024, 0.005, (0.0, 0.0, hz - 0.029), (170, 172, 178, 255))
    return [side, caps, merge(chains + d_rings + [swivel, ring])]


@modelled("pendant_lamp", "Pendant lamp", "Lighting")
def pendant_lamp(ext_m: Ext) -> list[Part]:
    """A dark green enamel cone shade with a brass rim band and a tall brass cord grip, white inside, a warm
    glowing bulb hanging below the rim: a pendant (hanging) lamp seen from the side or from below."""
    r, hz = ext_m[0] / 2, ext_m[2] / 2
    h = 2 * hz
    rim_z = -hz + 0.25 * h  # the bulb hangs below the rim, seen from the side
    dome = [
        (r, rim_z),
        (r * 0.93, rim_z + 0.06 * h),
        (r * 0.72, rim_z + 0.2 * h),
        (r * 0.5, rim_z + 0.36 * h),
        (r * 0.34, rim_z + 0.5 * h),
        (r * 0.27, rim_z + 0.56 * h),
        (r * 0.2, rim_z + 0.58 * h),
    ]
    grip_z = dome[-1][1]
    shade_img = speckle(canvas(256, 64, (34, 52, 44)), 2, seed=61)
    outside = lathe(dome, 32).textured(shade_img)
    inside = lathe([(x * 0.97, z) for x, z in dome], 32, inward=True).coloured((246, 240, 224, 255))
    brass = merge(
        [
            lathe([(r * 0.97, rim_z), (r, rim_z)], 32),  # the rim's edge, seen from below
            lathe([(r, rim_z), (r, rim_z + 0.06 * h), (r * 0.93, rim_z + 0.06 * h)], 32),  # a band round it
            lathe([(r * 0.2, grip_z), (r * 0.12, grip_z), (r * 0.12, hz - 0.05 * h), (r * 0.07, hz)], 16),
        ]
    )
    brass = brass.coloured((200, 160, 72, 255))
    bulb_r = 0.3 * r
    globe = [
        (bulb_r * math.cos(t), -hz + bulb_r + bulb_r * math.sin(t)) for t in np.linspace(-math.pi / 2, math.pi / 4, 8)
    ]
    bulb = lathe(globe + [(bulb_r * 0.45, -hz + 2.8 * bulb_r)], 16).coloured((255, 246, 204, 255))
    socket = tube_between((0.0, 0.0, -hz + 2.7 * bulb_r), (0.0, 0.0, grip_z), bulb_r * 0.55, (60, 58, 54, 255), 12)
    return [outside, inside, brass, bulb, socket]


def _burlap_image(w_px: int, h_px: int) -> Image.Image:
    """Coarse hessian: a loose tan weave with darker threads, a stitched seam round the edge and a stencilled
    SAND."""
    rng = np.random.default_rng(71)
    img = fabric(w_px, h_px, (184, 150, 98), 72, weave_px=3)
    d = ImageDraw.Draw(img)
    for _ in range(40):  # stray darker threads
        if rng.random() < 0.5:
            y = int(rng.integers(0, h_px))
            d.line([(0, y), (w_px, y)], fill=(150, 118, 72), width=1)
        else:
            x = int(rng.integers(0, w_px))
            d.line([(x, 0), (x, h_px)], fill=(150, 118, 72), width=1)
    m = 14
    dashed(d, (m, m), (w_px - m, m), (96, 72, 40), 3, 7)
    dashed(d, (m, h_px - m), (w_px - m, h_px - m), (96, 72, 40), 3, 7)
    dashed(d, (m, m), (m, h_px - m), (96, 72, 40), 3, 7)
    text(d, (w_px * 0.42, h_px * 0.5), "SAND", int(h_px * 0.32), (60, 44, 26))
    return img


SACK_TIE_S = 0.6  # where the twine ties the sack's neck, as a fraction of the half length from the centre


def _sack_half_width(sv: np.ndarray) -> np.ndarray:
    """Half width along the sack (1 = the box's), from the sewn end (-1) to the tied end (+1): the full body,
    a neck gathered at the twine, a small flared tuft beyond."""
    return np.interp(sv, [-1.0, 0.25, 0.45, SACK_TIE_S, 0.8, 1.0], [1.0, 1.0, 0.8, 0.32, 0.42, 0.38])


def _sack_thickness(sv: np.ndarray, tv: np.ndarray) -> np.ndarray:
    """Half thickness (1 = the box's): plump in the body, flat at the sewn seams and through the neck."""
    across = np.sqrt(np.clip(1 - np.abs(tv) ** 3, 0, 1))
    along = np.sqrt(np.clip(1 - np.abs(sv) ** 8, 0, 1))
    return across * along * np.interp(sv, [-1.0, 0.25, 0.45, SACK_TIE_S, 0.8, 1.0], [1.0, 1.0, 0.8, 0.55, 0.6, 0.5])


@modelled("cloth_sandbag", "Sandbag", "Tools")
def cloth_sandbag(ext_m: Ext) -> list[Part]:
    """A plump hessian sack: two coarse tan sheets sewn round the edge, stencilled SAND on top, the open end
    gathered and tied with twine: a sandbag."""
    hx, hy, hz = (e / 2 for e in ext_m)
    s = np.concatenate([np.linspace(-1.0, SACK_TIE_S, 17), np.linspace(SACK_TIE_S, 1.0, 6)[1:]])
    t = np.linspace(-1.0, 1.0, 11)
    ss, tt = np.meshgrid(s, t, indexing="ij")
    x, y, z = ss * hx, tt * hy * _sack_half_width(ss), _sack_thickness(ss, tt) * hz
    uv = np.stack([(ss + 1) / 2, (tt + 1) / 2], -1).reshape(-1, 2)
    faces = _grid_faces(len(s) - 1, len(t) - 1)[:, ::-1]  # facing out: up for the top sheet, down for the bottom
    img = _burlap_image(512, 256)
    top = Part(np.stack([x, y, z], -1).reshape(-1, 3), faces, uv.copy(), img)
    bottom = Part(np.stack([x, -y, -z], -1).reshape(-1, 3), faces, uv.copy(), img)
    neck_r = max(hy * 0.32, hz * 0.55) * 1.1
    tie_x = SACK_TIE_S * hx
    twine = tube_between((tie_x - 0.006, 0.0, 0.0), (tie_x + 0.006, 0.0, 0.0), neck_r, (112, 84, 50, 255), 12)
    return [merge([top, bottom]), twine]
