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
# The fast layer (`-m fast`) starts no Genesis, ROS 2 graph, model server or Ray: the light install of
# docs/testing.md is enough for it, but for the modules of BEYOND_LIGHT_INSTALL (left out by --light-install).
FAST_REQUIRED = {
    "mujoco": "MuJoCo",
    "onnxruntime": "onnxruntime",
    "holosoma": "the G1 model (holosoma)",
    "dm_control": "the CMU humanoid (dm-control)",
}
FAST_INSTALL = "install the light install of docs/testing.md, and run `make test-fast-light` there"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--light-install",
        action="store_true",
        help="with -m fast: leave out the fast modules that need more than the light install "
        "(test/fast_layer.py BEYOND_LIGHT_INSTALL), naming them",
    )


def _light(config: pytest.Config) -> bool:
    return _fast_only(config) and config.getoption("--light-install")


def pytest_sessionstart(session: pytest.Session) -> None:
    fast = _fast_only(session.config)
    required = dict(FAST_REQUIRED) if fast else REQUIRED
    if fast and not _light(session.config):
        required.update({mod: f"for {test}" for test, mod in sorted(BEYOND_LIGHT_INSTALL.items())})
    missing = [
        f"{mod} ({what})"
        for mod, what in required.items()
        if mod != "rmw_fastrtps_cpp" and importlib.util.find_spec(mod) is None
    ]
    if missing:
        how = FAST_INSTALL if fast else "run `make test`, which bootstraps .venv"
        raise pytest.UsageError("required components missing: " + "; ".join(missing) + " -- " + how)
    if fast:
        # Module-level imports of the fast modules happen at collection: they are guarded from here on.
        install_blocker("collection of the fast layer")


@pytest.fixture
def ros_domain_id() -> int:
    """A ROS domain of its own per test, so graphs started by different tests never see each other."""
    return random.Random(os.getpid() * 7919 + random.randrange(1 << 30)).randrange(20, 200)


@pytest.fixture(scope="module")
def sim():
    """One Genesis scene simulator per test module that asks for it (kernels compile once per module)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from reacthuman.scenes.genesis_sim import GenesisSimulator

    return GenesisSimulator()


@pytest.fixture
def hand_computed_rest_pose(monkeypatch):
    """Hands resting at (0.1, +-0.2, 0.78): tests whose expected values were computed by hand pin that pose,
    so the arithmetic stays independent of the G1's measured rest pose."""
    import reacthuman.plan.classifier
    import reacthuman.plan.plan
    import reacthuman.plan.plan_path

    for module in (reacthuman.plan.plan, reacthuman.plan.classifier, reacthuman.plan.plan_path):
        monkeypatch.setattr(module, "REST_LEFT_HAND_M", (0.1, 0.2, 0.78))
        monkeypatch.setattr(module, "REST_RIGHT_HAND_M", (0.1, -0.2, 0.78))


@pytest.fixture(scope="session")
def interactiveworld_control_runs() -> dict:
    """The oracle, silent and blind runs of every frozen InteractiveWorld task, made in one pass so each
    task's world is built once and cloned per run; the bench and knowledge tests both read them."""
    from interactiveworld.agents.assistants import make_assistant
    from interactiveworld.agents.scripted_human import ScriptedHuman
    from interactiveworld.bench.taskpack import default_tasks_dir, load_packs
    from interactiveworld.episode import run_episode

    return {
        (p.task_id, name): run_episode(p, make_assistant(name, p), ScriptedHuman())
        for p in load_packs(default_tasks_dir())
        for name in ("oracle", "silent", "blind")
    }


# The fast layer (`make test-fast`, `pytest -m fast`): the modules listed in test/fast_layer.py, guarded so
# that none of them can start Genesis, a ROS 2 graph, the model server or Ray.
from fast_layer import BEYOND_LIGHT_INSTALL, FAST_MODULES, guard_module, install_blocker  # noqa: E402
from parallel_layout import graph_group_first, module_group_scheduler  # noqa: E402


def _fast_only(config: pytest.Config) -> bool:
    return (config.getoption("markexpr", "") or "").strip() == "fast"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fast: the unit layer: no Genesis, no ROS 2 graph, no model server, no Ray")
    here = os.path.dirname(os.path.abspath(__file__))
    stale = sorted(m for m in FAST_MODULES if not os.path.exists(os.path.join(here, m + ".py")))
    if stale:
        raise pytest.UsageError("test/fast_layer.py FAST_MODULES names modules that do not exist: " + ", ".join(stale))


def pytest_ignore_collect(collection_path, config: pytest.Config) -> bool | None:
    name = collection_path.name
    if _fast_only(config) and name.startswith("test_") and name.endswith(".py"):
        left_out = _light(config) and collection_path.stem in BEYOND_LIGHT_INSTALL
        return collection_path.stem not in FAST_MODULES or left_out or None
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.stem in FAST_MODULES:
            item.add_marker(pytest.mark.fast)
    if hasattr(config, "workerinput"):  # a pytest-xdist worker (make test runs two)
        graph_group_first(items)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if _light(config):
        left = ", ".join(f"{test} (needs {mod})" for test, mod in sorted(BEYOND_LIGHT_INSTALL.items()))
        terminalreporter.write_line(f"--light-install: not run here, run by make test-fast: {left}")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`make test` runs two pytest-xdist workers; test/parallel_layout.py says which tests go together."""
    return None if config.getvalue("dist") == "no" else module_group_scheduler(config, log)


@pytest.fixture(scope="module", autouse=True)
def _fast_layer_guard(request: pytest.FixtureRequest):
    if request.module.__name__.rpartition(".")[2] not in FAST_MODULES:
        yield
        return
    with pytest.MonkeyPatch.context() as mp:
        guard_module(request.module.__name__, mp)
        yield
