"""Things to perceive: every task apartment is filled up to `MIN_OBJECTS` objects with a look-alike of each
task object (same kind, another colour, somewhere else) and everyday clutter, some of it inside closed
cabinets, drawers and wardrobes. Clutter goes only on furniture the task does not use, so it never blocks a
goal; it is a pure function of the task id (seeded), frozen into the pack with everything else."""

from __future__ import annotations

import random
import re

from interactiveworld.world.objects import ObjectSpec
from interactiveworld.world.scene import SceneSpec
from interactiveworld.world.sim import World

MIN_OBJECTS = 15
CLUTTER_CATEGORIES = ("mug", "cup", "can", "apple", "keys", "phone", "remote", "glasses", "wallet", "book", "sponge",
                      "bottle")
LOOKALIKE_CATEGORIES = CLUTTER_CATEGORIES + ("juice", "folder", "note")
PALETTE = ("red", "blue", "green", "yellow", "orange", "purple", "black", "white", "brown", "gray")
HOLDER_KINDS = ("table", "desk", "shelf", "counter", "cabinet", "drawer", "wardrobe", "bed")
SLOT_STRIDE = 2  # every other slot: neighbours never touch


def _used_fixtures(world: World, objects: list[ObjectSpec], texts: list[str]) -> set[str]:
    """Furniture the task names anywhere (supports, goals, help, handoff): clutter keeps off it."""
    used = {o.support for o in objects}
    blob = " ".join(texts).lower().replace("_", " ")
    for f in world.apartment.fixtures:
        if re.search(rf"\b{re.escape(f.name.replace('_', ' '))}\b|\b{re.escape(f.kind)}\b", blob):
            used.add(f.name)
    return used


def _free_places(world: World, used: set[str]) -> list[tuple[str, int]]:
    """(fixture, slot index) places on furniture the task leaves alone, in a stable order."""
    out = []
    for f in world.apartment.fixtures:
        if f.kind not in HOLDER_KINDS or f.name in used or f.name not in world.regions:
            continue
        regions = sorted(world.regions[f.name], key=lambda r: (r.kind != "R", r.index))
        n = sum(len(world.slot_positions(r)) for r in regions)
        out += [(f.name, i) for i in range(0, n, SLOT_STRIDE)]
    return out


def add_clutter(task_id: str, scene: SceneSpec, texts: list[str]) -> SceneSpec:
    """The scene with look-alikes and clutter added up to MIN_OBJECTS objects (fewer if the apartment has no
    more free places)."""
    objects = list(scene.objects)
    if len(objects) >= MIN_OBJECTS:
        return scene
    rng = random.Random(f"interactiveworld-clutter:{task_id}")
    empty = World(SceneSpec(scene.layout, scene.seed, (), doors_open=scene.doors_open, human_room=scene.human_room))
    places = _free_places(empty, _used_fixtures(empty, objects, texts))
    rng.shuffle(places)
    taken = {o.name for o in objects}
    colours_of: dict[str, set[str]] = {}
    for o in objects:
        colours_of.setdefault(o.category, set()).add(o.color)
    wanted = [o.category for o in objects if o.category in LOOKALIKE_CATEGORIES]  # a look-alike of each first
    while len(objects) + len(wanted) < MIN_OBJECTS:
        wanted.append(rng.choice(CLUTTER_CATEGORIES))
    for cat in wanted:
        if not places:
            break
        colours = [c for c in PALETTE if c not in colours_of.get(cat, set())]
        if not colours:
            continue
        colour = rng.choice(colours)
        name = f"{colour}_{cat}"
        if name in taken:
            continue
        support, slot = places.pop()
        text = "Shopping: bread, eggs, tea." if cat == "note" else ""
        objects.append(ObjectSpec(name, cat, colour, support, slot, text))
        taken.add(name)
        colours_of.setdefault(cat, set()).add(colour)
    return SceneSpec(scene.layout, scene.seed, tuple(objects), scene.spills, scene.doors_open, scene.open_fixtures,
                     scene.powered, scene.filled, scene.human_room, scene.foods)
