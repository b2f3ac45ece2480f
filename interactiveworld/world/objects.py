"""Household objects: free rigid bodies built from primitives, each with a name, a category and a colour.

MJCF names: body `O:<name>`, free joint `O:<name>:free`; a container object also has a receptacle site
`R:<name>:0`. A lidded box's lid is a child body `O:<name>:lid` on a hinge `J:<name>` along the box's back
top edge (closed at 0, open at `fixtures.DOOR_OPEN_RAD`, like a cabinet door): closed, it stops the eyes'
rays, so what lies inside is seen only once the box is open. Objects start far away and are put in their
slots by `sim.World` after compile.
"""

from __future__ import annotations

from dataclasses import dataclass

COLORS_RGBA: dict[str, str] = {
    "red": "0.8 0.1 0.1 1",
    "blue": "0.1 0.25 0.8 1",
    "green": "0.1 0.6 0.2 1",
    "yellow": "0.9 0.8 0.1 1",
    "white": "0.95 0.95 0.95 1",
    "black": "0.08 0.08 0.08 1",
    "orange": "0.95 0.5 0.1 1",
    "purple": "0.5 0.2 0.6 1",
    "gray": "0.5 0.5 0.5 1",
    "brown": "0.45 0.3 0.15 1",
}
# category -> (shape, half sizes m, mass kg). Round things are short cylinders so they do not roll away.
CATEGORIES: dict[str, tuple[str, tuple[float, ...], float]] = {
    "mug": ("cylinder", (0.04, 0.05), 0.3),
    "cup": ("cylinder", (0.035, 0.045), 0.2),
    "bottle": ("cylinder", (0.035, 0.11), 0.5),
    "milk": ("box", (0.04, 0.04, 0.1), 1.0),
    "juice": ("box", (0.035, 0.035, 0.09), 0.8),
    "apple": ("cylinder", (0.04, 0.035), 0.2),
    "egg": ("box", (0.022, 0.022, 0.028), 0.06),
    "keys": ("box", (0.04, 0.02, 0.01), 0.1),
    "phone": ("box", (0.04, 0.075, 0.006), 0.2),
    "book": ("box", (0.1, 0.14, 0.02), 0.5),
    "folder": ("box", (0.11, 0.15, 0.008), 0.2),
    "badge": ("box", (0.04, 0.025, 0.004), 0.05),
    "remote": ("box", (0.025, 0.08, 0.012), 0.15),
    "sponge": ("box", (0.05, 0.035, 0.02), 0.05),
    "cloth": ("box", (0.12, 0.12, 0.004), 0.1),
    "squeegee": ("box", (0.12, 0.02, 0.03), 0.3),
    "kettle": ("cylinder", (0.07, 0.09), 1.0),
    "note": ("box", (0.07, 0.1, 0.002), 0.01),
    "can": ("cylinder", (0.033, 0.06), 0.35),
    "shoe": ("box", (0.05, 0.13, 0.05), 0.4),
    "pot": ("pot", (0.1, 0.1, 0.06), 1.2),
    "lid": ("box", (0.11, 0.11, 0.005), 0.3),
    "pasta": ("box", (0.05, 0.03, 0.08), 0.5),
    "plate": ("cylinder", (0.1, 0.008), 0.4),
    "glasses": ("box", (0.07, 0.02, 0.015), 0.05),
    "wallet": ("box", (0.05, 0.04, 0.012), 0.1),
    # a storage box with a hinged lid, deep enough for a mug standing inside
    "box": ("lidbox", (0.15, 0.12, 0.085), 0.8),
}
CONTAINER_CATEGORIES = ("pot", "box")
LIDDED_CATEGORIES = ("box",)
WIPING_CATEGORIES = ("cloth", "sponge")
FILLABLE_CATEGORIES = ("kettle", "pot", "bottle", "mug", "cup")
COVER_CATEGORIES = ("cloth", "lid")
WALL_T_M = 0.008
# geom groups when an object is drawn with a catalogue mesh (world.meshes): mujoco.Renderer draws groups
# 0-2 by default, so the primitive (physics, sight) is hidden and the mesh (looks only) is shown
MESH_GROUP = 1
PROXY_GROUP = 3


