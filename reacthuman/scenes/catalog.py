"""The object library: physical truth (mass, size, material, hazard flags) and visual appearance.

Units: metres, kilograms. `size` follows MJCF for `shape` (box half-extents; sphere radius; cylinder
(radius, half-height)). Hazard flags are physical truth, not looks: an adversarial variant (`looks_like`
names the genuine object it imitates) keeps the appearance of its twin but carries its own mass,
material and flags, and the label follows those. `heavy` is derived from mass (the labeller's
`heavy_mass_kg`, config/ground_truth.yaml).
"""

from __future__ import annotations

from dataclasses import dataclass

from reacthuman.scenes.label_config import load_label_config
from reacthuman.scenes.spec import SceneSpec, SourcedObjectSpec

# material -> (colour hint (rgba), typical restitution, typical friction)
MATERIALS: dict[str, tuple[tuple[float, float, float, float], float, float]] = {
    "ceramic": ((0.93, 0.92, 0.88, 1.0), 0.15, 0.6),
    "glass": ((0.7, 0.85, 0.9, 0.55), 0.2, 0.5),
    "steel": ((0.6, 0.62, 0.65, 1.0), 0.3, 0.5),
    "cast_iron": ((0.18, 0.18, 0.2, 1.0), 0.1, 0.6),
    "lead": ((0.4, 0.42, 0.45, 1.0), 0.05, 0.6),
    "aluminium": ((0.78, 0.8, 0.82, 1.0), 0.2, 0.5),
    "wood": ((0.6, 0.42, 0.25, 1.0), 0.25, 0.6),
    "plastic": ((0.2, 0.5, 0.85, 1.0), 0.35, 0.5),
    "rubber": ((0.85, 0.2, 0.2, 1.0), 0.8, 0.9),
    "foam": ((0.95, 0.85, 0.4, 1.0), 0.3, 0.9),
    "fabric": ((0.5, 0.35, 0.6, 1.0), 0.05, 0.9),
    "paper": ((0.85, 0.75, 0.55, 1.0), 0.1, 0.6),
    "cardboard": ((0.72, 0.55, 0.35, 1.0), 0.1, 0.6),
    "felt": ((0.8, 0.9, 0.2, 1.0), 0.7, 0.8),
    "leather": ((0.55, 0.1, 0.1, 1.0), 0.5, 0.8),
    "plaster": ((0.92, 0.92, 0.9, 1.0), 0.05, 0.7),
    "electronics": ((0.1, 0.1, 0.12, 1.0), 0.2, 0.5),
    "stone": ((0.55, 0.55, 0.5, 1.0), 0.1, 0.7),
}


@dataclass(frozen=True)
class ObjectEntry:
    object_id: str
    name: str
    shape: str
    size: tuple[float, ...]
    mass_kg: float
    material: str
    graspable: bool = True
    sharp: bool = False
    hot: bool = False
    shattering: bool = False
    rgba: tuple[float, float, float, float] | None = None  # appearance colour; None: the material's
    texture: str = "plain"  # appearance pattern the renderer shows: plain | stripes | checker | label
    looks_like: str = ""  # adversarial: the genuine object whose appearance this one copies
    restitution: float | None = None

    @property
    def heavy(self) -> bool:
        return self.mass_kg >= load_label_config().heavy_mass_kg

    @property
    def adversarial(self) -> bool:
        return bool(self.looks_like)

    @property
    def hazard_flags(self) -> tuple[str, ...]:
        names = ("sharp", "hot", "shattering", "heavy")
        return tuple(n for n in names if getattr(self, n))

    @property
    def color(self) -> tuple[float, float, float, float]:
        return self.rgba or MATERIALS[self.material][0]

    @property
    def rest(self) -> float:
        return MATERIALS[self.material][1] if self.restitution is None else self.restitution

    @property
    def rolls(self) -> bool:
        return self.shape == "sphere"


def _o(
    object_id: str, name: str, shape: str, size: tuple[float, ...], mass_kg: float, material: str, **kw
) -> ObjectEntry:
    return ObjectEntry(object_id, name, shape, size, mass_kg, material, **kw)


