"""`--tools authors`: the tools as the authors' simulator ran them, each difference from ours a named switch.

With every switch on, a call returns what their simulator returned (the same keys, the same numbers, the same
error texts), so `physment replay` can hold their logged results against ours. A switch turned off gives the
corrected physics for that one difference, in the same result shape. The differences, and why ours differ:

| switch | theirs | ours (switch off) |
|---|---|---|
| persistent_wrench | apply_force/apply_torque write `xfrc_applied`; it stays on every later step | cleared after the next step |
| step_then_forward | each step `mj_step` then `mj_forward`; `int(d/dt)` steps plus one for a remainder | `round(d/dt)` steps of `mj_step` |
| cvel_velocity | `cvel[3:6]`: velocity of the point at the root subtree's centre of mass | the body's centre-of-mass velocity |
| finite_difference_acceleration | (v - v at this object's previous call) / dt; 0 on the first call | MuJoCo's body acceleration, gravity offset removed |
| first_joint_displacement | scalar distance to `qpos[0:3]` at load (the first joint's start) | distance to the body's own start |
| unfiltered_parameters | mass, `body_inertia` as `bounding_box`, parent id as `type`, whatever the permissions | permitted mass only, the geom's box half-extents, its type name |
| applied_torque_only | get_torque: the torque part of `xfrc_applied` | the net torque about the centre of mass (I alpha + w x I w) |
| principal_inertia_world_omega | rotational energy, angular momentum: body-frame principal inertia times world-frame omega, mass ignored | the world inertia tensor |
| contact_force_collision | the bodies' first geoms only; applies +-normal*dist as a persistent force | any geom pair; applies nothing |
| reload_on_edit | create/delete/find/attach rewrite the XML and reload: state back to the file's, positions 0 until a step (with the viewer open, its load forwards them); create makes a fixed sphere of radius = density; attach writes an invalid joint, the reload fails, later edits too | the state carried over and forwarded |
| viewer_sync | with MuJoCo's passive viewer running, its sync after every step zeroes `xfrc_applied`: a force acts for one timestep | (off: the headless run, forces persist) |
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import mujoco
import numpy as np

SWITCHES: tuple[str, ...] = (
    "persistent_wrench",
    "step_then_forward",
    "cvel_velocity",
    "finite_difference_acceleration",
    "first_joint_displacement",
    "unfiltered_parameters",
    "applied_torque_only",
    "principal_inertia_world_omega",
    "contact_force_collision",
    "reload_on_edit",
    "viewer_sync",
)
ALL_ON = frozenset(SWITCHES)
# their runs differ in whether MuJoCo's passive viewer started (it does not on a headless macOS run); their
# logs do not say, so the replay tries both, headless first
HEADLESS = ALL_ON - {"viewer_sync"}
_TOOLS = (
    "get_parameters",
    "get_displacement",
    "compute_force",
    "set_velocity",
    "apply_force",
    "apply_torque",
    "get_velocity",
    "detect_collision",
    "move_object",
    "get_position",
    "get_torque",
    "get_center_of_mass",
    "get_angular_momentum",
    "get_momentum",
    "get_acceleration",
    "get_kinetic_energy",
    "get_potential_energy",
    "get_rotational_energy",
    "change_position",
    "quat_to_rot_matrix",
    "create_objects",
    "find_objects",
    "attach_objects",
    "delete_objects",
    "step",
    "reset_sim",
)


def parse_switches(spec: str) -> frozenset[str]:
    """`authors` (all on), or `authors:-name,-name` (all on but those); ValueError names an unknown switch."""
    if spec == "authors":
        return ALL_ON
    if not spec.startswith("authors:"):
        raise ValueError(f"tools must be `ours`, `authors` or `authors:-switch,...`, got {spec!r}")
    off = [s.strip().lstrip("-") for s in spec.split(":", 1)[1].split(",") if s.strip()]
    unknown = sorted(set(off) - set(SWITCHES))
    if unknown:
        raise ValueError(f"unknown tool switch(es) {unknown}: one of {', '.join(SWITCHES)}")
    return ALL_ON - set(off)


class _NoBody(ValueError):
    pass


class AuthorsSim:
    """One scene under the authors' tool semantics. `call(tool, params)` returns (result, sim_time) as their
    experiment recorded them: a tool's own error dict, or {"error": ...} for a call their loop refused."""

    def __init__(self, xml_text: str, switches: frozenset[str] = ALL_ON) -> None:
        unknown = sorted(set(switches) - set(SWITCHES))
        if unknown:
            raise ValueError(f"unknown tool switch(es) {unknown}")
        self.on = frozenset(switches)
        self.file_xml = xml_text  # what their edits parse: the scene file, then their last written copy
        self.model = mujoco.MjModel.from_xml_string(xml_text)
        self.data = mujoco.MjData(self.model)
        self.start_qpos = self.data.qpos.copy()
        self.time = 0.0
        self.prev_velocity: dict[str, np.ndarray] = {}
        self._wrench_once = False
        self.reset_sim()  # their experiment resets the simulator before the first turn
        self._start_xpos = self.data.xpos.copy()

    # ---- their loop ----------------------------------------------------------------------------------
    def call(self, tool: str, params: dict) -> tuple[Any, float]:
        if tool not in _TOOLS:
            return {"error": f"Unknown tool '{tool}'"}, self.time
        try:
            result = getattr(self, tool)(**params)
        except TypeError as exc:  # a missing or unexpected argument: their loop reports Python's message
            return {"error": str(exc).replace(f"{type(self).__name__}.", "Simulator.")}, self.time
        except Exception as exc:  # errors their tools do not catch themselves
            return {"error": str(exc)}, self.time
        return result, self.time

    # ---- helpers ---------------------------------------------------------------------------------------
    def _body(self, object_id: object) -> int:
        name = str(object_id)
        bid = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, name)
        if bid == -1:
            raise _NoBody(f"Body with name '{name}' not found in the scene.")
        return bid

    def _joint(self, object_id: str) -> int:
        return mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_JOINT, f"{object_id}_joint")

    def _position_address(self, object_id: str) -> int | dict:
        """The qpos address of the object's free joint, or the error their move tools answer without one."""
        self._body(object_id)
        j = self._joint(object_id)
        if j == -1:
            return {"error": f"No joint named {object_id}_joint"}
        return int(self.model.jnt_qposadr[j])

    def _forward(self) -> None:
        mujoco.mj_forward(self.model, self.data)

    def _velocity(self, bid: int) -> tuple[np.ndarray, np.ndarray]:
        """(linear, angular) velocity as the switch says: cvel's, or the body's own at its centre of mass."""
        if "cvel_velocity" in self.on:
            return np.array(self.data.cvel[bid][3:6]), np.array(self.data.cvel[bid][0:3])
        v = np.zeros(6)
        mujoco.mj_objectVelocity(self.model, self.data, mujoco.mjtObj.mjOBJ_BODY, bid, v, 0)
        return v[3:6], v[0:3]

    def _inertia_world(self, bid: int) -> np.ndarray:
        rot = self.data.ximat[bid].reshape(3, 3)
        return rot @ np.diag(self.model.body_inertia[bid]) @ rot.T

    def _true_acceleration(self, bid: int) -> tuple[np.ndarray, np.ndarray]:
        mujoco.mj_rnePostConstraint(self.model, self.data)
        a = np.zeros(6)
        mujoco.mj_objectAcceleration(self.model, self.data, mujoco.mjtObj.mjOBJ_BODY, bid, a, 0)
        return a[3:6] + self.model.opt.gravity, a[0:3]

    # ---- time ------------------------------------------------------------------------------------------
    def step(self, duration: float = 1.0) -> None:
        dt = self.model.opt.timestep
        if "step_then_forward" in self.on:
            n = int(duration / dt)
            steps = n + (1 if duration - n * dt > 0 else 0)
        else:
            steps = max(int(round(duration / dt)), 0)
        for _ in range(steps):
            mujoco.mj_step(self.model, self.data)
            if "step_then_forward" in self.on:
                mujoco.mj_forward(self.model, self.data)
            if "viewer_sync" in self.on:  # the viewer's sync clears xfrc_applied to apply its own perturbations
                self.data.xfrc_applied[:] = 0.0
        if "persistent_wrench" not in self.on and self._wrench_once:
            self.data.xfrc_applied[:] = 0.0
            self._wrench_once = False
        self.time += duration

    def reset_sim(self) -> None:
        self.data.qpos[:] = self.start_qpos
        self.data.qvel[:] = 0
        if "persistent_wrench" not in self.on:
            self.data.xfrc_applied[:] = 0.0
        self._forward()
        self.time = 0

    # ---- reading tools -------------------------------------------------------------------------------
    def get_parameters(self, object_id: str) -> dict:
        try:
            bid = self._body(object_id)
        except Exception as exc:
            return {"error": str(exc)}
        if "unfiltered_parameters" in self.on:
            return {
                "mass": float(self.model.body_mass[bid]),
                "bounding_box": self.model.body_inertia[bid].tolist(),
                "type": int(self.model.body_parentid[bid]),
            }
        g = int(self.model.body_geomadr[bid])
        if g < 0:
            return {"mass": float(self.model.body_mass[bid]), "bounding_box": [0.0, 0.0, 0.0], "type": "none"}
        kind = mujoco.mjtGeom(int(self.model.geom_type[g])).name[len("mjGEOM_") :].lower()
        return {
            "mass": float(self.model.body_mass[bid]),
            "bounding_box": self.model.geom_aabb[g][3:6].tolist(),
            "type": kind,
        }

    def get_position(self, object_id: str) -> dict:
        try:
            bid = self._body(str(object_id))
            return {"position": self.data.xpos[bid].tolist(), "time": self.data.time}
        except Exception as exc:
            return {"error": str(exc)}

    def get_displacement(self, object_id: str) -> dict:
        try:
            bid = self._body(str(object_id))
            if "first_joint_displacement" in self.on:
                if len(self.start_qpos) < 3:
                    raise ValueError("Start position (self.start_pos) has not been properly initialized.")
                start = np.array(self.start_qpos[:3])
            else:
                start = self._start_xpos[bid] if bid < len(self._start_xpos) else self.data.xpos[bid]
            return {"displacement": float(np.linalg.norm(np.array(self.data.xpos[bid]) - start))}
        except Exception as exc:
            return {"error": str(exc)}

    def get_velocity(self, object_id: str) -> dict:
        try:
            if not object_id.startswith("object_"):
                object_id = f"object_{object_id}"
            return {"velocity": self._velocity(self._body(object_id))[0].tolist()}
        except Exception as exc:
            return {"error": str(exc)}

    def get_acceleration(self, object_id: str) -> dict:
        try:
            object_id = str(object_id)
            if not object_id.startswith("object_"):
                object_id = f"object_{object_id}"
            bid = self._body(object_id)
            if "finite_difference_acceleration" not in self.on:
                lin, _ = self._true_acceleration(bid)
                return {"x": float(lin[0]), "y": float(lin[1]), "z": float(lin[2])}
            current = np.array(self.data.cvel[bid][3:6])
            if object_id not in self.prev_velocity:
                self.prev_velocity[object_id] = current
                return {"x": 0.0, "y": 0.0, "z": 0.0}
            acc = (current - self.prev_velocity[object_id]) / self.model.opt.timestep
            self.prev_velocity[object_id] = current
            return {"x": float(acc[0]), "y": float(acc[1]), "z": float(acc[2])}
        except Exception as exc:
            return {"error": str(exc)}

    def compute_force(self, object_id: str, mass: float) -> dict:
        try:
            acc = self.get_acceleration(str(object_id))
            return {"x": mass * acc["x"], "y": mass * acc["y"], "z": mass * acc["z"]}
        except Exception as exc:
            return {"error": f"Failed to compute force: {exc}"}

    def get_torque(self, object_id: str) -> dict:
        try:
            object_id = str(object_id)
            if not object_id.startswith("object_"):
                object_id = f"object_{object_id}"
            bid = self._body(object_id)
            if "applied_torque_only" in self.on:
                t = self.data.xfrc_applied[bid][3:6]
            else:
                _, alpha = self._true_acceleration(bid)
                _, w = self._velocity(bid)
                inertia = self._inertia_world(bid)
                t = inertia @ alpha + np.cross(w, inertia @ w)
            return {"torque": {"x": float(t[0]), "y": float(t[1]), "z": float(t[2])}}
        except Exception as exc:
            return {"error": str(exc)}

    def get_center_of_mass(self) -> dict:
        com = self.data.subtree_com[0]
        return {"center_of_mass": {"x": float(com[0]), "y": float(com[1]), "z": float(com[2])}}

    def get_kinetic_energy(self, object_id: str, mass: float) -> dict:
        try:
            v = self.get_velocity(str(object_id))
            if "velocity" not in v:
                raise ValueError(f"Could not retrieve velocity for object {object_id}.")
            return {"kinetic_energy": float(0.5 * mass * np.sum(np.array(v["velocity"]) ** 2))}
        except Exception as exc:
            return {"error": str(exc)}

    def get_potential_energy(self, object_id: str, mass: float, gravity: float = 9.81) -> dict:
        try:
            p = self.get_position(str(object_id))
            if "position" not in p:
                raise ValueError(f"Could not retrieve position for object {object_id}.")
            return {"potential_energy": mass * gravity * p["position"][2]}
        except Exception as exc:
            return {"error": str(exc)}

    def get_momentum(self, object_id: str, mass: float) -> dict:
        try:
            v = self.get_velocity(str(object_id))
            if "velocity" not in v:
                raise ValueError(f"Could not retrieve velocity for object {object_id}.")
            vel = v["velocity"]
            return {"momentum": {"x": mass * vel[0], "y": mass * vel[1], "z": mass * vel[2]}}
        except Exception as exc:
            return {"error": str(exc)}

    def _rotational(self, object_id: str) -> tuple[np.ndarray, np.ndarray]:
        """(angular momentum, omega) under the inertia switch."""
        if not object_id.startswith("object_"):
            object_id = f"object_{object_id}"
        bid = self._body(object_id)
        _, w = self._velocity(bid)
        if "principal_inertia_world_omega" in self.on:
            return np.array(self.model.body_inertia[bid]) * w, w
        return self._inertia_world(bid) @ w, w

    def get_rotational_energy(self, object_id: str, mass: float) -> dict:
        try:
            moment, w = self._rotational(str(object_id))
            return {"rotational_energy": float(0.5 * np.sum(moment * w))}
        except Exception as exc:
            return {"error": str(exc)}

    def get_angular_momentum(self, object_id: str, mass: float) -> dict:
        try:
            moment, _ = self._rotational(str(object_id))
            return {"angular_momentum": {"x": float(moment[0]), "y": float(moment[1]), "z": float(moment[2])}}
        except Exception as exc:
            return {"error": str(exc)}

    def quat_to_rot_matrix(self, q: list) -> dict:
        # their call names a MuJoCo function that does not exist (mju_quat2Mat does), so it always fails
        return {"error": "module 'mujoco' has no attribute 'mju_matQuat'"}

    def detect_collision(self, obj1_id: str, obj2_id: str) -> dict:
        try:
            b1, b2 = self._body(str(obj1_id)), self._body(str(obj2_id))
            g1, g2 = int(self.model.body_geomadr[b1]), int(self.model.body_geomadr[b2])
            for i in range(self.data.ncon):
                c = self.data.contact[i]
                if "contact_force_collision" in self.on:
                    hit = (c.geom1 == g1 and c.geom2 == g2) or (c.geom1 == g2 and c.geom2 == g1)
                else:
                    bodies = {int(self.model.geom_bodyid[c.geom1]), int(self.model.geom_bodyid[c.geom2])}
                    hit = bodies == {b1, b2}
                if hit:
                    if "contact_force_collision" not in self.on:
                        return {"collision_detected": True}
                    force = np.array(c.frame[:3]) * c.dist
                    self.apply_force(str(obj1_id), -force)
                    self.apply_force(str(obj2_id), force)
                    return {"collision_detected": True, "force_applied": force.tolist()}
            return {"collision_detected": False}
        except Exception as exc:
            return {"error": str(exc)}

    # ---- acting tools ------------------------------------------------------------------------------------
    def apply_force(self, object_id: str, force_vector: list) -> dict:
        return self._wrench(object_id, force_vector, 0, "force")

    def apply_torque(self, object_id: str, torque_vector: list) -> dict:
        return self._wrench(object_id, torque_vector, 3, "torque")

    def _wrench(self, object_id: object, vector: Any, offset: int, kind: str) -> dict:
        object_id = str(object_id)
        try:
            bid = self._body(object_id)
            if len(vector) != 3:
                raise ValueError(
                    f"{kind}_vector must be a list of 3 elements: "
                    f"{'[fx, fy, fz]' if kind == 'force' else '[tx, ty, tz]'}"
                )
            self.data.xfrc_applied[bid, offset : offset + 3] = vector
            self._wrench_once = True
            return {"status": f"{kind}_applied", "object_id": object_id, kind: vector}
        except ValueError as exc:
            return {"error": str(exc)}
        except Exception as exc:
            return {"error": f"Failed to apply {kind} to object '{object_id}': {exc}"}

    def set_velocity(self, object_id: str, velocity_vector: list) -> dict:
        try:
            if not object_id.startswith("object_"):
                object_id = f"object_{object_id}"
            self._body(object_id)
            if len(velocity_vector) != 3:
                raise ValueError("velocity_vector must be a list of 3 elements")
            j = self._joint(object_id)
            if j == -1:
                return {"error": f"Joint named {object_id}_joint not found."}
            adr = self.model.jnt_dofadr[j]
            self.data.qvel[adr : adr + 3] = velocity_vector
            self._forward()
            return {"status": "velocity_set", "object_id": object_id, "velocity": velocity_vector}
        except Exception as exc:
            return {"error": f"Failed to set velocity: {exc}"}

    def move_object(self, object_id: str, x: float, y: float, z: float) -> dict:
        try:
            adr = self._position_address(str(object_id))
            if isinstance(adr, dict):
                return adr
            new = np.array([x, y, z])
            if np.any(np.isnan(new)) or np.any(np.isinf(new)):
                return {"error": "Invalid position values (NaN or Inf)"}
            self.data.qpos[adr : adr + 3] = new
            self._forward()
            return {"position": tuple(float(v) for v in self.data.qpos[adr : adr + 3])}
        except Exception as exc:
            return {"error": str(exc)}

    def change_position(self, object_id: str, dx: float, dy: float, dz: float, in_world_frame: bool) -> dict:
        try:
            adr = self._position_address(str(object_id))
            if isinstance(adr, dict):
                return adr
            # their local-frame branch adds the same offsets as the world-frame one: in_world_frame changes nothing
            self.data.qpos[adr : adr + 3] += np.array([dx, dy, dz])
            self._forward()
            return {"new_position": self.data.qpos[adr : adr + 3].tolist()}
        except Exception as exc:
            return {"error": str(exc)}

    # ---- scene edits -------------------------------------------------------------------------------------
    def _reload(self, root: ET.Element) -> None:
        """Their edit: write the XML and load it (a failed load keeps the old model; the file stays edited)."""
        self.file_xml = ET.tostring(root, encoding="unicode")
        try:
            model = mujoco.MjModel.from_xml_string(self.file_xml)
        except Exception:
            return
        old_model, old_data = self.model, self.data
        self.model, self.data = model, mujoco.MjData(model)
        self.start_qpos = self.data.qpos.copy()
        self.time = 0
        if "reload_on_edit" not in self.on:
            _carry_state(old_model, old_data, self.model, self.data)
            self._forward()
        elif "viewer_sync" in self.on:  # the passive viewer their load reopens runs mj_forward as it loads
            self._forward()
        self._start_xpos = self.data.xpos.copy()

    def create_objects(self, name: str, pos: list, density: float, rgba: list) -> dict:
        root = ET.fromstring(self.file_xml)
        world = root.find("worldbody")
        if world is None:
            return {"error": "worldbody element not found in XML"}
        body = ET.Element("body", name=name)
        body.set("pos", f"{pos[0]} {pos[1]} {pos[2]}")
        ET.SubElement(body, "geom", type="sphere", size=str(density), rgba=" ".join(map(str, rgba)))
        world.append(body)
        self._reload(root)
        return {"status": "object_created", "name": name, "position": pos, "density": density, "rgba": rgba}

    def delete_objects(self, object_id: str) -> dict:
        root = ET.fromstring(self.file_xml)
        world = root.find("worldbody")
        if world is None:
            return {"error": "worldbody element not found in XML"}
        for body in list(world.findall("body")):
            if body.get("name") == object_id:
                world.remove(body)
                self._reload(root)
                return {"status": "object_deleted", "object_id": object_id}
        return {"error": f"Body named {object_id} not found in XML"}

    def find_objects(self) -> dict:
        root = ET.fromstring(self.file_xml)
        for geom in root.findall(".//geom"):
            geom.set("rgba", "0.7 0.7 0.7 1")
        self._reload(root)
        return {"status": "rgba_updated and object permissions are as given"}

    def attach_objects(self, object1_id: str, object2_id: str) -> None:
        root = ET.fromstring(self.file_xml)
        if root.find(f".//body[@name='{object1_id}']") is None or root.find(f".//body[@name='{object2_id}']") is None:
            return
        joint = ET.SubElement(root, "joint", name=f"joint_{object1_id}_{object2_id}", type="revolute")
        joint.set("body1", object1_id)
        joint.set("body2", object2_id)
        self._reload(root)
        return


