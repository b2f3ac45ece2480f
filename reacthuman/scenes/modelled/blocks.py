"""Blocks: boxes whose look is their printed or painted faces (letters, pips, drawers, a cereal bowl) plus a few
small parts (a toolbox's handle, a filing cabinet's drawer pulls) kept inside the object's box."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from reacthuman.scenes.modelled.geometry import (
    FACE_ORDER,
    Part,
    box,
    box_faces,
    extrusion,
    merge,
    perimeter_u,
    rounded_rect_outline,
    tube_between,
)
from reacthuman.scenes.modelled.registry import modelled
from reacthuman.scenes.modelled.textures import RGB, brushed_metal, canvas, font, speckle, text, wood

ATLAS_PX = (512, 512)  # six faces in a 3 x 2 grid: cells of 170 x 256 px
ATLAS_PAD_PX = 2  # uv inset of each cell, so texture filtering never reads a neighbouring face


def atlas_box(
    ext_m: tuple[float, float, float], images: dict[str, Image.Image], size_px: tuple[int, int] = ATLAS_PX
) -> Part:
    """One textured part for a box: each face's image (any size, drawn upright as seen from outside) resized
    into a cell of one atlas image, the face's uv pointing at its cell."""
    w, h = size_px
    cw, ch = w // 3, h // 2
    atlas = Image.new("RGB", size_px, (128, 128, 128))
    faces = box_faces(ext_m)
    parts = []
    for i, key in enumerate(FACE_ORDER):
        col, row = i % 3, i // 3
        atlas.paste(images[key].convert("RGB").resize((cw, ch), Image.Resampling.LANCZOS), (col * cw, row * ch))
        u0, u1 = (col * cw + ATLAS_PAD_PX) / w, ((col + 1) * cw - ATLAS_PAD_PX) / w
        v0, v1 = 1 - ((row + 1) * ch - ATLAS_PAD_PX) / h, 1 - (row * ch + ATLAS_PAD_PX) / h
        f = faces[key]
        uv = np.stack([u0 + f.uv[:, 0] * (u1 - u0), v0 + f.uv[:, 1] * (v1 - v0)], 1)
        parts.append(Part(f.vertices, f.faces, uv, name=key))
    return merge(parts).textured(atlas)


def face_px(ext_m: tuple[float, float, float], key: str, long_px: int = 256) -> tuple[int, int]:
    """Pixel size (width, height) of a face's drawing with the face's aspect ratio, its long side long_px."""
    x, y, z = ext_m
    w, h = {"+x": (y, z), "-x": (y, z), "+y": (x, z), "-y": (x, z), "+z": (x, y), "-z": (x, y)}[key]
    s = long_px / max(w, h)
    return max(8, round(w * s)), max(8, round(h * s))


def shade(rgb: RGB, delta: int) -> RGB:
    """The colour lightened (delta > 0) or darkened by delta levels, clipped to 0-255."""
    return tuple(int(min(255, max(0, c + delta))) for c in rgb)  # type: ignore[return-value]


