"""Things to perceive: every task apartment is filled up to `MIN_OBJECTS` objects with a look-alike of each
task object (same kind, another colour, somewhere else) and everyday clutter, some of it inside closed
cabinets, drawers and wardrobes. Clutter goes only on furniture the task does not use, so it never blocks a
goal; it is a pure function of the task id (seeded), frozen into the pack with everything else. Where the
free furniture has too few places (a small studio), some open surfaces take a closed lidded box with one
thing inside it: two objects on one place."""

from __future__ import annotations

import dataclasses
import random
import re

from interactiveworld.world.objects import ObjectSpec
from interactiveworld.world.scene import SceneSpec
from interactiveworld.world.sim import World

MIN_OBJECTS = 15
CLUTTER_CATEGORIES = (
    "mug",
    "cup",
    "can",
    "apple",
    "keys",
    "phone",
    "remote",
    "glasses",
    "wallet",
    "book",
    "sponge",
    "bottle",
)
LOOKALIKE_CATEGORIES = CLUTTER_CATEGORIES + ("juice", "folder", "note")
PALETTE = ("red", "blue", "green", "yellow", "orange", "purple", "black", "white", "brown", "gray")
HOLDER_KINDS = ("table", "desk", "shelf", "counter", "cabinet", "drawer", "wardrobe", "bed")
SLOT_STRIDE = 2  # every other slot: neighbours never touch
BOXED_CATEGORIES = ("mug", "cup", "can", "apple", "keys", "phone", "remote", "glasses", "wallet", "sponge")


def _used_fixtures(world: World, objects: list[ObjectSpec], texts: list[str]) -> set[str]:
    """Furniture the task names anywhere (supports, goals, help, handoff): clutter keeps off it."""
    used = {o.support for o in objects}
    blob = " ".join(texts).lower().replace("_", " ")
    for f in world.apartment.fixtures:
        if re.search(rf"\b{re.escape(f.name.replace('_', ' '))}\b|\b{re.escape(f.kind)}\b", blob):
            used.add(f.name)
    return used


def _free_places(world: World, used: set[str]) -> list[tuple[str, int, bool]]:
    """(fixture, slot index, on an open surface) places on furniture the task leaves alone, in a stable
    order (slots numbered as `World` numbers them: inside first, then surfaces)."""
    out = []
    for f in world.apartment.fixtures:
        if f.kind not in HOLDER_KINDS or f.name in used or f.name not in world.regions:
            continue
        regions = sorted(world.regions[f.name], key=lambda r: (r.kind != "R", r.index))
        open_top = [r.kind == "S" for r in regions for _ in world.slot_positions(r)]
        out += [(f.name, i, open_top[i]) for i in range(0, len(open_top), SLOT_STRIDE)]
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
    boxes = max(0, len(wanted) - len(places))  # places short: that many of them hold a box with one thing
    for cat in wanted:
        if not places:
            break
        name = _new_name(rng, cat, colours_of, taken)
        if name is None:
            continue
        support, slot, open_top = places.pop()
        if boxes and open_top and cat in BOXED_CATEGORIES:
            box = _new_name(rng, "box", colours_of, taken)
            if box is not None:
                objects.append(ObjectSpec(box, "box", box.rsplit("_", 1)[0], support, slot))
                support, slot, boxes = box, 0, boxes - 1
        text = "Shopping: bread, eggs, tea." if cat == "note" else ""
        objects.append(ObjectSpec(name, cat, name.rsplit("_", 1)[0], support, slot, text))
    return dataclasses.replace(scene, objects=tuple(objects))


def _new_name(rng: random.Random, cat: str, colours_of: dict[str, set[str]], taken: set[str]) -> str | None:
    """`colour_category` in a colour this kind does not have yet (None: none left); marks it taken."""
    colours = [c for c in PALETTE if c not in colours_of.get(cat, set())]
    if not colours:
        return None
    colour = rng.choice(colours)
    name = f"{colour}_{cat}"
    if name in taken:
        return None
    taken.add(name)
    colours_of.setdefault(cat, set()).add(colour)
    return name
