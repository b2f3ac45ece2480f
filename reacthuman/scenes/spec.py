"""SceneSpec: everything needed to rebuild, simulate and label one ReactHuman scene.

Frames and units: one world frame, metres, seconds, kilograms, radians. z is up and the floor is the plane
z = 0; the observer stands on the floor at (observer.x_m, observer.y_m) facing yaw (0 = world +x), the
same Pose2D convention as reacthuman/plan/plan.py. Quaternions are (w, x, y, z). A body's `pos`/`quat` place its
frame in the world; its geoms are placed in the body frame. Velocities are world-frame (linear m/s,
angular rad/s). Joints (hinges) are expressed in the body frame (`pos`, `axis`).

The spec is plain data: the MJCF compiler (mjcf.py) and the simulator (genesis_sim.py) read nothing else, so
a spec file alone reproduces its scene. JSON round-trips exactly (floats are written with repr).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from reacthuman.plan.plan import Action, Pose2D

SCHEMA_VERSION = 1
SHAPES = ("box", "sphere", "cylinder", "capsule")
JOINT_KINDS = ("free", "hinge")
SPEED_BANDS = ("slow", "normal", "fast", "very_fast")
GRAVITY_BAND = "gravity"
PLANNER_PATHS = ("direct", "llm", "rule")
DEFAULT_DT_S = 1.0 / 240.0
DEFAULT_OBSERVATION_WINDOW_S = 0.6


def window_frame_times_s(window_s: float, frame_count: int) -> tuple[float, ...]:
    """When the observation window's frames are taken, in s after the event began: frame_count evenly spaced over
    [0, window_s], the last at the freeze. A single frame is the freeze's own: the observation always ends at the
    instant the decision is made (until 2026-12-04 one frame was taken at 0, and a brain reading the freeze time
    from it timed every plan a whole window late)."""
    if frame_count < 1:
        raise ValueError(f"frame_count must be >= 1, got {frame_count}")
    if frame_count == 1:
        return (window_s,)
    return tuple(window_s * i / (frame_count - 1) for i in range(frame_count))


class SpecError(ValueError):
    """A spec (or a part of one) is malformed; the message is one line naming the field."""


def _vec(name: str, value: Any, n: int) -> tuple[float, ...]:
    try:
        out = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise SpecError(f"{name} must be a list of {n} numbers, got {value!r}") from None
    if len(out) != n:
        raise SpecError(f"{name} must have {n} numbers, got {len(out)}")
    if not all(math.isfinite(v) for v in out):
        raise SpecError(f"{name} has a NaN or infinite number")
    return out


def _num(name: str, value: Any, lo: float | None = None, hi: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SpecError(f"{name} must be a finite number, got {value!r}")
    if lo is not None and value < lo:
        raise SpecError(f"{name} must be >= {lo}, got {value}")
    if hi is not None and value > hi:
        raise SpecError(f"{name} must be <= {hi}, got {value}")
    return float(value)


@dataclass(frozen=True)
class CameraSpec:
    name: str
    pos: tuple[float, float, float]
    lookat: tuple[float, float, float]
    fov_deg: float
    width: int = 1280
    height: int = 720

    def __post_init__(self) -> None:
        object.__setattr__(self, "pos", _vec(f"camera {self.name}.pos", self.pos, 3))
        object.__setattr__(self, "lookat", _vec(f"camera {self.name}.lookat", self.lookat, 3))
        _num(f"camera {self.name}.fov_deg", self.fov_deg, 5.0, 170.0)
        if int(self.width) < 8 or int(self.height) < 8:
            raise SpecError(f"camera {self.name} size must be at least 8x8, got {self.width}x{self.height}")


@dataclass(frozen=True)
class ObserverSpec:
    """Where the humanoid observer stands: world x, y (m), yaw (rad, 0 = facing world +x)."""

    x_m: float
    y_m: float
    yaw_rad: float

    def __post_init__(self) -> None:
        for f in fields(self):
            _num(f"observer.{f.name}", getattr(self, f.name))

    def pose(self) -> Pose2D:
        return Pose2D(self.x_m, self.y_m, self.yaw_rad)


@dataclass(frozen=True)
class GeomSpec:
    """One collision+visual shape. size follows MJCF: box half-extents (3), sphere (r), cylinder and
    capsule (r, half-length along the geom's z)."""

    shape: str
    size: tuple[float, ...]
    pos: tuple[float, float, float] = (0.0, 0.0, 0.0)
    quat: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 0.0)
    rgba: tuple[float, float, float, float] = (0.7, 0.7, 0.7, 1.0)
    name: str = ""

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise SpecError(f"geom shape must be one of {SHAPES}, got {self.shape!r}")
        n = {"box": 3, "sphere": 1, "cylinder": 2, "capsule": 2}[self.shape]
        size = _vec(f"geom {self.name or self.shape}.size", self.size, n)
        if min(size) <= 0:
            raise SpecError(f"geom {self.name or self.shape}.size must be positive, got {size}")
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "pos", _vec("geom.pos", self.pos, 3))
        object.__setattr__(self, "quat", _vec("geom.quat", self.quat, 4))
        object.__setattr__(self, "rgba", _vec("geom.rgba", self.rgba, 4))


