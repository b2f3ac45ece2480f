"""Articulated fixtures built from MuJoCo primitives: real hinge and slide joints, regions as box sites.

Naming inside the MJCF (read back by `sim.World`): body `F:<fixture>`, door/drawer joint `J:<fixture>`,
knob joint `J:<burner>`, surface region site `S:<owner>:<i>`, receptacle region site `R:<owner>:<i>`.
Fixture frame: origin on the floor under the fixture's centre, x along its width, front facing -y.
"""

from __future__ import annotations

from dataclasses import dataclass

# kind -> (width_m, depth_m, height_m)
FIXTURE_DIMS_M: dict[str, tuple[float, float, float]] = {
    "counter": (1.2, 0.6, 0.9),
    "stove": (0.7, 0.6, 0.9),
    "sink": (0.8, 0.6, 0.9),
    "fridge": (0.7, 0.65, 1.8),
    "cabinet": (0.8, 0.5, 0.9),
    "wardrobe": (1.0, 0.55, 1.8),
    "drawer": (0.6, 0.5, 0.8),
    "table": (1.2, 0.7, 0.75),
    "desk": (1.4, 0.7, 0.75),
    "shelf": (0.9, 0.35, 1.6),
    "sofa": (1.8, 0.8, 0.45),
    "bed": (1.6, 1.0, 0.5),
    "tv": (1.2, 0.45, 0.5),
    "lamp": (0.4, 0.4, 1.5),
    "person": (0.5, 0.4, 1.7),
}
# kinds that hold things inside behind a hinged door or in a drawer
HINGED_KINDS = ("fridge", "cabinet", "wardrobe")
SLIDING_KINDS = ("drawer",)
DOOR_OPEN_RAD = -1.6
DRAWER_OPEN_M = 0.35
KNOB_RAD_PER_LEVEL = 1.0
BURNER_OFFSET_M = 0.17
WALL_T_M = 0.03

RGBA = {
    "wood": "0.55 0.38 0.22 1",
    "white": "0.92 0.92 0.9 1",
    "steel": "0.6 0.62 0.65 1",
    "dark": "0.15 0.15 0.15 1",
    "fabric": "0.35 0.45 0.6 1",
    "cream": "0.85 0.8 0.7 1",
}


@dataclass(frozen=True)
class FixtureSpec:
    name: str
    kind: str
    room: str
    x: float
    y: float
    yaw_rad: float
    open_at_start: bool = False

    @property
    def dims_m(self) -> tuple[float, float, float]:
        return FIXTURE_DIMS_M[self.kind]


def _box(pos, size, rgba, extra: str = "") -> str:
    p = " ".join(f"{v:.4f}" for v in pos)
    s = " ".join(f"{v:.4f}" for v in size)
    return f'<geom type="box" pos="{p}" size="{s}" rgba="{rgba}" {extra}/>'


def _site(name: str, pos, size) -> str:
    p = " ".join(f"{v:.4f}" for v in pos)
    s = " ".join(f"{v:.4f}" for v in size)
    return f'<site name="{name}" type="box" pos="{p}" size="{s}" rgba="0 0 0 0"/>'


def _shell(w: float, d: float, h: float, rgba: str) -> list[str]:
    """Back, sides, top, bottom of a cupboard-like box, open at the front (-y)."""
    t = WALL_T_M
    return [
        _box((0, d / 2 - t / 2, h / 2), (w / 2, t / 2, h / 2), rgba),
        _box((-w / 2 + t / 2, 0, h / 2), (t / 2, d / 2, h / 2), rgba),
        _box((w / 2 - t / 2, 0, h / 2), (t / 2, d / 2, h / 2), rgba),
        _box((0, 0, h - t / 2), (w / 2, d / 2, t / 2), rgba),
        _box((0, 0, t / 2), (w / 2, d / 2, t / 2), rgba),
    ]


def _hinged(f: FixtureSpec, boards_z: tuple[float, ...], rgba: str) -> list[str]:
    w, d, h = f.dims_m
    t = WALL_T_M
    parts = _shell(w, d, h, rgba)
    levels = (t,) + boards_z + (h - t,)
    for i, z in enumerate(boards_z):
        parts.append(_box((0, 0, z - t / 2), (w / 2 - t, d / 2 - t, t / 2), rgba))
    for i in range(len(levels) - 1):
        z0, z1 = levels[i], levels[i + 1] - (t if i < len(levels) - 2 else 0)
        parts.append(_site(f"R:{f.name}:{i}", (0, t / 2, (z0 + z1) / 2), (w / 2 - 2 * t, d / 2 - 2 * t, (z1 - z0) / 2)))
    angle = DOOR_OPEN_RAD if f.open_at_start else 0.0
    parts.append(
        f'<body name="D:{f.name}" pos="{-w / 2:.4f} {-d / 2 - t / 2:.4f} 0">'
        f'<joint name="J:{f.name}" type="hinge" axis="0 0 1" range="{DOOR_OPEN_RAD - 0.1:.3f} 0" '
        f'damping="50" ref="0"/>'
        + _box((w / 2, 0, h / 2), (w / 2, t / 2, h / 2 - 0.01), rgba)
        + _box((w - 0.06, -0.03, h * 0.55), (0.01, 0.02, 0.12), RGBA["steel"], 'contype="0" conaffinity="0"')
        + "</body>"
    )
    del angle  # the start angle is set on the joint after compile (sim.World), keeping the MJCF pure
    return parts


