"""MuJoCo implementation of PhysicsEngine (PyPI `mujoco`)."""

from __future__ import annotations

import logging
import math
import os
import warnings

import numpy as np

from reacthuman.scenes.builders import to_body_frame
from reacthuman.sim_bridge.engine import (
    BodyState,
    CameraSpec,
    Contact,
    EngineConfig,
    PhysicsEngine,
    RobotSpec,
    SimRobotState,
    GRAVITY_DIR,
    quat_rotate_inverse_wxyz,
    quat_rotate_wxyz,
    register_engine,
)

# Headless rendering: EGL works on this stack; a caller's choice (MUJOCO_GL=osmesa) is respected.
_HEADLESS = "MUJOCO_GL" not in os.environ and not os.environ.get("DISPLAY")
if _HEADLESS:
    os.environ["MUJOCO_GL"] = "egl"
    os.environ.setdefault("PYOPENGL_PLATFORM", "egl")

import mujoco  # noqa: E402  (after MUJOCO_GL is set)
from mujoco.rendering.classic import gl_context  # noqa: E402
from mujoco.egl import GLContext  # noqa: E402


def _ensure_headless_gl() -> None:
    """MuJoCo picks its GL backend when first imported; if that happened before MUJOCO_GL was set (another
    module imported mujoco first) it picked GLFW, which needs a display. Switch to EGL then."""
    if not _HEADLESS:
        return

    if gl_context.GLContext is not None and "glfw" in gl_context.GLContext.__module__:
        gl_context.GLContext = GLContext


WORLD_BODY = "world"
log = logging.getLogger(__name__)


