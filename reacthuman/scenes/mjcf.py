"""Compile a SceneSpec into an MJCF world (loads in Genesis and MuJoCo).

Frames and units: as in spec.py (world frame, z up, floor plane z = 0, metres, kg, seconds).

Body names in the MJCF are exactly the spec's body names:
- `floor`: the floor plane (a worldbody geom named `floor`, friction FLOOR_FRICTION), and `floor_slab`, a
  box just below it (see FLOOR_SLAB_GAP_M) that catches what Genesis' plane contact lets through.
- static bodies (room walls, furniture, ramps, stairs, mounts): `<body name=...>` without a joint; their
  geoms are named `<body>_g<i>`.
- dynamic bodies: the hazard(s) named in `spec.hazard_bodies` (e.g. `hazard`, `door`, `ladder`,
  `stack_0..`), triggers and props; each carries `<freejoint name="<body>_free"/>` or a real
  `<joint type="hinge" name="<body>_hinge">`.
Initial velocities are not part of MJCF: the simulator sets them after loading (genesis_sim.py).

The G1 (or any robot) is appended to the same `<worldbody>`: `scene_mjcf(spec)` leaves the observer's floor
area free (no geometry within OBSERVER_CLEAR_RADIUS_M of it) and adds no observer geometry unless
`with_observer_proxy=True` (a static capsule named `observer_proxy`, for pictures and checks only).
`insert_into_worldbody(xml, fragment)` appends an MJCF fragment to the worldbody.
"""

from __future__ import annotations

import dataclasses
import math
from xml.sax.saxutils import quoteattr

from reacthuman.core.physics import mjcf_gravity_attr
from reacthuman.scenes.meshes import prepared_parts
from reacthuman.scenes.modelled.surfaces import FLOOR_DROP_M, FLOOR_M
from reacthuman.scenes.object_meshes import fixture_visual
from reacthuman.scenes.spec import BodySpec, GeomSpec, SceneSpec, VisualMeshSpec

OBSERVER_CLEAR_RADIUS_M = 0.35  # the G1's footprint (about 0.45 x 0.25 m) with margin
# Contact friction is the larger of the two geoms' (MuJoCo and Genesis alike): a near-frictionless floor makes
# each body's own catalogued friction the one that acts on the floor. A robot's feet bring their own.
FLOOR_FRICTION = 0.05
FLOOR_SLAB_GAP_M = 0.002
_WORLDBODY_END = "</worldbody>"


def _f(values: tuple[float, ...]) -> str:
    return " ".join(repr(float(v)) for v in values)


def _solref(restitution: float) -> str:
    # MuJoCo/Genesis soft contacts: a damping ratio below 1 makes the contact spring give energy back.
    # restitution 0 -> critically damped (ratio 1); 0.9 -> ratio ~0.1.
    dampratio = max(0.05, 1.0 - restitution)
    return f"0.02 {dampratio!r}"


# Collision geoms of a body drawn by a mesh go to group 3, which neither MuJoCo's renderer (groups 0-2 by
# default) nor Genesis' MJCF loader draws; the mesh geoms (group 1) have no contacts and no mass, so the
# body's contacts, mass and inertia are those of its primitives, bit for bit. A geom the mesh does not draw
# (a pendulum's rod above its bob's mesh) is named with DRAWN_SUFFIX and stays drawn.
HIDDEN_GROUP = 3
VISUAL_GROUP = 1
DRAWN_SUFFIX = "_drawn"


def _geom_xml(g: GeomSpec, name: str, body: BodySpec, density: float | None, hidden: bool = False) -> str:
    attrs = [
        f"name={quoteattr(name)}",
        f'type="{g.shape}"',
        f'size="{_f(g.size)}"',
        f'pos="{_f(g.pos)}"',
        f'quat="{_f(g.quat)}"',
        f'rgba="{_f(g.rgba)}"',
        f'friction="{body.friction!r} 0.005 0.0001"',
    ]
    if (body.visual is not None and not g.name.endswith(DRAWN_SUFFIX)) or hidden:
        attrs.append(f'group="{HIDDEN_GROUP}"')
    if body.restitution > 0:
        attrs.append(f'solref="{_solref(body.restitution)}"')
    if density is not None:
        attrs.append(f'density="{density!r}"')
    return f"<geom {' '.join(attrs)}/>"


