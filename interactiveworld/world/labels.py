"""Written text on objects (notes, labels) painted into their textures, so that a camera frame shows it and a
reader of the frame (the assistant) can read it. The text is drawn with Pillow's bundled font: no system
font is needed."""

from __future__ import annotations

import textwrap

import mujoco
import numpy as np

LABEL_TEX_W_PX = 256
LABEL_TEX_H_PX = 360
LABEL_FONT_PX = 30
LABEL_CHARS_PER_LINE = 15


def texture_name(obj: str) -> str:
    return f"T:{obj}"


def asset_xml(obj: str) -> str:
    """A blank texture and a material for one labelled object; `paint` fills the texture after compile."""
    t = texture_name(obj)
    return (f'<texture name="{t}" type="2d" builtin="flat" rgb1="1 1 1" width="{LABEL_TEX_W_PX}" '
            f'height="{LABEL_TEX_H_PX}"/><material name="M:{obj}" texture="{t}"/>')


def text_image(text: str, width_px: int = LABEL_TEX_W_PX, height_px: int = LABEL_TEX_H_PX) -> np.ndarray:
    """Black text on white paper, word-wrapped: uint8 [H, W, 3]."""
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", (width_px, height_px), (250, 250, 245))
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=LABEL_FONT_PX)
    lines = textwrap.wrap(text, LABEL_CHARS_PER_LINE)
    y = 8
    for line in lines:
        draw.text((8, y), line, fill=(10, 10, 10), font=font)
        y += LABEL_FONT_PX + 4
    return np.asarray(img, dtype=np.uint8)


def paint(model: mujoco.MjModel, texts: dict[str, str]) -> None:
    """Writes each object's text into its texture (before any renderer uploads the textures)."""
    for obj, text in texts.items():
        tid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_TEXTURE, texture_name(obj))
        h, w = int(model.tex_height[tid]), int(model.tex_width[tid])
        adr, nc = int(model.tex_adr[tid]), int(model.tex_nchannel[tid])
        rgb = text_image(text, w, h)
        if nc == 4:
            rgb = np.concatenate([rgb, np.full((h, w, 1), 255, np.uint8)], axis=2)
        model.tex_data[adr:adr + h * w * nc] = rgb.reshape(-1)
