"""Shared fixtures. Required components are checked up front: a missing one fails the run loudly."""

from __future__ import annotations

import importlib.util
import os
import random

import pytest

# MuJoCo picks its GL backend when it is first imported, by whichever test imports it first: headless
# rendering needs EGL chosen before that.
os.environ.setdefault("MUJOCO_GL", "egl")
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")

REQUIRED = {
    "rclpy": "ROS 2 (ros-rclpy wheels)",
    "rmw_fastrtps_cpp": "FastDDS middleware (ros-rmw-fastrtps-cpp)",
    "reacthuman_msgs": "the built reacthuman_msgs interfaces (tools/bootstrap.sh builds them)",
    "genesis": "Genesis (genesis-world)",
    "mujoco": "MuJoCo",
    "onnxruntime": "onnxruntime",
    "rosbags": "rosbags",
    "xllamacpp": "xllamacpp (the embedded local model server)",
}


def pytest_sessionstart(session: pytest.Session) -> None:
    missing = [f"{mod} ({what})" for mod, what in REQUIRED.items()
               if mod != "rmw_fastrtps_cpp" and importlib.util.find_spec(mod) is None]
    if missing:
        raise pytest.UsageError("required components missing: " + "; ".join(missing) + " -- run `make test`, which bootstraps .venv")


@pytest.fixture
def ros_domain_id() -> int:
    """A ROS domain of its own per test, so graphs started by different tests never see each other."""
    return random.Random(os.getpid() * 7919 + random.randrange(1 << 30)).randrange(20, 200)


@pytest.fixture(scope="session")
def interactiveworld_control_runs() -> dict:
    """The oracle, silent and blind runs of every frozen InteractiveWorld task, made in one pass so each
    task's world is built once and cloned per run; the bench and knowledge tests both read them."""
    from interactiveworld.agents.assistants import make_assistant
    from interactiveworld.agents.scripted_human import ScriptedHuman
    from interactiveworld.bench.taskpack import default_tasks_dir, load_packs
    from interactiveworld.episode import run_episode

    return {(p.task_id, name): run_episode(p, make_assistant(name, p), ScriptedHuman())
            for p in load_packs(default_tasks_dir()) for name in ("oracle", "silent", "blind")}
