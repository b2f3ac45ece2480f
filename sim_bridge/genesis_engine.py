"""Genesis implementation of PhysicsEngine (PyPI `genesis-world`, CPU backend).

The world MJCF and the robot MJCF load as two entities in one scene. `import genesis` costs ~3.5 s (see
`genesis_sim.import_genesis`) and the first scene build loads kernels (minutes on a cold kernel cache), so this
module imports Genesis only when an engine is built.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from reacthuman.scenes.builders import to_body_frame
from reacthuman.scenes.genesis_sim import add_mjcf_entity, init_genesis, release_scene
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
import xml.etree.ElementTree as ET

WORLD_BODY = "world"


def _lights(world_mjcf: str) -> list[dict]:
    """The world's directional <light>s as Genesis rasterizer lights (MuJoCo reads them from the MJCF)."""

    out = []
    for light in ET.fromstring(world_mjcf).iter("light"):
        direction = [float(v) for v in light.get("dir", "0 0 -1").split()]
        color = [float(v) for v in light.get("diffuse", "1 1 1").split()]
        out.append({"type": "directional", "dir": direction, "color": color, "intensity": 5.0})
    return out or [{"type": "directional", "dir": [0.0, 0.0, -1.0], "color": [1.0, 1.0, 1.0], "intensity": 5.0}]


def _np(x) -> np.ndarray:
    return x.detach().cpu().numpy().astype(np.float64) if hasattr(x, "detach") else np.asarray(x, dtype=np.float64)


