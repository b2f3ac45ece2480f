"""The 17 event families: sampler, per-family object catalogue, rooms, hints, and whether the family
sweeps object speed over the four bands (12 do) or is gravity-paced (5 are)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reacthuman.scenes.builders import FamilyContext, Layout
from reacthuman.scenes.catalog import OBJECTS
from reacthuman.scenes.families import articulated, ballistic, falls, slides


@dataclass(frozen=True)
class FamilyDef:
    name: str
    sampler: Callable[[FamilyContext], Layout]
    speed_swept: bool
    objects: tuple[str, ...]  # genuine and adversarial ids this family may use
    rooms: tuple[str, ...]
    hints: dict[str, tuple[str, ...]]
    summary: str
    # Probability that a genuine draw comes from the family's dangerous objects (sharp, hot, shattering,
    # heavy by the catalogue); None: uniform over the genuine pool. Sets the family's CATCH/DODGE balance by
    # the choice of objects, never by the labelling rules.
    danger_share: float | None = None
    # Share of a dataset's scene groups of this family whose object is dangerous (adversarial ones by what they
    # are): a fixed quota in a seeded order (dataset.group_strata), so the split does not hinge on the seed.
    # None: not stratified (the family's objects are all of one kind). Chosen per family for the paper's
    # proportions (docs/too-fast-to-catch.md): harmless objects where the family's fast bands arrive too soon
    # or too hard to catch, dangerous ones where the paper's family is mostly danger.
    danger_quota: float | None = None

    def __post_init__(self) -> None:
        for name in ("danger_share", "danger_quota"):
            value = getattr(self, name)
            if value is not None and not 0.0 <= value <= 1.0:
                raise ValueError(f"family {self.name}: {name} must be in [0, 1], got {value}")

    @property
    def adversarial_objects(self) -> tuple[str, ...]:
        return tuple(o for o in self.objects if OBJECTS[o].adversarial)

    @property
    def genuine_objects(self) -> tuple[str, ...]:
        return tuple(o for o in self.objects if not OBJECTS[o].adversarial)

    @property
    def dangerous_genuine_objects(self) -> tuple[str, ...]:
        return tuple(o for o in self.genuine_objects if OBJECTS[o].hazard_flags)

    @property
    def benign_genuine_objects(self) -> tuple[str, ...]:
        return tuple(o for o in self.genuine_objects if not OBJECTS[o].hazard_flags)


_KITCHEN = ("kitchen", "dining_room")
_HOME = ("kitchen", "living_room", "dining_room", "office", "bedroom")
SUPPORT_HINT = {"support": ("table", "counter", "desk")}

_DEFS = [
    FamilyDef(
        "object_drop",
        falls.object_drop,
        True,
        (
            "ceramic_plate",
            "coffee_mug",
            "hot_coffee_mug",
            "drinking_glass",
            "wine_glass",
            "chefs_knife",
            "scissors",
            "kettle",
            "cast_iron_pan",
            "hot_pan",
            "smartphone",
            "tv_remote",
            "apple",
            "orange",
            "plastic_cup",
            "jam_jar",
            "toy_block",
            "dish_sponge",
            "stapler",
            "foam_anvil",
            "steel_apple",
            "solid_steel_can",
            "foam_cast_iron_pan",
            "rubber_chefs_knife",
            "cold_prop_kettle",
            "tin_can",
            "house_brick",
        ),
        _HOME,
        SUPPORT_HINT,
        "an object tips off a table edge",
        danger_share=0.3,
        danger_quota=0.4,
    ),
    FamilyDef(
        "shelf_slide",
        falls.shelf_slide,
        True,
        (
            "ceramic_vase",
            "hardcover_book",
            "paperback",
            "cardboard_box",
            "plant_pot",
            "glass_jar",
            "toolbox",
            "cereal_box",
            "tin_can",
            "plastic_bottle",
            "foam_plant_pot",
            "foam_toolbox",
            "solid_steel_can",
        ),
        ("living_room", "kitchen", "garage", "office"),
        {},
        "an object slides off a high shelf",
        danger_share=0.4,
        danger_quota=0.4,
    ),
    FamilyDef(
        "hanging_fall",
        falls.hanging_fall,
        False,
        (
            "picture_frame",
            "glass_picture_frame",
            "wall_mirror",
            "wall_clock",
            "coat_hook_rack",
            "wall_shelf_board",
            "foam_mirror",
        ),
        ("living_room", "hallway", "bedroom", "office"),
        {},
        "a wall fixture detaches",
        danger_quota=0.3,
    ),
    FamilyDef(
        "ceiling_drop",
        falls.ceiling_drop,
        False,
        ("ceiling_fan", "ceiling_light", "ceiling_panel", "smoke_detector", "plaster_chunk", "foam_ceiling_panel"),
        ("living_room", "kitchen", "hallway", "bedroom", "garage"),
        {},
        "something falls from the ceiling",
        danger_quota=0.3,
    ),
    FamilyDef(
        "sliding_object",
        slides.sliding_object,
        True,
        (
            "coffee_mug",
            "cardboard_box",
            "hardcover_book",
            "serving_tray",
            "cutting_board",
            "laptop",
            "toolbox",
            "cast_iron_pan",
            "chefs_knife",
            "foam_toolbox",
            "foam_cast_iron_pan",
            "cereal_box",
        ),
        ("kitchen", "garage", "office"),
        {},
        "an object slides down a ramp",
        danger_share=0.25,
        danger_quota=0.2,
    ),
    FamilyDef(
        "rolling_ball",
        slides.rolling_ball,
        True,
        (
            "rubber_ball",
            "tennis_ball",
            "bowling_ball",
            "steel_ball",
            "orange",
            "apple",
            "soccer_ball",
            "baseball",
            "lead_tennis_ball",
            "foam_bowling_ball",
            "steel_apple",
        ),
        _HOME + ("garage",),
        SUPPORT_HINT,
        "a ball rolls off a table and across",
        danger_share=0.15,
        danger_quota=0.0,
    ),
    FamilyDef(
        "surface_cascade",
        slides.surface_cascade,
        True,
        (
            "hardcover_book",
            "smartphone",
            "cardboard_box",
            "tv_remote",
            "plastic_bottle",
            "toy_block",
            "laptop",
            "paperback",
            "ceramic_plate",
            "foam_anvil",
        ),
        _HOME,
        {"surface": tuple(sorted(slides.SURFACES)), **SUPPORT_HINT},
        "an object hops table, stool, floor",
        danger_share=0.4,
        danger_quota=0.2,
    ),
    FamilyDef(
        "furniture_tip",
        articulated.furniture_tip,
        False,
        ("bookshelf", "wardrobe", "floor_lamp", "filing_cabinet"),
        ("living_room", "bedroom", "office"),
        {},
        "tall furniture tips over",
    ),
    FamilyDef(
        "stack_collapse",
        falls.stack_collapse,
        False,
        ("tin_can", "cardboard_box", "ceramic_plate", "hardcover_book", "toy_block", "cereal_box", "solid_steel_can"),
        ("kitchen", "garage", "living_room"),
        SUPPORT_HINT,
        "stacked items collapse",
        danger_quota=0.2,
    ),
    FamilyDef(
        "ladder_slip",
        articulated.ladder_slip,
        False,
        ("aluminium_ladder", "wooden_ladder"),
        ("garage", "hallway", "living_room"),
        {"regime": ("slide", "tip")},
        "a leaning ladder slips",
    ),
    FamilyDef(
        "door_swing",
        articulated.door_swing,
        True,
        ("glass_door", "wooden_door", "metal_door", "hollow_prop_door"),
        ("hallway", "office", "living_room"),
        {},
        "a door swings violently",
        danger_quota=0.6,
    ),
    FamilyDef(
        "pendulum_swing",
        articulated.pendulum_swing,
        True,
        (
            "chandelier",
            "punching_bag",
            "hanging_planter",
            "pendant_lamp",
            "cloth_sandbag",
            "lead_sandbag",
            "foam_chandelier",
        ),
        ("living_room", "dining_room", "garage"),
        {},
        "a suspended mass swings in",
        danger_quota=0.4,
    ),
    FamilyDef(
        "thrown_object",
        ballistic.thrown_object,
        True,
        (
            "cricket_ball",
            "tennis_ball",
            "baseball",
            "pillow",
            "plush_toy",
            "shoe",
            "water_bottle",
            "dart",
            "rubber_ball",
            "house_brick",
            "lead_tennis_ball",
            "steel_apple",
            "lead_plush_toy",
            "lead_pillow",
            "foam_anvil",
            "apple",
        ),
        _HOME + ("garage",),
        {},
        "an object is thrown at the observer",
        danger_quota=0.0,
    ),
    FamilyDef(
        "bouncing_object",
        ballistic.bouncing_object,
        True,
        (
            "rubber_ball",
            "tennis_ball",
            "basketball",
            "superball",
            "soccer_ball",
            "beach_ball",
            "lead_tennis_ball",
            "steel_beach_ball",
        ),
        _HOME + ("garage",),
        {},
        "a ball bounces towards the observer",
        danger_quota=0.2,
    ),
    FamilyDef(
        "stair_tumble",
        slides.stair_tumble,
        True,
        (
            "rubber_ball",
            "soccer_ball",
            "basketball",
            "plastic_bottle",
            "paint_can",
            "tin_can",
            "glass_bottle",
            "tennis_ball",
            "steel_beach_ball",
            "bowling_ball",
            "foam_bowling_ball",
            "lead_tennis_ball",
        ),
        ("hallway",),
        {},
        "something tumbles down the stairs",
        danger_share=0.35,
        danger_quota=0.2,
    ),
    FamilyDef(
        "chain_reaction",
        ballistic.chain_reaction,
        True,
        (
            "plastic_bottle",
            "tin_can",
            "glass_bottle",
            "cereal_box",
            "plastic_cup",
            "coffee_mug",
            "jam_jar",
            "solid_steel_can",
        ),
        _KITCHEN + ("living_room", "office"),
        SUPPORT_HINT,
        "a strike launches a second object",
        danger_quota=0.0,
    ),
    FamilyDef(
        "multi_object",
        ballistic.multi_object,
        True,
        ("domino_block", "paperback", "hardcover_book", "cereal_box"),
        ("living_room", "office", "kitchen"),
        SUPPORT_HINT,
        "momentum runs down a row",
    ),
]

FAMILY_DEFS: dict[str, FamilyDef] = {d.name: d for d in _DEFS}
FAMILIES: tuple[str, ...] = tuple(FAMILY_DEFS)
SPEED_FAMILIES: tuple[str, ...] = tuple(d.name for d in _DEFS if d.speed_swept)
GRAVITY_FAMILIES: tuple[str, ...] = tuple(d.name for d in _DEFS if not d.speed_swept)


def get_family(name: str) -> FamilyDef:
    try:
        return FAMILY_DEFS[name]
    except KeyError:
        raise KeyError(f"unknown family '{name}' (one of: {', '.join(FAMILIES)})") from None