_GENUINE = [
    # tabletop and kitchen
    _o("ceramic_plate", "ceramic plate", "cylinder", (0.12, 0.01), 0.45, "ceramic", shattering=True),
    _o("coffee_mug", "coffee mug", "cylinder", (0.042, 0.048), 0.33, "ceramic", rgba=(0.9, 0.9, 0.95, 1)),
    _o(
        "hot_coffee_mug",
        "mug of hot coffee",
        "cylinder",
        (0.042, 0.048),
        0.45,
        "ceramic",
        hot=True,
        rgba=(0.55, 0.3, 0.15, 1),
    ),
    _o("drinking_glass", "drinking glass", "cylinder", (0.035, 0.06), 0.25, "glass", shattering=True),
    _o("wine_glass", "wine glass", "cylinder", (0.04, 0.1), 0.2, "glass", shattering=True),
    _o("chefs_knife", "chef's knife", "box", (0.16, 0.022, 0.008), 0.22, "steel", sharp=True),
    _o("scissors", "scissors", "box", (0.1, 0.04, 0.008), 0.12, "steel", sharp=True),
    _o("kettle", "kettle of boiling water", "cylinder", (0.08, 0.1), 1.6, "steel", hot=True),
    _o("cast_iron_pan", "cast-iron pan", "cylinder", (0.13, 0.025), 2.6, "cast_iron"),
    _o("hot_pan", "hot frying pan", "cylinder", (0.13, 0.02), 1.3, "aluminium", hot=True, rgba=(0.25, 0.25, 0.28, 1)),
    _o("smartphone", "smartphone", "box", (0.075, 0.037, 0.004), 0.19, "electronics"),
    _o("tv_remote", "TV remote", "box", (0.09, 0.025, 0.012), 0.15, "plastic", rgba=(0.1, 0.1, 0.1, 1)),
    _o("apple", "apple", "sphere", (0.04,), 0.2, "wood", rgba=(0.8, 0.1, 0.1, 1), restitution=0.2),
    _o("orange", "orange", "sphere", (0.042,), 0.22, "wood", rgba=(1.0, 0.55, 0.05, 1), restitution=0.25),
    _o("plastic_cup", "plastic cup", "cylinder", (0.04, 0.055), 0.03, "plastic"),
    _o("plastic_bottle", "plastic bottle", "cylinder", (0.035, 0.11), 0.5, "plastic", rgba=(0.3, 0.7, 0.95, 0.8)),
    _o(
        "glass_bottle",
        "glass wine bottle",
        "cylinder",
        (0.038, 0.15),
        1.2,
        "glass",
        shattering=True,
        rgba=(0.1, 0.35, 0.15, 0.9),
    ),
    _o("tin_can", "tin can", "cylinder", (0.033, 0.06), 0.4, "steel", texture="label", rgba=(0.85, 0.2, 0.15, 1)),
    _o("paint_can", "paint can", "cylinder", (0.085, 0.095), 4.5, "steel", texture="label"),
    _o("cutting_board", "cutting board", "box", (0.18, 0.12, 0.01), 0.7, "wood"),
    _o("serving_tray", "serving tray", "box", (0.2, 0.14, 0.01), 0.5, "plastic"),
    _o("salad_bowl", "glass salad bowl", "cylinder", (0.12, 0.05), 1.1, "glass", shattering=True),
    _o(
        "toy_block",
        "wooden toy block",
        "box",
        (0.03, 0.03, 0.03),
        0.06,
        "wood",
        texture="checker",
        rgba=(0.2, 0.7, 0.3, 1),
    ),
    _o("dish_sponge", "dish sponge", "box", (0.05, 0.035, 0.02), 0.02, "foam"),
    _o("jam_jar", "glass jam jar", "cylinder", (0.04, 0.05), 0.45, "glass", shattering=True),
    _o("cereal_box", "cereal box", "box", (0.1, 0.035, 0.15), 0.5, "cardboard", texture="label"),
    # books, office and living room
    _o("hardcover_book", "hardcover book", "box", (0.12, 0.085, 0.02), 1.0, "paper", rgba=(0.1, 0.2, 0.5, 1)),
    _o("paperback", "paperback book", "box", (0.1, 0.065, 0.012), 0.3, "paper", rgba=(0.85, 0.4, 0.2, 1)),
    _o("laptop", "laptop", "box", (0.16, 0.11, 0.01), 1.4, "aluminium"),
    _o("stapler", "stapler", "box", (0.08, 0.02, 0.025), 0.3, "steel", rgba=(0.1, 0.1, 0.1, 1)),
    _o("cardboard_box", "small cardboard box", "box", (0.12, 0.1, 0.08), 0.4, "cardboard"),
    _o("toolbox", "steel toolbox", "box", (0.22, 0.1, 0.1), 7.0, "steel", rgba=(0.8, 0.1, 0.1, 1)),
    _o(
        "ceramic_vase",
        "ceramic vase",
        "cylinder",
        (0.06, 0.14),
        1.2,
        "ceramic",
        shattering=True,
        rgba=(0.2, 0.4, 0.7, 1),
        texture="stripes",
    ),
    _o(
        "plant_pot",
        "terracotta plant pot",
        "cylinder",
        (0.08, 0.08),
        2.5,
        "ceramic",
        shattering=True,
        rgba=(0.75, 0.35, 0.2, 1),
    ),
    _o("glass_jar", "large glass jar", "cylinder", (0.07, 0.1), 1.3, "glass", shattering=True),
    _o("cushion", "cushion", "box", (0.2, 0.2, 0.06), 0.4, "fabric"),
    _o("plush_toy", "plush toy", "sphere", (0.09,), 0.15, "fabric", rgba=(0.7, 0.5, 0.3, 1)),
    _o("shoe", "sneaker", "box", (0.14, 0.05, 0.05), 0.35, "leather", rgba=(0.9, 0.9, 0.9, 1)),
    _o("dumbbell", "dumbbell", "cylinder", (0.045, 0.12), 5.0, "cast_iron"),
    _o("bowling_ball", "bowling ball", "sphere", (0.108,), 6.5, "plastic", rgba=(0.1, 0.1, 0.4, 1), restitution=0.1),
    # wall and ceiling fixtures
    _o("picture_frame", "picture frame", "box", (0.02, 0.18, 0.13), 0.6, "wood", texture="checker"),
    _o("glass_picture_frame", "large glass picture frame", "box", (0.02, 0.3, 0.22), 3.0, "glass", shattering=True),
    _o(
        "wall_mirror",
        "wall mirror",
        "box",
        (0.015, 0.25, 0.35),
        6.0,
        "glass",
        shattering=True,
        rgba=(0.8, 0.85, 0.9, 1),
    ),
    _o(
        "wall_clock",
        "wall clock",
        "cylinder",
        (0.15, 0.025),
        0.8,
        "plastic",
        rgba=(0.95, 0.95, 0.95, 1),
        texture="label",
    ),
    _o("coat_hook_rack", "coat-hook rack", "box", (0.03, 0.3, 0.04), 1.5, "wood"),
    _o("wall_shelf_board", "wall shelf board", "box", (0.1, 0.35, 0.015), 2.2, "wood"),
    _o("ceiling_fan", "ceiling fan", "cylinder", (0.45, 0.05), 6.0, "steel", rgba=(0.9, 0.9, 0.9, 1)),
    _o(
        "ceiling_light",
        "ceiling light fixture",
        "cylinder",
        (0.2, 0.06),
        2.5,
        "glass",
        shattering=True,
        rgba=(1.0, 1.0, 0.85, 0.9),
    ),
    _o("ceiling_panel", "plasterboard ceiling panel", "box", (0.3, 0.3, 0.012), 4.5, "plaster"),
    _o("smoke_detector", "smoke detector", "cylinder", (0.06, 0.025), 0.25, "plastic", rgba=(0.97, 0.97, 0.97, 1)),
    _o("plaster_chunk", "chunk of plaster", "box", (0.08, 0.06, 0.04), 1.2, "plaster", sharp=True),
    _o("chandelier", "crystal chandelier", "sphere", (0.25,), 12.0, "glass", shattering=True, graspable=False),
    _o("punching_bag", "punching bag", "capsule", (0.16, 0.3), 20.0, "leather", graspable=False),
    _o("hanging_planter", "hanging planter", "sphere", (0.12,), 3.0, "ceramic", shattering=True),
    _o("pendant_lamp", "pendant lamp", "cylinder", (0.15, 0.1), 1.0, "aluminium", hot=True, rgba=(0.9, 0.8, 0.3, 1)),
    _o("cloth_sandbag", "cloth bean bag", "box", (0.1, 0.07, 0.04), 0.3, "fabric", rgba=(0.8, 0.7, 0.5, 1)),
    # balls and thrown things
    _o("rubber_ball", "rubber ball", "sphere", (0.06,), 0.15, "rubber"),
    _o("tennis_ball", "tennis ball", "sphere", (0.033,), 0.058, "felt"),
    _o("basketball", "basketball", "sphere", (0.12,), 0.62, "rubber", rgba=(0.9, 0.45, 0.1, 1)),
    _o(
        "soccer_ball",
        "soccer ball",
        "sphere",
        (0.11,),
        0.43,
        "leather",
        rgba=(0.95, 0.95, 0.95, 1),
        texture="checker",
        restitution=0.6,
    ),
    _o("cricket_ball", "cricket ball", "sphere", (0.036,), 0.16, "leather", restitution=0.4),
    _o("baseball", "baseball", "sphere", (0.037,), 0.145, "leather", rgba=(0.95, 0.95, 0.9, 1), restitution=0.45),
    _o("beach_ball", "beach ball", "sphere", (0.15,), 0.1, "plastic", texture="stripes", restitution=0.6),
    _o("superball", "bouncy superball", "sphere", (0.025,), 0.03, "rubber", rgba=(0.2, 0.9, 0.3, 1), restitution=0.9),
    _o("steel_ball", "steel ball bearing", "sphere", (0.04,), 2.1, "steel", restitution=0.4),
    _o("water_bottle", "full water bottle", "cylinder", (0.035, 0.11), 0.55, "plastic"),
    _o("dart", "steel-tipped dart", "capsule", (0.006, 0.06), 0.03, "steel", sharp=True),
    _o("pillow", "pillow", "box", (0.3, 0.2, 0.07), 0.5, "fabric", rgba=(0.95, 0.95, 1.0, 1)),
    _o("house_brick", "house brick", "box", (0.11, 0.055, 0.035), 2.3, "stone", rgba=(0.7, 0.3, 0.2, 1)),
    _o("suitcase", "hard-shell suitcase", "box", (0.25, 0.12, 0.35), 12.0, "plastic", graspable=False),
    # large articulated things (the family builds the articulation; this is the moving part)
    _o("bookshelf", "tall bookshelf", "box", (0.18, 0.4, 0.9), 45.0, "wood", graspable=False),
    _o("wardrobe", "wardrobe", "box", (0.3, 0.5, 0.95), 70.0, "wood", graspable=False),
    _o("floor_lamp", "floor lamp", "cylinder", (0.025, 0.8), 4.0, "steel", hot=True, graspable=False),
    _o("filing_cabinet", "filing cabinet", "box", (0.22, 0.23, 0.65), 35.0, "steel", graspable=False),
    _o("aluminium_ladder", "aluminium ladder", "box", (0.03, 0.22, 1.3), 7.0, "aluminium", graspable=False),
    _o("wooden_ladder", "wooden ladder", "box", (0.035, 0.22, 1.2), 11.0, "wood", graspable=False),
    _o("glass_door", "glass door", "box", (0.4, 0.02, 1.0), 30.0, "glass", shattering=True, graspable=False),
    _o("wooden_door", "solid wooden door", "box", (0.4, 0.022, 1.0), 25.0, "wood", graspable=False),
    _o("metal_door", "metal fire door", "box", (0.45, 0.025, 1.0), 45.0, "steel", graspable=False),
    _o("domino_block", "large wooden domino", "box", (0.015, 0.05, 0.1), 0.15, "wood", rgba=(0.1, 0.1, 0.1, 1)),
]

