"""Procedural apartments: a pure function of (layout, seed) -> ApartmentSpec.

Rooms stand in a row along +x, neighbours joined by a hinged door in the shared wall. Fixtures line the
north wall (front facing -y) and the south wall (front facing +y). Room interiors are the free rectangles
between wall faces.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from interactiveworld.world.fixtures import FIXTURE_DIMS_M, FixtureSpec

LAYOUTS: dict[str, tuple[str, ...]] = {
    "studio": ("kitchen", "living"),
    "flat3": ("living", "kitchen", "office"),
    "office3": ("lobby", "office", "kitchen"),
    "house5": ("bedroom", "living", "kitchen", "office", "lobby"),
}
# room kind -> (north wall fixtures, south wall fixtures)
ROOM_FIXTURES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "kitchen": (("fridge", "counter", "stove", "sink"), ("cabinet", "drawer", "table")),
    "living": (("shelf", "tv", "lamp"), ("sofa", "table")),
    "office": (("desk", "shelf"), ("drawer", "cabinet", "lamp")),
    "lobby": (("desk", "sofa"), ("shelf", "person", "table")),
    "bedroom": (("bed", "drawer"), ("wardrobe", "lamp")),
}
PERSON_NAMES = {"lobby": "receptionist"}
WALL_T_M = 0.1
WALL_H_M = 2.4
DOOR_W_M = 0.9
DOOR_H_M = 2.05
GAP_M = 0.3


@dataclass(frozen=True)
class RoomSpec:
    name: str
    x0: float
    x1: float
    y0: float
    y1: float

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


@dataclass(frozen=True)
class DoorSpec:
    name: str
    rooms: tuple[str, str]
    wall_x: float
    y_center: float
    open_at_start: bool


@dataclass(frozen=True)
class ApartmentSpec:
    layout: str
    seed: int
    rooms: tuple[RoomSpec, ...]
    doors: tuple[DoorSpec, ...]
    fixtures: tuple[FixtureSpec, ...]

    def room(self, name: str) -> RoomSpec:
        for r in self.rooms:
            if r.name == name:
                return r
        raise KeyError(f"no room {name!r} in layout {self.layout!r}")

    def room_at(self, x: float, y: float) -> str | None:
        for r in self.rooms:
            if r.contains(x, y):
                return r.name
        return None

    def fixture(self, name: str) -> FixtureSpec:
        for f in self.fixtures:
            if f.name == name:
                return f
        raise KeyError(f"no fixture {name!r} in layout {self.layout!r}")

    def fixtures_of(self, kind: str, room: str | None = None) -> list[FixtureSpec]:
        return [f for f in self.fixtures if f.kind == kind and (room is None or f.room == room)]


def _fixture_name(kind: str, room: str, counts: Counter) -> str:
    if kind == "person":
        return PERSON_NAMES[room]
    return kind if counts[kind] == 1 else f"{room}_{kind}"


def generate_apartment(layout: str, seed: int, doors_open: bool | None = None) -> ApartmentSpec:
    """Deterministic: the same (layout, seed) always gives the same apartment."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r} (one of {', '.join(LAYOUTS)})")
    rng = random.Random(f"interactiveworld:{layout}:{seed}")
    kinds = LAYOUTS[layout]
    counts = Counter(k for room in kinds for wall in ROOM_FIXTURES[room] for k in wall)
    depth_m = 4.2 + 0.4 * rng.randint(0, 1)
    rooms: list[RoomSpec] = []
    fixtures: list[FixtureSpec] = []
    x = 0.0
    for room in kinds:
        north, south = (list(w) for w in ROOM_FIXTURES[room])
        rng.shuffle(north)
        rng.shuffle(south)
        need = max(sum(FIXTURE_DIMS_M[k][0] for k in wall) + GAP_M * (len(wall) + 1) for wall in (north, south))
        width_m = round(max(4.0, need) + 0.2 * rng.randint(0, 3), 2)
        r = RoomSpec(room, x, x + width_m, 0.0, depth_m)
        rooms.append(r)
        for wall, y_face, yaw in ((north, r.y1, 0.0), (south, r.y0, math.pi)):
            used = sum(FIXTURE_DIMS_M[k][0] for k in wall)
            gap = (width_m - used) / (len(wall) + 1)
            cx = r.x0 + gap
            for k in wall:
                w, d, _ = FIXTURE_DIMS_M[k]
                fy = y_face - d / 2 - 0.01 if yaw == 0.0 else y_face + d / 2 + 0.01
                if k == "person":
                    fy = y_face + 0.6
                fixtures.append(
                    FixtureSpec(_fixture_name(k, room, counts), k, room, round(cx + w / 2, 4), round(fy, 4), yaw)
                )
                cx += w + gap
        x += width_m + WALL_T_M
    doors = []
    for a, b in zip(rooms, rooms[1:]):
        offset = 0.1 * rng.randint(-3, 3)
        is_open = rng.random() < 0.7 if doors_open is None else doors_open
        doors.append(
            DoorSpec(
                f"{a.name}_{b.name}_door",
                (a.name, b.name),
                a.x1 + WALL_T_M / 2,
                round(depth_m / 2 + offset, 3),
                is_open,
            )
        )
    return ApartmentSpec(layout, seed, tuple(rooms), tuple(doors), tuple(fixtures))