def geom_volume_m3(g: GeomSpec) -> float:
    if g.shape == "box":
        return 8.0 * g.size[0] * g.size[1] * g.size[2]
    if g.shape == "sphere":
        return 4.0 / 3.0 * math.pi * g.size[0] ** 3
    r, h = g.size
    if g.shape == "cylinder":
        return math.pi * r * r * 2 * h
    return math.pi * r * r * 2 * h + 4.0 / 3.0 * math.pi * r**3


def body_density(body: BodySpec) -> float:
    """Uniform density that gives the body its catalogued mass (kg/m^3)."""
    volume = sum(geom_volume_m3(g) for g in body.geoms)
    return float(body.mass_kg) / volume


def _body_xml(body: BodySpec, dressed: bool = False) -> str:
    density = body_density(body) if body.dynamic else None
    lines = [f'<body name={quoteattr(body.name)} pos="{_f(body.pos)}" quat="{_f(body.quat)}">']
    if body.joint is not None:
        if body.joint.kind == "free":
            lines.append(f'  <freejoint name="{body.name}_free"/>')
        else:
            j = body.joint
            lines.append(
                f'  <joint name="{body.name}_hinge" type="hinge" axis="{_f(j.axis)}" pos="{_f(j.pos)}"'
                f' damping="{j.damping!r}"/>'
            )
    for i, g in enumerate(body.geoms):
        lines.append("  " + _geom_xml(g, g.name or f"{body.name}_g{i}", body, density, hidden=dressed))
    if body.visual is not None:
        for i, _ in enumerate(prepared_parts(body.visual)):
            lines.append(
                f'  <geom name="{body.name}_vis{i}" type="mesh" mesh="{body.name}_vis{i}" '
                f'material="{body.name}_mat{i}" contype="0" conaffinity="0" group="{VISUAL_GROUP}" mass="0"/>'
            )
    lines.append("</body>")
    return "\n".join("    " + line for line in lines)


def furnishing_at_origin(v: VisualMeshSpec) -> VisualMeshSpec:
    """The furnishing's model unmoved: its body carries the placement, so every scene shares the cached files."""
    return dataclasses.replace(v, quat=(1.0, 0.0, 0.0, 0.0), pos=(0.0, 0.0, 0.0))


def _furnishings_xml(spec: SceneSpec) -> list[str]:
    """Room furniture: static bodies of mesh geoms without contacts or mass (no physics changes)."""
    lines = []
    for k, v in enumerate(spec.furnishings):
        lines.append(f'    <body name="furnishing_{k}" pos="{_f(v.pos)}" quat="{_f(v.quat)}">')
        for i, _ in enumerate(prepared_parts(furnishing_at_origin(v))):
            lines.append(
                f'      <geom name="furnishing_{k}_vis{i}" type="mesh" mesh="furnishing_{k}_vis{i}" '
                f'material="furnishing_{k}_mat{i}" contype="0" conaffinity="0" group="{VISUAL_GROUP}" mass="0"/>'
            )
        lines.append("    </body>")
    return lines


def floor_cover(room: str) -> VisualMeshSpec:
    """The room type's floor covering (parquet, tiles, carpet, concrete: modelled.surfaces), drawn only."""
    return fixture_visual(f"floor_{room}", tuple(e / 2 for e in FLOOR_M))  # type: ignore[arg-type]


def _floor_cover_xml(room: str) -> list[str]:
    lines = [f'    <body name="floor_cover" pos="0 0 {-(FLOOR_M[2] / 2 + FLOOR_DROP_M)!r}">']
    for i, _ in enumerate(prepared_parts(floor_cover(room))):
        lines.append(
            f'      <geom name="floor_cover_vis{i}" type="mesh" mesh="floor_cover_vis{i}" material="floor_cover_mat{i}" '
            f'contype="0" conaffinity="0" group="{VISUAL_GROUP}" mass="0"/>'
        )
    return lines + ["    </body>"]


