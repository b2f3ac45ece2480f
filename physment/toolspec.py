"""The paper's 26 tools (`answer` among them) and this project's `reset_sim`: names, arguments, descriptions
(with units and frames), and argument checking.

One table serves the prompt's API listing, the JSON schemas for native tool calling, and validation, so the
three never disagree."""

from __future__ import annotations

import dataclasses
import math

from physment.lab import LabError, normalize_object_id, vector3


@dataclasses.dataclass(frozen=True)
class Arg:
    name: str
    kind: str  # object_id | number | vector3 | bool | string | quat | rgba | sizes | any
    doc: str
    required: bool = True


@dataclasses.dataclass(frozen=True)
class ToolSpec:
    name: str
    doc: str
    args: tuple[Arg, ...] = ()


_OID = 'object id, e.g. 1 or "object_1"'
_MASS = Arg("mass", "number", "mass in kg to use in the formula")


def _o(name: str = "object_id") -> Arg:
    return Arg(name, "object_id", _OID)


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "step",
        "Advance the simulation by `duration` seconds of simulated time (rounded to whole "
        "timesteps). Returns the new simulation time in s.",
        (Arg("duration", "number", "seconds, 0-60"),),
    ),
    ToolSpec(
        "reset_sim",
        "Reset the scene to its initial state: time 0, initial poses and velocities, all "
        "applied forces and torques cleared, created objects removed, deleted objects restored.",
    ),
    ToolSpec(
        "apply_force",
        "Apply a force (N, world frame) at the object's centre of mass for `duration` "
        "seconds of simulated time (default: during the next step call only). The force stops by "
        "itself; it takes effect only when you step.",
        (
            _o(),
            Arg("force_vector", "vector3", "[Fx, Fy, Fz] in N, world frame"),
            Arg("duration", "number", "seconds the force lasts", required=False),
        ),
    ),
    ToolSpec(
        "apply_torque",
        "Apply a torque (N*m, world frame) to the object for `duration` seconds of "
        "simulated time (default: during the next step call only).",
        (
            _o(),
            Arg("torque_vector", "vector3", "[Tx, Ty, Tz] in N*m, world frame"),
            Arg("duration", "number", "seconds the torque lasts", required=False),
        ),
    ),
    ToolSpec(
        "get_velocity",
        "Linear velocity (m/s) of the object's origin and angular velocity (rad/s), world frame.",
        (_o(),),
    ),
    ToolSpec(
        "get_acceleration",
        "Linear (m/s^2) and angular (rad/s^2) acceleration at this instant, world "
        "frame, from the simulator's dynamics (a free-falling body reads the gravity vector).",
        (_o(),),
    ),
    ToolSpec(
        "get_position",
        "Position (m) of the object's origin and orientation quaternion [w, x, y, z], world frame.",
        (_o(),),
    ),
    ToolSpec(
        "get_displacement",
        "Displacement vector (m, world frame) from the object's starting position "
        "(its position at time 0, or where it was created) and its length.",
        (_o(),),
    ),
    ToolSpec(
        "get_parameters",
        "The object's attributes you are permitted to see (e.g. mass kg, shape, size m, density kg/m^3, friction).",
        (_o(),),
    ),
    ToolSpec(
        "get_torque",
        "Net torque (N*m, world frame) on the object about its centre of mass at this "
        "instant (rate of change of its spin angular momentum), and the torque you applied.",
        (_o(),),
    ),
    ToolSpec(
        "set_velocity",
        "Set the object's linear velocity (m/s, world frame); optional angular velocity "
        "(rad/s, world frame). Only for freely moving objects.",
        (
            _o(),
            Arg("velocity_vector", "vector3", "[vx, vy, vz] in m/s"),
            Arg("angular_velocity_vector", "vector3", "[wx, wy, wz] in rad/s", required=False),
        ),
    ),
    ToolSpec(
        "move_object",
        "Teleport the object's origin to (x, y, z) m in the world frame, keeping its orientation; it is left at rest.",
        (_o(), Arg("x", "number", "m"), Arg("y", "number", "m"), Arg("z", "number", "m")),
    ),
    ToolSpec(
        "change_position",
        "Move the object by (dx, dy, dz) m, in the world frame or, if "
        "in_world_frame is false, in the object's own frame; it is left at rest.",
        (
            _o(),
            Arg("dx", "number", "m"),
            Arg("dy", "number", "m"),
            Arg("dz", "number", "m"),
            Arg("in_world_frame", "bool", "true: world axes; false: object axes", required=False),
        ),
    ),
    ToolSpec(
        "detect_collision",
        "Whether the two objects are in contact now, with the number of contacts and the total normal force (N).",
        (_o("obj1_id"), _o("obj2_id")),
    ),
    ToolSpec("get_center_of_mass", "Centre of mass (m, world frame) and total mass (kg) of all known objects."),
    ToolSpec(
        "compute_force",
        "Net force F = m * a (N, world frame) on the object at this instant, using "
        "the given mass and the measured acceleration.",
        (_o(), _MASS),
    ),
    ToolSpec(
        "get_kinetic_energy",
        "Translational kinetic energy 0.5 * m * v^2 (J) of the object's centre of mass, using the given mass.",
        (_o(), _MASS),
    ),
    ToolSpec(
        "get_potential_energy",
        "Gravitational potential energy m * g * h (J), h = height (m) of the "
        "centre of mass above the origin along the up axis (against gravity); gravity is g in m/s^2 "
        "(default: the scene's).",
        (_o(), _MASS, Arg("gravity", "number", "m/s^2, positive", required=False)),
    ),
    ToolSpec(
        "get_rotational_energy",
        "Rotational kinetic energy 0.5 * w . (I w) (J) about the centre of "
        "mass, with the inertia tensor scaled to the given mass.",
        (_o(), _MASS),
    ),
    ToolSpec("get_momentum", "Linear momentum m * v (kg*m/s, world frame) of the centre of mass.", (_o(), _MASS)),
    ToolSpec(
        "get_angular_momentum",
        "Spin angular momentum I * w (kg*m^2/s, world frame) about the centre "
        "of mass, with the inertia tensor scaled to the given mass.",
        (_o(), _MASS),
    ),
    ToolSpec(
        "quat_to_rot_matrix",
        "Rotation matrix (3x3, rows) of a unit quaternion q = [w, x, y, z].",
        (Arg("q", "quat", "[w, x, y, z]"),),
    ),
    ToolSpec(
        "create_objects",
        "Create a new free object and return its object id. shape: sphere (size "
        "[radius]), box (size [half-x, half-y, half-z]) or cylinder (size [radius, half-height]); sizes "
        "in m; density in kg/m^3; pos in m, world frame.",
        (
            Arg("name", "string", "a label for the object"),
            Arg("pos", "vector3", "[x, y, z] in m"),
            Arg("density", "number", "kg/m^3"),
            Arg("rgba", "rgba", "[r, g, b, a] in 0-1", required=False),
            Arg("shape", "string", "sphere | box | cylinder (default sphere)", required=False),
            Arg("size", "sizes", "metres, see above (default [0.1])", required=False),
        ),
    ),
    ToolSpec("delete_objects", "Remove the object from the scene.", (_o(),)),
    ToolSpec(
        "find_objects", "List every object in the scene, including ones not in the initial list (this reveals them)."
    ),
    ToolSpec(
        "attach_objects",
        "Rigidly attach object2 to object1 at their current relative pose (a weld); they then move as one body.",
        (_o("object1_id"), _o("object2_id")),
    ),
    ToolSpec(
        "answer",
        "Submit your final answer and end the episode: a number, an object id, a short "
        "description, or a list of these.",
        (Arg("answer", "any", "your final answer"),),
    ),
)

