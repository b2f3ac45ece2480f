"""Modelled objects: flat (see registry.MODULES) -- wall fixtures, a ceiling tile and a dart.

Orientation in their scenes (reacthuman/scenes/families): frames, the mirror and the shelf board hang with
the identity rotation against a wall at -x, so their face to the room is +x (picture up = +z, the viewer's
right = +y); the clock (a cylinder along z) is turned +90 deg about y, so its dial +z faces the room with
12 o'clock at body -x and 3 o'clock at body +y; a ceiling panel falls flat, seen from below (-z); the dart
is thrown as it is, its needle at +z.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from reacthuman.scenes.modelled.geometry import Part, box, box_faces, merge
from reacthuman.scenes.modelled.registry import modelled
from reacthuman.scenes.modelled.textures import RGB, brushed_metal, canvas, speckle, text, wood

Vec3 = tuple[float, float, float]


# --- geometry helpers (flat-faced pieces with their own uv) -------------------------------------------------


def quad(corners_m: list[Vec3], uv: list[tuple[float, float]] | None = None, facing: Vec3 | None = None) -> Part:
    """One quad (corners in order around it); turned to face `facing` when given (normal . facing > 0)."""
    v = np.asarray(corners_m, np.float64)
    f = np.array([[0, 1, 2], [0, 2, 3]])
    if facing is not None and np.dot(np.cross(v[1] - v[0], v[2] - v[0]), facing) < 0:
        f = f[:, ::-1]
    t = np.asarray(uv if uv is not None else [(0, 0), (1, 0), (1, 1), (0, 1)], np.float64)
    return Part(v, f, t)


def two_sided(part: Part) -> Part:
    """A sheet seen from both sides: the faces again, reversed, on their own vertices (their own normals)."""
    n = len(part.vertices)
    v = np.concatenate([part.vertices, part.vertices])
    f = np.concatenate([part.faces, part.faces[:, ::-1] + n])
    uv = None if part.uv is None else np.concatenate([part.uv, part.uv])
    return Part(v, f, uv, part.image, part.rgba, part.name)


def rect_loop(x_m: float, half_y_m: float, half_z_m: float) -> np.ndarray:
    """The four corners of a rectangle in the plane x = x_m, counter-clockwise seen from +x."""
    return np.array(
        [(x_m, -half_y_m, -half_z_m), (x_m, half_y_m, -half_z_m), (x_m, half_y_m, half_z_m), (x_m, -half_y_m, half_z_m)]
    )


def frame_moulding(loops: list[np.ndarray], facings: list[str], v_band: float = 0.25) -> Part:
    """A mitred picture-frame moulding: each pair of consecutive rectangular loops joined by four trapezoids.

    facings[i] says which way the strip between loops i and i+1 faces: "out" (away from the centre line),
    "in" (towards it) or "+x"/"-x". u runs along each side (the wood grain), v across it; each strip reads
    its own band of the texture so neighbouring strips do not repeat the same grain."""
    parts = []
    for i, (a, b) in enumerate(zip(loops, loops[1:])):
        for k in range(4):
            k2 = (k + 1) % 4
            corners = [a[k], a[k2], b[k2], b[k]]
            mid = (a[k] + a[k2]) / 2
            radial = np.array([0.0, mid[1], mid[2]])
            if facings[i] in ("+x", "-x"):
                facing = np.array([1.0 if facings[i] == "+x" else -1.0, 0.0, 0.0])
            elif facings[i] == "out":
                facing = radial
            else:  # an inner bevel faces the centre and the front
                facing = -radial / max(np.linalg.norm(radial), 1e-9) + np.array([1.0, 0, 0])
            v0 = (i * 0.31 + k * 0.17) % (1 - v_band)
            uv = [(0.0, v0), (1.0, v0), (1.0, v0 + v_band), (0.0, v0 + v_band)]
            parts.append(quad([tuple(c) for c in corners], uv, tuple(facing)))
    return merge(parts)


def lathe(profile: list[tuple[float, float]], segments: int = 16, phase_rad: float = 0.0) -> Part:
    """A surface of revolution about z from (z, radius) pairs; u around z, v along the profile (0 to 1)."""
    phi = np.linspace(0.0, 2 * math.pi, segments + 1) + phase_rad
    zs = np.array([p[0] for p in profile])
    rows = [np.stack([r * np.cos(phi), r * np.sin(phi), np.full_like(phi, z)], -1) for z, r in profile]
    v = np.concatenate(rows)
    vv = (zs - zs[0]) / (zs[-1] - zs[0])
    uv = np.concatenate(
        [np.stack([phi / (2 * math.pi) - phase_rad / (2 * math.pi), np.full_like(phi, t)], -1) for t in vv]
    )
    rings, cols = len(profile) - 1, segments
    r, c = np.meshgrid(np.arange(rings), np.arange(cols), indexing="ij")
    a = (r * (cols + 1) + c).ravel()
    b, d = a + 1, a + cols + 1
    f = np.concatenate([np.stack([a, b, d + 1], 1), np.stack([a, d + 1, d], 1)])
    if zs[-1] < zs[0]:
        f = f[:, ::-1]
    return Part(v, f, uv)


def annulus(r_in_m: float, r_out_m: float, z_m: float, segments: int = 48, up: bool = True) -> Part:
    """A flat ring at height z_m facing +z (or -z); uv maps it into the unit square like geometry.disc."""
    phi = np.linspace(0.0, 2 * math.pi, segments + 1)
    v = np.concatenate(
        [np.stack([r * np.cos(phi), r * np.sin(phi), np.full_like(phi, z_m)], -1) for r in (r_in_m, r_out_m)]
    )
    uv = 0.5 + 0.5 * v[:, :2] / r_out_m
    n = segments + 1
    i = np.arange(segments)
    f = np.concatenate([np.stack([i, i + n, i + n + 1], 1), np.stack([i, i + n + 1, i + 1], 1)])
    return Part(v, f if up else f[:, ::-1], uv)


def oriented_disc(radius_m: float, z_m: float, up_axis: Vec3, right_axis: Vec3, segments: int = 48) -> Part:
    """A disc facing +z whose texture's top points along up_axis and its right along right_axis (body frame)."""
    phi = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)
    rim = np.stack([radius_m * np.cos(phi), radius_m * np.sin(phi), np.full_like(phi, z_m)], -1)
    v = np.concatenate([[[0.0, 0.0, z_m]], rim])
    up, right = np.asarray(up_axis, float), np.asarray(right_axis, float)
    uv = np.stack([0.5 + 0.5 * (v @ right) / radius_m, 0.5 + 0.5 * (v @ up) / radius_m], 1)
    f = np.array([[0, 1 + i, 1 + (i + 1) % segments] for i in range(segments)])
    return Part(v, f, uv)


