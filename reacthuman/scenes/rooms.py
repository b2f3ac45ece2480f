"""Indoor room types: colours, walls placed around the family's furniture, lighting.

Frames and units: world, z up, floor z = 0, metres. The event is laid out along +x (towards the observer),
so the back wall is at -x, one side wall at +-y and a front wall behind the observer (+x); the other side
stays open.
"""

from __future__ import annotations

import math
import random

from reacthuman.scenes.builders import r3, static_box
from reacthuman.scenes.furniture import get_model
from reacthuman.scenes.spec import BodySpec, LightSpec, ObserverSpec, VisualMeshSpec

ROOMS: dict[str, dict[str, tuple[float, float, float, float]]] = {
    "kitchen": {
        "wall": (0.93, 0.9, 0.82, 1),
        "furniture": (0.85, 0.85, 0.82, 1),
        "furniture_dark": (0.4, 0.35, 0.3, 1),
        "accent": (0.3, 0.55, 0.5, 1),
        "metal": (0.6, 0.6, 0.62, 1),
        "ceiling": (0.97, 0.97, 0.97, 1),
    },
    "living_room": {
        "wall": (0.82, 0.78, 0.7, 1),
        "furniture": (0.55, 0.38, 0.22, 1),
        "furniture_dark": (0.3, 0.2, 0.12, 1),
        "accent": (0.6, 0.25, 0.25, 1),
        "metal": (0.3, 0.3, 0.3, 1),
        "ceiling": (0.95, 0.95, 0.93, 1),
    },
    "bedroom": {
        "wall": (0.75, 0.8, 0.9, 1),
        "furniture": (0.9, 0.88, 0.85, 1),
        "furniture_dark": (0.5, 0.45, 0.4, 1),
        "accent": (0.35, 0.4, 0.65, 1),
        "metal": (0.5, 0.5, 0.52, 1),
        "ceiling": (0.96, 0.96, 0.98, 1),
    },
    "office": {
        "wall": (0.88, 0.88, 0.88, 1),
        "furniture": (0.45, 0.45, 0.48, 1),
        "furniture_dark": (0.2, 0.2, 0.22, 1),
        "accent": (0.2, 0.4, 0.7, 1),
        "metal": (0.7, 0.7, 0.72, 1),
        "ceiling": (0.95, 0.95, 0.95, 1),
    },
    "dining_room": {
        "wall": (0.85, 0.75, 0.6, 1),
        "furniture": (0.45, 0.28, 0.15, 1),
        "furniture_dark": (0.25, 0.15, 0.08, 1),
        "accent": (0.7, 0.6, 0.2, 1),
        "metal": (0.75, 0.65, 0.35, 1),
        "ceiling": (0.96, 0.94, 0.9, 1),
    },
    "hallway": {
        "wall": (0.9, 0.87, 0.8, 1),
        "furniture": (0.6, 0.45, 0.3, 1),
        "furniture_dark": (0.35, 0.25, 0.15, 1),
        "accent": (0.5, 0.3, 0.2, 1),
        "metal": (0.55, 0.55, 0.55, 1),
        "ceiling": (0.97, 0.97, 0.95, 1),
    },
    "garage": {
        "wall": (0.62, 0.62, 0.6, 1),
        "furniture": (0.5, 0.5, 0.45, 1),
        "furniture_dark": (0.25, 0.25, 0.25, 1),
        "accent": (0.85, 0.6, 0.1, 1),
        "metal": (0.5, 0.5, 0.5, 1),
        "ceiling": (0.8, 0.8, 0.8, 1),
    },
}
ROOM_TYPES: tuple[str, ...] = tuple(ROOMS)
WALL_HALF_T_M = 0.05


def _extent_x(bodies: list[BodySpec]) -> tuple[float, float]:
    lo = [b.pos[0] - max(g.size) - abs(g.pos[0]) for b in bodies for g in b.geoms]
    hi = [b.pos[0] + max(g.size) + abs(g.pos[0]) for b in bodies for g in b.geoms]
    return min(lo), max(hi)


