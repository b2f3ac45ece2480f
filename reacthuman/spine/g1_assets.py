"""The Unitree G1 model and its walking policy, located in their installed packages at run time.

Nothing here is copied into the repository: the MJCF comes from the `holosoma` package, the policy and its
configuration from `holosoma-inference`. Their modules are never imported (their declared dependencies are
not installed); the configuration values they ship as Python literals are read with `ast`.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reacthuman.core.atomic import atomic_write_bytes

if TYPE_CHECKING:
    import mujoco

# The 29 actuated joints, in the policy's dof_names order (also the order of the MJCF's joints after the
# free base, and of Unitree's LowCmd motor indices for the G1 29-DOF).
G1_JOINT_NAMES: tuple[str, ...] = (
    "left_hip_pitch_joint",
    "left_hip_roll_joint",
    "left_hip_yaw_joint",
    "left_knee_joint",
    "left_ankle_pitch_joint",
    "left_ankle_roll_joint",
    "right_hip_pitch_joint",
    "right_hip_roll_joint",
    "right_hip_yaw_joint",
    "right_knee_joint",
    "right_ankle_pitch_joint",
    "right_ankle_roll_joint",
    "waist_yaw_joint",
    "waist_roll_joint",
    "waist_pitch_joint",
    "left_shoulder_pitch_joint",
    "left_shoulder_roll_joint",
    "left_shoulder_yaw_joint",
    "left_elbow_joint",
    "left_wrist_roll_joint",
    "left_wrist_pitch_joint",
    "left_wrist_yaw_joint",
    "right_shoulder_pitch_joint",
    "right_shoulder_roll_joint",
    "right_shoulder_yaw_joint",
    "right_elbow_joint",
    "right_wrist_roll_joint",
    "right_wrist_pitch_joint",
    "right_wrist_yaw_joint",
)

# MJCF sites that stand for the hands (palm centre, 8 cm past the wrist yaw joint).
LEFT_HAND_SITE = "left_palm"
RIGHT_HAND_SITE = "right_palm"
BASE_BODY = "pelvis"

# Bump when the derivation below changes, so stale cached files are not reused.
_DERIVATION_VERSION = "1"


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"package '{name}' is not installed (tools/bootstrap.sh installs it)")
    return Path(spec.origin).parent


def holosoma_g1_source() -> Path:
    """The G1 29-DOF MJCF as shipped by the installed holosoma package (not loadable alone)."""
    path = _package_dir("holosoma") / "data" / "robots" / "g1" / "g1_29dof.xml"
    if not path.is_file():
        raise RuntimeError(f"the installed holosoma package lacks {path}")
    return path


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "reacthuman"


def _derive_mjcf(source: Path) -> bytes:
    """Drop the contact pairs naming a floor the file lacks; make meshdir absolute."""
    tree = ET.parse(source)
    root = tree.getroot()
    for contact in root.findall("contact"):
        for pair in list(contact.findall("pair")):
            if "floor" in (pair.get("geom1"), pair.get("geom2")):
                contact.remove(pair)
        if len(contact) == 0:
            root.remove(contact)
    compiler = root.find("compiler")
    if compiler is None:
        compiler = ET.SubElement(root, "compiler")
    meshdir = (source.parent / compiler.get("meshdir", ".")).resolve()
    compiler.set("meshdir", str(meshdir) + os.sep)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def g1_mjcf_path(cache_dir: Path | None = None) -> Path:
    """A loadable G1 MJCF (MuJoCo and Genesis), derived once per source file into a cache folder."""
    source = holosoma_g1_source()
    key = hashlib.sha256(source.read_bytes() + str(source.parent).encode() + _DERIVATION_VERSION.encode())
    folder = (cache_dir or _cache_root()) / "g1"
    target = folder / f"g1_29dof-{key.hexdigest()[:16]}.xml"
    if target.is_file():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    data = _derive_mjcf(source)
    return atomic_write_bytes(target, data)  # concurrent callers see the old state or the whole file


# holosoma-inference's two G1 29-DOF walking policies: PPO (the default) and FastSAC, trained for the same task
# (the package's `locomotion` and `safety_locomotion_g1` configs: 50 Hz, action scale 0.25, 1 s gait) with the same
# observation, so either drives the same spine. docs/spine-and-body.md, "The other walking policy: FastSAC",
# compares them.
WALKING_POLICIES: tuple[str, ...] = ("ppo_g1_29dof", "fastsac_g1_29dof")
DEFAULT_WALKING_POLICY = WALKING_POLICIES[0]


def check_walking_policy(name: str, field: str = "walking_policy") -> str:
    """`name` if it is one of WALKING_POLICIES; else a one-line error naming `field` (a config field, a flag)."""
    if name not in WALKING_POLICIES:
        raise ValueError(f"{field} must be one of {', '.join(WALKING_POLICIES)}, got {name!r}")
    return name


def policy_path(name: str = DEFAULT_WALKING_POLICY) -> Path:
    """holosoma-inference's locomotion policy `name` for the G1 29-DOF (ONNX)."""
    path = _package_dir("holosoma_inference") / "models" / "loco" / "g1_29dof" / f"{check_walking_policy(name)}.onnx"
    if not path.is_file():
        raise RuntimeError(f"the installed holosoma-inference package lacks {path}")
    return path