# Adversarial variants: the twin's look (shape, size, colour, texture) with contradicting physics.
_ADVERSARIAL_SPECS: list[tuple[str, str, str, float, str, dict]] = [
    ("foam_anvil", "foam anvil", "house_brick", 0.08, "foam", {}),
    ("steel_apple", "steel apple", "apple", 2.1, "steel", {}),
    ("lead_tennis_ball", "lead-core tennis ball", "tennis_ball", 2.4, "lead", {}),
    ("foam_mirror", "foam mirror", "wall_mirror", 0.25, "foam", {"shattering": False}),
    ("hollow_prop_door", "hollow prop door", "wooden_door", 1.5, "foam", {"graspable": True}),
    ("foam_ceiling_panel", "foam ceiling panel", "ceiling_panel", 0.15, "foam", {}),
    ("lead_sandbag", "lead sandbag", "cloth_sandbag", 5.5, "lead", {}),
    ("solid_steel_can", "solid-steel can", "tin_can", 3.2, "steel", {}),
    ("foam_cast_iron_pan", "foam cast-iron pan", "cast_iron_pan", 0.1, "foam", {}),
    ("foam_bowling_ball", "foam bowling ball", "bowling_ball", 0.2, "foam", {}),
    ("rubber_chefs_knife", "rubber prop knife", "chefs_knife", 0.05, "rubber", {"sharp": False}),
    ("lead_plush_toy", "lead-filled plush toy", "plush_toy", 4.0, "lead", {}),
    ("foam_toolbox", "foam toolbox", "toolbox", 0.3, "foam", {}),
    ("steel_beach_ball", "steel-shell beach ball", "beach_ball", 6.0, "steel", {}),
    ("foam_plant_pot", "foam plant pot", "plant_pot", 0.1, "foam", {"shattering": False}),
    ("lead_pillow", "lead-lined pillow", "pillow", 9.0, "lead", {}),
    ("cold_prop_kettle", "empty cold kettle", "kettle", 0.5, "steel", {"hot": False}),
    ("foam_chandelier", "foam prop chandelier", "chandelier", 0.6, "foam", {"shattering": False, "graspable": True}),
]


