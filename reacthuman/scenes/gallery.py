"""A gallery of the object library as a model sees it: each object drawn alone, named, in a grid PNG.

Rendered with MuJoCo from the same MJCF the scenes use (the object's visual mesh, or its primitives when it
has none), so a reviewer can check at a glance that every object is recognisable before it reaches a scene.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from reacthuman.core.atomic import atomic_path
from reacthuman.scenes.builders import object_body
from reacthuman.scenes.catalog import OBJECTS, get_object
from reacthuman.scenes.mjcf import insert_into_worldbody, scene_mjcf
from reacthuman.scenes.modelled.textures import font
from reacthuman.scenes.object_meshes import physical_extent_m
from reacthuman.scenes.spec import CameraSpec, LightSpec, ObserverSpec, SceneSpec

VIEW_DIRECTION = np.array([1.0, -0.9, 0.75])  # a three-quarter view from above, like a person looking down at it
CAMERA_FOV_DEG = 35.0


def _object_scene(object_id: str) -> tuple[SceneSpec, CameraSpec]:
    entry = get_object(object_id)
    ext = physical_extent_m(entry)
    body = object_body(entry, "object", (0.0, 0.0, ext[2] / 2), role="prop")
    centre = np.array([0.0, 0.0, ext[2] / 2])
    radius = 0.5 * math.sqrt(sum(e * e for e in ext))
    distance = radius / math.sin(math.radians(CAMERA_FOV_DEG / 2)) * 1.05
    eye = centre + VIEW_DIRECTION / np.linalg.norm(VIEW_DIRECTION) * distance
    cam = CameraSpec("closeup", tuple(float(v) for v in eye), tuple(float(v) for v in centre), CAMERA_FOV_DEG)
    far = (
        CameraSpec("egocentric", (-3.0, -3.0, 2.0), (0.0, 0.0, 0.0), 60.0),
        CameraSpec("overhead", (0.0, 0.0, 6.0), (0.0, 0.01, 0.0), 60.0),
    )  # the spec needs all three views
    lights = (
        LightSpec((0.0, 0.0, 5.0), (0.3, 0.2, -1.0), (0.7, 0.7, 0.7)),
        LightSpec((3.0, -3.0, 3.0), (-1.0, 1.0, -1.0), (0.35, 0.35, 0.35)),
    )
    spec = SceneSpec(
        scene_id=f"gallery-{object_id}",
        family="object_drop",
        object_id=object_id,
        room="kitchen",
        seed=0,
        speed_band="gravity",
        speed_group=None,
        adversarial=False,
        observer=ObserverSpec(-5, -5, 0),
        hazard_bodies=("object",),
        cameras=(far[0], cam, far[1]),
        bodies=(body,),
        lights=lights,
        duration_s=1.0,
    )
    return spec, cam


def render_object(object_id: str, size_px: int = 256) -> np.ndarray:
    """An RGB image (size_px square) of one library object resting on the floor."""
    import mujoco

    spec, cam = _object_scene(object_id)
    fwd = np.asarray(cam.lookat) - np.asarray(cam.pos)
    fwd /= np.linalg.norm(fwd)
    right = np.cross(fwd, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, fwd)
    xyaxes = " ".join(f"{v:.6f}" for v in (*right, *up))
    xml = insert_into_worldbody(
        scene_mjcf(spec),
        f'<camera name="gallery" pos="{" ".join(f"{v:.6f}" for v in cam.pos)}" '
        f'xyaxes="{xyaxes}" fovy="{cam.fov_deg}"/>',
    )
    # Near plane as a fraction of the scene's extent (the 60 m floor): small objects need a close one.
    xml = xml.replace(
        '<compiler angle="radian"/>', '<compiler angle="radian"/>\n  <visual><map znear="0.0002"/></visual>', 1
    )
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    with mujoco.Renderer(model, size_px, size_px) as renderer:
        renderer.update_scene(data, camera="gallery")
        return renderer.render().copy()


def gallery(out_path: str, object_ids: Sequence[str] | None = None, size_px: int = 256, columns: int = 8) -> str:
    """Write one PNG: each object (default: the whole library) rendered alone with its id under it."""
    import imageio.v3 as iio

    ids = list(object_ids) if object_ids else sorted(OBJECTS)
    unknown = [o for o in ids if o not in OBJECTS]
    if unknown:
        raise ValueError(f"unknown object id(s): {', '.join(unknown)}")
    label_px = 22
    rows = math.ceil(len(ids) / columns)
    sheet = Image.new("RGB", (columns * size_px, rows * (size_px + label_px)), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    for i, object_id in enumerate(ids):
        x, y = (i % columns) * size_px, (i // columns) * (size_px + label_px)
        sheet.paste(Image.fromarray(render_object(object_id, size_px)), (x, y))
        draw.text((x + size_px / 2, y + size_px + label_px / 2), object_id, font=font(14), fill=(0, 0, 0), anchor="mm")
    with atomic_path(out_path, suffix=".png") as tmp:
        iio.imwrite(tmp, np.asarray(sheet))
    return out_path