def _assets_xml(spec: SceneSpec, covered: bool = False, textures: bool = True) -> list[str]:
    """Meshes, textures and materials of the bodies and furniture drawn by catalogue models (meshes.py), and
    of the floor covering when `covered`; without the textures (materials keep their colours) when not
    `textures`."""
    out = []
    drawn = [(b.name, b.visual) for b in spec.bodies if b.visual is not None]
    if covered:
        drawn.append(("floor_cover", floor_cover(spec.room)))
    drawn += [(f"furnishing_{k}", furnishing_at_origin(v)) for k, v in enumerate(spec.furnishings)]
    stretch = {b.name: b.visual.stretch for b in spec.bodies if b.visual is not None}  # fixtures (static boxes)
    stretch.update({f"furnishing_{k}": v.stretch for k, v in enumerate(spec.furnishings)})
    for owner, visual in drawn:
        scale = f' scale="{_f(stretch[owner])}"' if stretch.get(owner, (1.0, 1.0, 1.0)) != (1.0, 1.0, 1.0) else ""
        for i, part in enumerate(prepared_parts(visual)):
            name = f"{owner}_vis{i}"
            out.append(f'    <mesh name="{name}" file={quoteattr(part.obj_path)} inertia="shell"{scale}/>')
            texture = ""
            if part.texture_png and textures:
                out.append(f'    <texture name="{owner}_tex{i}" type="2d" file={quoteattr(part.texture_png)}/>')
                texture = f' texture="{owner}_tex{i}"'
            out.append(f'    <material name="{owner}_mat{i}"{texture} rgba="{_f(part.rgba)}" specular="0.2"/>')
    return ["  <asset>", *out, "  </asset>"] if out else []


def scene_mjcf(
    spec: SceneSpec,
    with_observer_proxy: bool = False,
    with_floor: bool = True,
    with_furnishings: bool = True,
    with_textures: bool = True,
) -> str:
    """The MJCF text of the scene: floor, room, furniture and dynamic objects at their t = 0 poses. The room's
    furnishings are drawn only (no contacts, no mass): a run without them (with_furnishings=False, for
    labelling, where nothing is rendered) simulates the same track, bit for bit. Without textures
    (with_textures=False) the same geoms are drawn in their materials' flat colours: what a segmentation
    render needs (visibility.MaskRenderer), at a quarter of the model's compile and upload time."""
    if not with_furnishings:
        spec = dataclasses.replace(spec, furnishings=(), dressed_bodies=())
    # The floor covering belongs to a furnished room: drawn only, never simulated, and absent from a bare room
    # (the benchmark's primitives-only side, the object gallery).
    covered = with_floor and bool(spec.furnishings)
    parts = [
        f"<mujoco model={quoteattr('reacthuman_' + spec.scene_id)}>",
        f'  <option timestep="{spec.dt_s!r}" gravity="{mjcf_gravity_attr()}" integrator="implicitfast"/>',
        '  <compiler angle="radian"/>',
        *_assets_xml(spec, covered, with_textures),
        "  <worldbody>",
    ]
    for light in spec.lights:
        parts.append(
            f'    <light pos="{_f(light.pos)}" dir="{_f(light.dir)}" diffuse="{_f(light.color)}" directional="true"/>'
        )
    if with_floor:
        # Covered, the plane still carries every contact but is not drawn: the covering is (just below it, so
        # nothing lying on the floor, a flat knife included, sinks into the drawing).
        hide = f' group="{HIDDEN_GROUP}"' if covered else ""
        parts.append(
            f'    <geom name="floor" type="plane" size="0 0 0.05" rgba="0.55 0.5 0.45 1"{hide} friction="{FLOOR_FRICTION!r} 0.005 0.0001"/>'
        )
        # Genesis' plane contact misses some thin cylinders landing edge-first (they fall through); a slab
        # whose top is FLOOR_SLAB_GAP_M below the plane catches them and never touches a resting body.
        parts.append(
            f'    <geom name="floor_slab" type="box" size="30 30 0.25" pos="0 0 {-0.25 - FLOOR_SLAB_GAP_M!r}"'
            f' rgba="0.55 0.5 0.45 1" friction="{FLOOR_FRICTION!r} 0.005 0.0001"/>'
        )
    if covered:
        parts += _floor_cover_xml(spec.room)
    for body in spec.bodies:
        parts.append(_body_xml(body, dressed=body.name in spec.dressed_bodies))
    parts += _furnishings_xml(spec)
    if with_observer_proxy:
        o = spec.observer
        parts.append(
            f'    <geom name="observer_proxy" type="capsule" size="0.18 0.55" pos="{o.x_m!r} {o.y_m!r} 0.75"'
            ' rgba="0.3 0.3 0.35 0.6" contype="0" conaffinity="0"/>'
        )
    parts += ["  " + _WORLDBODY_END, "</mujoco>", ""]
    return "\n".join(parts)


def insert_into_worldbody(xml: str, fragment: str) -> str:
    """Append an MJCF fragment (bodies/geoms) at the end of the scene's worldbody."""
    idx = xml.rfind(_WORLDBODY_END)
    if idx < 0:
        raise ValueError("MJCF has no </worldbody>")
    return xml[:idx] + fragment.rstrip() + "\n  " + xml[idx:]
