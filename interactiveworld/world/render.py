"""First-person frames from the human's head camera, rendered only on demand (headless EGL)."""

from __future__ import annotations

import os

import mujoco
import numpy as np

from interactiveworld.world.sim import World
from mujoco.rendering.classic import gl_context
from mujoco.egl import GLContext

FRAME_W_PX = 320  # a note held up to the eyes is readable at this size
FRAME_H_PX = 240


def _headless_gl() -> None:
    """Without a display, render through EGL even when MuJoCo was imported before MUJOCO_GL was set
    (it chose its GL backend at import time)."""
    if os.environ.get("DISPLAY") or os.environ.get("MUJOCO_GL", "egl").lower() not in ("", "egl"):
        return

    if getattr(gl_context.GLContext, "__module__", "").startswith("mujoco.egl"):
        return

    gl_context.GLContext = GLContext


class EyeCamera:
    """One offscreen renderer bound to one world; call `close` (or use as a context manager) when done."""

    def __init__(self, world: World, width_px: int = FRAME_W_PX, height_px: int = FRAME_H_PX) -> None:
        self.world = world
        _headless_gl()
        self.renderer = mujoco.Renderer(world.model, height_px, width_px)

    def frame(self) -> np.ndarray:
        """uint8 RGB [H, W, 3] of what the human's eyes see now."""
        self.renderer.update_scene(self.world.data, camera="H:eye")
        return self.renderer.render().copy()

    def close(self) -> None:
        self.renderer.close()

    def __enter__(self) -> "EyeCamera":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