def room_shell(
    rng: random.Random, room: str, bodies: list[BodySpec], observer: ObserverSpec, back_wall_x: float | None
) -> tuple[list[BodySpec], tuple[LightSpec, ...], dict[str, float]]:
    """Walls (back, one side) and lights. The back wall goes at back_wall_x when the family needs it
    (a shelf or frame hangs on it), else a sampled gap behind the furniture."""
    palette = ROOMS[room]
    height = rng.uniform(2.7, 3.1)
    lo_x, _ = _extent_x(bodies) if bodies else (0.0, 0.0)
    back = back_wall_x if back_wall_x is not None else min(lo_x, 0.0) - rng.uniform(0.4, 1.0)
    # A wall behind the observer closes the room (thrown things stop there); cameras look away from it.
    front_x = max(observer.x_m, _extent_x(bodies)[1] if bodies else 0.0) + rng.uniform(1.2, 1.8)
    far_x = front_x
    side = rng.choice((-1.0, 1.0))
    side_y = side * (max(abs(observer.y_m), 1.0) + rng.uniform(1.0, 1.8))
    half_len = (far_x - back) / 2
    look = f"wall_{room}"  # painted over a skirting board (concrete blocks in the garage), modelled.surfaces
    walls = [
        static_box(
            "wall_back",
            (back - WALL_HALF_T_M, 0.0, height / 2),
            (WALL_HALF_T_M, 3.5, height / 2),
            palette["wall"],
            look=look,
        ),
        static_box(
            "wall_side",
            (back + half_len, side_y + side * WALL_HALF_T_M, height / 2),
            (half_len, WALL_HALF_T_M, height / 2),
            palette["wall"],
            look=look,
        ),
        static_box(
            "wall_front",
            (front_x + WALL_HALF_T_M, 0.0, height / 2),
            (WALL_HALF_T_M, 3.5, height / 2),
            palette["wall"],
            look=look,
        ),
    ]
    azimuth = rng.uniform(-math.pi, math.pi)
    elevation = rng.uniform(0.9, 1.4)
    direction = r3(
        (-math.cos(elevation) * math.cos(azimuth), -math.cos(elevation) * math.sin(azimuth), -math.sin(elevation))
    )
    warmth = rng.uniform(0.0, 0.15)
    intensity = rng.uniform(0.7, 1.0)
    light = LightSpec(
        pos=(0.0, 0.0, round(height, 4)),
        dir=direction,
        color=r3((intensity, intensity * (1 - warmth / 3), intensity * (1 - warmth))),
        intensity=round(intensity, 4),
    )
    return (
        walls,
        (light,),
        {"room_height_m": round(height, 4), "back_wall_x_m": round(back, 4), "side_wall_y_m": round(side_y, 4)},
    )


# ---- Furnishing: what makes an empty box read as a kitchen or a living room ---------------------------------
# Static furniture from the installed catalogue, at its real size, against the back and side walls, away from
# the event and the observer. Drawn only: no contacts, no mass (mjcf.py), so no track or label changes.
_C0, _BY, _KL, _SC = "BlendSwap-CC-0#", "BlendSwap-CC-BY#", "KatorLegaz#", "Scopia#"
ROOM_FURNITURE: dict[str, tuple[str, ...]] = {
    "kitchen": (_C0 + "refrigerator", _C0 + "lowerCabinet", _C0 + "sinkCabinet", _C0 + "highCabinet"),
    "living_room": (_C0 + "sofa2", _BY + "bookcase", _BY + "mediumIndoorPlant", _C0 + "televisionCabinet"),
    "bedroom": (_C0 + "bed1", _C0 + "bedsideTable2", _C0 + "cupboard"),
    "office": (_BY + "biurko3", _KL + "filing-cabinet", _C0 + "armchair", _KL + "utility-shelving"),
    "dining_room": (_BY + "dresserWithDrawers", _BY + "kitchenChair", _BY + "kitchenChair", _C0 + "plant"),
    "hallway": (_KL + "painted-bench", _C0 + "radiator3", _C0 + "plant"),
    "garage": (_KL + "utility-shelving", _KL + "utility-shelving", _SC + "step-ladder-metal"),
}
# The family's own table, desk or counter (a top box and a legs box, falls.table) drawn by a catalogue model
# stretched to exactly that box: its top surface is the physical one the object starts on.
SUPPORT_MODELS: dict[str, str] = {"table": _BY + "table", "desk": _BY + "simpleDesk", "counter": _C0 + "lowerCabinet"}
FURNISH_CLEARANCE_M = 0.15  # between a piece and any scene body (at t = 0) or another piece
OBSERVER_CLEAR_M = 0.9  # no furniture within this of the observer's feet (the G1 stands and steps there)
FURNISH_TRIES = 10


def _aabb_of(body: BodySpec) -> tuple[float, float, float, float]:
    """A conservative x/y box around a body (each geom as a square of its largest half-extent)."""
    xs, ys = [], []
    for g in body.geoms:
        r = max(g.size) + math.hypot(*g.pos[:2])
        xs += [body.pos[0] - r, body.pos[0] + r]
        ys += [body.pos[1] - r, body.pos[1] + r]
    return min(xs), max(xs), min(ys), max(ys)


def _overlaps(a: tuple[float, ...], b: tuple[float, ...], gap: float) -> bool:
    return a[0] < b[1] + gap and b[0] < a[1] + gap and a[2] < b[3] + gap and b[2] < a[3] + gap


