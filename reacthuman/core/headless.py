"""A machine without a display renders with EGL unless told otherwise.

MuJoCo picks its OpenGL backend when it is first imported, from `MUJOCO_GL`; left unset it tries GLFW, which
on a headless machine fails with "X11: The DISPLAY environment variable is missing" the first time a scene is
rendered (scene generation's visibility check, the bench, InteractiveWorld's eyes). The command lines call
`use_egl_when_headless()` before anything imports MuJoCo; an explicit `MUJOCO_GL` always wins."""

from __future__ import annotations

import os
from collections.abc import MutableMapping

DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY")


def use_egl_when_headless(env: MutableMapping[str, str] | None = None) -> str | None:
    """Set MUJOCO_GL=egl in `env` (the process environment by default) when it is unset and no display is
    named; return the backend set, None when nothing was changed."""
    env = os.environ if env is None else env
    if "MUJOCO_GL" in env or any(env.get(v) for v in DISPLAY_VARIABLES):
        return None
    env["MUJOCO_GL"] = "egl"
    return "egl"
