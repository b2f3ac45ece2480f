"""Balls: spheres whose look is their texture (felt and seam, stitches, panels, finger holes)."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from reacthuman.scenes.modelled.geometry import Part, sphere
from reacthuman.scenes.modelled.registry import modelled
from reacthuman.scenes.modelled.textures import canvas, speckle

EQUIRECT_PX = (512, 256)  # width (around z) x height (pole to pole)


def equirect_px(points: np.ndarray) -> np.ndarray:
    """Unit vectors -> pixel coordinates of the equirectangular texture (matches geometry.ellipsoid's uv)."""
    w, h = EQUIRECT_PX
    lon = np.arctan2(points[:, 1], points[:, 0])
    lat = np.arcsin(np.clip(points[:, 2], -1, 1))
    return np.stack([(lon + math.pi) / (2 * math.pi) * w, (1 - (lat + math.pi / 2) / math.pi) * h], 1)


def draw_curve(img: Image.Image, points: np.ndarray, fill: tuple[int, int, int], width_px: int) -> None:
    """A closed curve on the sphere drawn on its texture, split where it crosses the seam of the image."""
    d = ImageDraw.Draw(img)
    px = equirect_px(points)
    w = EQUIRECT_PX[0]
    for a, b in zip(px, np.roll(px, -1, 0)):
        if abs(a[0] - b[0]) > w / 2:
            continue  # the step that wraps around the image's left/right edge
        d.line([tuple(a), tuple(b)], fill=fill, width=width_px)


def seam_curve(samples: int = 720, lobe: float = 0.25) -> np.ndarray:
    """The two-lobed seam of tennis balls and baseballs (unit vectors)."""
    t = np.linspace(0, 2 * math.pi, samples, endpoint=False)
    a, b = 1 - lobe, lobe
    p = np.stack([a * np.cos(t) + b * np.cos(3 * t), a * np.sin(t) - b * np.sin(3 * t),
                  2 * math.sqrt(a * b) * np.sin(2 * t)], 1)
    return p / np.linalg.norm(p, axis=1, keepdims=True)


def ball(ext_m: tuple[float, float, float], image: Image.Image) -> list[Part]:
    return [sphere(ext_m[0] / 2).textured(image)]


@modelled("tennis_ball", "Tennis ball", "Sports")
def tennis_ball(ext_m: tuple[float, float, float]) -> list[Part]:
    img = speckle(canvas(*EQUIRECT_PX, (204, 222, 58)), 10, seed=11, blur_px=1.5)
    draw_curve(img, seam_curve(), (245, 245, 235), 7)
    return ball(ext_m, img)