class GenesisEngine(PhysicsEngine):
    def __init__(self, config: EngineConfig) -> None:
        super().__init__(config)
        self._scene = None
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._cameras: dict[str, object] = {}

    # --- construction ---------------------------------------------------------------------------
    @classmethod
    def prepare(cls) -> None:
        init_genesis()

    def build(self, world_mjcf: str, robot: RobotSpec | None, cameras: tuple[CameraSpec, ...]) -> None:
        gs = init_genesis()
        self._tmp = tempfile.TemporaryDirectory(prefix="reacthuman-genesis-")
        world_path = Path(self._tmp.name) / "world.xml"
        world_path.write_text(world_mjcf)
        scene = gs.Scene(
            sim_options=gs.options.SimOptions(dt=self.config.dt_s, substeps=1),
            vis_options=gs.options.VisOptions(show_world_frame=False, lights=_lights(world_mjcf)),
            renderer=gs.renderers.Rasterizer(),
            show_viewer=False,
        )
        self._world = add_mjcf_entity(scene, str(world_path))
        # The G1 keeps Genesis' default rotor inertia on any joint its model states none for, as it always has.
        self._robot_entity = (
            None if robot is None else add_mjcf_entity(scene, str(robot.mjcf_path), model_armature_only=False)
        )
        for cam in cameras:
            self._cameras[cam.name] = scene.add_camera(
                res=(cam.width_px, cam.height_px), pos=cam.pos_m, lookat=cam.lookat_m, fov=cam.fov_deg, GUI=False
            )
        scene.build()
        self._scene, self._robot = scene, robot
        self._steps = 0
        solver = scene.rigid_solver
        self._link_names = [link.name or WORLD_BODY for link in solver.links]
        entities = (self._world,) if robot is None else (self._world, self._robot_entity)
        self._links = {link.name: link for e in entities for link in e.links}
        if robot is None:
            return

        ent = self._robot_entity
        joints = [ent.get_joint(n) for n in robot.joint_names]
        self._q_idx = [j.qs_idx_local[0] for j in joints]
        self._dof_idx = [j.dofs_idx_local[0] for j in joints]
        self._limits = _np(ent.get_dofs_force_range(self._dof_idx)[1])
        self._robot_bodies = tuple(link.name for link in ent.links)
        self.place_robot(robot)

    def place_robot(self, robot: RobotSpec) -> None:
        """Put the G1 at `robot`'s base pose and joint angles, at rest, with zero torque (a rebuild costs
        seconds to a minute; a grid of runs on one plane reuses the scene)."""
        ent = self._robot_entity
        qpos = _np(ent.get_qpos())
        qpos[0:3] = robot.base_pos_m
        qpos[3:7] = robot.base_quat_wxyz()
        qpos[self._q_idx] = robot.joint_pos_rad
        ent.set_qpos(qpos, zero_velocity=True)
        self._torques = np.zeros(len(self._q_idx))
        ent.control_dofs_force(self._torques, self._dof_idx)

    # --- time -----------------------------------------------------------------------------------
    def _step_once(self) -> None:
        self._scene.step()

    # --- robot ----------------------------------------------------------------------------------
    def robot_state(self) -> SimRobotState:
        ent = self._robot_entity
        q = _np(ent.get_qpos())
        dq = _np(ent.get_dofs_velocity())
        quat = q[3:7]
        gyro = dq[3:6]  # Genesis' free-joint dofs: world-frame linear, then body-frame angular velocity
        base = BodyState(pos_m=q[0:3], quat_wxyz=quat, lin_vel_mps=dq[0:3], ang_vel_radps=quat_rotate_wxyz(quat, gyro))
        return SimRobotState(
            base=base,
            gyro_radps=gyro,
            projected_gravity=quat_rotate_inverse_wxyz(quat, GRAVITY_DIR),
            joint_pos_rad=q[self._q_idx],
            joint_vel_radps=dq[self._dof_idx],
        )

    def set_joint_torques(self, torques_nm: np.ndarray) -> None:
        self._torques = np.asarray(torques_nm, dtype=float).copy()
        self._robot_entity.control_dofs_force(self._torques, self._dof_idx)

    def torque_limits_nm(self) -> np.ndarray:
        return self._limits.copy()

    def robot_body_names(self) -> tuple[str, ...]:
        return self._robot_bodies

    # --- bodies and contacts --------------------------------------------------------------------
    def _link(self, name: str):
        link = self._links.get(name)
        if link is None:
            raise ValueError(f"body '{name}' is not in the model")
        return link

    def body_state(self, name: str) -> BodyState:
        link = self._link(name)
        return BodyState(
            pos_m=_np(link.get_pos()),
            quat_wxyz=_np(link.get_quat()),
            lin_vel_mps=_np(link.get_vel()),
            ang_vel_radps=_np(link.get_ang()),
        )

    def body_mass_kg(self, name: str) -> float:
        return float(self._link(name).get_mass())

    def _single_joint(self, name: str):
        link = self._link(name)
        joints = [j for j in link.entity.joints if j.link.idx == link.idx and j.n_dofs > 0]
        if len(joints) != 1:
            raise ValueError(f"body '{name}' has {len(joints)} joints, expected 1")
        return link.entity, joints[0]

    def set_body_velocity(
        self,
        name: str,
        lin_vel_mps: tuple[float, float, float],
        ang_vel_radps: tuple[float, float, float],
        quat_wxyz: tuple[float, float, float, float] | None = None,
    ) -> None:
        entity, joint = self._single_joint(name)
        if joint.n_dofs != 6:
            raise ValueError(f"body '{name}' has a hinge: set its rate with set_hinge_rate")
        quat = quat_wxyz if quat_wxyz is not None else tuple(float(v) for v in _np(self._link(name).get_quat()))
        body_ang = to_body_frame(quat, tuple(float(v) for v in ang_vel_radps))
        entity.set_dofs_velocity(np.array([*lin_vel_mps, *body_ang]), joint.dofs_idx_local)

    def set_hinge_rate(self, name: str, rate_radps: float) -> None:
        entity, joint = self._single_joint(name)
        if joint.n_dofs != 1:
            raise ValueError(f"body '{name}' has no hinge joint")
        entity.set_dofs_velocity(np.array([rate_radps]), joint.dofs_idx_local)

    def contacts(self, bodies: frozenset[str]) -> list[Contact]:
        data = self._scene.rigid_solver.collider.get_contacts(as_tensor=True, to_torch=True)
        link_a, link_b = _np(data["link_a"]).astype(int), _np(data["link_b"]).astype(int)
        if link_a.size == 0:
            return []
        pos, force = _np(data["position"]), _np(data["force"])
        out: list[Contact] = []
        for i in range(link_a.shape[0]):
            a, b = self._link_names[link_a[i]], self._link_names[link_b[i]]
            if a in bodies or b in bodies:
                out.append(Contact(a, b, tuple(float(x) for x in pos[i]), float(np.linalg.norm(force[i]))))
        return out

    # --- cameras ----------------------------------------------------------------------------------
    def _camera(self, name: str):
        cam = self._cameras.get(name)
        if cam is None:
            raise ValueError(f"no camera '{name}'")
        return cam

    def set_camera_pose(
        self, name: str, pos_m: tuple[float, float, float], lookat_m: tuple[float, float, float]
    ) -> None:
        self._camera(name).set_pose(pos=np.asarray(pos_m, float), lookat=np.asarray(lookat_m, float))

    def render(self, name: str) -> np.ndarray:
        rgb = self._camera(name).render(rgb=True)[0]
        return np.ascontiguousarray(np.asarray(rgb, dtype=np.uint8)[..., :3])

    def close(self) -> None:
        if self._scene is not None:
            release_scene(self._scene)  # what Genesis would keep of it grew the body by every episode
            self._scene = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


register_engine("genesis", GenesisEngine)
