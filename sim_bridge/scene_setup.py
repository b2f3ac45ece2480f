"""From a SceneSpec to what an engine builds: the world MJCF, the G1 at the observer pose, the hand points."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from reacthuman.scenes.mjcf import scene_mjcf
from reacthuman.scenes.spec import SceneSpec, SpecError
from reacthuman.sim_bridge.engine import PhysicsEngine, RobotSpec
from reacthuman.spine.g1_assets import (
    G1_JOINT_NAMES,
    LEFT_HAND_SITE,
    RIGHT_HAND_SITE,
    default_pose_geometry,
    g1_mjcf_path,
    read_policy_metadata,
)

# Start a hair above the floor so the feet do not begin in penetration (the first step would kick them).
START_CLEARANCE_M = 0.002
PHYSICS_DT_S = 1.0 / 240.0


@lru_cache(maxsize=1)
def g1_body_names() -> frozenset[str]:
    import mujoco  # the body module stays importable without MuJoCo: decide's light install reads its defaults

    model = mujoco.MjModel.from_xml_path(str(g1_mjcf_path()))
    return frozenset(model.body(i).name for i in range(1, model.nbody))


def validate_for_body(spec: SceneSpec) -> None:
    """Refuse a spec before anything is simulated: it must survive its own validation again (a JSON round
    trip re-runs every check), step at 240 Hz, and not reuse a G1 link's name."""
    SceneSpec.from_dict(spec.to_dict())
    if abs(spec.dt_s - PHYSICS_DT_S) > 1e-12:
        raise SpecError(f"dt_s must be 1/240 s for the body, got {spec.dt_s}")
    clash = sorted({b.name for b in spec.bodies} & g1_body_names())
    if clash:
        raise SpecError(f"scene body names clash with the G1's links: {', '.join(clash)}")
    if spec.t0_s + spec.observation_window_s > spec.duration_s + 1e-9:
        raise SpecError("t0_s + observation_window_s exceeds duration_s")


def world_for(spec: SceneSpec) -> str:
    return scene_mjcf(spec)


def robot_spec_for(spec: SceneSpec) -> RobotSpec:
    """The G1 standing in its default pose at the observer's place, facing the observer's yaw."""
    geometry = default_pose_geometry()
    o = spec.observer
    return RobotSpec(
        mjcf_path=g1_mjcf_path(),
        joint_names=G1_JOINT_NAMES,
        base_pos_m=(o.x_m, o.y_m, geometry.pelvis_height_m + START_CLEARANCE_M),
        base_yaw_rad=o.yaw_rad,
        joint_pos_rad=read_policy_metadata().default_pose_rad,
    )


@lru_cache(maxsize=1)
def hand_points() -> tuple[tuple[str, np.ndarray], tuple[str, np.ndarray]]:
    """(link name, offset in that link's frame) of the left and right palm sites of the G1 model."""
    import mujoco  # as in g1_body_names

    model = mujoco.MjModel.from_xml_path(str(g1_mjcf_path()))
    out = []
    for site in (LEFT_HAND_SITE, RIGHT_HAND_SITE):
        sid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SITE, site)
        if sid < 0:
            raise RuntimeError(f"the G1 model has no site '{site}'")
        if not np.allclose(model.site_quat[sid], (1, 0, 0, 0)):
            raise RuntimeError(f"site '{site}' is rotated; only its position is used")
        out.append((model.body(model.site_bodyid[sid]).name, model.site_pos[sid].copy()))
    return out[0], out[1]


def set_initial_velocities(engine: PhysicsEngine, spec: SceneSpec) -> None:
    """The spec's t = 0 velocities (MJCF cannot carry them): free bodies' world velocities, hinges' rates."""
    for b in spec.bodies:
        if b.joint is None:
            continue
        if b.joint.kind == "free" and (any(b.lin_vel) or any(b.ang_vel)):
            engine.set_body_velocity(b.name, b.lin_vel, b.ang_vel, b.quat)
        elif b.joint.kind == "hinge" and b.joint.initial_rate:
            engine.set_hinge_rate(b.name, b.joint.initial_rate)
