"""The tree's shape, checked statically: no import cycle between modules (imports inside functions count), few
imports inside functions, no module over 600 lines. The import-linter contracts (.importlinter) and ruff run
beside these in `make test-fast` (docs/testing.md, "Static checks")."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_FUNCTION_IMPORTS = 60
MAX_MODULE_LINES = 600

# Cycles tolerated, each a set of modules: none, so any import cycle fails.
KNOWN_CYCLES: tuple[frozenset[str], ...] = ()

# Strongly connected components of grimp's module graph (in-function imports included, TYPE_CHECKING ones not).
CYCLES = r"""
import json, sys
import grimp
sys.setrecursionlimit(10000)
graph = grimp.build_graph("reacthuman", "physment", "interactiveworld", cache_dir=None,
                          exclude_type_checking_imports=True)
edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1 or v in edges[v]: comps.append(sorted(comp))
for v in sorted(edges):
    if v not in index: visit(v)
print(json.dumps({"modules": len(edges), "cycles": comps}))
"""


# The light install (requirements-client.txt) has none of these; its commands' modules must import without them.
NOT_IN_LIGHT_INSTALL = (
    "genesis",
    "quadrants",
    "torch",
    "mujoco",
    "imageio",
    "scipy",
    "trimesh",
    "fast_simplification",
    "rosbags",
    "matplotlib",
    "rclpy",
    "ray",
    "xllamacpp",
    "onnxruntime",
    "jsonschema",
    "unitree_sdk2py",
    "cv2",
)
LIGHT_COMMANDS = (
    "reacthuman.evaluation.decide",
    "reacthuman.evaluation.observation_set",  # decide --dataset reads the graph body's settings through it
    "reacthuman.evaluation.dataset_export",  # and the dataset's rows through this
    "reacthuman.sim_bridge.body",  # and the graph body's defaults (SetSettings.graph) from here
    "reacthuman.reporting.report_cli",
)
IMPORT_LIGHT = r"""
import importlib, importlib.abc, sys
BLOCKED = set(sys.argv[1].split(","))

class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ImportError(name + " is not in the light install")

sys.meta_path.insert(0, Blocker())
for module in sys.argv[2:]:
    importlib.import_module(module)
"""


def _python_files(tests: bool = False) -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / name for name in listed.stdout.split() if tests or not name.startswith("test/")]


class _FunctionImports(ast.NodeVisitor):
    """Import statements inside function bodies, leaving out `if TYPE_CHECKING:` blocks (never executed)."""

    def __init__(self) -> None:
        self.depth = 0
        self.found: list[int] = []

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if getattr(test, "id", None) == "TYPE_CHECKING" or getattr(test, "attr", None) == "TYPE_CHECKING":
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        if self.depth:
            self.found.append(node.lineno)

    visit_ImportFrom = visit_Import


def function_imports() -> dict[str, list[int]]:
    """Path -> line numbers of the imports inside functions, in the tree's non-test modules."""
    out = {}
    for path in _python_files():
        visitor = _FunctionImports()
        visitor.visit(ast.parse(path.read_text(), str(path)))
        if visitor.found:
            out[str(path.relative_to(ROOT))] = visitor.found
    return out


def test_no_import_cycle_between_modules() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    from import_view import make_view  # noqa: E402  (tools/ is no package)

    with tempfile.TemporaryDirectory() as tmp:  # run from the view: `-c` puts the working folder first on the path
        view = make_view(Path(tmp))
        run = subprocess.run(
            [sys.executable, "-c", CYCLES],
            capture_output=True,
            text=True,
            timeout=120,
            env={"PYTHONPATH": str(view), "PATH": ""},
            cwd=view,
        )
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout)
    assert result["modules"] > 300  # the whole tree, nodes and sim_bridge included
    unknown = [c for c in result["cycles"] if not any(set(c) <= known for known in KNOWN_CYCLES)]
    assert not unknown, f"import cycles: {unknown}"


def test_the_counter_sees_function_imports_and_skips_type_checking_blocks() -> None:
    visitor = _FunctionImports()
    visitor.visit(
        ast.parse(
            "import a\nif TYPE_CHECKING:\n    import b\ndef f():\n    import c\n"
            "    if TYPE_CHECKING:\n        import d\n    return c\n"
        )
    )
    assert visitor.found == [5]


def test_few_imports_inside_functions() -> None:
    found = function_imports()
    total = sum(len(lines) for lines in found.values())
    assert total <= MAX_FUNCTION_IMPORTS, (
        f"{total} imports inside functions (at most {MAX_FUNCTION_IMPORTS}: only where a heavy optional dependency "
        f"would otherwise load): {json.dumps(found)}"
    )


def test_no_module_over_600_lines() -> None:
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in _python_files(tests=True)}
    assert len(sizes) > 300
    too_long = {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES}
    assert not too_long, too_long


def test_the_light_install_s_commands_import_without_the_simulators() -> None:
    run = subprocess.run(
        [sys.executable, "-c", IMPORT_LIGHT, ",".join(NOT_IN_LIGHT_INSTALL), *LIGHT_COMMANDS],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]


def test_the_light_import_check_refuses_a_simulator() -> None:
    run = subprocess.run(
        [sys.executable, "-c", IMPORT_LIGHT, ",".join(NOT_IN_LIGHT_INSTALL), "reacthuman.sim_bridge.mujoco_engine"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0
    assert "is not in the light install" in run.stderr