def _adversarial(object_id: str, name: str, twin_id: str, mass_kg: float, material: str, flags: dict) -> ObjectEntry:
    twin = next(o for o in _GENUINE if o.object_id == twin_id)
    keep = {k: getattr(twin, k) for k in ("sharp", "hot", "shattering", "graspable")}
    if material in ("foam", "rubber"):  # soft stand-ins lose the twin's hazards unless stated otherwise
        keep.update(sharp=False, hot=False, shattering=False)
    keep.update(flags)
    return ObjectEntry(
        object_id,
        name,
        twin.shape,
        twin.size,
        mass_kg,
        material,
        rgba=twin.color,
        texture=twin.texture,
        looks_like=twin_id,
        **keep,
    )


OBJECTS: dict[str, ObjectEntry] = {o.object_id: o for o in _GENUINE}
OBJECTS.update({a[0]: _adversarial(*a) for a in _ADVERSARIAL_SPECS})
ADVERSARIAL_IDS: tuple[str, ...] = tuple(a[0] for a in _ADVERSARIAL_SPECS)


def physical_extent_m(entry: ObjectEntry) -> tuple[float, float, float]:
    """Full extents (x, y, z) of the object's primitive in its body frame."""
    s = entry.size
    if entry.shape == "box":
        return (2 * s[0], 2 * s[1], 2 * s[2])
    if entry.shape == "sphere":
        return (2 * s[0],) * 3  # type: ignore[return-value]
    if entry.shape == "cylinder":
        return (2 * s[0], 2 * s[0], 2 * s[1])
    return (2 * s[0], 2 * s[0], 2 * s[1] + 2 * s[0])  # capsule


