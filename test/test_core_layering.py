"""The core library is ROS-free: every module of the `reacthuman` package except `nodes/` (the ROS 2 side),
and of PhysMent and InteractiveWorld except their node modules, imports in a fresh process where rclpy and
the ROS message packages cannot be imported."""

import json
import subprocess
import sys

ROS_MODULES = (
    "rclpy",
    "rosidl_runtime_py",
    "rosidl_parser",
    "reacthuman_msgs",
    "std_msgs",
    "sensor_msgs",
    "geometry_msgs",
    "builtin_interfaces",
    "rosgraph_msgs",
    "action_msgs",
    "unique_identifier_msgs",
)

# The ROS 2 side of the other two systems (their nodes live beside their cores).
ROS_SIDE = {"interactiveworld.ros_graph", "physment.lab_node"} | {
    f"interactiveworld.nodes.{name}"
    for name in ("common", "world_node", "human_node", "assistant_node", "judge_node", "recorder_node")
}

IMPORT_ALL = r"""
import importlib, importlib.abc, json, pkgutil, sys
ROS = set(sys.argv[1].split(","))

class NoRos(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ROS:
            raise ImportError("ROS module " + name + " imported by the core")

sys.meta_path.insert(0, NoRos())
import interactiveworld, physment, reacthuman, reacthuman.sim_bridge
names, failed = [], {}
for pkg in (reacthuman, reacthuman.sim_bridge, physment, interactiveworld):
    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        if info.name == "reacthuman.nodes" or info.name.startswith("reacthuman.nodes."):
            continue
        names.append(info.name)
        try:
            importlib.import_module(info.name)
        except Exception as exc:
            failed[info.name] = repr(exc)[:300]
print(json.dumps({"imported": names, "failed": failed}))
"""


def test_every_core_module_imports_without_ros() -> None:
    run = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, ",".join(ROS_MODULES)], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    imported = set(result["imported"])
    assert ROS_SIDE <= imported  # each exemption names a real module ...
    assert set(result["failed"]) == ROS_SIDE, result["failed"]  # ... that does need ROS; nothing else does
    # The walk reached the whole tree, the simulator adapters included (so the test cannot pass vacuously).
    assert {
        "reacthuman.evaluation.graph_worker",
        "reacthuman.evaluation.rescore",
        "reacthuman.scoring.episode",
        "reacthuman.sim_bridge.body",
        "reacthuman.core.atomic",
        "physment.runner",
        "interactiveworld.episode",
    } <= imported
    assert len(imported) > 200


# The layers below the simulator adapters: what they compute is the same for any body, simulated or real.
BELOW_SIM_BRIDGE = (
    "reacthuman.spine",
    "reacthuman.brain",
    "reacthuman.scoring",
    "reacthuman.scenes",
    "reacthuman.core",
    "reacthuman.plan.plan",
    "reacthuman.plan.plan_path",
    "reacthuman.spine.g1_assets",
    "reacthuman.spine.joint_command",
)


def test_the_layers_below_the_simulator_adapters_never_import_them() -> None:
    import ast
    from pathlib import Path

    import reacthuman

    root = Path(reacthuman.__file__).resolve().parent
    offenders, checked = [], 0
    for path in sorted(root.rglob("*.py")):
        module = ".".join(path.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")
        if not module.startswith(BELOW_SIM_BRIDGE):
            continue
        checked += 1
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            offenders += [f"{module}: {n}" for n in names if n.startswith("reacthuman.sim_bridge")]
    assert checked > 80, offenders
    assert not offenders, offenders
