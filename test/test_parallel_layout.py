"""`make test` on two pytest-xdist workers: which modules run together (test/parallel_layout.py)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from parallel_layout import GRAPH_GROUP, ModuleGroupScheduling, graph_group_first, module_group

HERE = Path(__file__).resolve().parent
GRAPH_MODULES = (
    "test_eval_graph",
    "test_ray_executor",
    "test_graph_live",
    "test_spine_unitree_dds",
    "test_interactiveworld_ros",
    "test_robot_bridge_mock_g1_hardware",
    "test_launcher_respawn",
)
IN_PROCESS_MODULES = ("test_brain_parse", "test_scenes_genesis", "test_body_engines", "test_brain_llm")


def test_every_module_that_starts_a_graph_ray_or_dds_is_in_the_graph_group_and_the_others_alone():
    for name in GRAPH_MODULES:
        assert module_group(HERE / f"{name}.py") == GRAPH_GROUP, name
    for name in IN_PROCESS_MODULES:
        assert module_group(HERE / f"{name}.py") == str(HERE / f"{name}.py"), name


def test_the_scheduler_keeps_a_module_whole_and_the_graph_modules_together():
    sched = ModuleGroupScheduling.__new__(ModuleGroupScheduling)  # _split_scope reads only the root
    sched._root = HERE.parent
    scope = sched._split_scope
    assert scope("test/test_eval_graph.py::test_a[x]") == scope("test/test_ray_executor.py::test_b") == GRAPH_GROUP
    assert scope("test/test_brain_parse.py::test_a") == scope("test/test_brain_parse.py::test_b[1-2]")
    assert scope("test/test_brain_parse.py::test_a") != scope("test/test_scenes_genesis.py::test_a")


def test_the_graph_group_goes_first_and_the_rest_keeps_its_order():
    names = ["test_brain_parse", "test_eval_graph", "test_scenes_genesis", "test_graph_live", "test_brain_llm"]
    items = [SimpleNamespace(path=HERE / f"{n}.py") for n in names]
    graph_group_first(items)
    assert [i.path.stem for i in items] == [
        "test_eval_graph",
        "test_graph_live",
        "test_brain_parse",
        "test_scenes_genesis",
        "test_brain_llm",
    ]