@dataclass(frozen=True)
class JointSpec:
    kind: str  # "free" or "hinge"
    axis: tuple[float, float, float] = (0.0, 0.0, 1.0)
    pos: tuple[float, float, float] = (0.0, 0.0, 0.0)
    damping: float = 0.0
    initial_rate: float = 0.0  # hinge angular velocity at t = 0 (rad/s)

    def __post_init__(self) -> None:
        if self.kind not in JOINT_KINDS:
            raise SpecError(f"joint kind must be one of {JOINT_KINDS}, got {self.kind!r}")
        object.__setattr__(self, "axis", _vec("joint.axis", self.axis, 3))
        object.__setattr__(self, "pos", _vec("joint.pos", self.pos, 3))
        _num("joint.damping", self.damping, 0.0)
        _num("joint.initial_rate", self.initial_rate)


@dataclass(frozen=True)
class VisualMeshSpec:
    """What a body looks like: a textured model from an installed furniture catalogue, drawn over the
    body's collision geoms (which stay the physics; the mesh has no mass and no contacts).

    Provenance: `package` (Debian), `archive` (.sh3f file) and `member` (the OBJ inside it) locate the
    model; `catalog_id`, `name`, `creator` and `licence` are the catalogue's. Placement in the body frame:
    the model is turned from its Y-up file frame to Z-up (after the catalogue's `model_rotation`), stretched
    to its real catalogue size `size_m` (width x, depth y, height z), centred on the origin, turned by
    `quat`, scaled uniformly by `scale` (to the body's physical size) and moved to `pos`."""

    package: str
    archive: str
    member: str
    catalog_id: str
    name: str
    licence: str
    creator: str
    size_m: tuple[float, float, float]
    model_rotation: tuple[float, ...] = ()
    quat: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 0.0)
    scale: float = 1.0
    pos: tuple[float, float, float] = (0.0, 0.0, 0.0)
    # Room furniture fitted to a support box: per-axis factors along the model's own (turned Z-up) axes,
    # applied by the MJCF mesh's scale (not baked into the cached files); objects keep (1, 1, 1).
    stretch: tuple[float, float, float] = (1.0, 1.0, 1.0)

    def __post_init__(self) -> None:
        for name in ("package", "archive", "member"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise SpecError(f"visual mesh {name} must be a non-empty string, got {getattr(self, name)!r}")
        size = _vec("visual mesh size_m", self.size_m, 3)
        if min(size) <= 0:
            raise SpecError(f"visual mesh size_m must be positive, got {size}")
        object.__setattr__(self, "size_m", size)
        if self.model_rotation:
            object.__setattr__(self, "model_rotation", _vec("visual mesh model_rotation", self.model_rotation, 9))
        object.__setattr__(self, "quat", _vec("visual mesh quat", self.quat, 4))
        object.__setattr__(self, "pos", _vec("visual mesh pos", self.pos, 3))
        _num("visual mesh scale", self.scale, 1e-3, 1e3)
        stretch = _vec("visual mesh stretch", self.stretch, 3)
        if min(stretch) < 0.05 or max(stretch) > 20.0:
            raise SpecError(f"visual mesh stretch must be within [0.05, 20] on each axis, got {stretch}")
        object.__setattr__(self, "stretch", stretch)


@dataclass(frozen=True)
class SourcedObjectSpec:
    """An object the library lacks, sourced from an installed catalogue (sourcing.py): the whole object
    entry, so the spec alone labels the scene without the catalogue lookup. `sourced` is
    `<package>/<archive>/<member>` of the mesh it was sized from; `noun` the description's word for it."""

    object_id: str
    name: str
    noun: str
    shape: str
    size: tuple[float, ...]
    mass_kg: float
    material: str
    sourced: str
    catalog_id: str = ""
    graspable: bool = True
    sharp: bool = False
    hot: bool = False
    shattering: bool = False

    def __post_init__(self) -> None:
        if not self.object_id.startswith("sourced_"):
            raise SpecError(f"sourced_object.object_id must start with 'sourced_', got {self.object_id!r}")
        if self.shape not in SHAPES:
            raise SpecError(f"sourced_object.shape must be one of {SHAPES}, got {self.shape!r}")
        size = _vec("sourced_object.size", self.size, {"box": 3, "sphere": 1, "cylinder": 2, "capsule": 2}[self.shape])
        if min(size) <= 0:
            raise SpecError(f"sourced_object.size must be positive, got {size}")
        object.__setattr__(self, "size", size)
        _num("sourced_object.mass_kg", self.mass_kg, 1e-6)
        if not isinstance(self.sourced, str) or not self.sourced:
            raise SpecError(f"sourced_object.sourced must be a non-empty string, got {self.sourced!r}")


@dataclass(frozen=True)
class BodySpec:
    """A rigid body. joint None: welded to the world (room, furniture). mass_kg applies to moving bodies and
    is spread over the geoms by volume; friction (sliding coefficient) and restitution apply to all geoms."""

    name: str
    pos: tuple[float, float, float]
    geoms: tuple[GeomSpec, ...]
    quat: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 0.0)
    joint: JointSpec | None = None
    mass_kg: float | None = None
    friction: float = 0.8
    restitution: float = 0.0
    lin_vel: tuple[float, float, float] = (0.0, 0.0, 0.0)
    ang_vel: tuple[float, float, float] = (0.0, 0.0, 0.0)
    role: str = "static"  # static | support | hazard | trigger | prop
    object_id: str = ""
    visual: VisualMeshSpec | None = None  # None: the geoms are drawn as they are

    def __post_init__(self) -> None:
        if not self.name or not all(c.isalnum() or c in "_-" for c in self.name):
            raise SpecError(f"body name must be non-empty [A-Za-z0-9_-], got {self.name!r}")
        object.__setattr__(self, "pos", _vec(f"body {self.name}.pos", self.pos, 3))
        object.__setattr__(self, "quat", _vec(f"body {self.name}.quat", self.quat, 4))
        object.__setattr__(self, "lin_vel", _vec(f"body {self.name}.lin_vel", self.lin_vel, 3))
        object.__setattr__(self, "ang_vel", _vec(f"body {self.name}.ang_vel", self.ang_vel, 3))
        if not self.geoms:
            raise SpecError(f"body {self.name} has no geoms")
        if self.joint is not None and (self.mass_kg is None or self.mass_kg <= 0):
            raise SpecError(f"body {self.name} moves, so mass_kg must be positive, got {self.mass_kg}")
        _num(f"body {self.name}.friction", self.friction, 0.0, 5.0)
        _num(f"body {self.name}.restitution", self.restitution, 0.0, 1.0)

    @property
    def dynamic(self) -> bool:
        return self.joint is not None


