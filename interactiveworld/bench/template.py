"""The one builder of InteractiveBench task templates. A template is a row of data (`Template`, the rows are in
`bench.templates`); `template(v)` builds its variant v as a draft TaskPack that `taskgen` admits and freezes.

A row's strings are `str.format` patterns over the variant's names:
- a fixture by its kind, or by its room and kind: `{fridge}`, `{kitchen_table}`, `{office_desk}` (`points.fx`);
- the colours the row draws (`colors`), what its `derive` step adds, the names it spells from them (`names`).
Spoken text (oracle, wrong, handoff, opening, plan, an object's printed text) shows a name as said ('red mug');
every other field (object names and supports, goals, points, scene fields) keeps the canonical name ('red_mug').
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

from interactiveworld.bench.points import apartment, colors, draft, fx, o, rng_for
from interactiveworld.bench.taskpack import TaskPack
from interactiveworld.names import display
from interactiveworld.world.fixtures import FIXTURE_DIMS_M
from interactiveworld.world.layout import ROOM_FIXTURES, ApartmentSpec
from interactiveworld.world.objects import ObjectSpec
from interactiveworld.world.scene import OFFSTAGE, EventSpec, SpillSpec

T = TypeVar("T")

# a variant draws from rng_for("<letter>-<name>-<v>"): the keys the tasks were first generated with, so that
# every frozen pack stays what it is
RNG_LETTER = {
    "guidance": "g",
    "planning": "p",
    "accessibility": "a",
    "decision": "d",
    "prevention": "v",
    "finding": "f",
}


class Obj(NamedTuple):
    """An object as a pattern: ObjectSpec's fields, whose strings may hold placeholders (an ObjectSpec checks
    its colour at once, so it cannot hold one). slot: a number, or the name of one that `derive` chose."""

    name: str
    category: str
    color: str
    support: str
    slot: int | str = 0
    text: str = ""
    under: str = ""


class Names(dict):
    """A variant's names. One the row did not set is a fixture placeholder, looked up in the apartment only when
    a pattern uses it (not every layout has every fixture)."""

    def __init__(self, ap: ApartmentSpec) -> None:
        super().__init__()
        self.ap = ap

    def __missing__(self, key: str) -> str:
        room, _, kind = key.rpartition("_")
        if kind not in FIXTURE_DIMS_M or (room and room not in ROOM_FIXTURES):
            raise KeyError(f"{key!r} is neither a name of the template nor a fixture ('kind' or 'room_kind')")
        self[key] = fx(self.ap, kind, room or None)
        return self[key]


class _Spoken:
    """The names as a person says them."""

    def __init__(self, names: Names) -> None:
        self.names = names

    def __getitem__(self, key: str) -> str:
        return display(str(self.names[key]))

    def say(self, pattern: str) -> str:
        return pattern.format_map(self)


@dataclass(frozen=True)
class Variant:
    """What a row's `derive` step may draw on: the variant number, its apartment, its rng and names so far."""

    v: int
    ap: ApartmentSpec
    rng: random.Random
    names: Names


