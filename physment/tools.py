"""Tool execution: one ToolBox per episode binds a Lab to a Scene's permissions and hidden objects.

Every call returns a ToolResult; a bad call is an error result (an invalid action), never an exception."""

from __future__ import annotations

import dataclasses
import logging
import math

import mujoco
import numpy as np

from physment.lab import Lab, LabError, geom_volume_m3, normalize_object_id
from physment.scene import Scene
from physment.toolspec import check_args

LOG = logging.getLogger(__name__)
_GEOM_NAMES = {
    int(v): k[len("mjGEOM_") :].lower()
    for k, v in vars(mujoco.mjtGeom).items()
    if k.startswith("mjGEOM_") and isinstance(v, mujoco.mjtGeom)
}


def _r(x: float | np.ndarray, ndigits: int = 6) -> object:
    """Round for display; keeps results readable without losing what 5 % tolerances need."""
    if isinstance(x, np.ndarray):
        return [_r(float(v), ndigits) for v in x.reshape(-1)]
    x = float(x)
    return 0.0 if abs(x) < 1e-12 else float(f"{x:.{ndigits}g}")


@dataclasses.dataclass
class ToolResult:
    tool: str
    arguments: object
    ok: bool
    result: dict
    terminal: bool = False

    def as_dict(self) -> dict:
        return {"tool": self.tool, "arguments": self.arguments, "ok": self.ok, "result": self.result}


