"""The fast layer's guard: a test listed in test/fast_layer.py cannot start Genesis, a ROS 2 graph, the
model server or Ray, in its own process or in one it spawns; anything else still imports."""

import subprocess
import sys

import pytest

from fast_layer import FAST_MODULES, HEAVY_MODULES


def test_this_module_is_in_the_fast_layer(request: pytest.FixtureRequest) -> None:
    assert __name__.rpartition(".")[2] in FAST_MODULES
    assert request.node.get_closest_marker("fast") is not None


@pytest.mark.parametrize("module", sorted(HEAVY_MODULES))
def test_a_fast_test_cannot_start_a_heavy_component(module: str) -> None:
    # Imported earlier in a full run: the import succeeds and the entry point refuses instead.
    with pytest.raises((ImportError, RuntimeError), match="fast-layer test .*FAST_MODULES"):
        mod = __import__(module)
        {"genesis": lambda: mod.init(), "rclpy": lambda: mod.init(), "xllamacpp": lambda: mod.Server(),
         "ray": lambda: mod.init()}[module]()


def test_a_child_process_of_a_fast_test_cannot_import_rclpy() -> None:
    run = subprocess.run([sys.executable, "-c", "import rclpy"], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "fast-layer test" in run.stderr
    assert "(in a child process)" in run.stderr


def test_a_child_process_of_a_fast_test_imports_the_rest() -> None:
    run = subprocess.run([sys.executable, "-c", "import json, numpy, reacthuman.plan_path"], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