TOOL_NAMES: tuple[str, ...] = tuple(t.name for t in TOOLS)
_BY_NAME = {t.name: t for t in TOOLS}


def tool_spec(name: str) -> ToolSpec:
    if name not in _BY_NAME:
        raise LabError(f"unknown tool {name!r} (one of: {', '.join(TOOL_NAMES)})")
    return _BY_NAME[name]


def _number(value: object, name: str) -> float:
    if isinstance(value, bool):
        raise LabError(f"{name} must be a number, got {value!r}")
    try:
        out = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise LabError(f"{name} must be a number, got {value!r}") from exc
    if not math.isfinite(out):
        raise LabError(f"{name} must be finite, got {value!r}")
    return out


def _convert(arg: Arg, value: object) -> object:
    if arg.kind == "object_id":
        return normalize_object_id(value)
    if arg.kind == "number":
        return _number(value, arg.name)
    if arg.kind == "vector3":
        return vector3(value, arg.name)
    if arg.kind == "bool":
        if isinstance(value, bool):
            return value
        if str(value).strip().lower() in ("true", "false"):
            return str(value).strip().lower() == "true"
        raise LabError(f"{arg.name} must be true or false, got {value!r}")
    if arg.kind in ("quat", "rgba"):
        if not isinstance(value, (list, tuple)) or len(value) != 4:
            raise LabError(f"{arg.name} must be a list of 4 numbers, got {value!r}")
        return [_number(v, arg.name) for v in value]
    if arg.kind == "sizes":
        if not isinstance(value, (list, tuple)):
            value = [value]
        return [_number(v, arg.name) for v in value]
    if arg.kind == "string":
        return str(value)
    return value