class ToolBox:
    """The 26 tools over one scene. `answer` is recorded in `self.submitted` and ends the episode."""

    def __init__(self, scene: Scene, lab: Lab | None = None, allowed: tuple[str, ...] | None = None) -> None:
        self.scene = scene
        self.allowed = allowed  # None: every tool; else the protocol's tool set (others are unknown tools)
        self.lab = lab or Lab(scene.xml_text, assets_dir=str(scene.folder))
        self.revealed: set[str] = set()
        self.submitted: object = None
        self.answered = False

    # ---- visibility --------------------------------------------------------------------------------
    def known_ids(self) -> list[str]:
        hidden = {o.object_id for o in self.scene.objects if o.hidden} - self.revealed
        listed = {o.object_id for o in self.scene.objects}
        in_lab = set(self.lab.object_ids())
        # objects in the XML but not in the registry count as hidden (another way scenes hide them)
        return sorted(((listed | self.revealed | set(self.lab._created_ids)) - hidden) & in_lab, key=int)

    def _oid(self, object_id: object) -> str:
        oid = normalize_object_id(object_id)
        if oid not in self.lab.object_ids():
            raise LabError(f"no object with id {oid} in the scene")
        if oid not in self.known_ids():
            raise LabError(f"object {oid} is not known yet (find_objects lists every object)")
        return oid

    def parameters(self, oid: str) -> dict:
        """Attributes the permission matrix allows; created objects reveal everything (the agent made them)."""
        lab = self.lab
        entry = self.scene.object(oid)
        allow = (lambda a: True) if entry is None else entry.allowed
        geoms = lab.geoms_of(oid)
        out: dict = {"object_id": oid, "name": entry.name if entry else f"object_{oid}"}
        if allow("mass"):
            out["mass_kg"] = _r(lab.mass(oid))
        if allow("position"):
            out["position_m"] = _r(lab.position(oid))
        if allow("orientation"):
            out["quaternion_wxyz"] = _r(lab.quaternion(oid))
        if geoms and allow("shape"):
            out["shape"] = _GEOM_NAMES.get(int(lab.model.geom_type[geoms[0]]), "unknown")
        if geoms and allow("size"):
            out["size_m"] = _r(lab.model.geom_size[geoms[0]])
            out["size_convention"] = "sphere [radius], box [half-x, half-y, half-z], cylinder [radius, half-height]"
        if geoms and allow("density"):
            volume = sum(geom_volume_m3(int(lab.model.geom_type[g]), lab.model.geom_size[g]) for g in geoms)
            if volume > 0 and lab.mass(oid) > 0:
                out["density_kg_m3"] = _r(lab.mass(oid) / volume)
        if geoms and allow("friction"):
            out["friction_sliding_torsional_rolling"] = _r(lab.model.geom_friction[geoms[0]])
        if allow("inertia"):
            out["principal_inertia_kg_m2"] = _r(lab.model.body_inertia[lab.body_id(oid)])
        if allow("velocity"):
            out["linear_velocity_m_s"] = _r(lab.velocity(oid)[0])
        if allow("color") and geoms:
            out["rgba"] = _r(lab.model.geom_rgba[geoms[0]])
        return out

    # ---- dispatch ----------------------------------------------------------------------------------
    def call(self, name: str, arguments: object = None) -> ToolResult:
        if self.answered:
            return ToolResult(name, arguments, False, {"error": "the episode has ended (answer was submitted)"})
        try:
            if self.allowed is not None and name not in self.allowed:
                raise LabError(f"unknown tool {name!r} (one of: {', '.join(self.allowed)})")
            args = check_args(name, arguments)
            result = getattr(self, f"_t_{name}")(**args)
        except LabError as exc:
            return ToolResult(name, arguments, False, {"error": str(exc)})
        except Exception as exc:  # a simulator failure on odd input must not end the episode
            LOG.warning("tool %s(%r) failed inside the simulator: %s", name, arguments, exc)
            return ToolResult(name, arguments, False, {"error": f"the simulator could not do this: {exc}"})
        return ToolResult(name, arguments, True, result, terminal=(name == "answer"))

    def _clock(self) -> dict:
        return {"simulation_time_s": _r(self.lab.time_s, 9)}

    def _t_step(self, duration: float) -> dict:
        before = self.lab.instability_count()
        n = self.lab.step(duration)
        out = {"steps": n, "timestep_s": self.lab.timestep_s, **self._clock()}
        if self.lab.instability_count() > before:
            out["warning"] = "the simulation became numerically unstable (forces too large) and MuJoCo reset its state"
        return out

    def _t_reset_sim(self) -> dict:
        self.lab.reset()
        return {"reset": True, **self._clock()}

    def _wrench(self, object_id: str, force: np.ndarray, torque: np.ndarray, duration: float | None) -> dict:
        steps = self.lab.add_wrench(self._oid(object_id), force, torque, duration)
        lasts = "the next step call" if steps is None else f"{steps * self.lab.timestep_s:.6g} s"
        return {"object_id": object_id, "lasts": lasts, **self._clock()}

    def _t_apply_force(self, object_id: str, force_vector: np.ndarray, duration: float | None = None) -> dict:
        return {"force_n": _r(force_vector), **self._wrench(object_id, force_vector, np.zeros(3), duration)}

    def _t_apply_torque(self, object_id: str, torque_vector: np.ndarray, duration: float | None = None) -> dict:
        return {"torque_nm": _r(torque_vector), **self._wrench(object_id, np.zeros(3), torque_vector, duration)}

    def _t_get_velocity(self, object_id: str) -> dict:
        lin, ang = self.lab.velocity(self._oid(object_id))
        return {
            "object_id": object_id,
            "linear_velocity_m_s": _r(lin),
            "speed_m_s": _r(np.linalg.norm(lin)),
            "angular_velocity_rad_s": _r(ang),
            "frame": "world",
            **self._clock(),
        }

    def _t_get_acceleration(self, object_id: str) -> dict:
        lin, ang = self.lab.acceleration(self._oid(object_id))
        return {
            "object_id": object_id,
            "linear_acceleration_m_s2": _r(lin),
            "angular_acceleration_rad_s2": _r(ang),
            "frame": "world",
            **self._clock(),
        }

    def _t_get_position(self, object_id: str) -> dict:
        oid = self._oid(object_id)
        return {
            "object_id": oid,
            "position_m": _r(self.lab.position(oid)),
            "quaternion_wxyz": _r(self.lab.quaternion(oid)),
            "frame": "world",
            **self._clock(),
        }

    def _t_get_displacement(self, object_id: str) -> dict:
        oid = self._oid(object_id)
        d = self.lab.position(oid) - self.lab.start_pos[oid]
        return {
            "object_id": oid,
            "displacement_m": _r(d),
            "distance_m": _r(np.linalg.norm(d)),
            "frame": "world",
            **self._clock(),
        }

    def _t_get_parameters(self, object_id: str) -> dict:
        return self.parameters(self._oid(object_id))

    def _t_get_torque(self, object_id: str) -> dict:
        oid = self._oid(object_id)
        _, ang_acc = self.lab.acceleration(oid)
        _, omega = self.lab.velocity(oid)
        inertia = self.lab.inertia_world(oid)
        net = inertia @ ang_acc + np.cross(omega, inertia @ omega)
        return {
            "object_id": oid,
            "net_torque_nm": _r(net),
            "applied_torque_nm": _r(self.lab.active_torque(oid)),
            "about": "centre of mass",
            "frame": "world",
            **self._clock(),
        }

    def _t_set_velocity(
        self, object_id: str, velocity_vector: np.ndarray, angular_velocity_vector: np.ndarray | None = None
    ) -> dict:
        oid = self._oid(object_id)
        self.lab.set_velocity(oid, velocity_vector, angular_velocity_vector)
        return {"object_id": oid, "linear_velocity_m_s": _r(self.lab.velocity(oid)[0]), **self._clock()}

    def _t_move_object(self, object_id: str, x: float, y: float, z: float) -> dict:
        oid = self._oid(object_id)
        self.lab.move(oid, np.array([x, y, z]))
        return {"object_id": oid, "position_m": _r(self.lab.position(oid)), **self._clock()}

    def _t_change_position(self, object_id: str, dx: float, dy: float, dz: float, in_world_frame: bool = True) -> dict:
        oid = self._oid(object_id)
        delta = np.array([dx, dy, dz])
        if not in_world_frame:
            rot = np.zeros(9)
            mujoco.mju_quat2Mat(rot, self.lab.quaternion(oid))
            delta = rot.reshape(3, 3) @ delta
        self.lab.move(oid, self.lab.position(oid) + delta)
        return {
            "object_id": oid,
            "position_m": _r(self.lab.position(oid)),
            "moved_by_m": _r(delta),
            "frame": "world",
            **self._clock(),
        }

    def _t_detect_collision(self, obj1_id: str, obj2_id: str) -> dict:
        contacts = self.lab.contacts_between(self._oid(obj1_id), self._oid(obj2_id))
        touching = [c for c in contacts if c[0] <= 0.0]
        normal = sum(float(abs(np.dot(f, f) ** 0.5)) for _, f in touching)
        return {
            "obj1_id": obj1_id,
            "obj2_id": obj2_id,
            "colliding": bool(touching),
            "contacts": len(touching),
            "total_contact_force_n": _r(normal),
            **self._clock(),
        }

    def _t_get_center_of_mass(self) -> dict:
        ids = [i for i in self.known_ids() if self.lab.mass(i) > 0]
        masses = np.array([self.lab.mass(i) for i in ids])
        if masses.sum() <= 0:
            raise LabError("no object with mass in the scene")
        com = sum(m * self.lab.com_position(i) for m, i in zip(masses, ids)) / masses.sum()
        return {
            "center_of_mass_m": _r(com),
            "total_mass_kg": _r(masses.sum()),
            "objects": ids,
            "frame": "world",
            **self._clock(),
        }

    def _mass(self, mass: float) -> float:
        if mass <= 0:
            raise LabError(f"mass must be positive (kg), got {mass}")
        return mass

    def _t_compute_force(self, object_id: str, mass: float) -> dict:
        lin, _ = self.lab.acceleration(self._oid(object_id))
        return {"object_id": object_id, "net_force_n": _r(self._mass(mass) * lin), "frame": "world", **self._clock()}

    def _t_get_kinetic_energy(self, object_id: str, mass: float) -> dict:
        v = self.lab.com_velocity(self._oid(object_id))
        return {"object_id": object_id, "kinetic_energy_j": _r(0.5 * self._mass(mass) * float(v @ v)), **self._clock()}

    def _t_get_potential_energy(self, object_id: str, mass: float, gravity: float | None = None) -> dict:
        g = abs(gravity) if gravity is not None else float(np.linalg.norm(self.lab.gravity))
        grav = self.lab.gravity
        up = -grav / np.linalg.norm(grav) if np.any(grav) else np.array([0.0, 0.0, 1.0])
        h = float(self.lab.com_position(self._oid(object_id)) @ up)  # along the scene's own "up"
        return {
            "object_id": object_id,
            "potential_energy_j": _r(self._mass(mass) * g * h),
            "height_m": _r(h),
            "gravity_m_s2": g,
            **self._clock(),
        }

    def _scaled_inertia(self, oid: str, mass: float) -> np.ndarray:
        model_mass = self.lab.mass(oid)
        if model_mass <= 0:
            raise LabError(f"object {oid} has no mass in the simulator")
        return self.lab.inertia_world(oid) * (self._mass(mass) / model_mass)

    def _t_get_rotational_energy(self, object_id: str, mass: float) -> dict:
        oid = self._oid(object_id)
        _, w = self.lab.velocity(oid)
        e = 0.5 * float(w @ self._scaled_inertia(oid, mass) @ w)
        return {"object_id": oid, "rotational_energy_j": _r(e), **self._clock()}

    def _t_get_momentum(self, object_id: str, mass: float) -> dict:
        v = self.lab.com_velocity(self._oid(object_id))
        return {"object_id": object_id, "momentum_kg_m_s": _r(self._mass(mass) * v), "frame": "world", **self._clock()}

    def _t_get_angular_momentum(self, object_id: str, mass: float) -> dict:
        oid = self._oid(object_id)
        _, w = self.lab.velocity(oid)
        return {
            "object_id": oid,
            "angular_momentum_kg_m2_s": _r(self._scaled_inertia(oid, mass) @ w),
            "about": "centre of mass",
            "frame": "world",
            **self._clock(),
        }

    def _t_quat_to_rot_matrix(self, q: list[float]) -> dict:
        qa = np.array(q, dtype=float)
        norm = float(np.linalg.norm(qa))
        if norm < 1e-9:
            raise LabError("q must be a non-zero quaternion [w, x, y, z]")
        rot = np.zeros(9)
        mujoco.mju_quat2Mat(rot, qa / norm)
        return {"rotation_matrix": [_r(row) for row in rot.reshape(3, 3)]}

    def _t_create_objects(
        self,
        name: str,
        pos: np.ndarray,
        density: float,
        rgba: list[float] | None = None,
        shape: str | None = None,
        size: list[float] | None = None,
    ) -> dict:
        oid = self.lab.create(
            (shape or "sphere").strip().lower(), size or [0.1], pos, density, rgba or [0.5, 0.5, 0.5, 1.0]
        )
        return {
            "object_id": oid,
            "name": name,
            "mass_kg": _r(self.lab.mass(oid)),
            "position_m": _r(self.lab.position(oid)),
            **self._clock(),
        }

    def _t_delete_objects(self, object_id: str) -> dict:
        return {"deleted": self.lab.delete(self._oid(object_id)), **self._clock()}

    def _t_find_objects(self) -> dict:
        ids = self.lab.object_ids()
        self.revealed.update(ids)
        objs = []
        for oid in ids:
            entry = self.scene.object(oid)
            objs.append({"object_id": oid, "name": entry.name if entry else f"object_{oid}"})
        return {"objects": objs}

    def _t_attach_objects(self, object1_id: str, object2_id: str) -> dict:
        self.lab.attach(self._oid(object1_id), self._oid(object2_id))
        return {"attached": [object1_id, object2_id], **self._clock()}

    def _t_answer(self, answer: object) -> dict:
        if isinstance(answer, float) and not math.isfinite(answer):
            raise LabError("answer must be finite")
        self.answered = True
        self.submitted = answer
        return {"submitted": answer}
