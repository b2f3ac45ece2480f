"""The scene's geometry as a visualization_msgs/MarkerArray: the room, the furniture and the hazard objects.

Each geom of each spec body becomes one marker in that body's TF frame (`scene/<body>`, see tf_tree), at the
geom's pose in the body frame, so a hazard's marker follows its /tf. Primitives map to their marker types
(MJCF half-sizes become full extents); a capsule is a cylinder and two end spheres. A body drawn by a
catalogue model (its spec's `visual`) becomes MESH_RESOURCE markers, one per prepared part file (file://
URIs of the mesh cache, the files the simulators load), in the part's colour (a textured part in its
texture's mean colour). The floor (the plane z = 0, not a spec body) is a thin box under the room, and
the ground-truth impact point, when the scene has one, a small sphere in `world`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from reacthuman.plan.plan_path import PlanGeometry
from reacthuman.recording import ros_msgs as rm
from reacthuman.recording.tf_tree import WORLD_FRAME, scene_frame
from reacthuman.recording.urdf import quat_rotate
from reacthuman.recording.viewer_config import DEFAULT, ViewerConfig
from reacthuman.scenes.meshes import prepared_parts
from reacthuman.scenes.spec import VisualMeshSpec
import numpy as np
from PIL import Image

MARKER = "visualization_msgs/msg/Marker"
MARKER_ARRAY = "visualization_msgs/msg/MarkerArray"
CUBE, SPHERE, CYLINDER, LINE_STRIP, SPHERE_LIST, MESH_RESOURCE = 1, 2, 3, 4, 7, 10
FLOOR_RGBA = (0.55, 0.55, 0.55, 1.0)
IMPACT_RGBA = (1.0, 0.1, 0.1, 0.9)
PLAN_PATH_RGBA = (0.0, 0.9, 1.0, 1.0)
PLAN_LEFT_RGBA = (0.2, 1.0, 0.1, 1.0)
PLAN_RIGHT_RGBA = (1.0, 0.25, 0.95, 1.0)


def _color(rgba: Any) -> Any:
    r, g, b, a = (float(c) for c in rgba)
    return rm.build("std_msgs/msg/ColorRGBA", r=r, g=g, b=b, a=a)


def _marker(
    ns: str,
    marker_id: int,
    frame: str,
    kind: int,
    pos: Any,
    quat_wxyz: Any,
    scale: Any,
    rgba: Any,
    frame_locked: bool,
    **extra: Any,
) -> Any:
    w, x, y, z = (float(c) for c in quat_wxyz)
    return rm.build(
        MARKER,
        header=rm.header(0, frame),
        ns=ns,
        id=marker_id,
        type=kind,
        action=0,
        pose=rm.pose(tuple(float(c) for c in pos), (x, y, z, w)),
        scale=rm.vector3(scale),
        color=_color(rgba),
        frame_locked=frame_locked,
        **extra,
    )


def mesh_uri(path: str) -> str:
    return path if "://" in path else Path(path).resolve().as_uri()


def geom_markers(ns: str, first_id: int, frame: str, geom: dict, moving: bool) -> list[Any]:
    shape, size = geom.get("shape", ""), [float(s) for s in geom.get("size", ())]
    pos, quat = geom.get("pos", (0.0, 0.0, 0.0)), geom.get("quat", (1.0, 0.0, 0.0, 0.0))
    rgba = geom.get("rgba", (0.7, 0.7, 0.7, 1.0))
    if shape == "box":
        return [_marker(ns, first_id, frame, CUBE, pos, quat, [2 * s for s in size], rgba, moving)]
    if shape == "sphere":
        return [_marker(ns, first_id, frame, SPHERE, pos, quat, [2 * size[0]] * 3, rgba, moving)]
    if shape in ("cylinder", "capsule"):
        r, half = size[0], size[1]
        out = [_marker(ns, first_id, frame, CYLINDER, pos, quat, (2 * r, 2 * r, 2 * half), rgba, moving)]
        if shape == "capsule":
            w, x, y, z = (float(c) for c in quat)
            axis = quat_rotate((x, y, z, w), (0.0, 0.0, half))
            for k, sign in enumerate((1.0, -1.0)):
                end = tuple(float(p) + sign * a for p, a in zip(pos, axis))
                out.append(_marker(ns, first_id + 1 + k, frame, SPHERE, end, quat, [2 * r] * 3, rgba, moving))
        return out
    raise ValueError(f"geom shape {shape!r} cannot be drawn (box, sphere, cylinder or capsule)")


MeshPart = tuple[str, tuple[float, float, float, float]]  # a mesh file in the body frame, its colour
MeshParts = Callable[[dict], "list[MeshPart] | None"]


def catalogue_mesh_parts(visual: dict) -> list[MeshPart] | None:
    """The files a body's catalogue model (its spec's `visual`) is drawn from: the same prepared parts the
    simulators load, already placed in the body frame."""
    visual_spec = VisualMeshSpec(**{k: tuple(v) if isinstance(v, list) else v for k, v in visual.items()})
    return [
        (p.obj_path, _texture_rgba(p.texture_png, p.rgba) if p.texture_png else tuple(p.rgba))
        for p in prepared_parts(visual_spec)
    ]


def _texture_rgba(png: str, rgba: tuple[float, ...]) -> tuple[float, float, float, float]:
    """A marker carries one colour and our OBJ files name no material: a textured part (white under its
    texture in the simulators) is drawn in its texture's mean colour rather than white."""

    with Image.open(png) as image:
        mean = np.asarray(image.convert("RGB"), np.float64).reshape(-1, 3).mean(axis=0) / 255.0
    return (float(mean[0]), float(mean[1]), float(mean[2]), float(rgba[3]))


