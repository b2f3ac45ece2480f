"""The deprecated import paths left by the re-layout of the tree (docs/architecture.md, "Deprecated import
paths"): each still imports, warns and yields the module it names; nothing in the repository uses one."""

from __future__ import annotations

import ast
import importlib
import os
import re
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {"build", "install", "log", "runs", "out", "__pycache__"}
TEXT_SUFFIXES = {".py", ".sh", ".yaml", ".yml", ".toml", ".cfg", ".ini", ".md", ".txt", ".xml", ".msg", ".srv"}
TEXT_NAMES = {"Makefile", ".importlinter"}
HISTORY = {"CHANGELOG.md"}  # history keeps the paths of its day
TABLE = re.compile(r"<!-- deprecated-paths: begin.*?<!-- deprecated-paths: end -->", flags=re.S)


def repository_files() -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(ROOT):  # follows no symlink (a worktree's nodes/ link)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        found += [Path(folder) / f for f in sorted(files) if Path(f).suffix in TEXT_SUFFIXES or f in TEXT_NAMES]
    return found


def module_of(rel: str) -> str | None:
    """The dotted module a repository file is imported as (None for a test or a script)."""
    parts = rel.removesuffix(".py").split("/")
    if parts[0] in ("nodes", "sim_bridge"):
        parts = ["reacthuman", *parts]
    if parts[0] not in ("reacthuman", "physment", "interactiveworld"):
        return None
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _constant(tree: ast.Module, name: str) -> object:
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [name]:
            value = node.value
            return ast.literal_eval(value.args[0] if isinstance(value, ast.Call) else value)
    return None


def find_aliases() -> dict[str, tuple[str, str, frozenset[str]]]:
    """Each alias file (relative path) -> (old module, the module it stands for, the old module's names kept
    for `from old import X` where the old module's name is a package's now; empty for a whole-module alias)."""
    out = {}
    for path in repository_files():
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix != ".py" or (name := module_of(rel)) is None:
            continue
        text = path.read_text(encoding="utf-8")
        if not re.search(r'^ALIAS_OF = "', text, flags=re.M):
            continue
        tree = ast.parse(text)
        out[rel] = (name, _constant(tree, "ALIAS_OF"), frozenset(_constant(tree, "DEPRECATED_NAMES") or ()))
    return out


ALIASES = find_aliases()
OLD_MODULES = sorted(old for old, _, names in ALIASES.values() if not names)
OLD_NAMES = {old: names for old, _, names in ALIASES.values() if names}
OLD_PATTERN = re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(m) for m in OLD_MODULES) + r")(?!\w)")


def offences(text: str, rel: str) -> list[str]:
    """Where a file names an old module path: in its text (strings, `python -m`, docs) or, for Python, in an
    import of a moved module as a name (`from reacthuman import graph`) or of an old module's names."""
    found = [f"{rel}: {m.group(0)}" for m in OLD_PATTERN.finditer(text)]
    if not rel.endswith(".py"):
        return found
    current = module_of(rel)
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module or ""
        if node.level and current:
            base = current.split(".")[: None if rel.endswith("__init__.py") else -1]
            module = ".".join(base[: len(base) - node.level + 1] + ([module] if module else []))
        for alias in node.names:
            if f"{module}.{alias.name}" in OLD_MODULES or alias.name in OLD_NAMES.get(module, ()):
                found.append(f"{rel}:{node.lineno}: from {module} import {alias.name}")
    return found


def test_the_aliases_are_found() -> None:
    expected = {"reacthuman.control", "reacthuman.control.spine", "reacthuman.graph", "reacthuman.bench"}
    assert expected <= set(OLD_MODULES)
    assert {"Plan", "Action", "Keyframe"} <= OLD_NAMES["reacthuman.plan"]


MODULE_ALIASES = [
    ("reacthuman.control.spine", "reacthuman.spine.spine"),
    ("reacthuman.graph", "reacthuman.ros_contract"),
    ("reacthuman.scoring.aggregate", "reacthuman.reporting.aggregate"),
]


@pytest.mark.parametrize("old, new", MODULE_ALIASES)
def test_an_old_module_path_warns_and_yields_the_new_module(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:  # (its package's own alias may warn too)
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    said = [str(w.message) for w in caught if w.category is DeprecationWarning]
    assert f"{old} is a deprecated import path: import {new}" in said
    assert module is importlib.import_module(new)
    assert sys.modules[old] is module


def test_an_old_package_path_warns_and_its_modules_and_names_are_the_new_ones() -> None:
    sys.modules.pop("reacthuman.control", None)
    with pytest.warns(DeprecationWarning, match="reacthuman.control is a deprecated import path"):
        from reacthuman.control import watchdog
    assert watchdog is importlib.import_module("reacthuman.spine.watchdog")
    new_package = importlib.import_module("reacthuman.spine")
    assert importlib.import_module("reacthuman.control").watchdog is new_package.watchdog


def test_the_old_plan_modules_names_warn_and_are_the_new_ones() -> None:
    from reacthuman.plan import plan

    with pytest.warns(DeprecationWarning, match=r"reacthuman\.plan\.Plan is a deprecated import path"):
        from reacthuman.plan import Plan
    assert Plan is plan.Plan
    with pytest.raises(ImportError):
        from reacthuman.plan import no_such_name  # noqa: F401


def test_a_new_path_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in ("reacthuman.spine.spine", "reacthuman.plan.classifier", "reacthuman.ros_contract"):
            importlib.import_module(name)


def test_every_alias_stands_for_a_module_file_that_exists() -> None:
    missing = []
    for rel, (_, target, _) in ALIASES.items():
        parts = target.split(".")
        parts = parts[1:] if parts[:2] in (["reacthuman", "nodes"], ["reacthuman", "sim_bridge"]) else parts
        base = ROOT.joinpath(*parts)
        if not (base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()):
            missing.append(f"{rel} -> {target}")
    assert missing == []


def test_nothing_in_the_repository_uses_an_old_path() -> None:
    found = []
    for path in repository_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel in ALIASES or path.name in HISTORY or path == Path(__file__).resolve():
            continue
        found += offences(TABLE.sub("", path.read_text(encoding="utf-8")), rel)
    assert found == [], "old import paths (use the new ones of docs/architecture.md): " + "; ".join(found)


def test_the_finder_names_each_kind_of_old_path() -> None:
    text = (
        "from reacthuman import graph\nfrom reacthuman.plan import Plan\nfrom .. import graph as g\n"
        "from reacthuman.spine import spine\nCOMMAND = 'python -m reacthuman.demo'\n"
    )
    assert offences(text, "reacthuman/core/probe.py") == [
        "reacthuman/core/probe.py: reacthuman.demo",
        "reacthuman/core/probe.py:1: from reacthuman import graph",
        "reacthuman/core/probe.py:2: from reacthuman.plan import Plan",
        "reacthuman/core/probe.py:3: from reacthuman import graph",
    ]