@dataclass(frozen=True)
class Template:
    """One task template as data; `template(v)` builds variant v."""

    family: str
    name: str  # the task id is "<family>-<name>-<v>"
    title: str
    layouts: Sequence[str]  # variant v's layout is layouts[v]
    seed: int  # variant v's seed is seed + v
    handoff: str
    objects: Sequence[Obj]
    goals: Sequence[tuple[str, ...]]
    oracle: Sequence[str | None]  # reference turns: speech, or None to stay quiet
    wrong: Sequence[str | int | None]  # plausible but wrong help; an int repeats that oracle turn
    points: Sequence[dict]  # `points.said`, `said_by`, `quiet`, with placeholders
    colors: str = ""  # names bound, in order, to colours drawn first from the variant's rng: "c1 c2"
    exclude: tuple[str, ...] = ()  # colours not to draw
    derive: Callable[[Variant], Mapping[str, object]] | None = None  # draws and choices a pattern cannot say
    names: Mapping[str, str] = field(default_factory=dict)  # names spelt from the others: {"mug": "{c1}_mug"}
    rng_key: str = ""  # "": RNG_LETTER's key
    opening: Sequence[str] = ()  # commands the human runs before handoff
    plan: Sequence[str] = ()  # the human's private plan (Prevention)
    deadlines: tuple[int, ...] = ()
    blind: bool = False
    human_room: str = ""
    powered: Sequence[str] = ()
    filled: Sequence[str] = ()
    foods: Sequence[str] = ()
    open_fixtures: Sequence[str] = ()
    spills: tuple[SpillSpec, ...] = ()
    # after the handoff: these objects (patterns of `objects`' names) are not yet in the home; at the start of
    # turn `late_turn` someone puts each down where its row says (support, slot), and the human hears `notice`.
    # Reference and wrong turns that name one of them are said only once it is there.
    late: Sequence[str] = ()
    late_turn: int = 1
    notice: str = ""
    events: Sequence[tuple[int, str, str, str]] = ()  # (turn, "spill" | "power", target, notice) patterns

    def __call__(self, v: int) -> TaskPack:
        layout, seed = self.layouts[v], self.seed + v
        names = self._names(v, layout, seed)
        spoken = _Spoken(names).say
        oracle = [None if t is None else spoken(t) for t in self.oracle]
        wrong = [oracle[t] if isinstance(t, int) else None if t is None else spoken(t) for t in self.wrong]
        placed = [_object(ob, names) for ob in self.objects]
        late = {_fill(n, names) for n in self.late}
        if late - {ob.name for ob in placed}:
            raise ValueError(f"template {self.family}-{self.name}: late names no object: {sorted(late)}")
        events = [
            EventSpec(self.late_turn, "arrive", ob.name, ob.support, ob.slot, spoken(self.notice))
            for ob in placed
            if ob.name in late
        ]
        events += [
            EventSpec(turn, kind, _fill(target, names), notice=spoken(notice))
            for turn, kind, target, notice in self.events
        ]
        said_late = [display(n) for n in sorted(late)]
        oracle, wrong = (_after_arrival(turns, said_late, self.late_turn) for turns in (oracle, wrong))
        objects = [dataclasses.replace(ob, support=OFFSTAGE, slot=0) if ob.name in late else ob for ob in placed]
        return draft(
            self.family,
            f"{self.family}-{self.name}-{v}",
            self.title,
            layout,
            seed,
            objects,
            [_fill(g, names) for g in self.goals],
            oracle,
            wrong,
            spoken(self.handoff),
            [_fill(p, names) for p in self.points],
            places=placed,
            events=tuple(sorted(events, key=lambda e: e.turn)),
            opening=tuple(map(spoken, self.opening)),
            private_plan=tuple(map(spoken, self.plan)),
            deadlines=self.deadlines,
            blind=self.blind,
            human_room=_fill(self.human_room, names),
            powered=_fill(tuple(self.powered), names),
            filled=_fill(tuple(self.filled), names),
            foods=_fill(tuple(self.foods), names),
            open_fixtures=_fill(tuple(self.open_fixtures), names),
            spills=self.spills,
        )

    def _names(self, v: int, layout: str, seed: int) -> Names:
        """Colours first, then `derive`, then the spelt names: the order the variant's rng is drawn in."""
        ap = apartment(layout, seed)
        rng = self._rng(v)
        names = Names(ap)
        wanted = self.colors.split()
        names.update(zip(wanted, colors(rng, len(wanted), self.exclude)))
        if self.derive:
            names.update(self.derive(Variant(v, ap, rng, names)))
        for name, pattern in self.names.items():
            names[name] = pattern.format_map(names)
        return names

    def _rng(self, v: int) -> random.Random:
        key = self.rng_key or f"{RNG_LETTER[self.family]}-{self.name}"
        return rng_for(f"{key}-{v}")


def _after_arrival(turns: list[str | None], late: list[str], turn: int) -> list[str | None]:
    """Quiet turns before the first turn that names a late object, so that it is said once the object is there."""
    if not late:
        return turns
    first = next(
        (
            i
            for i, t in enumerate(turns)
            if t is not None and any(re.search(rf"\bthe {re.escape(n)}\b", t, re.I) for n in late)
        ),
        None,
    )
    if first is None or first >= turn:
        return turns
    return turns[:first] + [None] * (turn - first) + turns[first:]


def _fill(value: T, names: Names) -> T:
    """Canonical names into every string of a goal, point or scene field (numbers and flags pass through)."""
    if isinstance(value, str):
        return value.format_map(names)
    if isinstance(value, tuple):
        return tuple(_fill(x, names) for x in value)
    if isinstance(value, dict):
        return {k: _fill(x, names) for k, x in value.items()}
    return value


def _object(ob: Obj, names: Names) -> ObjectSpec:
    slot = ob.slot if isinstance(ob.slot, int) else int(names[ob.slot])
    return o(
        _fill(ob.name, names),
        _fill(ob.category, names),
        _fill(ob.color, names),
        _fill(ob.support, names),
        slot,
        _Spoken(names).say(ob.text),
        _fill(ob.under, names),
    )