def check_args(name: str, arguments: object) -> dict[str, object]:
    """Validate and convert a call's arguments; raises LabError naming what was wrong."""
    spec = tool_spec(name)
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise LabError(f"{name}: arguments must be a JSON object, got {type(arguments).__name__}")
    known = {a.name for a in spec.args}
    extra = sorted(set(arguments) - known)
    if extra:
        raise LabError(f"{name}: unknown argument(s) {extra}; expected {sorted(known) or 'none'}")
    out: dict[str, object] = {}
    for arg in spec.args:
        if arg.name not in arguments or arguments[arg.name] is None:
            if arg.required:
                raise LabError(f"{name}: missing argument '{arg.name}' ({arg.doc})")
            continue
        out[arg.name] = _convert(arg, arguments[arg.name])
    return out


_JSON_TYPES = {
    "number": {"type": "number"},
    "bool": {"type": "boolean"},
    "string": {"type": "string", "maxLength": 40},
    "object_id": {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 16}]},
    "vector3": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3},
    "quat": {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4},
    "rgba": {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4},
    "sizes": {"type": "array", "items": {"type": "number"}, "minItems": 1, "maxItems": 3},
    # bounded, so a grammar-constrained small model cannot ramble inside an answer
    "any": {
        "anyOf": [
            {"type": "number"},
            {"type": "string", "maxLength": 60},
            {"type": "array", "items": {"type": "number"}, "maxItems": 8},
        ]
    },
}


def arguments_schema(spec: ToolSpec) -> dict:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {a.name: dict(_JSON_TYPES[a.kind], description=a.doc) for a in spec.args},
        "required": [a.name for a in spec.args if a.required],
    }


def call_schema(spec: ToolSpec) -> dict:
    """One call {"tool": name, "arguments": {...}} of this tool, fully typed."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["tool", "arguments"],
        "properties": {"tool": {"const": spec.name}, "arguments": arguments_schema(spec)},
    }


def tools_named(names: tuple[str, ...] | None = None) -> tuple[ToolSpec, ...]:
    """The specs of the named tools in the API's order (all of them for None)."""
    return TOOLS if names is None else tuple(t for t in TOOLS if t.name in names)


def openai_tools(names: tuple[str, ...] | None = None) -> list[dict]:
    """The tool list in the chat-completions `tools` format."""
    return [
        {"type": "function", "function": {"name": t.name, "description": t.doc, "parameters": arguments_schema(t)}}
        for t in tools_named(names)
    ]


def api_listing(brief: bool = False, names: tuple[str, ...] | None = None) -> str:
    """The tool API as prompt text, one tool per line (brief: signatures only, for small contexts)."""
    lines = []
    for t in tools_named(names):
        sig = ", ".join(a.name if a.required else f"{a.name}?" for a in t.args)
        lines.append(f"- {t.name}({sig})" + ("" if brief else f": {t.doc}"))
    return "\n".join(lines)
