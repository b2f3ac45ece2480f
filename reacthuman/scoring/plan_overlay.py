"""A decision's plan drawn over the overhead view the model saw: the base path its walking command asks
for, its hand keyframes, and the ground-truth impact point, each projected through the scene's overhead
camera (reacthuman.scenes.cameras.project, the renderer's own pinhole model).

Frames: the plan is in the freeze-time robot frame; it is placed in the world at the observer's spec pose
(the G1 stands there during the window, drifting about 2 cm), so the drawing is within a few pixels of
where the executed plan started.
"""

from __future__ import annotations

import os
from pathlib import Path

import imageio.v3 as iio
import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402  (after choosing the backend)

from reacthuman.plan import Pose2D  # noqa: E402
from reacthuman.plan_geometry import plan_geometry  # noqa: E402
from reacthuman.scenes.cameras import project  # noqa: E402
from reacthuman.scenes.spec import CameraSpec  # noqa: E402

Vec3 = tuple[float, float, float]
OVERLAY_DPI = 100
OVERLAY_SCALE = 3.0  # the 320x180 frames are small: draw on a 3x canvas so lines and labels stay legible


def _camera(spec: dict, name: str, width: int, height: int) -> CameraSpec:
    cam = next(c for c in spec["cameras"] if c["name"] == name)
    return CameraSpec(name, tuple(cam["pos"]), tuple(cam["lookat"]), float(cam["fov_deg"]), width, height)


def _uv(cam: CameraSpec, points: list[Vec3]) -> tuple[list[float], list[float]]:
    us, vs = [], []
    for p in points:
        uvd = project(cam, p)
        if uvd is not None:
            us.append(uvd[0])
            vs.append(uvd[1])
    return us, vs


def draw_plan_overlay(image_path: Path, spec: dict, plan: dict | None, out_path: Path, view: str = "overhead") -> Path:
    """Write out_path: the frame with the plan drawn over it (and the impact point, when the scene has one)."""
    image = iio.imread(image_path)
    h, w = image.shape[:2]
    fig = Figure(figsize=(w * OVERLAY_SCALE / OVERLAY_DPI, h * OVERLAY_SCALE / OVERLAY_DPI), dpi=OVERLAY_DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.imshow(image, extent=(0, w, h, 0))
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.axis("off")
    cam = _camera(spec, view, w, h)
    obs = spec["observer"]
    observer = Pose2D(float(obs["x_m"]), float(obs["y_m"]), float(obs["yaw_rad"]))
    if plan is not None:
        geo = plan_geometry(plan, observer)
        ax.plot(*_uv(cam, geo.base_path), color="#00e5ff", lw=2.5, label="base path")
        ax.plot(*_uv(cam, geo.base_path[:1]), "o", color="#00e5ff", ms=7)
        ax.plot(*_uv(cam, geo.base_path[-1:]), "s", color="#00e5ff", ms=7)
        ax.plot(*_uv(cam, geo.left_hands), "o-", color="#39ff14", lw=1.5, ms=6, label="left hand keyframes")
        ax.plot(*_uv(cam, geo.right_hands), "o-", color="#ff3df2", lw=1.5, ms=6, label="right hand keyframes")
    impact = (spec.get("ground_truth") or {}).get("impact_point")
    if impact:
        ax.plot(*_uv(cam, [tuple(impact)]), "X", color="red", ms=12, mec="white", label="impact point")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper right", fontsize=9, framealpha=0.7)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(f".{out_path.stem}.tmp{os.getpid()}.png")
    fig.savefig(tmp, dpi=OVERLAY_DPI, format="png")
    os.replace(tmp, out_path)
    return out_path
