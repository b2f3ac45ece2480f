"""Core state predicates of the scoring contract, evaluated on the live simulator state only."""

from __future__ import annotations

from dataclasses import dataclass

from interactiveworld.world.sim import BURNERS, World

# kind -> number of args
PREDICATE_ARITY = {
    "in": 2,
    "on": 2,
    "open": 1,
    "closed": 1,
    "powered": 1,
    "unpowered": 1,
    "cooked": 1,
    "filled": 1,
    "spill_clean": 1,
    "held": 1,
    "boiled": 1,
    "wiped": 1,
}


@dataclass(frozen=True)
class Predicate:
    kind: str
    args: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.kind not in PREDICATE_ARITY:
            raise ValueError(f"predicate kind {self.kind!r} unknown (one of {', '.join(PREDICATE_ARITY)})")
        if len(self.args) != PREDICATE_ARITY[self.kind]:
            raise ValueError(f"predicate {self.kind!r} takes {PREDICATE_ARITY[self.kind]} args, got {len(self.args)}")

    def to_json(self) -> dict:
        return {"kind": self.kind, "args": list(self.args)}

    @staticmethod
    def from_json(d: dict) -> "Predicate":
        return Predicate(d["kind"], tuple(d["args"]))

    def describe(self) -> str:
        a = [x.replace("_", " ") for x in self.args]
        return {
            "in": "{0} is in {1}",
            "on": "{0} is on {1}",
            "open": "{0} is open",
            "closed": "{0} is closed",
            "powered": "{0} is on",
            "unpowered": "{0} is off",
            "cooked": "{0} is cooked",
            "filled": "{0} holds water",
            "spill_clean": "{0} is wiped up",
            "held": "{0} is in hand",
            "boiled": "{0} has boiled",
            "wiped": "{0} was wiped up",
        }[self.kind].format(*a)


def _powered(world: World, name: str) -> bool:
    if name in BURNERS:
        return world.burner_level(name) > 0
    if name not in world.machine.power:
        raise ValueError(f"predicate: {name!r} is not an appliance in this world")
    return world.machine.power[name]


def evaluate(p: Predicate, world: World) -> bool:
    a = p.args
    if p.kind in ("in", "on"):
        if a[0] == world.held:
            return False
        r = world.region_of(a[0])
        return r is not None and r.owner == a[1] and r.kind == ("R" if p.kind == "in" else "S")
    if p.kind == "open":
        return world.is_open(a[0])
    if p.kind == "closed":
        return not world.is_open(a[0])
    if p.kind == "powered":
        return _powered(world, a[0])
    if p.kind == "unpowered":
        return not _powered(world, a[0])
    if p.kind == "cooked":
        return world.machine.cook_state(a[0]) == "cooked"
    if p.kind == "filled":
        return bool(world.machine.filled.get(a[0]))
    if p.kind == "spill_clean":
        return not world.machine.spills[a[0]].present
    if p.kind == "wiped":  # a spill that appears after the handoff: spill_clean would be true at handoff
        return world.machine.spills[a[0]].wiped and not world.machine.spills[a[0]].present
    if p.kind == "held":
        return world.held == a[0]
    return bool(world.machine.boiled.get(a[0]))  # boiled