class MujocoEngine(PhysicsEngine):
    def __init__(self, config: EngineConfig) -> None:
        super().__init__(config)
        self._model: mujoco.MjModel | None = None
        self._data: mujoco.MjData | None = None
        self._renderers: dict[tuple[int, int], mujoco.Renderer] = {}
        self._cameras: dict[str, CameraSpec] = {}
        self._camera_pose: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    # --- construction ---------------------------------------------------------------------------
    def build(self, world_mjcf: str, robot: RobotSpec | None, cameras: tuple[CameraSpec, ...]) -> None:
        world = mujoco.MjSpec.from_string(world_mjcf)
        world.option.timestep = self.config.dt_s
        world.visual.global_.offwidth = max([self.config.max_render_width_px, *(c.width_px for c in cameras)])
        world.visual.global_.offheight = max([self.config.max_render_height_px, *(c.height_px for c in cameras)])
        # An empty prefix keeps the robot's own names. MuJoCo warns that such a model may not save (we never
        # save it), through Python warnings and its C log file (MUJOCO_LOG.TXT in the working directory): route
        # that one to the debug log instead.
        previous = mujoco.get_mju_user_warning()
        mujoco.set_mju_user_warning(lambda text: log.debug("mujoco: %s", text))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if robot is not None:
                    world.attach(
                        mujoco.MjSpec.from_file(str(robot.mjcf_path)), frame=world.worldbody.add_frame(), prefix=""
                    )
                model = world.compile()
        finally:
            mujoco.set_mju_user_warning(previous)
        # The near plane is relative to the model's extent (0.85 m with the 30 m floor slab): 1 cm, so the head
        # camera sees what comes close.
        model.vis.map.znear = 0.01 / model.stat.extent
        data = mujoco.MjData(model)
        self._model, self._data, self._robot = model, data, robot
        for cam in cameras:
            self._cameras[cam.name] = cam
            self._camera_pose[cam.name] = (np.array(cam.pos_m, float), np.array(cam.lookat_m, float))
        self._steps = 0
        if robot is None:
            mujoco.mj_forward(model, data)
            return

        joint_ids = [self._joint_id(n) for n in robot.joint_names]
        self._qadr = np.array([model.jnt_qposadr[j] for j in joint_ids])
        self._vadr = np.array([model.jnt_dofadr[j] for j in joint_ids])
        self._limits = np.array([self._torque_limit(j) for j in joint_ids])
        root = model.body_rootid[model.jnt_bodyid[joint_ids[0]]]
        free = [
            j
            for j in range(model.njnt)
            if model.jnt_bodyid[j] == root and model.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE
        ]
        if not free:
            raise ValueError(f"robot {robot.mjcf_path.name} has no free base joint")
        self._base_body = int(root)
        self._base_q = int(model.jnt_qposadr[free[0]])
        self._base_v = int(model.jnt_dofadr[free[0]])
        self._robot_bodies = tuple(model.body(b).name for b in range(model.nbody) if model.body_rootid[b] == root)
        self._torques = np.zeros(len(joint_ids))

        data.qpos[self._base_q : self._base_q + 3] = robot.base_pos_m
        data.qpos[self._base_q + 3 : self._base_q + 7] = robot.base_quat_wxyz()
        data.qpos[self._qadr] = robot.joint_pos_rad
        mujoco.mj_forward(model, data)

    def _joint_id(self, name: str) -> int:
        jid = mujoco.mj_name2id(self._model, mujoco.mjtObj.mjOBJ_JOINT, name)
        if jid < 0:
            raise ValueError(f"joint '{name}' is not in the model")
        return int(jid)

    def _body_id(self, name: str) -> int:
        bid = mujoco.mj_name2id(self._model, mujoco.mjtObj.mjOBJ_BODY, name)
        if bid < 0:
            raise ValueError(f"body '{name}' is not in the model")
        return int(bid)

    def _torque_limit(self, jid: int) -> float:
        m = self._model
        if m.jnt_actfrclimited[jid]:
            return float(m.jnt_actfrcrange[jid][1])
        for a in range(m.nu):
            if m.actuator_trnid[a][0] == jid and m.actuator_ctrllimited[a]:
                return float(m.actuator_ctrlrange[a][1] * abs(m.actuator_gear[a][0]))
        return math.inf

    # --- time -----------------------------------------------------------------------------------
    def _step_once(self) -> None:
        m, d = self._model, self._data
        if self._robot is not None:
            d.qfrc_applied[self._vadr] = self._torques
        mujoco.mj_step(m, d)
        # mj_step leaves positions, velocities and contacts describing the state before integration;
        # recomputing them here makes every reader see the state the step produced (as Genesis does).
        mujoco.mj_forward(m, d)

    # --- robot ----------------------------------------------------------------------------------
    def robot_state(self) -> SimRobotState:
        d = self._data
        q, v = self._base_q, self._base_v
        quat = d.qpos[q + 3 : q + 7].copy()
        gyro = d.qvel[v + 3 : v + 6].copy()  # MuJoCo's free joint angular velocity is in the body frame
        base = BodyState(
            pos_m=d.qpos[q : q + 3].copy(),
            quat_wxyz=quat,
            lin_vel_mps=d.qvel[v : v + 3].copy(),
            ang_vel_radps=quat_rotate_wxyz(quat, gyro),
        )
        return SimRobotState(
            base=base,
            gyro_radps=gyro,
            projected_gravity=quat_rotate_inverse_wxyz(quat, GRAVITY_DIR),
            joint_pos_rad=d.qpos[self._qadr].copy(),
            joint_vel_radps=d.qvel[self._vadr].copy(),
        )

    def set_joint_torques(self, torques_nm: np.ndarray) -> None:
        self._torques = np.asarray(torques_nm, dtype=float).copy()

    def torque_limits_nm(self) -> np.ndarray:
        return self._limits.copy()

    def robot_body_names(self) -> tuple[str, ...]:
        return self._robot_bodies

    # --- bodies and contacts --------------------------------------------------------------------
    def body_state(self, name: str) -> BodyState:
        m, d = self._model, self._data
        bid = self._body_id(name)
        vel = np.zeros(6)
        mujoco.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_BODY, bid, vel, 0)  # [ang, lin], world frame
        return BodyState(
            pos_m=d.xpos[bid].copy(),
            quat_wxyz=d.xquat[bid].copy(),
            lin_vel_mps=vel[3:].copy(),
            ang_vel_radps=vel[:3].copy(),
        )

    def body_mass_kg(self, name: str) -> float:
        return float(self._model.body_mass[self._body_id(name)])

    def set_body_velocity(
        self,
        name: str,
        lin_vel_mps: tuple[float, float, float],
        ang_vel_radps: tuple[float, float, float],
        quat_wxyz: tuple[float, float, float, float] | None = None,
    ) -> None:
        m, d = self._model, self._data
        jid = self._single_joint(name)
        v = m.jnt_dofadr[jid]
        if m.jnt_type[jid] == mujoco.mjtJoint.mjJNT_FREE:
            quat = quat_wxyz if quat_wxyz is not None else tuple(float(q) for q in d.xquat[m.jnt_bodyid[jid]])
            d.qvel[v : v + 3] = lin_vel_mps
            d.qvel[v + 3 : v + 6] = to_body_frame(quat, tuple(float(w) for w in ang_vel_radps))
        else:
            raise ValueError(f"body '{name}' has a hinge: set its rate with set_hinge_rate")
        mujoco.mj_forward(m, d)

    def set_hinge_rate(self, name: str, rate_radps: float) -> None:
        m, d = self._model, self._data
        jid = self._single_joint(name)
        if m.jnt_type[jid] != mujoco.mjtJoint.mjJNT_HINGE:
            raise ValueError(f"body '{name}' has no hinge joint")
        d.qvel[m.jnt_dofadr[jid]] = rate_radps
        mujoco.mj_forward(m, d)

    def _single_joint(self, name: str) -> int:
        bid = self._body_id(name)
        m = self._model
        if m.body_jntnum[bid] != 1:
            raise ValueError(f"body '{name}' has {m.body_jntnum[bid]} joints, expected 1")
        return int(m.body_jntadr[bid])

    def contacts(self, bodies: frozenset[str]) -> list[Contact]:
        m, d = self._model, self._data
        out: list[Contact] = []
        wrench = np.zeros(6)
        for i in range(d.ncon):
            c = d.contact[i]
            a = m.body(m.geom_bodyid[c.geom1]).name or WORLD_BODY
            b = m.body(m.geom_bodyid[c.geom2]).name or WORLD_BODY
            if a not in bodies and b not in bodies:
                continue
            mujoco.mj_contactForce(m, d, i, wrench)
            out.append(Contact(a, b, tuple(float(x) for x in c.pos), float(abs(wrench[0]))))
        return out

    # --- cameras ----------------------------------------------------------------------------------
    def set_camera_pose(
        self, name: str, pos_m: tuple[float, float, float], lookat_m: tuple[float, float, float]
    ) -> None:
        if name not in self._cameras:
            raise ValueError(f"no camera '{name}'")
        self._camera_pose[name] = (np.array(pos_m, float), np.array(lookat_m, float))

    def render(self, name: str) -> np.ndarray:
        spec = self._cameras.get(name)
        if spec is None:
            raise ValueError(f"no camera '{name}'")
        key = (spec.height_px, spec.width_px)
        if key not in self._renderers:
            _ensure_headless_gl()
            renderer = mujoco.Renderer(self._model, spec.height_px, spec.width_px)
            # Shadows and reflections cost seconds per frame on a software GL (llvmpipe) and carry no
            # information the brain needs.
            for flag in (mujoco.mjtRndFlag.mjRND_SHADOW, mujoco.mjtRndFlag.mjRND_REFLECTION):
                renderer.scene.flags[flag] = False
            self._renderers[key] = renderer
        renderer = self._renderers[key]
        pos, lookat = self._camera_pose[name]
        delta = lookat - pos
        dist = float(np.linalg.norm(delta))
        cam = mujoco.MjvCamera()
        cam.type = mujoco.mjtCamera.mjCAMERA_FREE
        cam.lookat[:] = lookat
        cam.distance = dist
        cam.azimuth = math.degrees(math.atan2(delta[1], delta[0]))
        cam.elevation = math.degrees(math.asin(max(-1.0, min(1.0, delta[2] / dist))))
        self._model.vis.global_.fovy = spec.fov_deg  # free cameras take the model's vertical field of view
        renderer.update_scene(self._data, cam)
        return renderer.render().copy()

    def close(self) -> None:
        for renderer in self._renderers.values():
            renderer.close()
        self._renderers.clear()


register_engine("mujoco", MujocoEngine)