@dataclass(frozen=True)
class LightSpec:
    pos: tuple[float, float, float]
    dir: tuple[float, float, float]
    color: tuple[float, float, float] = (1.0, 1.0, 1.0)
    intensity: float = 1.0


@dataclass(frozen=True)
class GroundTruth:
    correct_action: str
    dangerous: bool
    impact_point: tuple[float, float, float] | None
    time_to_floor_s: float | None
    speed_band: str
    adversarial: bool
    impact_time_s: float | None = None
    impact_speed_mps: float | None = None
    peak_speed_mps: float = 0.0
    reasons: tuple[str, ...] = ()
    track_sha256: str = ""  # digest of the simulated track: validate re-simulates and compares it bit for bit
    # Whether the G1 (scenes.envelope) can carry the correct action out against the simulated path, and how
    # (label.body_verdict). None: labelled before the path was judged.
    body_reachable: bool | None = None
    body_reach_reason: str = ""
    intercept_point: tuple[float, float, float] | None = None  # CATCH: world frame, where the hands first meet it
    intercept_time_s: float | None = None  # ... seconds after t0
    clear_step: tuple[float, float] | None = None  # DODGE: unit step direction in the observer's frame; (0, 0): stay

    def __post_init__(self) -> None:
        if self.correct_action not in {a.value for a in Action}:
            raise SpecError(
                f"ground_truth.correct_action must be CATCH, DODGE or NO_ACTION, got {self.correct_action!r}"
            )
        if self.impact_point is not None:
            object.__setattr__(self, "impact_point", _vec("ground_truth.impact_point", self.impact_point, 3))
        if self.intercept_point is not None:
            object.__setattr__(self, "intercept_point", _vec("ground_truth.intercept_point", self.intercept_point, 3))
        if self.clear_step is not None:
            object.__setattr__(self, "clear_step", _vec("ground_truth.clear_step", self.clear_step, 2))


