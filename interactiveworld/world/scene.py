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
    trigger: str = ""  # "faucet_overflow": appears when the faucet runs too long; "event": a scene event

    def __post_init__(self) -> None:
        if self.trigger not in SPILL_TRIGGERS:
            raise ValueError(f"spill {self.name!r}: unknown trigger {self.trigger!r}")


SPILL_TRIGGERS = ("", "faucet_overflow", "event")
OFFSTAGE = "offstage"  # an object's support while it is not yet in the home (it arrives by an event)
EVENT_KINDS = ("arrive", "spill", "power")


@dataclass(frozen=True)
class EventSpec:
    """Something that happens in the home after the handoff, whatever the human does: at the start of turn
    `turn` (before the assistant's turn), someone puts object `target` down in or on `dest` at `slot`
    ("arrive"), spill `target` appears ("spill"), or appliance `target` is switched on ("power"). `notice`: what
    the human hears of it, said in its next words ("" when nothing can be heard)."""

    turn: int
    kind: str
    target: str
    dest: str = ""
    slot: int = 0
    notice: str = ""

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"event at turn {self.turn}: kind {self.kind!r} is not one of {EVENT_KINDS}")
        if self.turn < 1:
            raise ValueError(f"event {self.kind} {self.target!r}: turn must be >= 1 (after the handoff)")
        if self.kind == "arrive" and not self.dest:
            raise ValueError(f"event arrive {self.target!r}: needs a dest")


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
    events: tuple[EventSpec, ...] = ()  # what happens after the handoff, by turn

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            raise ValueError(f"scene.layout: unknown layout {self.layout!r}")
        names = [o.name for o in self.objects]
        if len(set(names)) != len(names):
            raise ValueError("scene.objects: object names must be unique")
        if self.human_room and self.human_room not in LAYOUTS[self.layout]:
            raise ValueError(f"scene.human_room: {self.human_room!r} is not a room of {self.layout!r}")
        offstage = {o.name for o in self.objects if o.support == OFFSTAGE}
        arriving = {e.target for e in self.events if e.kind == "arrive"}
        if offstage != arriving:
            raise ValueError(f"scene: objects offstage {sorted(offstage)} must be those that arrive {sorted(arriving)}")
        spills = {s.name for s in self.spills if s.trigger == "event"}
        if spills != {e.target for e in self.events if e.kind == "spill"}:
            raise ValueError("scene: the spills with trigger 'event' must be those a spill event names")

    def to_json(self) -> dict:
        return {
            "layout": self.layout,
            "seed": self.seed,
            "objects": [o.__dict__ for o in self.objects],
            "spills": [s.__dict__ for s in self.spills],
            "doors_open": self.doors_open,
            "open_fixtures": list(self.open_fixtures),
            "powered": list(self.powered),
            "filled": list(self.filled),
            "human_room": self.human_room,
            "foods": list(self.foods),
            **({"events": [e.__dict__ for e in self.events]} if self.events else {}),
        }

    @staticmethod
    def from_json(d: dict) -> "SceneSpec":
        return SceneSpec(
            layout=d["layout"],
            seed=int(d["seed"]),
            objects=tuple(ObjectSpec(**o) for o in d.get("objects", [])),
            spills=tuple(SpillSpec(**s) for s in d.get("spills", [])),
            doors_open=d.get("doors_open"),
            open_fixtures=tuple(d.get("open_fixtures", [])),
            powered=tuple(d.get("powered", [])),
            filled=tuple(d.get("filled", [])),
            human_room=d.get("human_room", ""),
            foods=tuple(d.get("foods", [])),
            events=tuple(EventSpec(**e) for e in d.get("events", [])),
        )
