"""Indoor room types: colours, walls placed around the family's furniture, lighting.

Frames and units: world, z up, floor z = 0, metres. The event is laid out along +x (towards the observer),
so the back wall is at -x, one side wall at +-y and a front wall behind the observer (+x); the other side
stays open.
"""

from __future__ import annotations

import math
import random

from reacthuman.scenes.builders import r3, static_box
from reacthuman.scenes.spec import BodySpec, LightSpec, ObserverSpec

ROOMS: dict[str, dict[str, tuple[float, float, float, float]]] = {
    "kitchen": {"wall": (0.93, 0.9, 0.82, 1), "furniture": (0.85, 0.85, 0.82, 1), "furniture_dark": (0.4, 0.35, 0.3, 1),
                "accent": (0.3, 0.55, 0.5, 1), "metal": (0.6, 0.6, 0.62, 1), "ceiling": (0.97, 0.97, 0.97, 1)},
    "living_room": {"wall": (0.82, 0.78, 0.7, 1), "furniture": (0.55, 0.38, 0.22, 1), "furniture_dark": (0.3, 0.2, 0.12, 1),
                    "accent": (0.6, 0.25, 0.25, 1), "metal": (0.3, 0.3, 0.3, 1), "ceiling": (0.95, 0.95, 0.93, 1)},
    "bedroom": {"wall": (0.75, 0.8, 0.9, 1), "furniture": (0.9, 0.88, 0.85, 1), "furniture_dark": (0.5, 0.45, 0.4, 1),
                "accent": (0.35, 0.4, 0.65, 1), "metal": (0.5, 0.5, 0.52, 1), "ceiling": (0.96, 0.96, 0.98, 1)},
    "office": {"wall": (0.88, 0.88, 0.88, 1), "furniture": (0.45, 0.45, 0.48, 1), "furniture_dark": (0.2, 0.2, 0.22, 1),
               "accent": (0.2, 0.4, 0.7, 1), "metal": (0.7, 0.7, 0.72, 1), "ceiling": (0.95, 0.95, 0.95, 1)},
    "dining_room": {"wall": (0.85, 0.75, 0.6, 1), "furniture": (0.45, 0.28, 0.15, 1), "furniture_dark": (0.25, 0.15, 0.08, 1),
                    "accent": (0.7, 0.6, 0.2, 1), "metal": (0.75, 0.65, 0.35, 1), "ceiling": (0.96, 0.94, 0.9, 1)},
    "hallway": {"wall": (0.9, 0.87, 0.8, 1), "furniture": (0.6, 0.45, 0.3, 1), "furniture_dark": (0.35, 0.25, 0.15, 1),
                "accent": (0.5, 0.3, 0.2, 1), "metal": (0.55, 0.55, 0.55, 1), "ceiling": (0.97, 0.97, 0.95, 1)},
    "garage": {"wall": (0.62, 0.62, 0.6, 1), "furniture": (0.5, 0.5, 0.45, 1), "furniture_dark": (0.25, 0.25, 0.25, 1),
               "accent": (0.85, 0.6, 0.1, 1), "metal": (0.5, 0.5, 0.5, 1), "ceiling": (0.8, 0.8, 0.8, 1)},
}
ROOM_TYPES: tuple[str, ...] = tuple(ROOMS)
WALL_HALF_T_M = 0.05


def _extent_x(bodies: list[BodySpec]) -> tuple[float, float]:
    lo = [b.pos[0] - max(g.size) - abs(g.pos[0]) for b in bodies for g in b.geoms]
    hi = [b.pos[0] + max(g.size) + abs(g.pos[0]) for b in bodies for g in b.geoms]
    return min(lo), max(hi)


def room_shell(rng: random.Random, room: str, bodies: list[BodySpec], observer: ObserverSpec,
               back_wall_x: float | None) -> tuple[list[BodySpec], tuple[LightSpec, ...], dict[str, float]]:
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
    walls = [
        static_box("wall_back", (back - WALL_HALF_T_M, 0.0, height / 2), (WALL_HALF_T_M, 3.5, height / 2), palette["wall"]),
        static_box("wall_side", (back + half_len, side_y + side * WALL_HALF_T_M, height / 2),
                   (half_len, WALL_HALF_T_M, height / 2), palette["wall"]),
        static_box("wall_front", (front_x + WALL_HALF_T_M, 0.0, height / 2), (WALL_HALF_T_M, 3.5, height / 2), palette["wall"]),
    ]
    azimuth = rng.uniform(-math.pi, math.pi)
    elevation = rng.uniform(0.9, 1.4)
    direction = r3((-math.cos(elevation) * math.cos(azimuth), -math.cos(elevation) * math.sin(azimuth), -math.sin(elevation)))
    warmth = rng.uniform(0.0, 0.15)
    intensity = rng.uniform(0.7, 1.0)
    light = LightSpec(pos=(0.0, 0.0, round(height, 4)), dir=direction,
                      color=r3((intensity, intensity * (1 - warmth / 3), intensity * (1 - warmth))), intensity=round(intensity, 4))
    return walls, (light,), {"room_height_m": round(height, 4), "back_wall_x_m": round(back, 4), "side_wall_y_m": round(side_y, 4)}
