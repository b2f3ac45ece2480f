"""The physics engine adapter: one interface that Genesis and MuJoCo both implement, nothing more.

An engine holds one world: the scene (room + hazards, one MJCF string) and one robot (an MJCF file placed
at a start pose). Everything the body needs goes through this interface, so an engine adds nothing the
other lacks. Bodies are addressed by their MJCF names; the robot's joints by the names the caller lists.
"""

from __future__ import annotations

import abc
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from reacthuman.core.config import config_with
import importlib

PHYSICS_RATE_HZ = 240.0


@dataclass(frozen=True)
class CameraSpec:
    """A pinhole camera looking from pos_m at lookat_m (world frame), vertical field of view fov_deg."""

    name: str
    pos_m: tuple[float, float, float]
    lookat_m: tuple[float, float, float]
    fov_deg: float
    width_px: int
    height_px: int

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("CameraSpec.name must not be empty")
        if not 1.0 <= self.fov_deg <= 170.0:
            raise ValueError(f"CameraSpec.fov_deg must be in [1, 170], got {self.fov_deg}")
        if self.width_px < 16 or self.height_px < 16:
            raise ValueError(f"CameraSpec size must be at least 16x16, got {self.width_px}x{self.height_px}")
        if math.dist(self.pos_m, self.lookat_m) < 1e-6:
            raise ValueError(f"CameraSpec '{self.name}': pos_m and lookat_m coincide")


@dataclass(frozen=True)
class RobotSpec:
    """The robot to add: its MJCF file, its actuated joints in command order, and where it starts."""

    mjcf_path: Path
    joint_names: tuple[str, ...]
    base_pos_m: tuple[float, float, float]
    base_yaw_rad: float
    joint_pos_rad: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.joint_pos_rad) != len(self.joint_names):
            raise ValueError(
                f"RobotSpec.joint_pos_rad has {len(self.joint_pos_rad)} entries for {len(self.joint_names)} joints"
            )
        if not Path(self.mjcf_path).is_file():
            raise ValueError(f"RobotSpec.mjcf_path does not exist: {self.mjcf_path}")

    def base_quat_wxyz(self) -> tuple[float, float, float, float]:
        half = 0.5 * self.base_yaw_rad
        return (math.cos(half), 0.0, 0.0, math.sin(half))


@dataclass(frozen=True)
class BodyState:
    """A rigid body's frame in the world: origin, orientation (w, x, y, z), linear and angular velocity."""

    pos_m: np.ndarray
    quat_wxyz: np.ndarray
    lin_vel_mps: np.ndarray
    ang_vel_radps: np.ndarray


@dataclass(frozen=True)
class SimRobotState:
    """The robot's measured state, as an IMU and joint encoders would give it plus the true base pose.

    Velocities of the base are in the world frame except `gyro_radps` (body frame, what an IMU reports).
    `joint_pos_rad` / `joint_vel_radps` follow RobotSpec.joint_names.
    """

    base: BodyState
    gyro_radps: np.ndarray
    projected_gravity: np.ndarray
    joint_pos_rad: np.ndarray
    joint_vel_radps: np.ndarray


@dataclass(frozen=True)
class Contact:
    """One contact point between two bodies in the last step; force_n is the normal force magnitude."""

    body_a: str
    body_b: str
    position_m: tuple[float, float, float]
    force_n: float


@dataclass(frozen=True)
class EngineConfig:
    dt_s: float = 1.0 / PHYSICS_RATE_HZ
    # Offscreen rendering needs a buffer as large as the largest camera.
    max_render_width_px: int = 1280
    max_render_height_px: int = 720

    def __post_init__(self) -> None:
        if not 0.0 < self.dt_s <= 0.01:
            raise ValueError(f"EngineConfig.dt_s must be in (0, 0.01], got {self.dt_s}")
        if self.max_render_width_px < 16 or self.max_render_height_px < 16:
            raise ValueError("EngineConfig.max_render_width_px/max_render_height_px must be >= 16")


def default_config(**overrides: object) -> EngineConfig:
    """config/engine.yaml with `overrides` applied (a scene's own step: `default_config(dt_s=spec.dt_s)`)."""
    return config_with(EngineConfig, overrides)


