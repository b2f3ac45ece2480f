"""Entity catalogue of a world: canonical names, kinds and the aliases a person may use for them.

An alias that fits more than one entity is ambiguous and never silently resolved (no substitution).
"""

from __future__ import annotations

from dataclasses import dataclass

from interactiveworld.names import normalize
from interactiveworld.world.sim import BURNERS, World

SYNONYMS = {
    "refrigerator": "fridge",
    "cupboard": "cabinet",
    "tap": "faucet",
    "television": "tv",
    "hob": "stove",
    "bookshelf": "shelf",
    "closet": "wardrobe",
}


@dataclass(frozen=True)
class Entity:
    name: str
    kind: str  # room, door, fixture, object, burner, faucet, spill, person
    sub: str  # fixture kind or object category


class Catalog:
    def __init__(self, world: World) -> None:
        self.entities: dict[str, Entity] = {}
        self._aliases: dict[str, set[str]] = {}
        ap = world.apartment
        for r in ap.rooms:
            self._add(Entity(r.name, "room", "room"), [f"{r.name}_room"])
        for d in ap.doors:
            a, b = d.rooms
            self._add(
                Entity(d.name, "door", "door"),
                [f"{a}_door", f"{b}_door", f"door_between_{a}_and_{b}", f"{b}_{a}_door", "door"],
            )
        for f in ap.fixtures:
            kind = "person" if f.kind == "person" else "fixture"
            self._add(Entity(f.name, kind, f.kind), [f.kind, f"{f.room}_{f.kind}", f"{f.kind}_in_{f.room}"])
        if "stove" in self.entities:
            for b in BURNERS:
                side = b.split("_")[0]
                self._add(Entity(b, "burner", "burner"), [f"stove_{b}", f"{side}_stove_burner", f"{side}_burner_knob"])
        if "faucet" in world.machine.power:
            self._add(Entity("faucet", "faucet", "faucet"), ["sink_faucet", "kitchen_faucet"])
        for o in world.objects.values():
            self._add(Entity(o.name, "object", o.category), [o.category, f"{o.color}_{o.category}"])
        for s in world.machine.spills:
            self._add(Entity(s, "spill", "spill"), ["spill", "puddle"])

    def _add(self, e: Entity, aliases: list[str]) -> None:
        self.entities[e.name] = e
        for a in [e.name] + aliases:
            self._aliases.setdefault(normalize(a), set()).add(e.name)

    def resolve(self, text: str) -> tuple[str | None, str]:
        """-> (canonical name, "") or (None, failure code)."""
        key = normalize(text)
        for word, canon in SYNONYMS.items():
            key = "_".join(canon if w == word else w for w in key.split("_"))
        if key.endswith("_door") and key[:-5] in self.entities and self.entities[key[:-5]].kind == "fixture":
            key = key[:-5]  # "the fridge door" is the fridge
        exact = self._aliases.get(key)
        if exact and key in self.entities:
            return key, ""
        if exact:
            return (next(iter(exact)), "") if len(exact) == 1 else (None, "AMBIGUOUS")
        return None, "UNKNOWN_ENTITY"

    def kind(self, name: str) -> str:
        return self.entities[name].kind

    def names(self, kind: str | None = None) -> list[str]:
        return sorted(n for n, e in self.entities.items() if kind is None or e.kind == kind)