def bevel(
    draw: ImageDraw.ImageDraw,
    rect: tuple[int, int, int, int],
    width_px: int,
    rgb: RGB,
    light: int = 45,
    dark: int = -55,
) -> None:
    """A bevelled frame inside rect: lit top and left edges, shaded bottom and right (a chamfer seen head-on)."""
    x0, y0, x1, y1 = rect
    b = width_px
    draw.polygon([(x0, y0), (x1, y0), (x1 - b, y0 + b), (x0 + b, y0 + b)], fill=shade(rgb, light))
    draw.polygon([(x0, y0), (x0 + b, y0 + b), (x0 + b, y1 - b), (x0, y1)], fill=shade(rgb, light // 2))
    draw.polygon([(x1, y0), (x1, y1), (x1 - b, y1 - b), (x1 - b, y0 + b)], fill=shade(rgb, dark // 2))
    draw.polygon([(x0, y1), (x1, y1), (x1 - b, y1 - b), (x0 + b, y1 - b)], fill=shade(rgb, dark))


# --- toy block --------------------------------------------------------------------------------------------

TOY_BLOCK_FACES = {  # face: (glyph, panel colour, glyph colour)
    "+x": ("A", (222, 40, 40), (255, 220, 40)),
    "-x": ("D", (250, 150, 20), (30, 70, 200)),
    "+y": ("3", (140, 60, 190), (255, 255, 255)),
    "-y": ("B", (30, 100, 220), (255, 255, 255)),
    "+z": ("C", (40, 170, 70), (255, 235, 60)),
    "-z": ("1", (250, 210, 30), (220, 30, 40)),
}


def toy_block_face(glyph: str, panel: RGB, ink: RGB, seed: int, px: int = 256) -> Image.Image:
    """A wooden frame with a chamfer around a bright painted panel and one big letter or number."""
    img = wood(px, px, (226, 188, 130), seed)
    d = ImageDraw.Draw(img)
    edge = px // 12
    bevel(d, (0, 0, px - 1, px - 1), edge, (214, 176, 120), 35, -60)
    inset = px // 7
    d.rectangle([inset, inset, px - inset, px - inset], fill=panel)
    bevel(d, (inset, inset, px - inset, px - inset), px // 40, panel, -60, 40)  # a recessed panel
    text(d, (px / 2, px / 2 + px * 0.02), glyph, int(px * 0.62), ink, stroke_px=px // 50, stroke_fill=shade(ink, -90))
    return speckle(img, 4, seed + 7)


@modelled("toy_block", "Wooden alphabet block", "Toys")
def toy_block(ext_m: tuple[float, float, float]) -> list[Part]:
    """A child's ABC block: every face a different bright panel with a big letter or number in a chamfered
    natural-wood frame (the frame and the glyphs are what make it a toy block, not a painted cube)."""
    images = {k: toy_block_face(g, p, i, seed=20 + n) for n, (k, (g, p, i)) in enumerate(TOY_BLOCK_FACES.items())}
    return [atlas_box(ext_m, images)]


# --- dish sponge ------------------------------------------------------------------------------------------

SPONGE_SCOUR_SHARE = 0.3  # the green scouring layer's share of the height


def foam_texture(px: tuple[int, int], rgb: RGB, seed: int) -> Image.Image:
    """Porous foam: a mottled base full of open pores of every size, dark inside with a light rim."""
    w, h = px
    img = speckle(canvas(w, h, rgb), 8, seed, blur_px=2)
    d = ImageDraw.Draw(img)
    rng = np.random.default_rng(seed)
    for _ in range(w * h // 60):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(1.0, 2.5) if rng.uniform() < 0.85 else rng.uniform(3.0, 6.0)
        d.ellipse([x - r - 1, y - r * 0.8 - 1, x + r + 1, y + r * 0.8 + 1], fill=shade(rgb, 25))
        d.ellipse([x - r, y - r * 0.8, x + r, y + r * 0.8], fill=shade(rgb, int(rng.uniform(-95, -55))))
    return img


def scour_texture(px: tuple[int, int], rgb: RGB, seed: int) -> Image.Image:
    """A scouring pad: a dense non-woven mat of fine crossing fibres, darker than the foam."""
    w, h = px
    img = speckle(canvas(w, h, rgb), 6, seed)
    d = ImageDraw.Draw(img)
    rng = np.random.default_rng(seed)
    for _ in range(w * h // 25):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        a = rng.uniform(0, math.pi)
        n = rng.uniform(4, 14)
        d.line(
            [(x, y), (x + n * math.cos(a), y + n * math.sin(a))], fill=shade(rgb, int(rng.uniform(-35, 30))), width=1
        )
    return img


@modelled("dish_sponge", "Kitchen sponge", "Kitchen")
def dish_sponge(ext_m: tuple[float, float, float]) -> list[Part]:
    """A kitchen sponge: a porous yellow foam block under a thinner green scouring layer (the two-tone slab
    is the classic sponge look)."""
    x, y, z = ext_m
    zs = z * SPONGE_SCOUR_SHARE
    zf = z - zs
    foam_ext, scour_ext = (x, y, zf), (x, y, zs)
    foam = atlas_box(
        foam_ext, {k: foam_texture(face_px(foam_ext, k), (250, 214, 78), seed=31 + i) for i, k in enumerate(FACE_ORDER)}
    )
    scour = atlas_box(
        scour_ext,
        {k: scour_texture(face_px(scour_ext, k), (30, 112, 52), seed=41 + i) for i, k in enumerate(FACE_ORDER)},
    )
    return [foam.moved((0.0, 0.0, -z / 2 + zf / 2)), scour.moved((0.0, 0.0, z / 2 - zs / 2))]


# --- cereal box -------------------------------------------------------------------------------------------

CEREAL_RED: RGB = (214, 36, 40)
CEREAL_YELLOW: RGB = (255, 206, 40)
CEREAL_BLUE: RGB = (30, 90, 180)
FLAKE_RGB: RGB = (226, 160, 60)


def cereal_bowl(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seed: int) -> None:
    """A white bowl heaped with golden flakes, a spoon in it, seen from the front and a little above."""
    rng = np.random.default_rng(seed)
    rim_h = r * 0.32
    d.ellipse(
        [cx - r * 1.02, cy - rim_h + r * 0.95, cx + r * 1.02, cy + rim_h + r * 0.95], fill=shade(CEREAL_BLUE, -40)
    )  # the bowl's shadow
    d.chord(
        [cx - r, cy - r * 0.9, cx + r, cy + r * 0.9], 0, 180, fill=(250, 250, 250), outline=(150, 160, 180), width=2
    )
    d.ellipse([cx - r, cy - rim_h, cx + r, cy + rim_h], fill=(235, 238, 245), outline=(150, 160, 180), width=2)
    # the heap of flakes, over the rim
    for _ in range(int(r * 2.2)):
        a = rng.uniform(0, 2 * math.pi)
        rr = math.sqrt(rng.uniform(0, 1))
        fx = cx + rr * r * 0.92 * math.cos(a)
        fy = cy - rim_h * 0.6 + rr * rim_h * 0.8 * math.sin(a) - (1 - rr) * r * 0.35
        s = rng.uniform(r * 0.08, r * 0.15)
        c = shade(FLAKE_RGB, int(rng.uniform(-45, 30)))
        d.ellipse([fx - s, fy - s * 0.6, fx + s, fy + s * 0.6], fill=c, outline=shade(c, -50))
    # spoon handle rising out of the heap
    d.line(
        [(cx + r * 0.35, cy - r * 0.15), (cx + r * 1.05, cy - r * 0.95)],
        fill=(200, 205, 215),
        width=max(3, int(r * 0.1)),
    )
    # strawberries
    for sx in (-0.55, -0.2):
        px, py = cx + sx * r, cy - rim_h * 0.9
        d.polygon(
            [(px - r * 0.12, py - r * 0.05), (px + r * 0.12, py - r * 0.05), (px, py + r * 0.2)], fill=(210, 20, 40)
        )
        d.ellipse([px - r * 0.12, py - r * 0.13, px + r * 0.12, py + r * 0.03], fill=(210, 20, 40))


def cereal_front(px: tuple[int, int], seed: int) -> Image.Image:
    """The box's big face: a red band with the brand in yellow, a bowl of flakes on sunny yellow, a blue foot."""
    w, h = px
    img = canvas(w, h, CEREAL_YELLOW)
    d = ImageDraw.Draw(img)
    # sunburst behind the bowl
    cx, cy = w / 2, h * 0.66
    for k in range(16):
        a0, a1 = k * math.pi / 8, k * math.pi / 8 + math.pi / 16
        d.polygon(
            [
                (cx, cy),
                (cx + 2 * h * math.cos(a0), cy + 2 * h * math.sin(a0)),
                (cx + 2 * h * math.cos(a1), cy + 2 * h * math.sin(a1)),
            ],
            fill=(255, 228, 110),
        )
    d.rectangle([0, 0, w, int(h * 0.36)], fill=CEREAL_RED)
    d.polygon([(0, h * 0.36), (w, h * 0.36), (w, h * 0.41), (0, h * 0.39)], fill=CEREAL_RED)
    outline = max(2, w // 60)
    text(d, (w / 2, h * 0.11), "CORN", int(w * 0.36), (255, 230, 60), stroke_px=outline, stroke_fill=(120, 10, 10))
    text(d, (w / 2, h * 0.25), "FLAKES", int(w * 0.27), (255, 255, 255), stroke_px=outline, stroke_fill=(120, 10, 10))
    cereal_bowl(d, w / 2, h * 0.67, w * 0.38, seed)
    d.rectangle([0, int(h * 0.9), w, h], fill=CEREAL_BLUE)
    text(d, (w / 2, h * 0.95), "WHOLE GRAIN", int(w * 0.09), (255, 255, 255))
    d.rectangle([0, 0, w - 1, h - 1], outline=shade(CEREAL_RED, -60), width=2)
    return img


def cereal_side(px: tuple[int, int]) -> Image.Image:
    """A narrow side: red, the brand written up it, a white nutrition panel."""
    w, h = px
    img = canvas(w, h, CEREAL_RED)
    d = ImageDraw.Draw(img)
    band = Image.new("RGB", (int(h * 0.56), w), CEREAL_RED)
    words = "CORN FLAKES"
    size = int(w * 0.5)
    while size > 8 and font(size).getlength(words) > band.width * 0.94:
        size -= 1
    text(ImageDraw.Draw(band), (band.width / 2, band.height / 2), words, size, (255, 230, 60))
    img.paste(band.rotate(90, expand=True), (0, int(h * 0.04)))
    d.rectangle([int(w * 0.12), int(h * 0.62), int(w * 0.88), int(h * 0.94)], fill=(250, 250, 245))
    for k in range(9):
        yy = int(h * (0.65 + k * 0.031))
        d.line([(int(w * 0.18), yy), (int(w * 0.82), yy)], fill=(60, 60, 60), width=1)
    return img


def cardboard_end(px: tuple[int, int], printed: bool) -> Image.Image:
    """Top (printed red, with its tuck flap's crease) or bottom (bare grey-brown board, glued flaps)."""
    w, h = px
    img = canvas(w, h, CEREAL_RED if printed else (176, 150, 112))
    d = ImageDraw.Draw(img)
    line = shade(CEREAL_RED, -70) if printed else (120, 100, 70)
    d.line([(0, h // 2), (w, h // 2)], fill=line, width=2)
    d.line([(w * 0.1, h * 0.25), (w * 0.9, h * 0.25)], fill=line, width=1)
    if printed:
        text(d, (w / 2, h * 0.72), "OPEN HERE", max(8, h // 6), (255, 230, 60))
    return speckle(img, 4, 41)


@modelled("cereal_box", "Cereal box", "Kitchen")
def cereal_box(ext_m: tuple[float, float, float]) -> list[Part]:
    """A printed cereal box: big brand word and a bowl of flakes on both large faces (+-y, 20 x 30 cm), red
    sides with the brand written up them, a printed top and a bare cardboard bottom."""
    images = {
        "-y": cereal_front(face_px(ext_m, "-y", 512), seed=42),
        "+y": cereal_front(face_px(ext_m, "+y", 512), seed=43),
        "+x": cereal_side(face_px(ext_m, "+x", 512)),
        "-x": cereal_side(face_px(ext_m, "-x", 512)),
        "+z": cardboard_end(face_px(ext_m, "+z", 256), printed=True),
        "-z": cardboard_end(face_px(ext_m, "-z", 256), printed=False),
    }
    return [atlas_box(ext_m, images)]


# --- laptop -----------------------------------------------------------------------------------------------

LAPTOP_SILVER: RGB = (196, 199, 206)
LAPTOP_BASE: RGB = (150, 154, 162)
LAPTOP_CORNER_M = 0.012
LAPTOP_SIDE_PX = (1024, 64)
LAPTOP_SEAM_SHARE = 0.45  # the seam's height on the side, from the bottom


def laptop_lid(px: int) -> Image.Image:
    """The closed lid seen from above: brushed silver with a soft sheen, a simple round logo, the dark hinge at
    the back (+y, the image's top)."""
    img = brushed_metal(px, int(px * 0.69), LAPTOP_SILVER, seed=51)
    w, h = img.size
    d = ImageDraw.Draw(img)
    d.rectangle([w * 0.12, 0, w * 0.88, h * 0.035], fill=(52, 54, 60))  # the hinge along the back edge
    r = h * 0.11
    d.ellipse([w / 2 - r, h / 2 - r, w / 2 + r, h / 2 + r], outline=(236, 238, 242), width=max(3, int(r * 0.28)))
    d.ellipse([w / 2 - r * 0.35, h / 2 - r * 0.35, w / 2 + r * 0.35, h / 2 + r * 0.35], fill=(236, 238, 242))
    return img


def laptop_side(outline: np.ndarray, hx: float, hy: float) -> Image.Image:
    """The edge all round: silver lid above a dark seam, the darker base below, ports on the left and right
    sides, the thumb notch at the front, the hinge at the back."""
    w, h = LAPTOP_SIDE_PX
    img = canvas(w, h, LAPTOP_SILVER)
    d = ImageDraw.Draw(img)
    seam = int(h * (1 - LAPTOP_SEAM_SHARE))
    d.rectangle([0, seam, w, h], fill=LAPTOP_BASE)
    d.rectangle([0, seam - 2, w, seam + 2], fill=(40, 42, 48))
    front = perimeter_u(outline, (0.0, -hy)) * w
    d.ellipse([front - 28, seam - 10, front + 28, seam + 10], fill=(70, 72, 80))
    back = perimeter_u(outline, (0.0, hy)) * w
    d.rectangle([back - 150, seam - 8, back + 150, seam + 8], fill=(45, 47, 52))
    for sx in (hx, -hx):  # ports: two USB, an HDMI and an audio jack on each side
        c = perimeter_u(outline, (sx, 0.0)) * w
        y0, y1 = seam + 6, h - 8
        for k, pw in ((-40, 14), (-18, 14), (6, 20)):
            d.rectangle([c + k, y0, c + k + pw, y1], fill=(20, 20, 24))
        d.ellipse([c + 34, y0 + 2, c + 44, y0 + 12], fill=(20, 20, 24))
    return img


def laptop_bottom(px: int) -> Image.Image:
    """The underside: dark grey with rubber feet and vent slots."""
    img = canvas(px, int(px * 0.69), (90, 92, 98))
    w, h = img.size
    d = ImageDraw.Draw(img)
    for fx, fy in ((0.08, 0.12), (0.92, 0.12), (0.08, 0.88), (0.92, 0.88)):
        d.ellipse([w * fx - 8, h * fy - 8, w * fx + 8, h * fy + 8], fill=(30, 30, 32))
    for k in range(14):
        x = w * (0.3 + k * 0.03)
        d.rectangle([x, h * 0.3, x + 4, h * 0.45], fill=(40, 40, 44))
    return img


@modelled("laptop", "Laptop (closed)", "Electronics")
def laptop(ext_m: tuple[float, float, float]) -> list[Part]:
    """A closed laptop: a thin slab with rounded corners, brushed-silver lid with a round logo, a dark seam
    between lid and base all round, ports on the sides (the slab, the seam and the logo say laptop)."""
    hx, hy, hz = (e / 2 for e in ext_m)
    outline = rounded_rect_outline(hx, hy, LAPTOP_CORNER_M)
    side, top, bottom = extrusion(outline, -hz, hz)
    return [
        side.textured(laptop_side(outline, hx, hy)),
        top.textured(laptop_lid(512)),
        bottom.textured(laptop_bottom(256)),
    ]


# --- toolbox ----------------------------------------------------------------------------------------------

TOOLBOX_RED: RGB = (200, 30, 30)
TOOLBOX_HANDLE_SHARE = 0.24  # the handle's share of the height, above the box
TOOLBOX_LID_SHARE = 0.3  # the lid's share of the box below the handle


def toolbox_side(px: tuple[int, int], latches: bool, words: bool, seed: int) -> Image.Image:
    """Red painted steel: the lid's seam near the top, silver latches on the long sides, TOOLS on the front."""
    w, h = px
    img = speckle(canvas(w, h, TOOLBOX_RED), 4, seed)
    d = ImageDraw.Draw(img)
    seam = int(h * TOOLBOX_LID_SHARE)
    d.rectangle([0, 0, w, int(h * 0.05)], fill=shade(TOOLBOX_RED, 35))
    d.rectangle([0, seam - 3, w, seam + 3], fill=(60, 8, 8))
    d.rectangle([0, seam + 3, w, seam + 6], fill=shade(TOOLBOX_RED, 30))
    d.rectangle([0, h - int(h * 0.06), w, h], fill=shade(TOOLBOX_RED, -45))
    if latches:
        for fx in (0.2, 0.8):
            cx = w * fx
            d.rectangle(
                [cx - w * 0.05, seam - h * 0.12, cx + w * 0.05, seam + h * 0.14],
                fill=(200, 202, 208),
                outline=(90, 90, 95),
                width=2,
            )
            d.rectangle([cx - w * 0.025, seam - h * 0.06, cx + w * 0.025, seam + h * 0.06], fill=(150, 152, 160))
    if words:
        text(d, (w / 2, h * 0.63), "TOOLS", int(h * 0.42), (250, 250, 250), stroke_px=3, stroke_fill=(90, 10, 10))
    return img


def toolbox_top(px: tuple[int, int], seed: int) -> Image.Image:
    """The lid from above: red with a raised rim and the handle's dark mounting plates."""
    w, h = px
    img = speckle(canvas(w, h, TOOLBOX_RED), 4, seed)
    d = ImageDraw.Draw(img)
    bevel(d, (0, 0, w - 1, h - 1), max(4, h // 14), TOOLBOX_RED, 40, -50)
    for fx in (0.2, 0.8):
        d.rectangle([w * fx - w * 0.04, h * 0.38, w * fx + w * 0.04, h * 0.62], fill=(30, 30, 30))
    return img


@modelled("toolbox", "Steel toolbox", "Tools")
def toolbox(ext_m: tuple[float, float, float]) -> list[Part]:
    """A red steel toolbox: the box with its lid seam and silver latches, TOOLS on its long sides, and a black
    carrying handle standing on the lid inside the object's box (red box + black handle say toolbox)."""
    x, y, z = ext_m
    handle_h = z * TOOLBOX_HANDLE_SHARE
    body_ext = (x, y, z - handle_h)
    images = {
        k: toolbox_side(face_px(body_ext, k, 512), k in ("+y", "-y"), k in ("+y", "-y"), seed=60 + i)
        for i, k in enumerate(("+x", "-x", "+y", "-y"))
    }
    images["+z"] = toolbox_top(face_px(body_ext, "+z"), seed=65)
    images["-z"] = speckle(canvas(*face_px(body_ext, "-z"), shade(TOOLBOX_RED, -60)), 4, 66)
    body = atlas_box(body_ext, images).moved((0.0, 0.0, -handle_h / 2))
    top = z / 2
    base = top - handle_h
    grip_r = min(0.012, handle_h * 0.3)
    post_r = grip_r * 0.7
    px = x * 0.3
    black = (25, 25, 28, 255)
    handle = merge(
        [
            tube_between((-px, 0.0, base), (-px, 0.0, top - grip_r), post_r, black, segments=8),
            tube_between((px, 0.0, base), (px, 0.0, top - grip_r), post_r, black, segments=8),
            tube_between(
                (-px - grip_r, 0.0, top - grip_r), (px + grip_r, 0.0, top - grip_r), grip_r, black, segments=12
            ),
        ]
    )
    return [body, handle]


# --- house brick ------------------------------------------------------------------------------------------

BRICK_RGB: RGB = (184, 78, 48)
MORTAR_RGB: RGB = (178, 170, 156)


def brick_face(px: tuple[int, int], seed: int, frog: bool = False) -> Image.Image:
    """Fired clay: orange-red mottled with darker burn, fine grit and pits, a few grey smears of old mortar."""
    w, h = px
    rng = np.random.default_rng(seed)
    img = speckle(canvas(w, h, BRICK_RGB), 10, seed, blur_px=6)
    img = speckle(img, 6, seed + 1)
    d = ImageDraw.Draw(img)
    for _ in range(w * h // 300):  # pits and dark grit
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.8, 2.2)
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=shade(BRICK_RGB, int(rng.uniform(-65, -30))))
    for _ in range(int(rng.integers(3, 6))):  # mortar smears, mostly at the edges
        cx = rng.uniform(0, w)
        cy = rng.choice([rng.uniform(0, h * 0.15), rng.uniform(h * 0.85, h), rng.uniform(0, h)])
        for _ in range(int(rng.integers(4, 9))):
            ex, ey = cx + rng.normal(0, w * 0.03), cy + rng.normal(0, h * 0.04)
            r = rng.uniform(1.5, 1.5 + min(w, h) * 0.04)
            d.ellipse([ex - r, ey - r * 0.6, ex + r, ey + r * 0.6], fill=shade(MORTAR_RGB, int(rng.uniform(-25, 10))))
    if frog:  # the recessed panel pressed into the top
        fx, fy = w * 0.22, h * 0.28
        rect = (int(fx), int(fy), int(w - fx), int(h - fy))
        d.rectangle(rect, fill=shade(BRICK_RGB, -35))
        bevel(d, rect, max(3, h // 14), BRICK_RGB, -60, 30)
    d.rectangle([0, 0, w - 1, h - 1], outline=shade(BRICK_RGB, -30), width=2)
    return img.filter(ImageFilter.SMOOTH)


@modelled("house_brick", "House brick", "Building")
def house_brick(ext_m: tuple[float, float, float]) -> list[Part]:
    """A red clay house brick: rough orange-red fired clay with mortar traces on its edges and the frog (the
    recess) on top; the brick's proportions and colour do the rest."""
    images = {k: brick_face(face_px(ext_m, k, 384), seed=70 + i, frog=(k == "+z")) for i, k in enumerate(FACE_ORDER)}
    return [atlas_box(ext_m, images)]


# --- domino -----------------------------------------------------------------------------------------------

DOMINO_BLACK: RGB = (22, 22, 24)
DOMINO_PIP: RGB = (248, 246, 236)
PIP_LAYOUT = {  # pip positions in a half of the tile, in thirds of its width and height
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def domino_face(px: tuple[int, int], top: int, bottom: int) -> Image.Image:
    """A domino's face upright: black, a white line across the middle with a brass pin, white pips above and below."""
    w, h = px
    img = canvas(w, h, DOMINO_BLACK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([2, 2, w - 3, h - 3], radius=w // 8, outline=(70, 70, 74), width=max(2, w // 40))
    d.rectangle([w * 0.12, h / 2 - h * 0.008, w * 0.88, h / 2 + h * 0.008], fill=DOMINO_PIP)
    d.ellipse([w / 2 - w * 0.045, h / 2 - w * 0.045, w / 2 + w * 0.045, h / 2 + w * 0.045], fill=(196, 160, 60))
    r = w * 0.085
    for n, (y0, y1) in ((top, (0.0, 0.5)), (bottom, (0.5, 1.0))):
        for i, j in PIP_LAYOUT[n]:
            cx = w * (0.22 + 0.28 * i)
            cy = h * (y0 + (y1 - y0) * (0.22 + 0.28 * j))
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=DOMINO_PIP)
    return img


@modelled("domino_block", "Large domino", "Toys")
def domino_block(ext_m: tuple[float, float, float]) -> list[Part]:
    """A domino tile standing on its short edge: black, a white centre line with a brass pin, white pips in two
    halves on both large faces (+-x); the tile's thin edges plain black."""
    edge = canvas(64, 64, (30, 30, 33))
    images = {
        "+x": domino_face(face_px(ext_m, "+x"), 6, 4),
        "-x": domino_face(face_px(ext_m, "-x"), 5, 3),
        **{k: edge for k in ("+y", "-y", "+z", "-z")},
    }
    return [atlas_box(ext_m, images)]


# --- filing cabinet ---------------------------------------------------------------------------------------

CABINET_GREY: RGB = (158, 162, 166)
CABINET_DRAWERS = 4
CABINET_PLINTH_SHARE = 0.05  # the recessed kick plate's share of the height
CABINET_HANDLE_DEPTH_M = 0.025  # the pulls stand this far proud of the drawer fronts
CABINET_FRONT_PX = (184, 512)


def painted_steel(px: tuple[int, int], rgb: RGB, seed: int) -> Image.Image:
    """Powder-coated steel: an even colour with a soft sheen towards the top and a faint grain."""
    w, h = px
    a = np.asarray(canvas(w, h, rgb), np.float32) + np.linspace(14, -10, h)[:, None, None]
    return speckle(Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)), 3, seed)


def cabinet_front(px: tuple[int, int]) -> Image.Image:
    """Four drawer fronts, each with a chrome label holder; dark gaps between them, a dark kick plate."""
    w, h = px
    img = painted_steel(px, CABINET_GREY, seed=81)
    d = ImageDraw.Draw(img)
    plinth = int(h * CABINET_PLINTH_SHARE)
    d.rectangle([0, h - plinth, w, h], fill=(55, 57, 60))
    dh = (h - plinth) / CABINET_DRAWERS
    for k in range(CABINET_DRAWERS):
        y0, y1 = int(k * dh), int((k + 1) * dh)
        bevel(d, (3, y0 + 3, w - 4, y1 - 3), 3, CABINET_GREY, 40, -45)
        d.rectangle([0, y1 - 3, w, y1 + 1], fill=(40, 42, 45))
        lx, ly = w / 2, y0 + dh * 0.28
        d.rectangle(
            [lx - w * 0.16, ly - dh * 0.07, lx + w * 0.16, ly + dh * 0.07],
            fill=(205, 208, 212),
            outline=(90, 92, 96),
            width=2,
        )
        d.rectangle([lx - w * 0.12, ly - dh * 0.04, lx + w * 0.12, ly + dh * 0.04], fill=(250, 250, 244))
        hy = y0 + dh * 0.5  # the pull's dark backplate (the pull itself is geometry)
        d.rounded_rectangle([w * 0.3, hy - dh * 0.06, w * 0.7, hy + dh * 0.06], radius=4, fill=(70, 72, 76))
    d.rectangle([0, 0, w - 1, h - 1], outline=(70, 72, 76), width=2)
    return img


@modelled("filing_cabinet", "Filing cabinet", "Office")
def filing_cabinet(ext_m: tuple[float, float, float]) -> list[Part]:
    """A grey steel office filing cabinet: four drawers on its front (+x, the side it tips towards), each with a
    chrome label holder and a pull that stands out of the front inside the object's box."""
    x, y, z = ext_m
    body_ext = (x - CABINET_HANDLE_DEPTH_M, y, z)
    images = {k: painted_steel(face_px(body_ext, k), CABINET_GREY, seed=82 + i) for i, k in enumerate(FACE_ORDER)}
    images["+x"] = cabinet_front(CABINET_FRONT_PX)
    body = atlas_box(body_ext, images).moved((-CABINET_HANDLE_DEPTH_M / 2, 0.0, 0.0))
    front = x / 2 - CABINET_HANDLE_DEPTH_M
    plinth = z * CABINET_PLINTH_SHARE
    dh = (z - plinth) / CABINET_DRAWERS
    pulls = []
    for k in range(CABINET_DRAWERS):
        zc = z / 2 - (k + 0.5) * dh
        pulls.append(
            box(
                (CABINET_HANDLE_DEPTH_M, y * 0.36, dh * 0.07),
                (205, 208, 214, 255),
                (front + CABINET_HANDLE_DEPTH_M / 2, 0.0, zc),
            )
        )
    return [body, merge(pulls).coloured((205, 208, 214, 255))]
