"""What the human knows about where things are: objects it has seen (in its own view, from simulator
visibility), felt (a blind human searching or picking), or been told about ("the milk is in the fridge",
"pick up the milk from the counter"). Rooms, doors and the furniture of the home are known; movable
objects are not until one of those happens.

The executor asks this before walking to an object; it never reads the world's global truth for that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from interactiveworld.actions.entities import Catalog
from interactiveworld.world.sim import World
from interactiveworld.world.visibility import SightConfig, visible_objects
from interactiveworld.actions.parser import clean, split_clauses

_PLACE = re.compile(
    r"^(?P<t>.+?) (?:is|are|lies|sits|stands|was|were|should be|can be found|is kept)"
    r"(?: still| now| right)? (?:in|inside|on|on top of|at|in the back of|under|beneath) (?P<d>.+)$"
)


@dataclass
class HumanKnowledge:
    """Per object: the place (a fixture or container name, "" when only its spot is known) the human last
    saw it at or was told it is at."""

    sight: SightConfig = field(default_factory=SightConfig)
    place_of: dict[str, str] = field(default_factory=dict)  # latest of seen, felt or told wins
    told: set[str] = field(default_factory=set)
    identified: set[str] = field(default_factory=set)  # seen or felt itself, not only heard of
    visible: frozenset[str] = frozenset()

    def observe(self, world: World) -> None:
        self.visible = frozenset(visible_objects(world, self.sight))
        for name in self.visible:
            r = world.region_of(name)
            self.place_of[name] = r.owner if r is not None else ""
        self.identified |= self.visible

    def felt(self, name: str, place: str) -> None:
        self.place_of[name] = place
        self.identified.add(name)

    def tell(self, name: str, place: str) -> None:
        self.place_of[name] = place
        self.told.add(name)

    def knows(self, name: str) -> bool:
        return name in self.visible or name in self.place_of

    def believed_place(self, name: str) -> str:
        return self.place_of.get(name, "")

    def hear(self, speech: str, catalog: Catalog) -> list[tuple[str, str]]:
        """Location statements in what the assistant said ("the blue bottle is in the wardrobe"); returns the
        (object, place) pairs learned. Names that fit nothing or several things teach nothing."""

        learned = []
        for clause in split_clauses(speech):
            m = _PLACE.match(clean(clause))
            if not m:
                continue
            obj, _ = catalog.resolve(m["t"])
            place, _ = catalog.resolve(m["d"])
            if obj and place and catalog.kind(obj) == "object":
                self.tell(obj, place)
                learned.append((obj, place))
        return learned