def _support_box(bodies, name: str) -> tuple[float, float, float, float, float] | None:
    """(x0, x1, y0, y1, top_z) of a table made by falls.table (`name` top over `name_legs`), else None."""
    top = next((b for b in bodies if b.name == name), None)
    legs = next((b for b in bodies if b.name == name + "_legs"), None)
    if top is None or legs is None or len(top.geoms) != 1 or top.geoms[0].shape != "box" or top.quat != (1, 0, 0, 0):
        return None
    hx, hy, hz = top.geoms[0].size
    return (top.pos[0] - hx, top.pos[0] + hx, top.pos[1] - hy, top.pos[1] + hy, top.pos[2] + hz)


def dress_support(bodies, kind: str) -> tuple[VisualMeshSpec | None, tuple[str, ...]]:
    """The catalogue model drawing the family's table/desk/counter, fitted to its box and facing +x (towards
    the observer), and the bodies it draws; (None, ()) when the scene has no such table."""
    for name in ("table", "counter"):
        box = _support_box(bodies, name)
        if box is None:
            continue
        model = get_model(
            SUPPORT_MODELS.get(kind, SUPPORT_MODELS["table"]) if name == "table" else SUPPORT_MODELS["counter"]
        )
        w, d, h = model.size_m
        x0, x1, y0, y1, top = box
        # Turned a quarter (model front, -y, to +x): the model's width runs along y, its depth along x.
        stretch = (round((y1 - y0) / w, 6), round((x1 - x0) / d, 6), round(top / h, 6))
        visual = model.visual(
            quat=(0.707106781187, 0.0, 0.0, 0.707106781187),
            pos=(round((x0 + x1) / 2, 6), round((y0 + y1) / 2, 6), round(top / 2, 6)),
            stretch=stretch,
        )
        return visual, (name, name + "_legs")
    return None, ()


def furnish(
    rng: random.Random, room: str, bodies: list[BodySpec] | tuple[BodySpec, ...], observer: ObserverSpec, params: dict
) -> tuple[tuple[VisualMeshSpec, ...], tuple[str, ...]]:
    """The room's furniture (world-frame placements) and the scene bodies it draws, a pure function of rng
    and the laid-out scene: the family's table or counter drawn by a catalogue model fitted to it
    (dress_support), then each room piece against the back wall (facing +x) or the side wall (facing the room),
    at a seeded place clear of every body of the scene, of the other pieces and of the observer; a piece that
    finds no place is left out."""
    back, side_y = params["back_wall_x_m"], params["side_wall_y_m"]
    front = next((b.pos[0] - WALL_HALF_T_M for b in bodies if b.name == "wall_front"), back + 6.0)
    sign = 1.0 if side_y > 0 else -1.0
    taken = [_aabb_of(b) for b in bodies if not b.name.startswith("wall_")]
    support, dressed = dress_support(bodies, str((params.get("hints") or {}).get("support", "table")))
    placed: list[VisualMeshSpec] = [support] if support is not None else []
    for key in ROOM_FURNITURE[room]:
        model = get_model(key)
        w, d, h = model.size_m
        for _ in range(FURNISH_TRIES):
            if rng.random() < 0.5:  # back wall: the model's front (-y in its frame) turned to face +x
                quat, x = (0.707106781187, 0.0, 0.0, 0.707106781187), back + d / 2 + 0.02
                y = rng.uniform(-min(3.3, abs(side_y)) + w / 2, min(3.3, abs(side_y)) - w / 2)
                box = (x - d / 2, x + d / 2, y - w / 2, y + w / 2)
            else:  # side wall: facing into the room
                quat = (1.0, 0.0, 0.0, 0.0) if sign > 0 else (0.0, 0.0, 0.0, 1.0)
                y, x = side_y - sign * (d / 2 + 0.02), rng.uniform(back + w / 2, front - w / 2)
                box = (x - w / 2, x + w / 2, y - d / 2, y + d / 2)
            near_observer = _overlaps(box, (observer.x_m, observer.x_m, observer.y_m, observer.y_m), OBSERVER_CLEAR_M)
            if (
                box[0] >= box[1]
                or box[2] >= box[3]
                or near_observer
                or any(_overlaps(box, t, FURNISH_CLEARANCE_M) for t in taken)
            ):
                continue
            taken.append(box)
            placed.append(model.visual(quat=quat, pos=(round(x, 4), round(y, 4), round(h / 2, 4))))
            break
    return tuple(placed), dressed


def furnishing_boxes(
    spec_furnishings: tuple[VisualMeshSpec, ...],
) -> tuple[tuple[float, float, float, float, float, float], ...]:
    """World boxes (x0, x1, y0, y1, z0, z1) of placed furniture: where a camera must not stand."""
    out = []
    for v in spec_furnishings:
        w, d, h = (a * b for a, b in zip(v.size_m, v.stretch))
        turned = abs(v.quat[3]) > 0.5 and abs(v.quat[0]) > 0.5  # the back-wall turn swaps width and depth
        hx, hy = (d / 2, w / 2) if turned else (w / 2, d / 2)
        out.append((v.pos[0] - hx, v.pos[0] + hx, v.pos[1] - hy, v.pos[1] + hy, 0.0, h))
    return tuple(out)