@dataclass(frozen=True)
class ObjectSpec:
    """One object and where it starts: in or on `support` (a fixture or container), slot `slot`."""

    name: str
    category: str
    color: str
    support: str
    slot: int = 0
    text: str = ""
    under: str = ""  # name of an object this one starts covered by (Finding tasks)

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"object {self.name!r}: unknown category {self.category!r}")
        if self.color not in COLORS_RGBA:
            raise ValueError(f"object {self.name!r}: unknown color {self.color!r}")
        if self.slot < 0:
            raise ValueError(f"object {self.name!r}: slot must be >= 0")


def half_height_m(category: str) -> float:
    shape, size, _ = CATEGORIES[category]
    return size[1] if shape == "cylinder" else size[2]


def footprint_m(category: str) -> float:
    """Half extent in the horizontal plane (for slot spacing)."""
    shape, size, _ = CATEGORIES[category]
    return size[0] if shape == "cylinder" else max(size[0], size[1])


def object_xml(o: ObjectSpec, park_xyz: tuple[float, float, float], mesh: str = "") -> str:
    """mesh: the textured mesh geoms drawn over the primitive (world.meshes), which then only the eyes' rays
    and the physics meet (a geom group the renderer leaves out)."""
    shape, size, mass_kg = CATEGORIES[o.category]
    rgba = COLORS_RGBA[o.color]
    p = " ".join(f"{v:.3f}" for v in park_xyz)
    common = f'rgba="{rgba}" friction="1.2 0.01 0.001" condim="4"'
    if mesh:
        common += f' group="{PROXY_GROUP}"'
    if shape == "cylinder":
        geoms = f'<geom type="cylinder" size="{size[0]} {size[1]}" mass="{mass_kg}" {common}/>'
    elif shape == "box" and o.text:  # paper with writing on it: textured, see world.labels
        geoms = (
            f'<geom type="box" size="{size[0]} {size[1]} {size[2]}" mass="{mass_kg}" material="M:{o.name}" '
            f'friction="1.2 0.01 0.001" condim="4"/>'
        )
    elif shape == "box":
        geoms = f'<geom type="box" size="{size[0]} {size[1]} {size[2]}" mass="{mass_kg}" {common}/>'
    else:  # an open box (pot, or a box under a lid): bottom and four walls, with a receptacle region inside
        hx, hy, hz = size
        t = WALL_T_M
        m = mass_kg / 5
        geoms = (
            f'<geom type="box" pos="0 0 {-hz + t:.4f}" size="{hx} {hy} {t}" mass="{m}" {common}/>'
            f'<geom type="box" pos="{hx - t:.4f} 0 0" size="{t} {hy} {hz}" mass="{m}" {common}/>'
            f'<geom type="box" pos="{-hx + t:.4f} 0 0" size="{t} {hy} {hz}" mass="{m}" {common}/>'
            f'<geom type="box" pos="0 {hy - t:.4f} 0" size="{hx} {t} {hz}" mass="{m}" {common}/>'
            f'<geom type="box" pos="0 {-hy + t:.4f} 0" size="{hx} {t} {hz}" mass="{m}" {common}/>'
            f'<site name="R:{o.name}:0" type="box" pos="0 0 {t:.4f}" '
            f'size="{hx - 2 * t:.4f} {hy - 2 * t:.4f} {hz - t:.4f}" rgba="0 0 0 0"/>'
        )
        if shape == "lidbox":
            geoms += _lid_xml(o.name, size, rgba)
    geoms += mesh
    return f'<body name="O:{o.name}" pos="{p}"><freejoint name="O:{o.name}:free"/>{geoms}</body>'


def _lid_xml(name: str, size: tuple[float, ...], rgba: str) -> str:
    """The lid: a kinematic child body (its hinge is set, never driven) that touches nothing, so opening it
    against a wall cannot push the box; MuJoCo's rays still meet it, so a closed lid hides the contents."""
    hx, hy, hz = size
    t = WALL_T_M
    return (
        f'<body name="O:{name}:lid" pos="0 {hy:.4f} {hz:.4f}">'
        f'<joint name="J:{name}" type="hinge" axis="1 0 0" range="-2.0 0" damping="1"/>'
        f'<geom type="box" pos="0 {-hy:.4f} {t / 2:.4f}" size="{hx + t:.4f} {hy + t:.4f} {t / 2:.4f}" mass="0.05" '
        f'rgba="{rgba}" contype="0" conaffinity="0"/></body>'
    )
