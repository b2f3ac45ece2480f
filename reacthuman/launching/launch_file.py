"""Reads the ROS 2 YAML launch format (the subset this project uses: `arg`, `node` with pkg, exec, name,
namespace, param, remap, on_exit, respawn) into plain node specs, substituting `$(var name)`.

A `.launch.py` file is accepted too when it names its YAML in a module-level LAUNCH_YAML constant: the
Python file cannot be executed here (no `launch` package), and the graph is listed only in the YAML.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

_VAR = re.compile(r"\$\(var ([A-Za-z_][A-Za-z0-9_]*)\)")
_NODE_KEYS = {"pkg", "exec", "name", "namespace", "param", "remap", "on_exit", "output", "args", "respawn"}


class LaunchFileError(ValueError):
    pass


@dataclass(frozen=True)
class NodeSpec:
    package: str
    executable: str
    name: str
    namespace: str = ""
    params: tuple[tuple[str, object], ...] = ()
    remaps: tuple[tuple[str, str], ...] = ()
    shutdown_on_exit: bool = False  # on_exit: shutdown -> its normal exit ends the whole run cleanly
    extra_args: tuple[str, ...] = ()
    respawn: bool = False  # respawn: true -> started again whenever it exits (ROS 2 launch's attribute)

    def ros_args(self) -> list[str]:
        args = ["--ros-args", "-r", f"__node:={self.name}"]
        if self.namespace:
            args += ["-r", f"__ns:={self.namespace}"]
        for key, value in self.params:
            args += ["-p", f"{key}:={_param_text(value)}"]
        for src, dst in self.remaps:
            args += ["-r", f"{src}:={dst}"]
        return list(self.extra_args) + args


@dataclass
class LaunchDescriptionSpec:
    path: Path
    args: dict[str, str] = field(default_factory=dict)
    nodes: list[NodeSpec] = field(default_factory=list)


def _param_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return text if text else "''"


def _substitute(value: object, args: dict[str, str], where: str) -> object:
    if not isinstance(value, str):
        return value

    def repl(m: re.Match) -> str:
        if m.group(1) not in args:
            raise LaunchFileError(f"{where}: unknown launch argument '$(var {m.group(1)})'")
        return args[m.group(1)]

    return _VAR.sub(repl, value)


def _yaml_of_python_launch(path: Path) -> Path:
    tree = ast.parse(path.read_text(), str(path))
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(getattr(t, "id", "") == "LAUNCH_YAML" for t in stmt.targets):
            return path.with_name(ast.literal_eval(stmt.value))
    raise LaunchFileError(f"{path}: a .launch.py file must name its YAML graph in LAUNCH_YAML")


def load(path: Path, overrides: dict[str, str] | None = None) -> LaunchDescriptionSpec:
    path = Path(path)
    if not path.is_file():
        raise LaunchFileError(f"launch file not found: {path}")
    if path.suffix == ".py":
        path = _yaml_of_python_launch(path)
    try:
        doc = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise LaunchFileError(f"{path}: not valid YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("launch"), list):
        raise LaunchFileError(f"{path}: expected a top-level 'launch:' list")
    overrides = dict(overrides or {})
    spec = LaunchDescriptionSpec(path=path)
    for i, entry in enumerate(doc["launch"]):
        where = f"{path.name}: entry {i + 1}"
        if not isinstance(entry, dict) or len(entry) != 1:
            raise LaunchFileError(f"{where}: each entry must be a single 'arg:' or 'node:' mapping")
        kind, body = next(iter(entry.items()))
        if kind == "arg":
            name = body.get("name")
            if not name:
                raise LaunchFileError(f"{where}: arg without a name")
            if name in overrides:
                spec.args[name] = overrides.pop(name)
            elif "default" in body:
                spec.args[name] = str(body["default"])
            else:
                raise LaunchFileError(f"launch argument '{name}' has no default and was not given (use {name}:=VALUE)")
        elif kind == "node":
            spec.nodes.append(_node(body, spec.args, where))
        else:
            raise LaunchFileError(f"{where}: unsupported launch entry '{kind}' (this launcher reads arg and node)")
    if overrides:
        raise LaunchFileError(
            f"unknown launch argument(s): {', '.join(sorted(overrides))} (declared: {', '.join(spec.args)})"
        )
    return spec


def _node(body: dict, args: dict[str, str], where: str) -> NodeSpec:
    unknown = set(body) - _NODE_KEYS
    if unknown:
        raise LaunchFileError(f"{where}: unsupported node attribute(s) {', '.join(sorted(unknown))}")
    for key in ("pkg", "exec"):
        if key not in body:
            raise LaunchFileError(f"{where}: node without '{key}'")
    params = tuple((p["name"], _typed(_substitute(p["value"], args, where))) for p in body.get("param", []))
    remaps = tuple(
        (str(_substitute(r["from"], args, where)), str(_substitute(r["to"], args, where)))
        for r in body.get("remap", [])
    )
    return NodeSpec(
        package=body["pkg"],
        executable=body["exec"],
        name=body.get("name", body["exec"]),
        namespace=str(_substitute(body.get("namespace", ""), args, where)),
        params=params,
        remaps=remaps,
        shutdown_on_exit=body.get("on_exit") == "shutdown",
        extra_args=tuple(str(_substitute(body.get("args", ""), args, where)).split()),
        respawn=_flag(_typed(_substitute(body.get("respawn", False), args, where)), "respawn", where),
    )


def _flag(value: object, key: str, where: str) -> bool:
    if not isinstance(value, bool):
        raise LaunchFileError(f"{where}: '{key}' must be true or false, got {value!r}")
    return value


def _typed(value: object) -> object:
    """A substituted string parses like a ROS parameter value: 'true' -> bool, '0.6' -> float."""
    if isinstance(value, str) and value:
        parsed = yaml.safe_load(value)
        if isinstance(parsed, (bool, int, float)):
            return parsed
    return value
