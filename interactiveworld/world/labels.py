"""Written text on objects (notes, labels) painted into their textures, so that a camera frame shows it and a
reader of the frame (the assistant) can read it. The text is drawn with Pillow's bundled font: no system
font is needed. A note is all paper; any other labelled object (a juice carton, a folder) keeps its own
colour, with the writing on a white label in the middle of each face, so both its colour and its label can
be seen."""

from __future__ import annotations

import textwrap

import mujoco
import numpy as np
from PIL import Image, ImageDraw, ImageFont

LABEL_TEX_W_PX = 256
LABEL_TEX_H_PX = 360
LABEL_FONT_PX = 30
LABEL_CHARS_PER_LINE = 15
PAPER_RGB = (250, 250, 245)
INK_RGB = (10, 10, 10)
# a label panel on a coloured object: its share of the face (a margin of the object's colour all round)
LABEL_PANEL_W_FRAC = 0.84
LABEL_PANEL_H_FRAC = 0.46


def texture_name(obj: str) -> str:
    return f"T:{obj}"


def asset_xml(obj: str) -> str:
    """A blank texture and a material for one labelled object; `paint` fills the texture after compile."""
    t = texture_name(obj)
    return (
        f'<texture name="{t}" type="2d" builtin="flat" rgb1="1 1 1" width="{LABEL_TEX_W_PX}" '
        f'height="{LABEL_TEX_H_PX}"/><material name="M:{obj}" texture="{t}"/>'
    )


def rgb_of(rgba: str) -> tuple[int, int, int]:
    """An MJCF rgba string ("0.8 0.1 0.1 1") as 8-bit RGB."""
    r, g, b = (float(v) for v in rgba.split()[:3])
    return round(255 * r), round(255 * g), round(255 * b)


def text_image(
    text: str,
    width_px: int = LABEL_TEX_W_PX,
    height_px: int = LABEL_TEX_H_PX,
    body_rgb: tuple[int, int, int] | None = None,
) -> np.ndarray:
    """Black text, word-wrapped: uint8 [H, W, 3]. body_rgb None: a page of paper (a note); otherwise a face of
    that colour with the text on a centred white label, large enough to be read on a small carton."""

    if body_rgb is None:
        img = Image.new("RGB", (width_px, height_px), PAPER_RGB)
        draw = ImageDraw.Draw(img)
        font = ImageFont.load_default(size=LABEL_FONT_PX)
        y = 8
        for line in textwrap.wrap(text, LABEL_CHARS_PER_LINE):
            draw.text((8, y), line, fill=INK_RGB, font=font)
            y += LABEL_FONT_PX + 4
        return np.asarray(img, dtype=np.uint8)
    img = Image.new("RGB", (width_px, height_px), body_rgb)
    draw = ImageDraw.Draw(img)
    pw, ph = round(width_px * LABEL_PANEL_W_FRAC), round(height_px * LABEL_PANEL_H_FRAC)
    x0, y0 = (width_px - pw) // 2, (height_px - ph) // 2
    draw.rectangle((x0, y0, x0 + pw, y0 + ph), fill=PAPER_RGB)
    lines = textwrap.wrap(text, LABEL_CHARS_PER_LINE) or [""]
    # the largest font whose lines fit the panel: a one-word label fills its width
    size = LABEL_FONT_PX
    for cand in range(min(ph // len(lines), 4 * LABEL_FONT_PX), LABEL_FONT_PX - 1, -4):
        f = ImageFont.load_default(size=cand)
        if max(draw.textlength(ln, font=f) for ln in lines) <= pw - 12 and cand * 1.2 * len(lines) <= ph - 8:
            size = cand
            break
    font = ImageFont.load_default(size=size)
    y = y0 + (ph - round(size * 1.2) * len(lines)) // 2
    for line in lines:
        draw.text((x0 + (pw - draw.textlength(line, font=font)) / 2, y), line, fill=INK_RGB, font=font)
        y += round(size * 1.2)
    return np.asarray(img, dtype=np.uint8)


def paint(
    model: mujoco.MjModel, texts: dict[str, str], colours: dict[str, tuple[int, int, int] | None] | None = None
) -> None:
    """Writes each object's text into its texture (before any renderer uploads the textures); `colours`
    gives an object's own colour (None or absent: a sheet of paper)."""
    for obj, text in texts.items():
        tid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_TEXTURE, texture_name(obj))
        h, w = int(model.tex_height[tid]), int(model.tex_width[tid])
        adr, nc = int(model.tex_adr[tid]), int(model.tex_nchannel[tid])
        rgb = text_image(text, w, h, (colours or {}).get(obj))
        if nc == 4:
            rgb = np.concatenate([rgb, np.full((h, w, 1), 255, np.uint8)], axis=2)
        model.tex_data[adr : adr + h * w * nc] = rgb.reshape(-1)