def _drawer(f: FixtureSpec) -> list[str]:
    w, d, h = f.dims_m
    t = WALL_T_M
    parts = _shell(w, d, h, RGBA["wood"])
    tray_z0, tray_h = h - 0.3, 0.22
    tray = [
        _box((0, 0, tray_z0), (w / 2 - 2 * t, d / 2 - t, t / 2), RGBA["cream"]),
        _box((0, -d / 2 + t, tray_z0 + tray_h / 2), (w / 2 - t, t / 2, tray_h / 2), RGBA["wood"]),
        _box((0, d / 2 - 2 * t, tray_z0 + tray_h / 2), (w / 2 - 2 * t, t / 2, tray_h / 2), RGBA["cream"]),
        _box((-w / 2 + 2 * t, 0, tray_z0 + tray_h / 2), (t / 2, d / 2 - t, tray_h / 2), RGBA["cream"]),
        _box((w / 2 - 2 * t, 0, tray_z0 + tray_h / 2), (t / 2, d / 2 - t, tray_h / 2), RGBA["cream"]),
        _box(
            (0, -d / 2 - 0.01, tray_z0 + tray_h / 2), (0.08, 0.01, 0.015), RGBA["steel"], 'contype="0" conaffinity="0"'
        ),
        _site(f"R:{f.name}:0", (0, 0, tray_z0 + tray_h / 2 + t / 2), (w / 2 - 3 * t, d / 2 - 3 * t, tray_h / 2)),
    ]
    parts.append(
        f'<body name="D:{f.name}" pos="0 0 0"><joint name="J:{f.name}" type="slide" axis="0 -1 0" '
        f'range="0 {DRAWER_OPEN_M + 0.05:.3f}" damping="50"/>' + "".join(tray) + "</body>"
    )
    parts.append(_site(f"S:{f.name}:0", (0, 0, h + 0.0025), (w / 2 - 0.03, d / 2 - 0.03, 0.0025)))
    return parts


def _slab(f: FixtureSpec, rgba: str) -> list[str]:
    w, d, h = f.dims_m
    return [
        _box((0, 0, h / 2), (w / 2, d / 2, h / 2), rgba),
        _site(f"S:{f.name}:0", (0, 0, h + 0.0025), (w / 2 - 0.04, d / 2 - 0.04, 0.0025)),
    ]


def _table(f: FixtureSpec) -> list[str]:
    w, d, h = f.dims_m
    parts = [_box((0, 0, h - 0.02), (w / 2, d / 2, 0.02), RGBA["wood"])]
    for sx in (-1, 1):
        for sy in (-1, 1):
            parts.append(
                _box(
                    (sx * (w / 2 - 0.05), sy * (d / 2 - 0.05), (h - 0.04) / 2),
                    (0.025, 0.025, (h - 0.04) / 2),
                    RGBA["wood"],
                )
            )
    parts.append(_site(f"S:{f.name}:0", (0, 0, h + 0.0025), (w / 2 - 0.05, d / 2 - 0.05, 0.0025)))
    return parts


def _shelf(f: FixtureSpec) -> list[str]:
    w, d, h = f.dims_m
    t = WALL_T_M
    parts = [
        _box((0, d / 2 - t / 2, h / 2), (w / 2, t / 2, h / 2), RGBA["wood"]),
        _box((-w / 2 + t / 2, 0, h / 2), (t / 2, d / 2, h / 2), RGBA["wood"]),
        _box((w / 2 - t / 2, 0, h / 2), (t / 2, d / 2, h / 2), RGBA["wood"]),
    ]
    for i, z in enumerate((0.4, 0.9, 1.4)):
        parts.append(_box((0, 0, z - t / 2), (w / 2 - t, d / 2, t / 2), RGBA["wood"]))
        parts.append(_site(f"S:{f.name}:{i}", (0, -t / 2, z + 0.0025), (w / 2 - 2 * t, d / 2 - 2 * t, 0.0025)))
    return parts


def _stove(f: FixtureSpec) -> list[str]:
    w, d, h = f.dims_m
    parts = _slab(f, RGBA["white"])
    for side, sx in (("left", -1), ("right", 1)):
        burner = f"{side}_burner"
        parts.append(
            f'<geom type="cylinder" pos="{sx * BURNER_OFFSET_M:.3f} 0 {h + 0.001:.4f}" size="0.09 0.001" '
            f'rgba="{RGBA["dark"]}" contype="0" conaffinity="0"/>'
        )
        parts.append(
            f'<body name="K:{burner}" pos="{sx * BURNER_OFFSET_M:.3f} {-d / 2 - 0.015:.4f} {h - 0.1:.3f}">'
            f'<joint name="J:{burner}" type="hinge" axis="0 1 0" range="0 3.2" damping="5"/>'
            f'<geom type="cylinder" size="0.025 0.015" euler="1.5708 0 0" rgba="{RGBA["dark"]}" '
            f'contype="0" conaffinity="0"/><geom type="box" size="0.004 0.018 0.02" pos="0 -0.01 0.012" '
            f'rgba="{RGBA["white"]}" contype="0" conaffinity="0"/></body>'
        )
    return parts


