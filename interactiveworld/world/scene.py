"""The frozen description of one world: apartment (layout, seed), objects, spills and start states."""

from __future__ import annotations

from dataclasses import dataclass, field

from interactiveworld.world.layout import LAYOUTS
from interactiveworld.world.objects import ObjectSpec


@dataclass(frozen=True)
class SpillSpec:
    name: str
    room: str
    present: bool = True
    trigger: str = ""  # "faucet_overflow": appears when the faucet runs too long

    def __post_init__(self) -> None:
        if self.trigger not in ("", "faucet_overflow"):
            raise ValueError(f"spill {self.name!r}: unknown trigger {self.trigger!r}")


@dataclass(frozen=True)
class SceneSpec:
    layout: str
    seed: int
    objects: tuple[ObjectSpec, ...] = ()
    spills: tuple[SpillSpec, ...] = ()
    doors_open: bool | None = None  # None: each door open or closed as the seed says
    open_fixtures: tuple[str, ...] = ()
    powered: tuple[str, ...] = ()  # appliances on at the start (lamps, tv, faucet, kettles, burners)
    filled: tuple[str, ...] = ()  # containers holding water at the start
    human_room: str = ""
    foods: tuple[str, ...] = field(default=())  # objects that can be cooked

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            raise ValueError(f"scene.layout: unknown layout {self.layout!r}")
        names = [o.name for o in self.objects]
        if len(set(names)) != len(names):
            raise ValueError("scene.objects: object names must be unique")
        if self.human_room and self.human_room not in LAYOUTS[self.layout]:
            raise ValueError(f"scene.human_room: {self.human_room!r} is not a room of {self.layout!r}")

    def to_json(self) -> dict:
        return {
            "layout": self.layout, "seed": self.seed,
            "objects": [o.__dict__ for o in self.objects], "spills": [s.__dict__ for s in self.spills],
            "doors_open": self.doors_open, "open_fixtures": list(self.open_fixtures),
            "powered": list(self.powered), "filled": list(self.filled), "human_room": self.human_room,
            "foods": list(self.foods),
        }

    @staticmethod
    def from_json(d: dict) -> "SceneSpec":
        return SceneSpec(
            layout=d["layout"], seed=int(d["seed"]), objects=tuple(ObjectSpec(**o) for o in d.get("objects", [])),
            spills=tuple(SpillSpec(**s) for s in d.get("spills", [])), doors_open=d.get("doors_open"),
            open_fixtures=tuple(d.get("open_fixtures", [])), powered=tuple(d.get("powered", [])),
            filled=tuple(d.get("filled", [])), human_room=d.get("human_room", ""), foods=tuple(d.get("foods", [])))