def face(ext_m: Vec3, side: str) -> Part:
    """One face of a box of full extents ext_m (see geometry.box_faces for its uv)."""
    return box_faces(ext_m)[side]


# --- texture helpers ----------------------------------------------------------------------------------------


def vertical_gradient(width_px: int, height_px: int, top: RGB, bottom: RGB) -> Image.Image:
    t = np.linspace(0.0, 1.0, height_px)[:, None, None]
    a = np.asarray(top, np.float32) * (1 - t) + np.asarray(bottom, np.float32) * t
    return Image.fromarray(np.broadcast_to(a, (height_px, width_px, 3)).astype(np.uint8))


def glare(
    img: Image.Image, bands: list[tuple[float, float, float]], angle_deg: float = 35.0, blur_px: float = 3.0
) -> Image.Image:
    """Light diagonal glare streaks over an image: bands of (centre 0-1 across the diagonal, width 0-1, strength)."""
    w, h = img.size
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(angle_deg)
    s = (x / w * math.cos(a) + (1 - y / h) * math.sin(a)) / (math.cos(a) + math.sin(a))
    mask = np.zeros((h, w), np.float32)
    for centre, width, strength in bands:
        mask = np.maximum(mask, strength * (np.abs(s - centre) < width / 2))
    m = Image.fromarray((mask * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(blur_px))
    k = np.asarray(m, np.float32)[..., None] / 255.0
    a_img = np.asarray(img.convert("RGB"), np.float32)
    return Image.fromarray((a_img * (1 - k) + 255.0 * k).clip(0, 255).astype(np.uint8))


def landscape_painting(width_px: int, height_px: int, seed: int) -> Image.Image:
    """A painted landscape: blue sky and sun, blue mountains, green hills, a lake, trees and a red-roofed house."""
    w, h = width_px, height_px
    img = vertical_gradient(w, h, (88, 150, 215), (190, 220, 240))
    d = ImageDraw.Draw(img)
    d.ellipse([w * 0.72, h * 0.10, w * 0.86, h * 0.10 + w * 0.14], fill=(255, 222, 90))
    for cx, cy, rx in ((0.22, 0.20, 0.09), (0.38, 0.16, 0.07), (0.55, 0.24, 0.06)):  # clouds
        d.ellipse([w * (cx - rx), h * cy - w * rx * 0.35, w * (cx + rx), h * cy + w * rx * 0.35], fill=(248, 250, 252))
    d.polygon(
        [
            (0, h * 0.58),
            (w * 0.18, h * 0.30),
            (w * 0.33, h * 0.48),
            (w * 0.50, h * 0.26),
            (w * 0.70, h * 0.50),
            (w * 0.85, h * 0.36),
            (w, h * 0.52),
            (w, h * 0.62),
            (0, h * 0.62),
        ],
        fill=(96, 112, 150),
    )
    d.polygon([(w * 0.44, h * 0.33), (w * 0.50, h * 0.26), (w * 0.56, h * 0.33)], fill=(240, 244, 250))  # snowcap
    d.ellipse([-w * 0.3, h * 0.50, w * 0.75, h * 1.1], fill=(108, 170, 70))
    d.ellipse([w * 0.35, h * 0.55, w * 1.3, h * 1.2], fill=(80, 146, 56))
    d.polygon(
        [(w * 0.0, h * 1.0), (w * 0.15, h * 0.78), (w * 0.55, h * 0.74), (w * 0.62, h * 1.0)], fill=(70, 130, 200)
    )  # lake
    for tx, ty, s in ((0.70, 0.70, 1.0), (0.80, 0.74, 0.8), (0.10, 0.64, 0.9)):  # trees
        cx, cy, r = w * tx, h * ty, w * 0.045 * s
        d.rectangle([cx - r * 0.18, cy, cx + r * 0.18, cy + r * 1.4], fill=(100, 66, 36))
        d.ellipse([cx - r, cy - r * 1.5, cx + r, cy + r * 0.4], fill=(36, 100, 40))
    hx, hy, hs = w * 0.40, h * 0.64, w * 0.07  # house
    d.rectangle([hx, hy, hx + hs, hy + hs * 0.7], fill=(240, 232, 210))
    d.polygon([(hx - hs * 0.12, hy), (hx + hs / 2, hy - hs * 0.5), (hx + hs * 1.12, hy)], fill=(190, 50, 40))
    d.rectangle([hx + hs * 0.4, hy + hs * 0.3, hx + hs * 0.6, hy + hs * 0.7], fill=(110, 70, 40))
    img = img.filter(ImageFilter.GaussianBlur(1.0))
    return speckle(img, 7, seed, blur_px=1.2)  # brush texture


def seascape_print(width_px: int, height_px: int, seed: int) -> Image.Image:
    """A sunset seascape print: orange-pink sky, a low sun, blue sea with a white sailing boat."""
    w, h = width_px, height_px
    img = vertical_gradient(w, h // 2 + 1, (70, 90, 170), (250, 170, 90)).resize((w, h // 2 + 1))
    full = canvas(w, h, (30, 70, 130))
    full.paste(img, (0, 0))
    sea = vertical_gradient(w, h - h // 2, (40, 95, 160), (20, 50, 100))
    full.paste(sea, (0, h // 2))
    d = ImageDraw.Draw(full)
    r = h * 0.11
    d.ellipse([w * 0.62 - r, h * 0.5 - r * 1.1, w * 0.62 + r, h * 0.5 + r * 0.9], fill=(255, 215, 110))
    for k in range(7):  # the sun's reflection on the water
        y = h * (0.54 + k * 0.06)
        half = w * (0.07 - k * 0.008)
        d.line([(w * 0.62 - half, y), (w * 0.62 + half, y)], fill=(250, 200, 110), width=max(2, h // 60))
    bx, by = w * 0.30, h * 0.62  # sailing boat
    hull = [(bx - w * 0.09, by), (bx + w * 0.09, by), (bx + w * 0.06, by + h * 0.06), (bx - w * 0.06, by + h * 0.06)]
    d.polygon(hull, fill=(110, 50, 30))
    d.line([(bx, by), (bx, by - h * 0.32)], fill=(60, 40, 30), width=max(2, w // 150))
    d.polygon(
        [(bx + w * 0.01, by - h * 0.31), (bx + w * 0.01, by - h * 0.02), (bx + w * 0.10, by - h * 0.02)],
        fill=(250, 250, 245),
    )
    d.polygon(
        [(bx - w * 0.01, by - h * 0.26), (bx - w * 0.01, by - h * 0.02), (bx - w * 0.07, by - h * 0.02)],
        fill=(235, 235, 230),
    )
    for cx in (0.15, 0.8):  # gulls
        x0, y0 = w * cx, h * 0.2
        d.line([(x0 - 10, y0), (x0, y0 + 5), (x0 + 10, y0)], fill=(40, 40, 60), width=2)
    return speckle(full.filter(ImageFilter.GaussianBlur(0.8)), 4, seed)


# --- frames -------------------------------------------------------------------------------------------------


def framed(
    ext_m: Vec3,
    border_m: float,
    bevel_m: float,
    recess_m: float,
    frame_img: Image.Image,
    picture: Image.Image,
    back_rgba: tuple[int, int, int, int],
) -> list[Part]:
    """A flat frame hung by its back (-x): a mitred moulding (flat front and an inner bevel down to the
    picture), the picture facing +x in the recess, a plain back board."""
    hx, hy, hz = (e / 2 for e in ext_m)
    loops = [
        rect_loop(-hx, hy, hz),
        rect_loop(hx, hy, hz),
        rect_loop(hx, hy - border_m, hz - border_m),
        rect_loop(hx - recess_m, hy - border_m - bevel_m, hz - border_m - bevel_m),
    ]
    moulding = frame_moulding(loops, ["out", "+x", "in"]).textured(frame_img)
    iy, iz = hy - border_m - bevel_m, hz - border_m - bevel_m
    pic = quad([tuple(c) for c in rect_loop(hx - recess_m, iy, iz)], facing=(1, 0, 0)).textured(picture)
    back = quad([tuple(c) for c in rect_loop(-hx, hy, hz)], facing=(-1, 0, 0)).coloured(back_rgba)
    return [moulding, pic, back]


@modelled("picture_frame", "Picture frame", "Decor")
def picture_frame(ext_m: Vec3) -> list[Part]:
    """A walnut-brown mitred wooden frame around a painted landscape (blue sky, sun, mountains, green hills,
    lake, house): a framed painting is recognised by the bright picture inside a darker wooden border."""
    frame = wood(256, 32, (150, 96, 52), seed=21)
    picture = landscape_painting(384, 278, seed=22)
    return framed(
        ext_m,
        border_m=0.028,
        bevel_m=0.010,
        recess_m=0.012,
        frame_img=frame,
        picture=picture,
        back_rgba=(122, 92, 62, 255),
    )


@modelled("glass_picture_frame", "Glass picture frame", "Decor")
def glass_picture_frame(ext_m: Vec3) -> list[Part]:
    """A slim black metal frame behind glass: a white mat around a sunset seascape print, with diagonal
    glare streaks across the glass, the cues of a glazed, framed picture."""
    frame = brushed_metal(256, 32, (38, 38, 42), seed=31)
    w, h = 512, 370
    sheet = canvas(w, h, (246, 244, 238))  # the mat (passe-partout)
    mat_px = 48
    sheet.paste(seascape_print(w - 2 * mat_px, h - 2 * mat_px, seed=32), (mat_px, mat_px))
    ImageDraw.Draw(sheet).rectangle(
        [mat_px - 3, mat_px - 3, w - mat_px + 2, h - mat_px + 2], outline=(205, 200, 190), width=3
    )  # the mat's cut bevel
    tint = Image.new("RGB", (w, h), (215, 230, 240))
    glazed = Image.blend(sheet, tint, 0.08)
    glazed = glare(glazed, [(0.30, 0.10, 0.55), (0.42, 0.03, 0.45), (0.78, 0.05, 0.35)], angle_deg=40, blur_px=4)
    return framed(
        ext_m,
        border_m=0.018,
        bevel_m=0.004,
        recess_m=0.008,
        frame_img=frame,
        picture=glazed,
        back_rgba=(70, 60, 50, 255),
    )


@modelled("wall_mirror", "Wall mirror", "Decor")
def wall_mirror(ext_m: Vec3) -> list[Part]:
    """A portrait mirror in a dark wooden frame: the glass a silvery light blue-grey gradient with a pale
    bevelled edge and bright diagonal glare streaks, the way mirrors are drawn and recognised."""
    frame = wood(256, 32, (92, 62, 40), seed=41)
    w, h = 360, 512
    glass = vertical_gradient(w, h, (222, 232, 240), (158, 176, 190))
    shade = np.linspace(-12, 12, w)[None, :, None]  # a slight left-right falloff
    glass = Image.fromarray((np.asarray(glass, np.float32) + shade).clip(0, 255).astype(np.uint8))
    glass = glare(
        glass, [(0.35, 0.14, 0.55), (0.50, 0.04, 0.6), (0.62, 0.02, 0.5), (0.85, 0.06, 0.35)], angle_deg=55, blur_px=5
    )
    d = ImageDraw.Draw(glass)
    edge_px = 10  # the mirror's bevelled edge catches the light
    d.rectangle([0, 0, w - 1, h - 1], outline=(236, 242, 246), width=edge_px)
    d.rectangle([edge_px, edge_px, w - 1 - edge_px, h - 1 - edge_px], outline=(140, 156, 170), width=2)
    return framed(
        ext_m,
        border_m=0.035,
        bevel_m=0.010,
        recess_m=0.010,
        frame_img=frame,
        picture=glass,
        back_rgba=(90, 80, 70, 255),
    )


# --- wall clock -------------------------------------------------------------------------------------------


def clock_dial(size_px: int = 512) -> Image.Image:
    """A white dial drawn upright: minute ticks, bold hour marks, numerals 1-12, black hands at 10:10, a red
    seconds hand."""
    s = size_px
    c = s / 2
    img = canvas(s, s, (250, 250, 246))
    d = ImageDraw.Draw(img)
    r = s * 0.49
    for m in range(60):
        a = math.radians(m * 6)
        hour = m % 5 == 0
        r0 = r * (0.84 if hour else 0.91)
        d.line(
            [(c + r0 * math.sin(a), c - r0 * math.cos(a)), (c + r * 0.96 * math.sin(a), c - r * 0.96 * math.cos(a))],
            fill=(20, 20, 20),
            width=9 if hour else 3,
        )
    for n in range(1, 13):
        a = math.radians(n * 30)
        text(d, (c + r * 0.68 * math.sin(a), c - r * 0.68 * math.cos(a)), str(n), int(s * 0.105), (15, 15, 15))

    def hand(angle_deg: float, length: float, tail: float, width_px: int, fill: RGB) -> None:
        a = math.radians(angle_deg)
        dx, dy = math.sin(a), -math.cos(a)
        d.line(
            [(c - dx * tail * r, c - dy * tail * r), (c + dx * length * r, c + dy * length * r)],
            fill=fill,
            width=width_px,
        )

    hand(305, 0.50, 0.10, 18, (15, 15, 15))  # hour hand, just past ten
    hand(60, 0.80, 0.12, 11, (15, 15, 15))  # minute hand, at ten past
    hand(200, 0.86, 0.22, 4, (215, 30, 30))  # seconds hand
    d.ellipse([c - 14, c - 14, c + 14, c + 14], fill=(215, 30, 30))
    d.ellipse([c - 5, c - 5, c + 5, c + 5], fill=(30, 30, 30))
    return img


@modelled("wall_clock", "Wall clock", "Decor")
def wall_clock(ext_m: Vec3) -> list[Part]:
    """A round kitchen wall clock: a black plastic rim around a recessed white dial with hour marks,
    numerals and black and red hands (12 o'clock at body -x, upright once hung with its dial to the room)."""
    radius, hz = ext_m[0] / 2, ext_m[2] / 2
    rim_m, recess_m, seg = 0.014, 0.008, 64
    r_in, dial_z = radius - rim_m, hz - recess_m
    black = (32, 32, 34, 255)
    rim = merge(
        [
            lathe([(-hz, radius), (hz - 0.006, radius), (hz, radius - 0.006)], seg),  # rounded outer edge
            annulus(r_in, radius - 0.006, hz, seg),
            lathe([(hz, r_in), (dial_z, r_in)], seg),  # the inside wall down to the dial
        ]
    ).coloured(black)
    back = annulus(0.0, radius, -hz, seg, up=False).coloured((60, 60, 62, 255))
    dial = oriented_disc(r_in, dial_z, up_axis=(-1.0, 0.0, 0.0), right_axis=(0.0, 1.0, 0.0), segments=seg)
    return [rim, back, dial.textured(clock_dial())]


# --- shelf board and ceiling panel ---------------------------------------------------------------------------


@modelled("wall_shelf_board", "Wall shelf board", "Furniture")
def wall_shelf_board(ext_m: Vec3) -> list[Part]:
    """A light oak shelf plank (grain along its length, a darker edge band) on two black metal bracket arms
    screwed under it: a wooden wall shelf."""
    ex, ey, ez = ext_m
    bracket_m = 0.004
    plank_ext = (ex, ey, ez - bracket_m)
    off = (0.0, 0.0, bracket_m / 2)
    faces = box_faces(plank_ext)
    oak = (196, 152, 100)
    top = Image.blend(wood(512, 256, oak, seed=51), canvas(512, 256, oak), 0.45)  # fine, soft grain
    top_xy = top.transpose(Image.Transpose.ROTATE_90)  # +z face: u along x, v along y; the grain runs along y
    edge = wood(512, 32, (170, 124, 78), seed=52)
    parts = [
        faces["+z"].textured(top_xy).moved(off),
        faces["-z"].textured(top_xy).moved(off),
        merge([faces["+x"], faces["-x"]]).textured(edge).moved(off),
        merge([faces["+y"], faces["-y"]]).textured(wood(64, 32, (150, 104, 60), seed=53)).moved(off),
    ]
    arm_w, arm_len = 0.025, ex * 0.8
    for y in (-ey * 0.32, ey * 0.32):
        parts.append(
            box((arm_len, arm_w, bracket_m), (30, 30, 32, 255), (-ex / 2 + arm_len / 2, y, -ez / 2 + bracket_m / 2))
        )
    return parts


def acoustic_tile(size_px: int, seed: int) -> Image.Image:
    """Off-white mineral-fibre ceiling tile: random worm-like fissures and pin holes, a darker bevelled border."""
    rng = np.random.default_rng(seed)
    s = size_px
    img = speckle(canvas(s, s, (246, 244, 236)), 4, seed, blur_px=1.0)
    d = ImageDraw.Draw(img)
    for _ in range(380):  # fissures: short wandering strokes
        x, y = rng.uniform(0, s, 2)
        a = rng.uniform(0, 2 * math.pi)
        pts = [(x, y)]
        for _ in range(int(rng.integers(2, 5))):
            a += rng.normal(0, 0.8)
            x, y = x + 4 * math.cos(a), y + 4 * math.sin(a)
            pts.append((x, y))
        g = int(rng.integers(120, 165))
        d.line(pts, fill=(g, g - 2, g - 8), width=int(rng.integers(2, 4)))
    for _ in range(900):  # pin holes
        x, y = rng.uniform(0, s, 2)
        rr = rng.uniform(0.8, 1.6)
        d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=(140, 138, 132))
    return img


@modelled("ceiling_panel", "Ceiling panel", "Building")
def ceiling_panel(ext_m: Vec3) -> list[Part]:
    """A square suspended-ceiling tile: its face (-z, seen from below) off-white with acoustic fissures and
    pin holes, a darker bevelled edge stepping down to it; a plain grey-beige fibre back."""
    hx, hy, hz = (e / 2 for e in ext_m)
    bevel_m = 0.016
    face_img = acoustic_tile(512, seed=61)
    bottom = quad(
        [
            (-hx + bevel_m, hy - bevel_m, -hz),
            (hx - bevel_m, hy - bevel_m, -hz),
            (hx - bevel_m, -hy + bevel_m, -hz),
            (-hx + bevel_m, -hy + bevel_m, -hz),
        ],
        facing=(0, 0, -1),
    )
    mid_z = -hz + ext_m[2] * 0.45
    loops = [
        np.array(
            [
                (-hx + bevel_m, -hy + bevel_m, -hz),
                (hx - bevel_m, -hy + bevel_m, -hz),
                (hx - bevel_m, hy - bevel_m, -hz),
                (-hx + bevel_m, hy - bevel_m, -hz),
            ]
        ),
        np.array([(-hx, -hy, mid_z), (hx, -hy, mid_z), (hx, hy, mid_z), (-hx, hy, mid_z)]),
        np.array([(-hx, -hy, hz), (hx, -hy, hz), (hx, hy, hz), (-hx, hy, hz)]),
    ]
    edge_parts = []
    for a, b in zip(loops, loops[1:]):
        for k in range(4):
            k2 = (k + 1) % 4
            mid = (a[k] + a[k2] + b[k] + b[k2]) / 4
            edge_parts.append(
                quad([tuple(a[k]), tuple(a[k2]), tuple(b[k2]), tuple(b[k])], facing=(mid[0], mid[1], 0.0))
            )
    top = face(ext_m, "+z").textured(speckle(canvas(128, 128, (200, 194, 178)), 8, seed=62, blur_px=1.5))
    return [bottom.textured(face_img), merge(edge_parts).coloured((186, 183, 174, 255)), top]


# --- dart ----------------------------------------------------------------------------------------------------


def knurled_barrel(width_px: int = 128, height_px: int = 256) -> Image.Image:
    """Tungsten grey with rings of fine cross-hatched knurling between plain bands (v along the dart)."""
    img = brushed_metal(width_px, height_px, (150, 152, 158), seed=71)
    d = ImageDraw.Draw(img)
    for band0, band1 in ((0.18, 0.42), (0.55, 0.80)):
        y0, y1 = int(band0 * height_px), int(band1 * height_px)
        for k in range(-height_px, width_px + height_px, 6):
            d.line([(k, y0), (k + (y1 - y0), y1)], fill=(70, 72, 78), width=1)
            d.line([(k, y1), (k + (y1 - y0), y0)], fill=(70, 72, 78), width=1)
    for y in (0.10, 0.48, 0.88):
        d.line([(0, y * height_px), (width_px, y * height_px)], fill=(60, 60, 66), width=4)
    return img


def flight_image(size_px: int = 64) -> Image.Image:
    """Bright red flight with a yellow chevron and a black edge."""
    s = size_px
    img = canvas(s, s, (225, 30, 40))
    d = ImageDraw.Draw(img)
    d.polygon([(0, s * 0.35), (s, s * 0.70), (s, s * 0.95), (0, s * 0.60)], fill=(255, 215, 30))
    d.rectangle([0, 0, s - 1, s - 1], outline=(20, 20, 20), width=3)
    return img


@modelled("dart", "Dart", "Sports")
def dart(ext_m: Vec3) -> list[Part]:
    """A steel-tipped dart along z: a bright steel needle (point at +z), a knurled tungsten barrel, a blue
    shaft and four red-and-yellow flights in an X at the back reaching the corners of the box."""
    hx, hy, hz = (e / 2 for e in ext_m)
    s = 2 * hz / 0.132  # the profile below is laid out for a 13.2 cm dart
    rmax = min(hx, hy)
    needle = lathe([(0.026 * s, 0.22 * rmax), (0.050 * s, 0.14 * rmax), (0.062 * s, 0.05 * rmax), (hz, 0.0)], 12)
    barrel = lathe(
        [
            (-0.006 * s, 0.26 * rmax),
            (0.000, 0.42 * rmax),
            (0.006 * s, 0.46 * rmax),
            (0.020 * s, 0.46 * rmax),
            (0.026 * s, 0.30 * rmax),
        ],
        16,
    )
    shaft = lathe([(-0.060 * s, 0.2 * rmax), (-0.006 * s, 0.22 * rmax)], 10)
    # flights: flat kites in the diagonal planes, from the shaft out to the box's corners
    fins = []
    for k in range(4):
        a = math.pi / 4 + k * math.pi / 2
        out = np.array([math.copysign(hx, math.cos(a)), math.copysign(hy, math.sin(a))])  # a corner of the box
        inner = out / np.linalg.norm(out) * 0.18 * rmax
        pts = [(inner, -0.022 * s), (out, -0.042 * s), (out, -hz), (inner, -hz)]
        fins.append(quad([(p[0], p[1], z) for p, z in pts], uv=[(0, 1), (1, 0.7), (1, 0), (0, 0)]))
    flights = two_sided(merge(fins))
    return [
        needle.coloured((215, 218, 224, 255)),
        barrel.textured(knurled_barrel()),
        shaft.coloured((30, 80, 200, 255)),
        flights.textured(flight_image()),
    ]
