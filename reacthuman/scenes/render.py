"""Render the observation window of a scene from its three cameras (Genesis rasterizer, headless EGL).

Frames and units: the spec's cameras (world frame, metres, vertical fov in degrees). Frames are taken at
t0 + k * interval_s for k = 0 .. window / interval_s (the page's 0, 0.15, ... 0.6 s by default); files are
`<view>_t<milliseconds after t0, 4 digits>.png` plus `<view>.mp4` at 1 / interval_s frames per second.
Rendering re-simulates the scene; the physics must be bit-identical to the unrendered run (checked).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from reacthuman.core.atomic import atomic_path
from reacthuman.core.config import config_with
from reacthuman.scenes.genesis_sim import GenesisSimulator
from reacthuman.scenes.spec import SceneSpec

VIEWS = ("egocentric", "closeup", "overhead")


@dataclass(frozen=True)
class RenderConfig:
    """config/render.yaml; `scenes generate --render` passes its own interval and size."""

    interval_s: float = 0.15  # between rendered frames, from t0
    width: int = 1280  # px
    height: int = 720  # px
    video: bool = True  # also one mp4 per view

    def __post_init__(self) -> None:
        if not 0.0 < self.interval_s <= 1.0:
            raise ValueError(f"RenderConfig.interval_s must be in (0, 1], got {self.interval_s}")
        for name in ("width", "height"):
            if not getattr(self, name) >= 16:
                raise ValueError(f"RenderConfig.{name} must be at least 16 px, got {getattr(self, name)}")


def default_config(**overrides: Any) -> RenderConfig:
    """config/render.yaml with `overrides` applied."""
    return config_with(RenderConfig, overrides)


def frame_name(view: str, t_after_t0_s: float) -> str:
    return f"{view}_t{int(round(t_after_t0_s * 1000)):04d}.png"


def render_window(spec: SceneSpec, out_dir: str, sim: GenesisSimulator, cfg: RenderConfig | None = None) -> list[str]:
    """Write the window's frames (and one mp4 per view) into out_dir; returns the file names written."""
    cfg = cfg or default_config()
    import imageio.v3 as iio

    n = int(round(spec.observation_window_s / cfg.interval_s))
    steps = {int(round((spec.t0_s + k * cfg.interval_s) / spec.dt_s)): k * cfg.interval_s for k in range(n + 1)}
    frames: dict[str, list[np.ndarray]] = {v: [] for v in VIEWS}
    written: list[str] = []

    def on_step(k: int) -> None:
        if k not in steps:
            return
        for view in VIEWS:
            rgb = sim.cameras[view].render(rgb=True, depth=False)[0]
            img = np.ascontiguousarray(np.asarray(rgb, dtype=np.uint8))
            name = frame_name(view, steps[k])
            iio.imwrite(os.path.join(out_dir, name), img)
            frames[view].append(img)
            written.append(name)

    # The whole run, not just the window: its digest must equal the labelled run's (cameras change no physics).
    track = sim.run(spec, on_step=on_step, cameras=True, resolution=(cfg.width, cfg.height))
    gt = spec.ground_truth
    if gt is not None and gt.track_sha256 and gt.track_sha256 != track.digest:
        raise RuntimeError(f"{spec.scene_id}: the rendered run's physics differs from the labelled run")
    if cfg.video:
        for view in VIEWS:
            name = f"{view}.mp4"
            iio.imwrite(
                os.path.join(out_dir, name),
                np.stack(frames[view]),
                fps=max(1.0, 1.0 / cfg.interval_s),
                codec="libx264",
                plugin="pyav" if _has_pyav() else None,
            )
            written.append(name)
    return written


def _has_pyav() -> bool:
    try:
        import av  # noqa: F401
    except ImportError:
        return False
    return True


def contact_sheet(scene_dir: str, out_path: str) -> str:
    """One PNG: rows = views, columns = window frames, from the PNGs in scene_dir."""
    import imageio.v3 as iio

    rows = []
    for view in VIEWS:
        names = sorted(f for f in os.listdir(scene_dir) if f.startswith(view + "_t") and f.endswith(".png"))
        if not names:
            raise FileNotFoundError(f"no {view} frames in {scene_dir} (generate with --render first)")
        imgs = [iio.imread(os.path.join(scene_dir, f))[..., :3] for f in names]
        h = 180
        small = [img[:: max(1, img.shape[0] // h), :: max(1, img.shape[0] // h)] for img in imgs]
        rows.append(np.concatenate(small, axis=1))
    width = max(r.shape[1] for r in rows)
    rows = [np.pad(r, ((0, 0), (0, width - r.shape[1]), (0, 0))) for r in rows]
    sheet = np.concatenate(rows, axis=0)
    with atomic_path(out_path, suffix=".png") as tmp:  # the encoder picks PNG from the suffix
        iio.imwrite(tmp, sheet)
    return out_path


def freeze_sheet(dataset_dir: str, out_path: str, height_px: int = 120) -> str:
    """One PNG: a row per scene of a rendered dataset (family and object on the left), its three views at the
    freeze frame (the last window frame), each reduced to height_px rows."""
    import imageio.v3 as iio

    rows = []
    for name in sorted(os.listdir(dataset_dir)):
        spec_path = os.path.join(dataset_dir, name, "spec.json")
        if not os.path.isfile(spec_path):
            continue
        spec = json.loads(open(spec_path).read())
        views = []
        for view in VIEWS:
            frames = sorted(
                f
                for f in os.listdir(os.path.join(dataset_dir, name))
                if f.startswith(view + "_t") and f.endswith(".png")
            )
            if not frames:
                raise FileNotFoundError(f"no {view} frames in {dataset_dir}/{name} (generate with --render first)")
            img = Image.fromarray(iio.imread(os.path.join(dataset_dir, name, frames[-1]))[..., :3])
            views.append(img.resize((round(img.width * height_px / img.height), height_px), Image.LANCZOS))
        label = Image.new("RGB", (150, height_px), "white")
        draw = ImageDraw.Draw(label)
        draw.text((4, height_px // 2 - 14), spec["family"], fill="black")
        draw.text((4, height_px // 2 + 2), spec["object_id"], fill=(90, 90, 90))
        row = Image.new("RGB", (label.width + sum(v.width for v in views) + 2 * len(views), height_px), "white")
        x = 0
        for part in [label] + views:
            row.paste(part, (x, 0))
            x += part.width + (2 if part is not label else 0)
        rows.append(row)
    if not rows:
        raise FileNotFoundError(f"no rendered scenes in {dataset_dir}")
    sheet = Image.new("RGB", (max(r.width for r in rows), sum(r.height + 2 for r in rows)), "white")
    y = 0
    for r in rows:
        sheet.paste(r, (0, y))
        y += r.height + 2
    tmp = out_path + ".tmp.png"
    sheet.save(tmp)
    os.replace(tmp, out_path)
    return out_path