def body_markers(ns: str, first_id: int, body: dict, moving: bool, mesh_parts: MeshParts) -> list[Any]:
    """A body drawn by a catalogue model shows the model (as the renderer does); otherwise its geoms."""
    frame = scene_frame(body["name"])
    parts = mesh_parts(body["visual"]) if body.get("visual") else None
    if parts:
        scale = tuple(body["visual"].get("stretch", (1, 1, 1)))  # a fixture's model stretched onto its box
        return [
            _marker(
                ns,
                first_id + k,
                frame,
                MESH_RESOURCE,
                (0, 0, 0),
                (1, 0, 0, 0),
                scale,
                rgba,
                moving,
                mesh_resource=mesh_uri(path),
            )
            for k, (path, rgba) in enumerate(parts)
        ]
    out: list[Any] = []
    for geom in body.get("geoms", ()):
        out += geom_markers(ns, first_id + len(out), frame, geom, moving)
    return out


def _floor(spec: dict, config: ViewerConfig) -> Any:
    xs = [float(b["pos"][0]) for b in spec.get("bodies", ())] + [float(spec["observer"]["x_m"])]
    ys = [float(b["pos"][1]) for b in spec.get("bodies", ())] + [float(spec["observer"]["y_m"])]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    margin_m, thickness_m = config.floor_margin_m, config.floor_thickness_m
    sx, sy = max(xs) - min(xs) + 2 * margin_m, max(ys) - min(ys) + 2 * margin_m
    return _marker(
        "floor",
        0,
        WORLD_FRAME,
        CUBE,
        (cx, cy, -thickness_m / 2),
        (1, 0, 0, 0),
        (sx, sy, thickness_m),
        FLOOR_RGBA,
        False,
    )


def scene_markers(spec: dict, mesh_parts: MeshParts = catalogue_mesh_parts, config: ViewerConfig = DEFAULT) -> Any:
    """The MarkerArray of a scene spec (its JSON as a dict)."""
    hazards = set(spec.get("hazard_bodies", ()))
    markers = [_floor(spec, config)]
    for body in spec.get("bodies", ()):
        ns = "hazard" if body["name"] in hazards else str(body.get("role", "static"))
        next_id = sum(1 for m in markers if m.ns == ns)
        markers += body_markers(ns, next_id, body, body["name"] in hazards, mesh_parts)
    impact = (spec.get("ground_truth") or {}).get("impact_point")
    if impact:
        markers.append(
            _marker(
                "impact_point",
                0,
                WORLD_FRAME,
                SPHERE,
                impact,
                (1, 0, 0, 0),
                [config.impact_marker_diameter_m] * 3,
                IMPACT_RGBA,
                False,
            )
        )
    return rm.build(MARKER_ARRAY, markers=markers)


def plan_markers(geo: PlanGeometry, config: ViewerConfig = DEFAULT) -> Any:
    """The plan in `world`: its base path on the floor (a line) and its left and right hand keyframes."""
    identity = (1.0, 0.0, 0.0, 0.0)
    out = [
        _marker(
            "plan_base_path",
            0,
            WORLD_FRAME,
            LINE_STRIP,
            (0, 0, 0),
            identity,
            (config.plan_path_width_m, 0, 0),
            PLAN_PATH_RGBA,
            False,
            points=[rm.point(p) for p in geo.base_path],
        )
    ]
    for k, (ns, hands, rgba) in enumerate(
        (("plan_left_hand", geo.left_hands, PLAN_LEFT_RGBA), ("plan_right_hand", geo.right_hands, PLAN_RIGHT_RGBA))
    ):
        out.append(
            _marker(
                ns,
                0,
                WORLD_FRAME,
                SPHERE_LIST,
                (0, 0, 0),
                identity,
                [config.plan_hand_diameter_m] * 3,
                rgba,
                False,
                points=[rm.point(p) for p in hands],
            )
        )
    return rm.build(MARKER_ARRAY, markers=out)