def _carry_state(old_m: mujoco.MjModel, old_d: mujoco.MjData, new_m: mujoco.MjModel, new_d: mujoco.MjData) -> None:
    """Joint positions and velocities, the clock and applied wrenches of bodies present before and after."""
    new_d.time = old_d.time
    for j in range(old_m.njnt):
        name = mujoco.mj_id2name(old_m, mujoco.mjtObj.mjOBJ_JOINT, j)
        k = mujoco.mj_name2id(new_m, mujoco.mjtObj.mjOBJ_JOINT, name) if name else -1
        if k < 0 or old_m.jnt_type[j] != new_m.jnt_type[k]:
            continue
        nq = {0: 7, 1: 4}.get(int(old_m.jnt_type[j]), 1)
        nv = {0: 6, 1: 3}.get(int(old_m.jnt_type[j]), 1)
        qa, qb = old_m.jnt_qposadr[j], new_m.jnt_qposadr[k]
        va, vb = old_m.jnt_dofadr[j], new_m.jnt_dofadr[k]
        new_d.qpos[qb : qb + nq] = old_d.qpos[qa : qa + nq]
        new_d.qvel[vb : vb + nv] = old_d.qvel[va : va + nv]
    for b in range(old_m.nbody):
        name = mujoco.mj_id2name(old_m, mujoco.mjtObj.mjOBJ_BODY, b)
        k = mujoco.mj_name2id(new_m, mujoco.mjtObj.mjOBJ_BODY, name) if name else -1
        if k >= 0:
            new_d.xfrc_applied[k] = old_d.xfrc_applied[b]


def tool_semantics(spec: str | None) -> frozenset[str] | None:
    """`--tools`: None or `ours` -> None (our tools); `authors[:-switch,...]` -> the switches on."""
    if spec is None or spec == "ours":
        return None
    return parse_switches(spec)


def mujoco_version() -> str:
    return str(mujoco.__version__)