@dataclass(frozen=True)
class PolicyMetadata:
    """Everything needed to run the locomotion policy, read from the ONNX file and its package's config."""

    dof_names: tuple[str, ...]
    kp: tuple[float, ...]
    kd: tuple[float, ...]
    default_pose_rad: tuple[float, ...]
    command_ranges: dict[str, tuple[float, float]]  # lin_vel_x, lin_vel_y (m/s), ang_vel_yaw (rad/s)
    obs_terms: tuple[str, ...]  # in the order they are concatenated (sorted by name, as the package does)
    obs_dims: dict[str, int]
    obs_scales: dict[str, float]
    policy_rate_hz: float
    action_scale: float  # joint target = default pose + action_scale * action
    gait_period_s: float
    input_name: str
    output_name: str
    obs_size: int

    def __post_init__(self) -> None:
        n = len(self.dof_names)
        for name in ("kp", "kd", "default_pose_rad"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"PolicyMetadata.{name} has {len(getattr(self, name))} entries for {n} joints")
        total = sum(self.obs_dims[t] for t in self.obs_terms)
        if total != self.obs_size:
            raise ValueError(f"observation terms sum to {total}, the policy input has {self.obs_size}")


def _call_kwargs(module_file: Path, variable: str) -> dict[str, object]:
    """Literal keyword arguments of `variable = SomeConfig(...)` in a module, without importing it."""
    tree = ast.parse(module_file.read_text())
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == variable
            and isinstance(node.value, ast.Call)
        ):
            out: dict[str, object] = {}
            for kw in node.value.keywords:
                try:
                    out[kw.arg] = ast.literal_eval(kw.value)
                except ValueError:
                    continue  # non-literal arguments (paths, references) are not needed
            return out
    raise RuntimeError(f"{module_file} has no '{variable} = ...(...)' configuration")


