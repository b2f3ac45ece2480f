"""The words of a scene description: the phrases that point at each family, room and hint, and the names of the
library's objects. The rule-based planner reads them, and sourcing reads them to tell an object noun from the
rest of a description.
"""

from __future__ import annotations

import re

from reacthuman.scenes.catalog import OBJECTS

# Weighted phrases per family; a phrase is matched on word boundaries in the lower-cased description.
FAMILY_PHRASES: dict[str, dict[str, float]] = {
    "object_drop": {
        "table": 1,
        "counter": 1,
        "desk": 1,
        "tips off": 2,
        "falls off": 1,
        "knocked off": 2,
        "drops": 1,
        "slides off the counter": 2,
        "off the edge": 1,
        "off the table": 2,
        "off the counter": 2,
        "topples off": 2,
    },
    "shelf_slide": {"shelf": 3, "top shelf": 3, "bookcase shelf": 3, "off a shelf": 3, "off the shelf": 3},
    "hanging_fall": {
        "wall": 1.5,
        "hanging": 1,
        "hook": 2,
        "detaches": 2,
        "comes off the wall": 3,
        "falls off the wall": 3,
        "mounted": 1.5,
        "hung": 1.5,
    },
    "ceiling_drop": {"ceiling": 3, "from above": 2, "overhead": 1.5, "falls from the ceiling": 3},
    "sliding_object": {
        "ramp": 3,
        "slope": 3,
        "incline": 3,
        "chute": 3,
        "slides down": 2,
        "sloped": 3,
        "tilted board": 3,
    },
    "rolling_ball": {"rolls": 2, "rolling": 2, "rolls off": 2.5, "rolls across": 2.5},
    "surface_cascade": {
        "stool": 2,
        "chair": 2,
        "bench": 2,
        "hops": 3,
        "cascade": 3,
        "then the floor": 2.5,
        "onto the chair": 3,
        "onto the stool": 3,
        "then onto": 2,
    },
    "furniture_tip": {
        "tips over": 2,
        "topples": 1.5,
        "bookshelf": 2,
        "wardrobe": 3,
        "cabinet": 2,
        "floor lamp": 3,
        "furniture": 3,
        "falls forward": 1.5,
    },
    "stack_collapse": {"stack": 3, "stacked": 3, "pile": 2.5, "tower": 2, "collapses": 2, "collapse": 2},
    "ladder_slip": {"ladder": 4, "step ladder": 4},
    "door_swing": {"door": 4, "slams": 2, "swings open": 3, "doorway": 3},
    "pendulum_swing": {"swings": 2, "swinging": 2, "pendulum": 4, "chandelier": 2, "punching bag": 3, "suspended": 2},
    "thrown_object": {
        "thrown": 3,
        "throws": 3,
        "tossed": 3,
        "tosses": 3,
        "hurled": 3,
        "hurls": 3,
        "pitched": 3,
        "lobbed": 3,
        "flies towards": 2,
        "flies toward": 2,
        "at me": 1,
        "at the robot": 1,
    },
    "bouncing_object": {"bounce": 3, "bounces": 3, "bouncing": 3},
    "stair_tumble": {"stairs": 4, "staircase": 4, "steps": 2, "tumbles down": 2, "down the stairs": 4},
    "chain_reaction": {
        "knocks into": 3,
        "hits": 1.5,
        "strikes": 2,
        "chain reaction": 4,
        "collides": 2,
        "knocks over": 2.5,
        "launches": 2,
        "slams into": 2,
        "crashes into": 2,
    },
    "multi_object": {"row": 3, "dominoes": 4, "domino": 4, "line of": 3, "in a row": 3, "one after another": 3},
}
ROOM_PHRASES: dict[str, tuple[str, ...]] = {
    "kitchen": ("kitchen", "cooking", "stove", "counter"),
    "living_room": ("living room", "sofa", "couch", "lounge"),
    "bedroom": ("bedroom", "bed"),
    "office": ("office", "study", "desk"),
    "dining_room": ("dining", "dinner"),
    "hallway": ("hallway", "hall", "corridor", "entrance", "stairs", "staircase"),
    "garage": ("garage", "workshop"),
}
HINT_PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "surface": {"stool": ("stool",), "chair": ("chair",), "box": ("box",), "bench": ("bench",)},
    "regime": {
        "slide": ("slides", "slips", "slide", "slip", "skids"),
        "tip": ("tips", "topples", "falls backward", "tip over"),
    },
    "support": {"table": ("table",), "counter": ("counter", "worktop"), "desk": ("desk",)},
}


def has_phrase(text: str, phrase: str) -> bool:
    """Whether the phrase stands in the lower-cased text as whole words."""
    return re.search(r"(?<![a-z])" + re.escape(phrase) + r"(?![a-z])", text) is not None


def object_names(object_id: str, candidates: tuple[str, ...]) -> list[str]:
    """The phrases that name a library object among candidates, longest first."""
    o = OBJECTS[object_id]
    names = {o.name.lower().replace("-", " "), object_id.replace("_", " ")}
    last = o.name.lower().split()[-1]
    # Genuine objects also answer to their last word ("a vase", "a pan") when no other candidate shares it.
    if not o.adversarial and sum(OBJECTS[c].name.lower().split()[-1] == last for c in candidates) == 1:
        names.add(last)
    names |= {n + suffix for n in names for suffix in ("s", "es")}  # plurals: "tin cans", "dominoes"
    return sorted(names, key=len, reverse=True)


def match_object(text: str, candidates: tuple[str, ...]) -> str | None:
    """The candidate named by the longest phrase in the text (adversarial full names beat their twins)."""
    best, best_len = None, 0
    for oid in sorted(candidates):
        for name in object_names(oid, candidates):
            if len(name) > best_len and has_phrase(text, name):
                best, best_len = oid, len(name)
    return best
