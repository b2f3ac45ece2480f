"""A decision's plan drawn over the overhead view the model saw: the base path its walking command asks
for, its hand keyframes, and the ground-truth impact point, each projected through the scene's overhead
camera (reacthuman.scenes.cameras.project, the renderer's own pinhole model).

Frames: the plan is in the freeze-time robot frame; it is placed in the world at the observer's spec pose
(the G1 stands there during the window, drifting about 2 cm), so the drawing is within a few pixels of
where the executed plan started.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from reacthuman.core.atomic import atomic_path
from reacthuman.plan.plan import Pose2D
from reacthuman.plan.plan_path import plan_geometry
from reacthuman.recording.viewer_config import DEFAULT, ViewerConfig
from reacthuman.scenes.cameras import project
from reacthuman.scenes.spec import CameraSpec

Vec3 = tuple[float, float, float]
RGB = tuple[int, int, int]
PATH_RGB: RGB = (0, 229, 255)
LEFT_RGB: RGB = (57, 255, 20)
RIGHT_RGB: RGB = (255, 61, 242)
IMPACT_RGB: RGB = (255, 0, 0)
LEGEND = (
    ("base path (circle: start, square: end)", PATH_RGB),
    ("left hand keyframes", LEFT_RGB),
    ("right hand keyframes", RIGHT_RGB),
    ("impact point", IMPACT_RGB),
)


def _camera(spec: dict, name: str, width: int, height: int) -> CameraSpec:
    cam = next(c for c in spec["cameras"] if c["name"] == name)
    return CameraSpec(name, tuple(cam["pos"]), tuple(cam["lookat"]), float(cam["fov_deg"]), width, height)


def _pixels(cam: CameraSpec, points: list[Vec3], scale: int) -> list[tuple[float, float]]:
    """Canvas pixels of the points in front of the camera (those behind it are left out)."""
    out = []
    for p in points:
        uvd = project(cam, p)
        if uvd is not None:
            out.append((uvd[0] * scale, uvd[1] * scale))
    return out


def _dot(draw: ImageDraw.ImageDraw, xy: tuple[float, float], rgb: RGB, r: int, square: bool = False) -> None:
    x, y = xy[0], xy[1]
    (draw.rectangle if square else draw.ellipse)((x - r, y - r, x + r, y + r), fill=rgb, outline=(255, 255, 255))


def _polyline(
    draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], rgb: RGB, width: int, dot_radius: int | None = None
) -> None:
    """A line through the points, and a dot on each when dot_radius is given (the hand keyframes)."""
    if len(points) > 1:
        draw.line(points, fill=rgb, width=width, joint="curve")
    for p in points if dot_radius is not None else ():
        _dot(draw, p, rgb, dot_radius)


def _cross(draw: ImageDraw.ImageDraw, xy: tuple[float, float], rgb: RGB, mark_radius: int) -> None:
    x, y, r = xy[0], xy[1], mark_radius + 4
    for w, colour in ((9, (255, 255, 255)), (5, rgb)):
        draw.line(((x - r, y - r), (x + r, y + r)), fill=colour, width=w)
        draw.line(((x - r, y + r), (x + r, y - r)), fill=colour, width=w)


def _legend(draw: ImageDraw.ImageDraw, width: int) -> None:
    x0, y = width - 270, 8
    draw.rectangle((x0 - 8, 4, width - 4, 12 + 18 * len(LEGEND)), fill=(255, 255, 255))
    for text, rgb in LEGEND:
        draw.rectangle((x0, y + 3, x0 + 14, y + 13), fill=rgb)
        draw.text((x0 + 22, y + 1), text, fill=(0, 0, 0))
        y += 18


def draw_plan_overlay(
    image_path: Path,
    spec: dict,
    plan: dict | None,
    out_path: Path,
    view: str = "overhead",
    config: ViewerConfig = DEFAULT,
) -> Path:
    """Write out_path: the frame with the plan drawn over it (and the impact point, when the scene has one)."""
    with Image.open(image_path) as frame:
        w, h = frame.size
        canvas = frame.convert("RGB").resize(
            (w * config.overlay_scale, h * config.overlay_scale), Image.Resampling.NEAREST
        )
    draw = ImageDraw.Draw(canvas)
    cam = _camera(spec, view, w, h)
    obs, k, r = spec["observer"], config.overlay_scale, config.overlay_mark_radius_px
    if plan is not None:
        geo = plan_geometry(plan, Pose2D(float(obs["x_m"]), float(obs["y_m"]), float(obs["yaw_rad"])))
        path = _pixels(cam, geo.base_path, k)
        _polyline(draw, path, PATH_RGB, config.overlay_path_width_px)
        if path:
            _dot(draw, path[0], PATH_RGB, r)
            _dot(draw, path[-1], PATH_RGB, r, square=True)
        for hands, rgb in ((geo.left_hands, LEFT_RGB), (geo.right_hands, RIGHT_RGB)):
            _polyline(draw, _pixels(cam, hands, k), rgb, config.overlay_hand_width_px, dot_radius=r)
    impact = (spec.get("ground_truth") or {}).get("impact_point")
    for xy in _pixels(cam, [tuple(impact)], k) if impact else ():
        _cross(draw, xy, IMPACT_RGB, r)
    _legend(draw, canvas.width)
    with atomic_path(out_path, suffix=".png") as tmp:
        canvas.save(tmp, format="PNG")
    return out_path
