"""ApartmentSpec + objects -> one MJCF document (a pure function of its inputs)."""

from __future__ import annotations

from reacthuman.core.physics import mjcf_gravity_attr

from interactiveworld.world.fixtures import fixture_xml
from interactiveworld.world.human_body import human_xml
from interactiveworld.world.layout import DOOR_H_M, DOOR_W_M, WALL_H_M, WALL_T_M, ApartmentSpec
from interactiveworld.world.labels import asset_xml
from interactiveworld.world.objects import CATEGORIES, COLORS_RGBA, ObjectSpec, object_xml
from interactiveworld.world import meshes as m

DOOR_OPEN_RAD = 1.6
WALL_RGBA = "0.88 0.86 0.82 1"
DOOR_RGBA = "0.6 0.45 0.3 1"


def _wall(x0: float, y0: float, x1: float, y1: float, z0: float = 0.0, z1: float = WALL_H_M) -> str:
    cx, cy, cz = (x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2
    hx, hy, hz = max(abs(x1 - x0) / 2, WALL_T_M / 2), max(abs(y1 - y0) / 2, WALL_T_M / 2), (z1 - z0) / 2
    return f'<geom type="box" pos="{cx:.4f} {cy:.4f} {cz:.4f}" size="{hx:.4f} {hy:.4f} {hz:.4f}" rgba="{WALL_RGBA}"/>'


def _walls(spec: ApartmentSpec) -> list[str]:
    t = WALL_T_M
    x_min, x_max = spec.rooms[0].x0 - t / 2, spec.rooms[-1].x1 + t / 2
    y_min, y_max = spec.rooms[0].y0 - t / 2, spec.rooms[0].y1 + t / 2
    parts = [
        _wall(x_min, y_min, x_max, y_min),
        _wall(x_min, y_max, x_max, y_max),
        _wall(x_min, y_min, x_min, y_max),
        _wall(x_max, y_min, x_max, y_max),
    ]
    for d in spec.doors:
        lo, hi = d.y_center - DOOR_W_M / 2, d.y_center + DOOR_W_M / 2
        parts += [
            _wall(d.wall_x, y_min, d.wall_x, lo),
            _wall(d.wall_x, hi, d.wall_x, y_max),
            _wall(d.wall_x, lo, d.wall_x, hi, DOOR_H_M, WALL_H_M),
        ]
    return parts


def _door(d) -> str:
    # hinge on the low-y jamb; closed the panel spans the opening along +y, opening swings it into the
    # room on the low-x side
    hinge_y = d.y_center - DOOR_W_M / 2
    w = DOOR_W_M - 0.02
    return (
        f'<body name="D:{d.name}" pos="{d.wall_x:.4f} {hinge_y:.4f} 0">'
        f'<joint name="J:{d.name}" type="hinge" axis="0 0 1" range="0 {DOOR_OPEN_RAD + 0.1:.3f}" damping="50"/>'
        f'<geom type="box" pos="0 {w / 2 + 0.01:.4f} {DOOR_H_M / 2:.4f}" size="0.02 {w / 2:.4f} '
        f'{DOOR_H_M / 2 - 0.01:.4f}" rgba="{DOOR_RGBA}"/>'
        f'<geom type="box" pos="-0.04 {w - 0.08:.4f} 1.0" size="0.02 0.05 0.01" rgba="0.6 0.62 0.65 1" '
        f'contype="0" conaffinity="0"/></body>'
    )


def spill_xy(spec: ApartmentSpec, room: str) -> tuple[float, float]:
    """Where a spill in `room` lies: on the walkway, a little off the room's centre."""
    r = spec.room(room)
    return (round(r.x0 + 0.35 * (r.x1 - r.x0), 3), round(r.y0 + 0.45 * (r.y1 - r.y0), 3))


def _label_assets(objects: tuple[ObjectSpec, ...]) -> str:
    labelled = [o.name for o in objects if o.text and CATEGORIES[o.category][0] == "box"]
    return "<asset>" + "".join(asset_xml(n) for n in labelled) + "</asset>" if labelled else ""


def _mesh_parts(objects: tuple[ObjectSpec, ...], meshes: bool) -> tuple[str, dict[str, str]]:
    """The <asset> of the objects drawn with catalogue meshes and, per object, its mesh geoms."""
    if not meshes:
        return "", {}

    looks = {
        o.name: (o.category, o.color, CATEGORIES[o.category][0], CATEGORIES[o.category][1])
        for o in objects
        if m.has_mesh(o.category, o.text)
    }
    return (m.assets_xml(list(looks.values()), COLORS_RGBA), {name: m.geoms_xml(*look) for name, look in looks.items()})


def build_mjcf(
    spec: ApartmentSpec, objects: tuple[ObjectSpec, ...], spills: tuple = (), human: bool = True, meshes: bool = False
) -> str:
    """human=False leaves the body out (the CMU humanoid is attached afterwards, see cmu_body). meshes=False
    draws every object as its primitives (the physics is the same either way)."""
    mesh_assets, mesh_geoms = _mesh_parts(objects, meshes)
    bodies = [fixture_xml(f) for f in spec.fixtures] + [_door(d) for d in spec.doors]
    for s in spills:  # shown or hidden through its alpha at run time
        x, y = spill_xy(spec, s.room)
        bodies.append(
            f'<geom name="P:{s.name}" type="cylinder" pos="{x} {y} 0.002" size="0.3 0.002" '
            f'rgba="0.55 0.7 0.85 0" contype="0" conaffinity="0"/>'
        )
    # objects are parked in a row outside the apartment and moved into their slots after compile
    park_y = spec.rooms[0].y0 - 3.0
    bodies += [object_xml(o, (0.3 * i, park_y, 0.2), mesh_geoms.get(o.name, "")) for i, o in enumerate(objects)]
    return (
        f'<mujoco model="interactiveworld_{spec.layout}_{spec.seed}">'
        '<compiler angle="radian" autolimits="true"/>'
        '<option timestep="0.002" gravity="' + mjcf_gravity_attr() + '" integrator="implicitfast"/>'
        '<visual><global offwidth="640" offheight="480"/><quality shadowsize="0"/></visual>'
        '<default><geom friction="1.0 0.01 0.001" solref="0.005 1"/></default>'
        + _label_assets(objects)
        + mesh_assets
        + "<worldbody>"
        '<light name="sun" pos="0 0 6" dir="0.2 0.3 -1" directional="true" diffuse="0.8 0.8 0.8" castshadow="false"/>'
        '<geom name="floor" type="plane" size="60 60 0.1" rgba="0.7 0.65 0.58 1"/>'
        + "".join(_walls(spec))
        + "".join(bodies)
        + (human_xml() if human else "")
        + "</worldbody></mujoco>"
    )