def get_object(object_id: str, sourced: SourcedObjectSpec | None = None) -> ObjectEntry:
    """The library's object, or the object sourced from a catalogue that a spec or selection records."""
    if sourced is not None and sourced.object_id == object_id:
        return sourced_entry(sourced)
    try:
        return OBJECTS[object_id]
    except KeyError:
        raise KeyError(f"unknown object '{object_id}'") from None


def spec_object(spec: SceneSpec, object_id: str | None = None) -> ObjectEntry:
    """The entry of a scene's object (its own by default), looked up where the spec says it lives."""
    return get_object(spec.object_id if object_id is None else object_id, spec.sourced_object)


def sourced_entry(record: SourcedObjectSpec) -> ObjectEntry:
    """The object entry a sourced object's record describes (sourcing.py builds the record)."""
    return ObjectEntry(
        record.object_id,
        record.name,
        record.shape,
        tuple(record.size),
        record.mass_kg,
        record.material,
        graspable=record.graspable,
        sharp=record.sharp,
        hot=record.hot,
        shattering=record.shattering,
    )


def twins_of(object_id: str) -> tuple[str, ...]:
    """Adversarial variants that copy this genuine object's appearance."""
    return tuple(a for a in ADVERSARIAL_IDS if OBJECTS[a].looks_like == object_id)
