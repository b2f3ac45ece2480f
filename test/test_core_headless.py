"""The GL backend default: EGL on a machine without a display, never over an explicit choice or a display."""

from reacthuman.core.headless import use_egl_when_headless


def test_a_headless_machine_gets_egl() -> None:
    env = {"PATH": "/usr/bin"}
    assert use_egl_when_headless(env) == "egl"
    assert env["MUJOCO_GL"] == "egl"


def test_an_explicit_backend_or_a_display_is_left_alone() -> None:
    for env in ({"MUJOCO_GL": "osmesa"}, {"DISPLAY": ":0"}, {"WAYLAND_DISPLAY": "wayland-0"}):
        before = dict(env)
        assert use_egl_when_headless(env) is None
        assert env == before


def test_an_empty_display_counts_as_none() -> None:
    env = {"DISPLAY": ""}
    assert use_egl_when_headless(env) == "egl"