class PhysicsEngine(abc.ABC):
    """One simulated world. Call build() once, then step/read/write; close() when done."""

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self._steps = 0

    # --- construction ---------------------------------------------------------------------------
    @classmethod
    def prepare(cls) -> None:
        """Import and initialise the engine's library, so that the first build() does not (default: nothing
        to do). Idempotent; called from whichever thread will build."""

    @abc.abstractmethod
    def build(self, world_mjcf: str, robot: RobotSpec | None, cameras: tuple[CameraSpec, ...]) -> None:
        """Load the world MJCF (its own floor included) and the robot at its start pose, zero velocity.

        robot None builds the world alone (the robot methods then raise): what ground truth is computed on."""

    # --- time -----------------------------------------------------------------------------------
    @property
    def dt_s(self) -> float:
        return self.config.dt_s

    @property
    def time_s(self) -> float:
        """Simulated time since build; counted in steps so it never drifts."""
        return self._steps * self.config.dt_s

    @property
    def steps(self) -> int:
        return self._steps

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            self._step_once()
            self._steps += 1

    @abc.abstractmethod
    def _step_once(self) -> None: ...

    # --- robot ----------------------------------------------------------------------------------
    @abc.abstractmethod
    def robot_state(self) -> SimRobotState: ...

    @abc.abstractmethod
    def set_joint_torques(self, torques_nm: np.ndarray) -> None:
        """Torques (RobotSpec.joint_names order) held for every following step until set again."""

    @abc.abstractmethod
    def torque_limits_nm(self) -> np.ndarray:
        """Per joint the largest torque its actuator gives (from the robot model), RobotSpec order."""

    @abc.abstractmethod
    def robot_body_names(self) -> tuple[str, ...]:
        """Names of the robot's bodies (links), in model order."""

    # --- bodies and contacts --------------------------------------------------------------------
    @abc.abstractmethod
    def body_state(self, name: str) -> BodyState: ...

    @abc.abstractmethod
    def body_mass_kg(self, name: str) -> float: ...

    @abc.abstractmethod
    def set_body_velocity(
        self,
        name: str,
        lin_vel_mps: tuple[float, float, float],
        ang_vel_radps: tuple[float, float, float],
        quat_wxyz: tuple[float, float, float, float] | None = None,
    ) -> None:
        """Set a free body's world-frame velocity (a scene's initial velocities: MJCF cannot carry them).

        The angular velocity is rotated into the body's frame (scenes.builders.to_body_frame) at `quat_wxyz`, the
        body's orientation as the scene states it, or when None at the orientation the simulator holds, which
        is the stated one rounded to its precision: a scene's initial velocities set from its spec are then those
        the labeller set, to the bit."""

    @abc.abstractmethod
    def set_hinge_rate(self, name: str, rate_radps: float) -> None:
        """Set the rate of the single hinge joint that moves body `name`."""

    @abc.abstractmethod
    def contacts(self, bodies: frozenset[str]) -> list[Contact]:
        """Contacts of the last step in which at least one side is one of `bodies`.

        Bodies with no name (a world's static geoms) are reported as "world".
        """

    # --- cameras ----------------------------------------------------------------------------------
    @abc.abstractmethod
    def set_camera_pose(
        self, name: str, pos_m: tuple[float, float, float], lookat_m: tuple[float, float, float]
    ) -> None: ...

    @abc.abstractmethod
    def render(self, name: str) -> np.ndarray:
        """The camera's current view: HxWx3 uint8 RGB."""

    def close(self) -> None:
        """Release renderers and contexts (some engines raise at interpreter exit otherwise)."""


EngineFactory = Callable[[EngineConfig], PhysicsEngine]
_REGISTRY: dict[str, EngineFactory] = {}


def register_engine(name: str, factory: EngineFactory) -> None:
    _REGISTRY[name] = factory


def engine_names() -> tuple[str, ...]:
    _load_builtin()
    return tuple(sorted(_REGISTRY))


def _engine_class(name: str) -> type[PhysicsEngine]:
    _load_builtin(name)
    if name not in _REGISTRY:
        raise ValueError(f"unknown physics engine '{name}' (one of: {', '.join(sorted(_BUILTIN))})")
    return _REGISTRY[name]


def make_engine(name: str, config: EngineConfig | None = None) -> PhysicsEngine:
    """The engine called `name` ("genesis" or "mujoco"); imports it only when asked (Genesis costs ~20 s)."""
    return _engine_class(name)(config or default_config())


def prepare_engine(name: str) -> None:
    """Import and initialise the engine called `name` ahead of its first scene (PhysicsEngine.prepare)."""
    _engine_class(name).prepare()


_BUILTIN = {"genesis": "reacthuman.sim_bridge.genesis_engine", "mujoco": "reacthuman.sim_bridge.mujoco_engine"}


def _load_builtin(name: str | None = None) -> None:
    for engine_name, module in _BUILTIN.items():
        if (name is None or name == engine_name) and engine_name not in _REGISTRY:
            importlib.import_module(module)


# --- small geometry shared by both engines ---------------------------------------------------------
def quat_rotate_wxyz(quat_wxyz: np.ndarray, v: np.ndarray) -> np.ndarray:
    # v' = v + 2 u x (u x v + w v), u = (x, y, z); written out: np.cross costs ~0.1 ms per call
    w, x, y, z = (float(c) for c in quat_wxyz)
    a, b, c = (float(e) for e in v)
    tx, ty, tz = y * c - z * b + w * a, z * a - x * c + w * b, x * b - y * a + w * c
    return np.array([a + 2.0 * (y * tz - z * ty), b + 2.0 * (z * tx - x * tz), c + 2.0 * (x * ty - y * tx)])


def quat_rotate_inverse_wxyz(quat_wxyz: np.ndarray, v: np.ndarray) -> np.ndarray:
    w, x, y, z = (float(c) for c in quat_wxyz)
    return quat_rotate_wxyz(np.array([w, -x, -y, -z]), v)


GRAVITY_DIR = np.array([0.0, 0.0, -1.0])