def policy_session(name: str = DEFAULT_WALKING_POLICY, threads: int | None = None) -> Any:
    """An ONNX Runtime session of a walking policy on the CPU, with `threads` for each of its thread pools
    (onnxruntime's own choice when None); onnxruntime is imported here, on first use."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    if threads is not None:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = threads
    return ort.InferenceSession(str(policy_path(name)), options, providers=["CPUExecutionProvider"])


@lru_cache(maxsize=len(WALKING_POLICIES))
def read_policy_metadata(name: str = DEFAULT_WALKING_POLICY) -> PolicyMetadata:
    path = policy_path(name)
    session = policy_session(name)
    meta = {k: json.loads(v) for k, v in session.get_modelmeta().custom_metadata_map.items()}
    for key in ("kp", "kd", "dof_names", "command_ranges"):
        if key not in meta:
            raise RuntimeError(f"{path.name} metadata lacks '{key}'")
    config_dir = _package_dir("holosoma_inference") / "config" / "config_values"
    robot = _call_kwargs(config_dir / "robot.py", "g1_29dof")
    obs = _call_kwargs(config_dir / "observation.py", "loco_g1_29dof")
    task = _call_kwargs(config_dir / "task.py", "locomotion")
    if tuple(robot["dof_names"]) != tuple(meta["dof_names"]):
        raise RuntimeError("holosoma-inference's g1_29dof dof_names differ from the policy's metadata")
    if tuple(meta["dof_names"]) != G1_JOINT_NAMES:
        raise RuntimeError("G1_JOINT_NAMES differs from the policy's dof_names")
    inp, out = session.get_inputs()[0], session.get_outputs()[0]
    ranges = {k: (float(v[0]), float(v[1])) for k, v in meta["command_ranges"].items()}
    return PolicyMetadata(
        dof_names=tuple(meta["dof_names"]),
        kp=tuple(float(v) for v in meta["kp"]),
        kd=tuple(float(v) for v in meta["kd"]),
        default_pose_rad=tuple(float(v) for v in robot["default_dof_angles"]),
        command_ranges=ranges,
        obs_terms=tuple(sorted(obs["obs_dict"]["actor_obs"])),
        obs_dims={k: int(v) for k, v in obs["obs_dims"].items()},
        obs_scales={k: float(v) for k, v in obs["obs_scales"].items()},
        policy_rate_hz=float(task["rl_rate"]),
        action_scale=float(task["policy_action_scale"]),
        gait_period_s=float(task["gait_period"]),
        input_name=inp.name,
        output_name=out.name,
        obs_size=int(inp.shape[-1]),
    )


@dataclass(frozen=True)
class StandingGeometry:
    """Forward kinematics of the default pose, robot frame (pelvis projected to the floor, x fwd, y left, z up)."""

    pelvis_height_m: float  # pelvis origin above the floor with the feet's collision capsules touching it
    left_hand_m: tuple[float, float, float]
    right_hand_m: tuple[float, float, float]


def foot_geoms(model: "mujoco.MjModel") -> tuple[int, ...]:
    """The G1's foot collision capsules."""
    import mujoco  # not in the light install, whose decide reads the graph body's settings through this module

    feet = tuple(
        g
        for g in range(model.ngeom)
        if model.geom_contype[g] and "foot" in (mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_GEOM, g) or "")
    )
    if not feet:
        raise RuntimeError("the G1 model has no foot collision geoms")
    return feet


def lowest_foot_z(model: "mujoco.MjModel", data: "mujoco.MjData", feet: tuple[int, ...] | None = None) -> float:
    """World z of the lowest point of the foot capsules, for the posture in data (after mj_kinematics)."""
    lowest = float("inf")
    for g in feet or foot_geoms(model):
        centre, axis_z = data.geom_xpos[g][2], data.geom_xmat[g][8]  # capsule axis is the geom's local z
        radius, half_length = model.geom_size[g][0], model.geom_size[g][1]
        lowest = min(lowest, float(centre - abs(axis_z) * half_length - radius))
    return lowest


@lru_cache(maxsize=1)
def default_pose_geometry() -> StandingGeometry:
    import mujoco  # as in foot_geoms

    model = mujoco.MjModel.from_xml_path(str(g1_mjcf_path()))
    data = mujoco.MjData(model)
    data.qpos[:7] = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)  # pelvis at the origin, upright
    data.qpos[7:] = read_policy_metadata().default_pose_rad
    mujoco.mj_kinematics(model, data)
    height = -lowest_foot_z(model, data)
    hands = []
    for site in (LEFT_HAND_SITE, RIGHT_HAND_SITE):
        x, y, z = (float(v) for v in data.site(site).xpos)
        hands.append((x, y, z + height))
    return StandingGeometry(pelvis_height_m=height, left_hand_m=hands[0], right_hand_m=hands[1])