@dataclass(frozen=True)
class SceneSpec:
    scene_id: str
    family: str
    object_id: str
    room: str
    seed: int
    speed_band: str
    speed_group: str | None
    adversarial: bool
    observer: ObserverSpec
    hazard_bodies: tuple[str, ...]
    cameras: tuple[CameraSpec, ...]
    bodies: tuple[BodySpec, ...]
    lights: tuple[LightSpec, ...] = ()
    # Room furniture drawn in the world frame (rooms.furnish): visual only, no contacts and no mass.
    furnishings: tuple[VisualMeshSpec, ...] = ()
    # Static bodies a furnishing draws (the family's table or counter): their boxes go to the hidden group.
    dressed_bodies: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)  # family parameters, for reading (not re-read)
    t0_s: float = 0.0
    observation_window_s: float = DEFAULT_OBSERVATION_WINDOW_S
    dt_s: float = DEFAULT_DT_S
    duration_s: float = 3.0
    planner: str = "direct"
    description: str = ""
    ground_truth: GroundTruth | None = None
    schema_version: int = SCHEMA_VERSION
    sourced_object: SourcedObjectSpec | None = None  # the object when the library lacks it (sourcing.py)

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise SpecError(f"seed must be a non-negative integer, got {self.seed!r}")
        if self.speed_band not in SPEED_BANDS + (GRAVITY_BAND,):
            raise SpecError(f"speed_band must be one of {SPEED_BANDS + (GRAVITY_BAND,)}, got {self.speed_band!r}")
        if self.planner not in PLANNER_PATHS:
            raise SpecError(f"planner must be one of {PLANNER_PATHS}, got {self.planner!r}")
        names = [b.name for b in self.bodies]
        if len(set(names)) != len(names):
            raise SpecError("body names must be unique")
        static = {b.name for b in self.bodies if not b.dynamic}
        for d in self.dressed_bodies:
            if d not in static:
                raise SpecError(f"dressed_bodies names {d!r}, which is not a static body of the scene")
        for h in self.hazard_bodies:
            if h not in names:
                raise SpecError(f"hazard body {h!r} is not among the bodies")
            if not self.body(h).dynamic:
                raise SpecError(f"hazard body {h!r} must have a joint")
        if not self.hazard_bodies:
            raise SpecError("hazard_bodies is empty")
        if {c.name for c in self.cameras} != {"egocentric", "closeup", "overhead"}:
            raise SpecError("cameras must be exactly egocentric, closeup and overhead")
        _num("t0_s", self.t0_s, 0.0)
        _num("observation_window_s", self.observation_window_s, 0.05, 5.0)
        _num("dt_s", self.dt_s, 1e-4, 0.05)
        _num("duration_s", self.duration_s, self.t0_s + self.observation_window_s, 30.0)
        if self.sourced_object is not None:
            if self.sourced_object.object_id != self.object_id:
                raise SpecError(
                    f"sourced_object.object_id {self.sourced_object.object_id!r} is not the spec's "
                    f"object_id {self.object_id!r}"
                )

    # ---- access ------------------------------------------------------------------------------------
    def body(self, name: str) -> BodySpec:
        for b in self.bodies:
            if b.name == name:
                return b
        raise KeyError(name)

    @property
    def hazard(self) -> BodySpec:
        """The primary hazard body (the one the observer must react to)."""
        return self.body(self.hazard_bodies[0])

    def camera(self, name: str) -> CameraSpec:
        for c in self.cameras:
            if c.name == name:
                return c
        raise KeyError(name)

    @property
    def n_steps(self) -> int:
        return int(round(self.duration_s / self.dt_s))

    def with_ground_truth(self, gt: GroundTruth) -> "SceneSpec":
        return _replace(self, ground_truth=gt)

    # ---- JSON --------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = _plain(asdict(self))
        if data["sourced_object"] is None:  # library objects: the same JSON as before sourcing existed
            del data["sourced_object"]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, sort_keys=True)

    @staticmethod
    def from_dict(data: Any) -> "SceneSpec":
        return _spec_from_dict(data)

    @staticmethod
    def from_json(text: str) -> "SceneSpec":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SpecError(f"spec is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
        return _spec_from_dict(data)


def _replace(spec: SceneSpec, **changes: Any) -> SceneSpec:
    return replace(spec, **changes)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _build(cls: type, data: Any, where: str, nested: dict[str, Any] | None = None) -> Any:
    if not isinstance(data, dict):
        raise SpecError(f"{where} must be an object, got {type(data).__name__}")
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SpecError(f"{where} has unknown field(s): {', '.join(unknown)}")
    kwargs = dict(data)
    for key, conv in (nested or {}).items():
        if key in kwargs and kwargs[key] is not None:
            kwargs[key] = conv(kwargs[key])
    for key, value in kwargs.items():
        if isinstance(value, list):
            kwargs[key] = tuple(value)
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise SpecError(f"{where}: {exc}") from None


def _items(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list):
        raise SpecError(f"{where} must be a list")
    return data


def body_from_dict(data: Any) -> BodySpec:
    """One body of a spec's JSON (SpecError naming the field when malformed)."""
    name = data.get("name", "?") if isinstance(data, dict) else "?"
    geoms = lambda v: tuple(_build(GeomSpec, g, f"body {name} geom") for g in _items(v, f"body {name}.geoms"))
    joint = lambda v: _build(JointSpec, v, f"body {name}.joint")
    visual = lambda v: _build(VisualMeshSpec, v, f"body {name}.visual")
    return _build(BodySpec, data, f"body {name}", {"geoms": geoms, "joint": joint, "visual": visual})


def _spec_from_dict(data: Any) -> SceneSpec:
    if not isinstance(data, dict):
        raise SpecError("spec must be a JSON object")
    version = data.get("schema_version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise SpecError(f"spec schema_version {version} is not supported (this build reads {SCHEMA_VERSION})")
    nested = {
        "observer": lambda v: _build(ObserverSpec, v, "observer"),
        "cameras": lambda v: tuple(_build(CameraSpec, c, "camera") for c in _items(v, "cameras")),
        "bodies": lambda v: tuple(body_from_dict(b) for b in _items(v, "bodies")),
        "lights": lambda v: tuple(_build(LightSpec, x, "light") for x in _items(v, "lights")),
        "furnishings": lambda v: tuple(_build(VisualMeshSpec, x, "furnishing") for x in _items(v, "furnishings")),
        "ground_truth": lambda v: _build(GroundTruth, v, "ground_truth"),
        "sourced_object": lambda v: _build(SourcedObjectSpec, v, "sourced_object"),
    }
    if not isinstance(data.get("params", {}), dict):
        raise SpecError("params must be an object")
    required = (
        "scene_id",
        "family",
        "object_id",
        "room",
        "seed",
        "speed_band",
        "observer",
        "hazard_bodies",
        "cameras",
        "bodies",
    )
    absent = [k for k in required if k not in data]
    if absent:
        raise SpecError(f"spec is missing field(s): {', '.join(absent)}")
    return _build(SceneSpec, data, "spec", nested)
