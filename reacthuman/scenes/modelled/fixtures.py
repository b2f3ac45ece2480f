"""Fixtures of the families' own furniture: the shelf board, the ramp, the stairs, posts and brackets.

These are static boxes of a family (their size is the scene's); a fixture model is a box whose faces carry
what the surface is made of, built once at a unit size and stretched onto the box (`fixture_visual`). The
physics stays the box.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from reacthuman.scenes.modelled.geometry import Part, box_faces, merge
from reacthuman.scenes.modelled.registry import modelled
from reacthuman.scenes.modelled.textures import brushed_metal, canvas, speckle, wood

UNIT_M = (0.5, 0.5, 0.1)  # nominal size: every box of the families stretches from it within the spec's [0.05, 20]
OAK_RGB = (176, 128, 80)
WALNUT_RGB = (110, 72, 44)
PAINT_RGB = (236, 233, 224)


def _faces_with(ext_m: tuple[float, float, float], images: dict[str, Image.Image]) -> list[Part]:
    """A box's faces grouped by image: faces sharing one image are one part."""
    faces = box_faces(ext_m)
    groups: dict[int, list[Part]] = {}
    for k, part in faces.items():
        groups.setdefault(id(images[k]), []).append(part)
    by_id = {id(img): img for img in images.values()}
    return [merge(parts).textured(by_id[i]) for i, parts in groups.items()]


def _end_grain(rgb: tuple[int, int, int], seed: int) -> Image.Image:
    dark = tuple(int(c * 0.75) for c in rgb)
    return speckle(canvas(128, 128, dark), 8, seed)  # type: ignore[arg-type]


@modelled("wood_plank", "Wooden board", "Fixtures", size_m=UNIT_M)
def wood_plank(ext_m: tuple[float, float, float]) -> list[Part]:
    """A planed oak board: grain along x on its faces, darker end grain (a shelf board, a ramp)."""
    grain = wood(512, 512, OAK_RGB, seed=301)
    end = _end_grain(OAK_RGB, 302)
    return _faces_with(ext_m, {"+z": grain, "-z": grain, "+y": grain, "-y": grain, "+x": end, "-x": end})


@modelled("wood_post", "Wooden post", "Fixtures", size_m=UNIT_M)
def wood_post(ext_m: tuple[float, float, float]) -> list[Part]:
    """A dark walnut post or bracket: grain running up it."""
    grain = wood(256, 256, WALNUT_RGB, seed=311, grain_along_x=False)
    end = _end_grain(WALNUT_RGB, 312)
    return _faces_with(ext_m, {"+x": grain, "-x": grain, "+y": grain, "-y": grain, "+z": end, "-z": end})


@modelled("metal_bracket", "Shelf bracket", "Fixtures", size_m=UNIT_M)
def metal_bracket(ext_m: tuple[float, float, float]) -> list[Part]:
    """A dark brushed-steel bracket."""
    steel = brushed_metal(128, 128, (70, 72, 76), seed=321)
    return _faces_with(ext_m, {k: steel for k in ("+x", "-x", "+y", "-y", "+z", "-z")})


def _tread(seed: int) -> Image.Image:
    """A stair tread seen from above: oak boards with a dark nosing strip at the front (+x) edge."""
    img = wood(512, 512, OAK_RGB, seed=seed, grain_along_x=False)
    d = ImageDraw.Draw(img)
    d.rectangle([492, 0, 511, 511], fill=(70, 48, 30))  # u runs along +x on the top face: the nosing
    for y in (170, 341):
        d.line([(0, y), (511, y)], fill=(120, 84, 52), width=2)  # joints between boards
    return img


@modelled("stair_block", "Stair step", "Fixtures", size_m=UNIT_M)
def stair_block(ext_m: tuple[float, float, float]) -> list[Part]:
    """A step of a staircase: an oak tread with a dark nosing on top, white-painted riser and sides."""
    painted = speckle(canvas(256, 256, PAINT_RGB), 3, seed=331)
    front = canvas(256, 256, PAINT_RGB)
    ImageDraw.Draw(front).rectangle([0, 0, 255, 10], fill=(70, 48, 30))  # the nosing's edge seen from the front
    front = speckle(front, 3, seed=332)
    return _faces_with(
        ext_m, {"+z": _tread(333), "-z": painted, "+x": front, "-x": painted, "+y": painted, "-y": painted}
    )
