"""The MuJoCo lab: one scene's simulator state and the physical operations the tools expose.

Frames and units: SI units; every vector is in the world frame unless a name says otherwise; positions are
of the body frame origin (for the primitive bodies of the scenes, the centre of mass). Gravity comes from the
scene file (`model.opt.gravity`), so the prompt reads its axis convention from here, not from an assumption.

Determinism: only state-changing operations run `mj_forward`, and they restore the solver warm start, so a
trajectory does not depend on how many read-only tools were called between steps.
"""

from __future__ import annotations

import dataclasses
import math
import re

import mujoco
import numpy as np

OBJECT_PREFIX = "object_"
MAX_STEP_DURATION_S = 60.0  # one step() call; longer requests are a bad argument, not a frozen episode
_ID_RE = re.compile(r"^\s*(?:object[_\s-]?)?(\d+)\s*$", re.IGNORECASE)


class LabError(ValueError):
    """A bad request to the lab (unknown object, wrong shape, impossible operation)."""


@dataclasses.dataclass
class _ActiveWrench:
    body_name: str
    force_n: np.ndarray
    torque_nm: np.ndarray
    steps_left: int | None  # None: acts until the end of the next step() call


def normalize_object_id(object_id: object) -> str:
    """'3', 3, 3.0, 'object_3', 'Object 3' -> '3'."""
    if isinstance(object_id, bool):
        raise LabError(f"object_id must be an object number, got {object_id!r}")
    if isinstance(object_id, float) and object_id.is_integer():
        object_id = int(object_id)
    match = _ID_RE.match(str(object_id))
    if not match:
        raise LabError(f"object_id must look like 3 or 'object_3', got {object_id!r}")
    return str(int(match.group(1)))


def vector3(value: object, name: str) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=float).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise LabError(f"{name} must be a list of 3 numbers, got {value!r}") from exc
    if arr.shape != (3,) or not np.all(np.isfinite(arr)):
        raise LabError(f"{name} must be a list of 3 finite numbers, got {value!r}")
    return arr


def geom_volume_m3(geom_type: int, size: np.ndarray) -> float:
    """Volume of a primitive geom from MuJoCo's size convention (half-sizes, radius + half-height)."""
    g = mujoco.mjtGeom
    if geom_type == g.mjGEOM_SPHERE:
        return 4.0 / 3.0 * math.pi * size[0] ** 3
    if geom_type == g.mjGEOM_BOX:
        return 8.0 * size[0] * size[1] * size[2]
    if geom_type == g.mjGEOM_CYLINDER:
        return math.pi * size[0] ** 2 * 2.0 * size[1]
    if geom_type == g.mjGEOM_CAPSULE:
        return math.pi * size[0] ** 2 * 2.0 * size[1] + 4.0 / 3.0 * math.pi * size[0] ** 3
    if geom_type == g.mjGEOM_ELLIPSOID:
        return 4.0 / 3.0 * math.pi * size[0] * size[1] * size[2]
    return 0.0


