"""The fast layer's guard: a test listed in test/fast_layer.py cannot start Genesis, a ROS 2 graph, the
model server or Ray, in its own process or in one it spawns; anything else still imports. And the layer starts
where those components are not installed, while a full run refuses to."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fast_layer import FAST_MODULES, GUARD_ENV, HEAVY_MODULES


def test_this_module_is_in_the_fast_layer(request: pytest.FixtureRequest) -> None:
    assert __name__.rpartition(".")[2] in FAST_MODULES
    assert request.node.get_closest_marker("fast") is not None


@pytest.mark.parametrize("module", sorted(HEAVY_MODULES))
def test_a_fast_test_cannot_start_a_heavy_component(module: str) -> None:
    # Imported earlier in a full run: the import succeeds and the entry point refuses instead.
    with pytest.raises((ImportError, RuntimeError), match="fast-layer test .*FAST_MODULES"):
        mod = __import__(module)
        {
            "genesis": lambda: mod.init(),
            "rclpy": lambda: mod.init(),
            "xllamacpp": lambda: mod.Server(),
            "ray": lambda: mod.init(),
        }[module]()


def test_a_child_process_of_a_fast_test_cannot_import_rclpy() -> None:
    run = subprocess.run([sys.executable, "-c", "import rclpy"], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "fast-layer test" in run.stderr
    assert "(in a child process)" in run.stderr


def test_a_child_process_of_a_fast_test_imports_the_rest() -> None:
    run = subprocess.run(
        [sys.executable, "-c", "import json, numpy, reacthuman.plan.plan_path"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr


HIDE_SITE = """import sys

HIDDEN = {"genesis", "rclpy", "ray", "xllamacpp"}


class Hide:
    def __init__(self, finder):
        self.finder = finder

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN or not hasattr(self.finder, "find_spec"):
            return None
        return self.finder.find_spec(name, path, target)

    def __getattr__(self, attr):
        return getattr(self.finder, attr)


sys.meta_path[:] = [Hide(f) for f in sys.meta_path]
"""


def _collect_without_heavy_components(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest in a Python where Genesis, rclpy, Ray and the model server cannot be found (as in the light
    install of docs/testing.md), collecting this module only."""
    (tmp_path / "sitecustomize.py").write_text(HIDE_SITE)
    here = Path(__file__).resolve().parent
    env = {k: v for k, v in os.environ.items() if k != GUARD_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(here.parent)])
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            *args,
            str(Path(__file__).resolve()),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=here.parent,
        env=env,
    )


def test_the_fast_layer_starts_without_the_heavy_components(tmp_path: Path) -> None:
    run = _collect_without_heavy_components(tmp_path, "-m", "fast", "--light-install")
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "required components missing" not in out


def test_without_light_install_the_fast_layer_names_the_modules_that_need_more(tmp_path: Path) -> None:
    run = _collect_without_heavy_components(tmp_path, "-m", "fast")
    out = run.stdout + run.stderr
    assert run.returncode != 0
    assert "required components missing: genesis (for test_eval_first_render)" in out


def test_a_full_run_refuses_to_start_without_them(tmp_path: Path) -> None:
    run = _collect_without_heavy_components(tmp_path)
    assert run.returncode != 0
    out = run.stdout + run.stderr
    assert "required components missing: " in out
    for module in ("rclpy", "genesis", "xllamacpp"):
        assert module in out
