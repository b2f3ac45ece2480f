"""The fast test layer: which test modules form it, and the guard that makes the list trustworthy.

A module listed here is marked `fast` and runs under `make test-fast`. While a fast test runs, the heavy
components cannot be started: importing them (in the test's process or in any Python process it spawns)
raises, and if an earlier test of the full run already imported them, their entry points raise instead. A
module that needs them fails loudly rather than slowing the layer down: take it off the list.
"""

from __future__ import annotations

import importlib.abc
import os
import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest

# Top-level module -> what starting it means; the fast layer has none of these.
HEAVY_MODULES = {
    "genesis": "Genesis",
    "rclpy": "rclpy (a ROS 2 graph)",
    "xllamacpp": "the local model server",
    "ray": "Ray",
}
# Entry points that start each heavy component, patched to raise when the module is already loaded.
HEAVY_ENTRY_POINTS = {
    "genesis": ("init",),
    "rclpy": ("init", "create_node"),
    "xllamacpp": ("Server",),
    "ray": ("init",),
}
# Child processes of a fast test inherit this variable; test/fast_guard/sitecustomize.py reads it.
GUARD_ENV = "REACTHUMAN_FAST_LAYER_TEST"
GUARD_SITE_DIR = Path(__file__).resolve().parent / "fast_guard"

# Fast modules whose tests need a component the light install lacks (docs/testing.md): the ROS 2 message
# definitions, torch, or Genesis's installed sources (read, never started). `make test-fast` runs them;
# `make test-fast-light` (pytest --light-install) leaves them out and names them.
BEYOND_LIGHT_INSTALL = {
    "test_recording_viewer": "rosidl_adapter",
    "test_policy_slot": "torch",
    "test_eval_first_render": "genesis",
}

# Measured under the guard: each module here passes without the heavy components, and together they run in
# well under a minute. Modules that simulate for long (the InteractiveWorld controls bench, PhysMent's scene
# checks) stay in the full layer only.
FAST_MODULES = frozenset(
    {
        "test_deprecated_paths",
        "test_fast_layer_guard",
        "test_policy_slot",
        "test_physment_authors_cells",
        "test_physment_authors_dialogue",
        "test_physment_authors_replay",
        "test_graph_messages",
        "test_body_envelope",
        "test_too_fast_to_catch",
        "test_dataset_strata",
        "test_body_freeze",
        "test_closed_loop_report",
        "test_brain_arc",
        "test_brain_classifier",
        "test_brain_parse",
        "test_brain_reference",
        "test_code_layers",
        "test_replay_brain",
        "test_core_layering",
        "test_core_config",
        "test_core_headless",
        "test_core_model_spec",
        "test_core_suite",
        "test_docs",
        "test_episode_engine",
        "test_model_vision",
        "test_eval_first_render",
        "test_eval_liveness",
        "test_eval_lock",
        "test_eval_worker_counts",
        "test_fault_injection",
        "test_interactiveworld_actions",
        "test_interactiveworld_controls",
        "test_interactiveworld_release",
        "test_interactiveworld_metrics",
        "test_interactiveworld_world",
        "test_launch_file",
        "test_llm_grammar",
        "test_physment_metrics",
        "test_physment_published_format",
        "test_physment_scoring",
        "test_parallel_layout",
        "test_physment_tools",
        "test_plan_path",
        "test_recording_viewer",
        "test_recording_viewer_meshes",
        "test_recording_viewer_interop",
        "test_render_speed",
        "test_report_episodes",
        "test_scenes_cli",
        "test_scenes_fixtures",
        "test_scenes_index_rows",
        "test_scenes_modelled",
        "test_scenes_sourcing_plan",
        "test_scoring_aggregate",
        "test_scoring_decision",
        "test_scoring_intent",
        "test_scoring_ledger",
        "test_scoring_metrics",
        "test_scoring_report",
        "test_spine_assets",
        "test_spine_core",
    }
)


class HeavyImportBlocker(importlib.abc.MetaPathFinder):
    """Refuses to import the heavy components, naming the test that tried."""

    def __init__(self, who: str) -> None:
        self.who = who

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        top = fullname.partition(".")[0]
        if top in HEAVY_MODULES:
            raise ImportError(
                f"fast-layer test {self.who} imports {top} ({HEAVY_MODULES[top]}): "
                f"remove its module from FAST_MODULES in test/fast_layer.py"
            )
        return None


def install_blocker(who: str) -> HeavyImportBlocker:
    blocker = HeavyImportBlocker(who)
    sys.meta_path.insert(0, blocker)
    return blocker


def _refuse(who: str, what: str) -> Callable[..., None]:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError(
            f"fast-layer test {who} starts {what}: remove its module from FAST_MODULES in test/fast_layer.py"
        )

    return refuse


def loaded_entry_points() -> Iterator[tuple[object, str, str]]:
    """(module, attribute, what) for each entry point of a heavy component already imported."""
    for top, names in HEAVY_ENTRY_POINTS.items():
        mod = sys.modules.get(top)
        for name in names if mod is not None else ():
            if hasattr(mod, name):
                yield mod, name, HEAVY_MODULES[top]


def guard_module(who: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Arms the guard for one fast test module (undone by the monkeypatch when the module ends)."""
    for mod, name, what in loaded_entry_points():
        monkeypatch.setattr(mod, name, _refuse(who, what))
    monkeypatch.setattr(sys, "meta_path", [HeavyImportBlocker(who), *sys.meta_path])
    monkeypatch.setenv(GUARD_ENV, who)
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(p for p in (str(GUARD_SITE_DIR), os.environ.get("PYTHONPATH", "")) if p)
    )
