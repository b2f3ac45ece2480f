"""Room surfaces: the floor covering and the painted walls of each room type.

A room's floor (parquet, tiles, carpet, concrete) and walls (paint over a skirting board, concrete blocks)
are what make a render read as a kitchen or a garage. Both are tiled at real scale: each 1 m square of
surface carries one copy of its texture, so a plank is a plank's width wherever it is.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from reacthuman.scenes.modelled.geometry import Part, box_faces, merge
from reacthuman.scenes.modelled.registry import modelled
from reacthuman.scenes.modelled.textures import canvas, fabric, speckle, wood

TILE_M = 1.0
TEXTURE_PX = 256  # one metre of surface
FLOOR_M = (16.0, 16.0, 0.002)  # covers every room (the walls stand within 8 m of the event)
FLOOR_DROP_M = 0.0005  # the covering's top this far below the (then undrawn) floor plane: nothing sinks into it
WALL_M = (0.1, 4.0, 2.8)  # nominal: stretched onto each wall box (thin along x; turned for the side wall)
SKIRTING_M = 0.09
WALL_RGB = {
    "kitchen": (237, 230, 209),
    "living_room": (209, 199, 179),
    "bedroom": (191, 204, 230),
    "office": (224, 224, 224),
    "dining_room": (217, 191, 153),
    "hallway": (230, 222, 204),
    "garage": (158, 158, 153),
}


def tiled_quad(
    corner_m: np.ndarray, u_m: np.ndarray, v_m: np.ndarray, width_m: float, height_m: float, tile_m: float = TILE_M
) -> Part:
    """A flat rectangle from corner along unit vectors u (width) and v (height), one texture copy per tile
    (the last row and column cut short, with their uv cut to match)."""
    verts, uvs, faces = [], [], []
    for i in range(int(np.ceil(width_m / tile_m - 1e-9))):
        for j in range(int(np.ceil(height_m / tile_m - 1e-9))):
            u0, u1 = i * tile_m, min((i + 1) * tile_m, width_m)
            v0, v1 = j * tile_m, min((j + 1) * tile_m, height_m)
            base = len(verts)
            for a, b in ((u0, v0), (u1, v0), (u1, v1), (u0, v1)):
                verts.append(corner_m + u_m * a + v_m * b)
                uvs.append(((a - u0) / tile_m, (b - v0) / tile_m))
            faces += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    return Part(np.array(verts), np.array(faces), np.array(uvs))


def _floor_part(image: Image.Image) -> list[Part]:
    x, y, z = FLOOR_M
    corner = np.array([-x / 2, -y / 2, z / 2])
    top = tiled_quad(corner, np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), x, y).textured(image)
    # A bottom face (never seen) gives the covering its thickness, so the model's box is FLOOR_M.
    bottom = tiled_quad(np.array([-x / 2, y / 2, -z / 2]), np.array([1.0, 0, 0]), np.array([0, -1.0, 0]), x, y, x)
    return [top, bottom.coloured((90, 90, 90, 255))]


def _planks(rgb: tuple[int, int, int], seed: int, boards: int = 6) -> Image.Image:
    rng = np.random.default_rng(seed)
    img = canvas(TEXTURE_PX, TEXTURE_PX, rgb)
    h = TEXTURE_PX // boards
    for k in range(boards):
        k_shade = rng.uniform(0.85, 1.1)  # one factor per board: lighter and darker boards of the same wood
        shade = tuple(min(255, int(c * k_shade)) for c in rgb)
        img.paste(wood(TEXTURE_PX, h, shade, seed=seed + k), (0, k * h))  # type: ignore[arg-type]
        d = ImageDraw.Draw(img)
        d.line([(0, k * h), (TEXTURE_PX, k * h)], fill=tuple(int(c * 0.45) for c in rgb), width=2)
        cut = int(rng.uniform(0.2, 0.8) * TEXTURE_PX)  # board ends, staggered
        d.line([(cut, k * h), (cut, (k + 1) * h)], fill=tuple(int(c * 0.5) for c in rgb), width=2)
    return img


def _tiles(rgb: tuple[int, int, int], grout: tuple[int, int, int], per_m: int, seed: int) -> Image.Image:
    img = speckle(canvas(TEXTURE_PX, TEXTURE_PX, rgb), 5, seed, blur_px=2)
    d = ImageDraw.Draw(img)
    step = TEXTURE_PX // per_m
    for k in range(per_m + 1):
        d.line([(k * step, 0), (k * step, TEXTURE_PX)], fill=grout, width=3)
        d.line([(0, k * step), (TEXTURE_PX, k * step)], fill=grout, width=3)
    return img


def _concrete(seed: int) -> Image.Image:
    img = speckle(canvas(TEXTURE_PX, TEXTURE_PX, (150, 148, 142)), 9, seed, blur_px=3)
    d = ImageDraw.Draw(img)
    d.line([(0, 0), (TEXTURE_PX, 0)], fill=(95, 95, 92), width=3)  # expansion joints every metre
    d.line([(0, 0), (0, TEXTURE_PX)], fill=(95, 95, 92), width=3)
    return img


FLOORS = {
    "kitchen": lambda: _tiles((214, 208, 196), (150, 145, 138), 3, 401),
    "living_room": lambda: _planks((166, 112, 66), 411),
    "bedroom": lambda: fabric(TEXTURE_PX, TEXTURE_PX, (176, 160, 140), seed=421, weave_px=2),
    "office": lambda: _tiles((110, 116, 126), (92, 96, 104), 2, 431),
    "dining_room": lambda: _planks((118, 74, 44), 441),
    "hallway": lambda: _tiles((196, 170, 140), (120, 104, 88), 2, 451),
    "garage": lambda: _concrete(461),
}


def _register_floor(room: str) -> None:
    @modelled(f"floor_{room}", f"Floor ({room.replace('_', ' ')})", "Rooms", size_m=FLOOR_M)
    def floor(ext_m: tuple[float, float, float]) -> list[Part]:
        return _floor_part(FLOORS[room]())


def _wall_images(room: str) -> tuple[Image.Image, Image.Image]:
    """(plain wall, wall with its skirting board along the bottom) for one metre of wall."""
    rgb = WALL_RGB[room]
    if room == "garage":  # concrete blocks, no skirting
        img = speckle(canvas(TEXTURE_PX, TEXTURE_PX, rgb), 7, 471, blur_px=1)
        d = ImageDraw.Draw(img)
        rows = 5
        for r in range(rows):
            y = r * TEXTURE_PX // rows
            d.line([(0, y), (TEXTURE_PX, y)], fill=(112, 112, 108), width=3)
            off = (TEXTURE_PX // 4) * (r % 2)
            for x in (off, off + TEXTURE_PX // 2):
                d.line([(x, y), (x, y + TEXTURE_PX // rows)], fill=(112, 112, 108), width=3)
        return img, img
    plain = speckle(canvas(TEXTURE_PX, TEXTURE_PX, rgb), 2.5, 481, blur_px=2)
    skirted = plain.copy()
    d = ImageDraw.Draw(skirted)
    top = TEXTURE_PX - int(SKIRTING_M / TILE_M * TEXTURE_PX)
    d.rectangle([0, top, TEXTURE_PX, TEXTURE_PX], fill=(246, 244, 238))
    d.line([(0, top), (TEXTURE_PX, top)], fill=(200, 196, 188), width=2)
    return plain, skirted


def _register_wall(room: str) -> None:
    @modelled(f"wall_{room}", f"Wall ({room.replace('_', ' ')})", "Rooms", size_m=WALL_M)
    def wall(ext_m: tuple[float, float, float]) -> list[Part]:
        x, y, z = (e / 2 for e in ext_m)
        plain, skirted = _wall_images(room)
        up = np.array([0.0, 0.0, 1.0])
        bottoms, uppers = [], []
        for corner, u, width in (
            ((x, -y, -z), (0, 1, 0), 2 * y),
            ((-x, y, -z), (0, -1, 0), 2 * y),
            ((-x, -y, -z), (1, 0, 0), 2 * x),
            ((x, y, -z), (-1, 0, 0), 2 * x),
        ):
            c, d = np.array(corner, float), np.array(u, float)
            bottoms.append(tiled_quad(c, d, up, width, min(TILE_M, 2 * z)))
            uppers.append(tiled_quad(c + up * TILE_M, d, up, width, 2 * z - TILE_M))
        ends = box_faces(ext_m)
        top_bottom = merge([ends["+z"], ends["-z"]]).coloured((*WALL_RGB[room], 255))
        if plain is skirted:
            return [merge(bottoms + uppers).textured(plain), top_bottom]
        return [merge(bottoms).textured(skirted), merge(uppers).textured(plain), top_bottom]


for _room in WALL_RGB:
    _register_floor(_room)
    _register_wall(_room)