def _sink(f: FixtureSpec) -> list[str]:
    w, d, h = f.dims_m
    t = WALL_T_M
    z0 = h - 0.2
    parts = [_box((0, 0, z0 / 2), (w / 2, d / 2, z0 / 2), RGBA["white"])]
    parts += [
        _box((0, d / 2 - t / 2, h - 0.1), (w / 2, t / 2, 0.1), RGBA["steel"]),
        _box((0, -d / 2 + t / 2, h - 0.1), (w / 2, t / 2, 0.1), RGBA["steel"]),
        _box((-w / 2 + t / 2, 0, h - 0.1), (t / 2, d / 2, 0.1), RGBA["steel"]),
        _box((w / 2 - t / 2, 0, h - 0.1), (t / 2, d / 2, 0.1), RGBA["steel"]),
        _box((0, d / 2 - 0.05, h + 0.15), (0.015, 0.015, 0.15), RGBA["steel"]),
        _site(f"R:{f.name}:0", (0, 0, z0 + 0.1), (w / 2 - 2 * t, d / 2 - 2 * t, 0.1)),
    ]
    return parts


def _tv(f: FixtureSpec) -> list[str]:
    w, d, h = f.dims_m
    return _slab(f, RGBA["wood"]) + [_box((0, 0.12, h + 0.35), (w / 2 - 0.1, 0.02, 0.33), RGBA["dark"])]


def _lamp(f: FixtureSpec) -> list[str]:
    _, _, h = f.dims_m
    return [
        _box((0, 0, 0.02), (0.15, 0.15, 0.02), RGBA["dark"]),
        _box((0, 0, h / 2), (0.02, 0.02, h / 2), RGBA["steel"]),
        f'<geom type="cylinder" pos="0 0 {h:.3f}" size="0.18 0.12" rgba="{RGBA["cream"]}"/>',
    ]


def _sofa(f: FixtureSpec) -> list[str]:
    w, d, h = f.dims_m
    return [
        _box((0, 0, h / 2), (w / 2, d / 2, h / 2), RGBA["fabric"]),
        _box((0, d / 2 - 0.1, h + 0.2), (w / 2, 0.1, 0.2), RGBA["fabric"]),
        _site(f"S:{f.name}:0", (0, -0.1, h + 0.0025), (w / 2 - 0.1, d / 2 - 0.25, 0.0025)),
    ]


def _person(f: FixtureSpec) -> list[str]:
    """A standing resident who can be handed things: the palm is a small surface."""
    return [
        f'<geom type="capsule" fromto="0 0 0.1 0 0 1.4" size="0.17" rgba="{RGBA["fabric"]}"/>',
        '<geom type="sphere" pos="0 0 1.6" size="0.11" rgba="0.85 0.7 0.6 1"/>',
        '<geom type="capsule" fromto="0.15 0 1.35 0.15 -0.3 1.0" size="0.04" rgba="0.85 0.7 0.6 1" '
        'contype="0" conaffinity="0"/>',
        _box((0.15, -0.33, 0.99), (0.07, 0.07, 0.01), "0.85 0.7 0.6 1"),
        _site(f"S:{f.name}:0", (0.15, -0.33, 1.0025), (0.05, 0.05, 0.0025)),
    ]


def fixture_xml(f: FixtureSpec) -> str:
    """The MJCF <body> of one fixture, placed and turned in the world frame."""
    if f.kind == "fridge":
        parts = _hinged(f, (0.6, 1.15), RGBA["white"])
    elif f.kind in ("cabinet",):
        parts = _hinged(f, (0.45,), RGBA["wood"])
    elif f.kind == "wardrobe":
        parts = _hinged(f, (0.9,), RGBA["wood"])
    elif f.kind == "drawer":
        parts = _drawer(f)
    elif f.kind in ("counter",):
        parts = _slab(f, RGBA["cream"])
    elif f.kind == "bed":
        parts = _slab(f, RGBA["fabric"])
    elif f.kind in ("table", "desk"):
        parts = _table(f)
    elif f.kind == "shelf":
        parts = _shelf(f)
    elif f.kind == "stove":
        parts = _stove(f)
    elif f.kind == "sink":
        parts = _sink(f)
    elif f.kind == "tv":
        parts = _tv(f)
    elif f.kind == "lamp":
        parts = _lamp(f)
    elif f.kind == "sofa":
        parts = _sofa(f)
    elif f.kind == "person":
        parts = _person(f)
    else:
        raise ValueError(f"fixture {f.name!r}: unknown kind {f.kind!r}")
    return (
        f'<body name="F:{f.name}" pos="{f.x:.4f} {f.y:.4f} 0" euler="0 0 {f.yaw_rad:.6f}">' + "".join(parts) + "</body>"
    )
