"""Physics: the raw engine's step time for one scene with and without the G1 (no ROS, no body logic), its
real-time factor, and the same scene in MuJoCo.

With the G1 each step also reads the robot state and applies a PD hold of the default pose (the policy's
gains), so the robot stands and the contacts are those of an episode, not of a collapsing robot."""

from __future__ import annotations

import time

import numpy as np

from reacthuman.perf.common import Goal, Repeats
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim_bridge.engine import PhysicsEngine, default_config as engine_config, make_engine
from reacthuman.spine.g1_assets import read_policy_metadata
from reacthuman.sim_bridge.scene_setup import robot_spec_for, world_for

REAL_TIME_GOAL = Goal(1.0, "x real time", True, "the body must step at least as fast as simulated time passes")


def build_engine(engine: str, spec: SceneSpec, with_robot: bool, cameras: tuple = ()) -> tuple[PhysicsEngine, float]:
    """A built engine and the wall seconds the build took."""
    t = time.perf_counter()
    e = make_engine(engine, engine_config(dt_s=spec.dt_s))
    e.build(world_for(spec), robot_spec_for(spec) if with_robot else None, cameras)
    return e, time.perf_counter() - t


def _pd_hold(e: PhysicsEngine, spec: SceneSpec):
    meta = read_policy_metadata()
    kp, kd = np.array(meta.kp), np.array(meta.kd)
    q0 = np.array(robot_spec_for(spec).joint_pos_rad)
    limits = e.torque_limits_nm()

    def control() -> None:
        s = e.robot_state()
        e.set_joint_torques(np.clip(kp * (q0 - s.joint_pos_rad) - kd * s.joint_vel_radps, -limits, limits))

    return control


def step_timing(e: PhysicsEngine, spec: SceneSpec, with_robot: bool, steps: int, repeats: int) -> Repeats:
    """Seconds per physics step (median over repeats of `steps` steps each)."""
    control = _pd_hold(e, spec) if with_robot else None
    e.step(5)  # the first steps after a build pay one-off costs
    per_step = []
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(steps):
            if control is not None:
                control()
            e.step()
        per_step.append((time.perf_counter() - t) / steps)
    return Repeats.of(per_step)


def _case(engine: str, spec: SceneSpec, with_robot: bool, steps: int, repeats: int) -> dict:
    e, build_s = build_engine(engine, spec, with_robot)
    try:
        r = step_timing(e, spec, with_robot, steps, repeats)
    finally:
        e.close()
    rtf = spec.dt_s / r.median
    return {
        "engine": engine,
        "with_g1": with_robot,
        "build_s": round(build_s, 2),
        "steps_per_repeat": steps,
        "step_ms": Repeats(r.median * 1e3, r.min * 1e3, r.max * 1e3, r.n).to_dict(3),
        "real_time_factor": round(rtf, 3),
        "goal": REAL_TIME_GOAL.to_dict(rtf),
    }


def physics_section(
    spec: SceneSpec, steps: int, repeats: int, engines: tuple[str, ...] = ("genesis", "mujoco")
) -> dict:
    cases = [_case(engine, spec, with_robot, steps, repeats) for engine in engines for with_robot in (False, True)]
    out: dict = {"scene_id": spec.scene_id, "dt_s": spec.dt_s, "cases": cases}
    by = {(c["engine"], c["with_g1"]): c for c in cases}
    if ("genesis", True) in by and ("genesis", False) in by:
        out["g1_cost_ratio"] = round(
            by[("genesis", True)]["step_ms"]["median"] / by[("genesis", False)]["step_ms"]["median"], 3
        )
    if ("genesis", True) in by and ("mujoco", True) in by:
        out["genesis_over_mujoco_with_g1"] = round(
            by[("genesis", True)]["step_ms"]["median"] / by[("mujoco", True)]["step_ms"]["median"], 3
        )
    return out