class Lab:
    """A scene's MuJoCo model and data plus the bookkeeping the tools need (forces in flight, start poses)."""

    def __init__(self, xml_text: str, assets_dir: str | None = None) -> None:
        self._xml_text = xml_text
        self._assets_dir = assets_dir
        self.reset()

    # ---- lifecycle ---------------------------------------------------------------------------------
    def reset(self) -> None:
        """Back to the scene as loaded: created objects gone, deleted ones back, forces cleared."""
        if getattr(self, "_edited", True):
            try:
                self.spec = mujoco.MjSpec.from_string(self._xml_text)
                if self._assets_dir:
                    self.spec.modelfiledir = self._assets_dir
                self.model = self.spec.compile()
            except Exception as exc:  # MuJoCo raises plain ValueError/Exception on bad MJCF
                raise LabError(f"scene XML does not compile: {exc}") from exc
            self.data = mujoco.MjData(self.model)
            self._edited = False
        else:  # the model is still the one compiled from the file: resetting the data is enough
            mujoco.mj_resetData(self.model, self.data)
        if self.model.nkey > 0:
            mujoco.mj_resetDataKeyframe(self.model, self.data, 0)
        self._wrenches: list[_ActiveWrench] = []
        self._created_ids: list[str] = []
        mujoco.mj_forward(self.model, self.data)
        self.start_pos = {oid: self.position(oid).copy() for oid in self.object_ids()}

    @property
    def timestep_s(self) -> float:
        return float(self.model.opt.timestep)

    @property
    def time_s(self) -> float:
        return float(self.data.time)

    @property
    def gravity(self) -> np.ndarray:
        return np.array(self.model.opt.gravity, dtype=float)

    def object_ids(self) -> list[str]:
        ids = []
        for b in range(self.model.nbody):
            name = mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_BODY, b) or ""
            if name.startswith(OBJECT_PREFIX) and name[len(OBJECT_PREFIX) :].isdigit():
                ids.append(name[len(OBJECT_PREFIX) :])
        return sorted(ids, key=int)

    def body_id(self, object_id: object) -> int:
        oid = normalize_object_id(object_id)
        bid = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, OBJECT_PREFIX + oid)
        if bid < 0:
            raise LabError(f"no object with id {oid} in the scene")
        return bid

    def _forward(self) -> None:
        warm = self.data.qacc_warmstart.copy()
        mujoco.mj_forward(self.model, self.data)
        self.data.qacc_warmstart[:] = warm

    # ---- time and forces ---------------------------------------------------------------------------
    def steps_for(self, duration_s: float) -> int:
        if not math.isfinite(duration_s) or duration_s < 0 or duration_s > MAX_STEP_DURATION_S:
            raise LabError(f"duration must be between 0 and {MAX_STEP_DURATION_S} s, got {duration_s}")
        return int(round(duration_s / self.timestep_s))

    def instability_count(self) -> int:
        """How often MuJoCo found a bad acceleration and reset the state itself (huge forces do this)."""
        return int(self.data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number)

    def step(self, duration_s: float) -> int:
        n = self.steps_for(duration_s)
        done = 0
        while done < n:
            # advance in chunks between force expiries: same trajectory as one mj_step at a time
            timed = [w.steps_left for w in self._wrenches if w.steps_left is not None]
            chunk = min([n - done] + timed)
            self._load_wrenches()
            mujoco.mj_step(self.model, self.data, nstep=chunk)
            done += chunk
            for w in self._wrenches:
                if w.steps_left is not None:
                    w.steps_left -= chunk
            self._wrenches = [w for w in self._wrenches if w.steps_left is None or w.steps_left > 0]
        self._wrenches = [w for w in self._wrenches if w.steps_left is not None]
        self._load_wrenches()
        self._forward()
        return n

    def add_wrench(
        self, object_id: object, force_n: np.ndarray, torque_nm: np.ndarray, duration_s: float | None
    ) -> int | None:
        """Queue a force/torque at the body's centre of mass; returns the number of steps it lasts."""
        bid = self.body_id(object_id)
        steps = None if duration_s is None else self.steps_for(duration_s)
        if steps == 0:
            raise LabError(f"duration {duration_s} s is shorter than one timestep ({self.timestep_s} s)")
        name = mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_BODY, bid)
        self._wrenches.append(_ActiveWrench(name, force_n.copy(), torque_nm.copy(), steps))
        self._load_wrenches()
        self._forward()
        return steps

    def _load_wrenches(self) -> None:
        self.data.xfrc_applied[:] = 0.0
        for w in self._wrenches:
            bid = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, w.body_name)
            if bid >= 0:
                self.data.xfrc_applied[bid, :3] += w.force_n
                self.data.xfrc_applied[bid, 3:] += w.torque_nm

    def active_torque(self, object_id: object) -> np.ndarray:
        return np.array(self.data.xfrc_applied[self.body_id(object_id), 3:], dtype=float)

    # ---- kinematics (read-only) --------------------------------------------------------------------
    def position(self, object_id: object) -> np.ndarray:
        return np.array(self.data.xpos[self.body_id(object_id)], dtype=float)

    def com_position(self, object_id: object) -> np.ndarray:
        return np.array(self.data.xipos[self.body_id(object_id)], dtype=float)

    def quaternion(self, object_id: object) -> np.ndarray:
        return np.array(self.data.xquat[self.body_id(object_id)], dtype=float)

    def velocity(self, object_id: object) -> tuple[np.ndarray, np.ndarray]:
        """(linear m/s at the body origin, angular rad/s), world frame."""
        res = np.zeros(6)
        mujoco.mj_objectVelocity(self.model, self.data, mujoco.mjtObj.mjOBJ_BODY, self.body_id(object_id), res, 0)
        return res[3:].copy(), res[:3].copy()

    def com_velocity(self, object_id: object) -> np.ndarray:
        lin, ang = self.velocity(object_id)
        return lin + np.cross(ang, self.com_position(object_id) - self.position(object_id))

    def acceleration(self, object_id: object) -> tuple[np.ndarray, np.ndarray]:
        """(linear m/s^2, angular rad/s^2) at this instant, from the simulator's own dynamics.

        MuJoCo's body acceleration carries the accelerometer convention (gravity offset), so gravity is
        added back to get the kinematic acceleration: a free-falling body reads g, not 0."""
        mujoco.mj_rnePostConstraint(self.model, self.data)
        res = np.zeros(6)
        mujoco.mj_objectAcceleration(self.model, self.data, mujoco.mjtObj.mjOBJ_BODY, self.body_id(object_id), res, 0)
        return res[3:] + self.gravity, res[:3].copy()

    def mass(self, object_id: object) -> float:
        return float(self.model.body_mass[self.body_id(object_id)])

    def inertia_world(self, object_id: object) -> np.ndarray:
        """Inertia tensor about the centre of mass, world axes (kg m^2)."""
        bid = self.body_id(object_id)
        rot = np.zeros(9)
        mujoco.mju_quat2Mat(rot, self.data.xiquat[bid])
        r = rot.reshape(3, 3)
        return r @ np.diag(self.model.body_inertia[bid]) @ r.T

    def geoms_of(self, object_id: object) -> list[int]:
        bid = self.body_id(object_id)
        return [g for g in range(self.model.ngeom) if self.model.geom_bodyid[g] == bid]

    def free_joint_adr(self, object_id: object) -> tuple[int, int] | None:
        """(qpos address, qvel address) of the object's free joint, or None when it has none."""
        bid = self.body_id(object_id)
        for j in range(self.model.njnt):
            if self.model.jnt_bodyid[j] == bid and self.model.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
                return int(self.model.jnt_qposadr[j]), int(self.model.jnt_dofadr[j])
        return None

    def contacts_between(self, object_a: object, object_b: object) -> list[tuple[float, np.ndarray]]:
        """(penetration distance m, contact normal force N in world frame) for each contact of the pair."""
        ga, gb = set(self.geoms_of(object_a)), set(self.geoms_of(object_b))
        out = []
        for i in range(self.data.ncon):
            c = self.data.contact[i]
            if (c.geom1 in ga and c.geom2 in gb) or (c.geom1 in gb and c.geom2 in ga):
                f6 = np.zeros(6)
                mujoco.mj_contactForce(self.model, self.data, i, f6)
                frame = np.array(c.frame).reshape(3, 3)
                out.append((float(c.dist), frame.T @ f6[:3]))
        return out

    # ---- state changes -----------------------------------------------------------------------------
    def _free(self, object_id: object) -> tuple[int, int]:
        adr = self.free_joint_adr(object_id)
        if adr is None:
            raise LabError(
                f"object {normalize_object_id(object_id)} has no free joint: it cannot be moved "
                "or given a velocity directly (apply a force or torque instead)"
            )
        return adr

    def set_velocity(self, object_id: object, linear: np.ndarray, angular: np.ndarray | None) -> None:
        _, dof = self._free(object_id)
        self.data.qvel[dof : dof + 3] = linear
        if angular is not None:  # free-joint angular velocity is stored in the body frame
            rot = np.zeros(9)
            mujoco.mju_quat2Mat(rot, self.quaternion(object_id))
            self.data.qvel[dof + 3 : dof + 6] = rot.reshape(3, 3).T @ angular
        self._forward()

    def move(self, object_id: object, new_pos: np.ndarray) -> None:
        """Teleport the body origin to new_pos, keeping orientation; the object is left at rest."""
        qadr, dof = self._free(object_id)
        self.data.qpos[qadr : qadr + 3] = new_pos
        self.data.qvel[dof : dof + 6] = 0.0
        self._forward()

    def _rebuild(self) -> None:
        """Recompile after a spec edit, carrying the state of every surviving body over by name."""
        self._edited = True
        try:
            self.model, self.data = self.spec.recompile(self.model, self.data)
        except Exception as exc:
            raise LabError(f"scene change does not compile: {exc}") from exc
        self._load_wrenches()
        self._forward()

    def next_object_id(self) -> str:
        ids = [int(i) for i in self.object_ids()] + [int(i) for i in self.start_pos]
        return str(max(ids, default=0) + 1)

    def create(self, shape: str, size: list[float], pos: np.ndarray, density_kg_m3: float, rgba: list[float]) -> str:
        shapes = {
            "sphere": (mujoco.mjtGeom.mjGEOM_SPHERE, 1),
            "box": (mujoco.mjtGeom.mjGEOM_BOX, 3),
            "cylinder": (mujoco.mjtGeom.mjGEOM_CYLINDER, 2),
        }
        if shape not in shapes:
            raise LabError(f"shape must be one of {sorted(shapes)}, got {shape!r}")
        gtype, nsize = shapes[shape]
        if len(size) != nsize or any((not math.isfinite(s)) or s <= 0 for s in size):
            raise LabError(f"a {shape} needs size as {nsize} positive number(s) in metres, got {size!r}")
        if not math.isfinite(density_kg_m3) or density_kg_m3 <= 0:
            raise LabError(f"density must be a positive number in kg/m^3, got {density_kg_m3!r}")
        if len(rgba) != 4:
            raise LabError(f"rgba must be 4 numbers in [0, 1], got {rgba!r}")
        oid = self.next_object_id()
        body = self.spec.worldbody.add_body(name=OBJECT_PREFIX + oid, pos=list(map(float, pos)))
        body.add_freejoint(name=f"{OBJECT_PREFIX}{oid}_joint")
        body.add_geom(
            type=gtype, size=list(size) + [0.0] * (3 - nsize), density=float(density_kg_m3), rgba=list(map(float, rgba))
        )
        self._rebuild()
        self._created_ids.append(oid)
        self.start_pos[oid] = self.position(oid).copy()
        return oid

    def delete(self, object_id: object) -> str:
        oid = normalize_object_id(object_id)
        self.body_id(oid)
        body = self.spec.body(OBJECT_PREFIX + oid)
        for eq in list(self.spec.equalities):
            if OBJECT_PREFIX + oid in (eq.name1, eq.name2):
                self.spec.delete(eq)
        self.spec.delete(body)
        self._wrenches = [w for w in self._wrenches if w.body_name != OBJECT_PREFIX + oid]
        self._rebuild()
        return oid

    def attach(self, object_a: object, object_b: object) -> None:
        """Weld b to a at their current relative pose (an equality constraint, contacts between them off)."""
        a, b = normalize_object_id(object_a), normalize_object_id(object_b)
        if a == b:
            raise LabError("cannot attach an object to itself")
        ba, bb = self.body_id(a), self.body_id(b)
        # relpose: pose of body b expressed in body a's frame
        qa_inv = np.zeros(4)
        mujoco.mju_negQuat(qa_inv, self.data.xquat[ba])
        relpos = np.zeros(3)
        mujoco.mju_rotVecQuat(relpos, self.data.xpos[bb] - self.data.xpos[ba], qa_inv)
        relquat = np.zeros(4)
        mujoco.mju_mulQuat(relquat, qa_inv, self.data.xquat[bb])
        data = np.zeros(len(self.spec.add_equality().data))  # layout: anchor, relpos, relquat, torquescale, ...
        self.spec.delete(self.spec.equalities[-1])
        data[3:6] = relpos
        data[6:10] = relquat
        data[10] = 1.0  # torquescale
        self.spec.add_equality(
            type=mujoco.mjtEq.mjEQ_WELD,
            objtype=mujoco.mjtObj.mjOBJ_BODY,
            name1=OBJECT_PREFIX + a,
            name2=OBJECT_PREFIX + b,
            data=data,
            name=f"attach_{a}_{b}_{len(self.spec.equalities)}",
        )
        self.spec.add_exclude(bodyname1=OBJECT_PREFIX + a, bodyname2=OBJECT_PREFIX + b)
        self._rebuild()
