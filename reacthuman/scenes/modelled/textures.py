"""Texture images for the modelled objects, drawn here with Pillow and NumPy.

Deterministic: every random pattern draws from a generator seeded by the caller, and text uses Pillow's
bundled font (not the machine's fonts), so the same version of this file gives the same pixels anywhere.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

RGB = tuple[int, int, int]


@lru_cache(maxsize=32)
def font(size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size_px)  # Pillow's bundled font: the same glyphs on every machine


def canvas(width_px: int, height_px: int, rgb: RGB) -> Image.Image:
    return Image.new("RGB", (width_px, height_px), rgb)


def _clip(a: np.ndarray) -> Image.Image:
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def speckle(img: Image.Image, amount: float, seed: int, blur_px: float = 0.0) -> Image.Image:
    """Add grain (amount: standard deviation in 0-255 levels), optionally blurred into blotches."""
    rng = np.random.default_rng(seed)
    noise = rng.normal(0.0, amount, (img.height, img.width)).astype(np.float32)
    if blur_px:
        n = Image.fromarray(((noise / max(amount, 1e-6)) * 40 + 128).clip(0, 255).astype(np.uint8))
        noise = (np.asarray(n.filter(ImageFilter.GaussianBlur(blur_px)), np.float32) - 128) / 40 * amount * 3
    return _clip(np.asarray(img, np.float32) + noise[..., None])


def wood(width_px: int, height_px: int, rgb: RGB, seed: int, grain_along_x: bool = True) -> Image.Image:
    """Wood: bands of lighter and darker grain along one axis, with a little noise."""
    rng = np.random.default_rng(seed)
    n = height_px if grain_along_x else width_px
    bands = np.cumsum(rng.normal(0, 1, n))
    bands = np.sin(np.arange(n) * 0.35 + bands * 0.6) * 14 + rng.normal(0, 4, n)
    field = bands[:, None] if grain_along_x else bands[None, :]
    a = (
        np.asarray(canvas(width_px, height_px, rgb), np.float32)
        + np.broadcast_to(field, (height_px, width_px))[..., None]
    )
    return speckle(_clip(a), 5, seed + 1)


def brushed_metal(width_px: int, height_px: int, rgb: RGB, seed: int) -> Image.Image:
    rng = np.random.default_rng(seed)
    streaks = rng.normal(0, 10, (1, width_px)).repeat(height_px, 0)
    shade = np.linspace(18, -18, height_px)[:, None]  # a soft highlight reads as metal
    a = np.asarray(canvas(width_px, height_px, rgb), np.float32) + (streaks + shade)[..., None]
    return _clip(a)


def fabric(width_px: int, height_px: int, rgb: RGB, seed: int, weave_px: int = 4) -> Image.Image:
    """Woven cloth: a fine checker of threads plus grain."""
    y, x = np.mgrid[0:height_px, 0:width_px]
    weave = (((x // weave_px) + (y // weave_px)) % 2) * 14 - 7
    a = np.asarray(canvas(width_px, height_px, rgb), np.float32) + weave[..., None]
    return speckle(_clip(a), 6, seed)


def text(
    draw: ImageDraw.ImageDraw,
    centre_px: tuple[float, float],
    words: str,
    size_px: int,
    fill: RGB,
    stroke_px: int = 0,
    stroke_fill: RGB = (0, 0, 0),
) -> None:
    draw.text(
        centre_px, words, font=font(size_px), fill=fill, anchor="mm", stroke_width=stroke_px, stroke_fill=stroke_fill
    )


def label_band(
    width_px: int, height_px: int, background: RGB, words: str, ink: RGB, band: RGB | None = None
) -> Image.Image:
    """A printed wrap-around label (cans, jars, bottles): the words twice around, an optional band."""
    img = canvas(width_px, height_px, background)
    d = ImageDraw.Draw(img)
    if band is not None:
        d.rectangle([0, int(height_px * 0.7), width_px, int(height_px * 0.82)], fill=band)
    for k in (0.25, 0.75):
        text(d, (width_px * k, height_px * 0.45), words, max(10, height_px // 5), ink)
    return img
