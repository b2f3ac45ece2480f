"""The human as dm_control's CMU humanoid (loaded from the installed `dm_control` package at run time, never
copied): attached under the kinematic base `H:root`, animated from the same `Pose` as the capsule body.

Legs, back and neck map one-to-one onto CMU joints; the right arm is placed by numeric inverse kinematics so
the wrist reaches the point the reach planner chose, the left arm hangs at rest.
"""

from __future__ import annotations

import importlib.util
import math
import os
import warnings
from functools import lru_cache

import mujoco
import numpy as np
from scipy.optimize import least_squares

from interactiveworld.world import human_body as hb

CMU_ASSET = "locomotion/walkers/assets/humanoid_CMU_V2020.xml"
PELVIS_H_M = 0.89
# our joint -> (CMU joint, sign)
DIRECT = {
    "H:lean": ("C:lowerbackrx", 1.0),
    "H:neck": ("C:upperneckrx", 1.0),
    "H:hip_l": ("C:lfemurrx", 1.0),
    "H:knee_l": ("C:ltibiarx", 1.0),
    "H:hip_r": ("C:rfemurrx", 1.0),
    "H:knee_r": ("C:rtibiarx", 1.0),
}
R_ARM = ("C:rclaviclerz", "C:rhumerusrz", "C:rhumerusry", "C:rhumerusrx", "C:rradiusrx")
L_ARM = ("C:lclaviclerz", "C:lhumerusrz", "C:lhumerusry", "C:lhumerusrx", "C:lradiusrx")


def available() -> bool:
    return importlib.util.find_spec("dm_control") is not None


@lru_cache(maxsize=1)
def cmu_xml_path() -> str:
    spec = importlib.util.find_spec("dm_control")
    if spec is None or spec.origin is None:
        raise RuntimeError("body 'cmu' needs the dm_control package installed (pip install --no-deps dm-control)")
    path = os.path.join(os.path.dirname(spec.origin), CMU_ASSET)
    if not os.path.isfile(path):
        raise RuntimeError(f"dm_control is installed but has no {CMU_ASSET}")
    return path


def compile_with_cmu(xml_without_human: str) -> mujoco.MjModel:
    """Our world plus a kinematic base carrying the CMU humanoid, the eye camera and the wrist site."""
    spec = mujoco.MjSpec.from_string(xml_without_human)
    root = spec.worldbody.add_body(name="H:root")
    root.add_joint(name="H:x", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[1, 0, 0])
    root.add_joint(name="H:y", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[0, 1, 0])
    root.add_joint(name="H:yaw", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 0, 1])
    root.add_joint(name="H:crouch", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[0, 0, 1])
    root.mass, root.inertia = 1.0, [0.1, 0.1, 0.1]
    root.explicitinertial = True
    # the CMU model is y-up and faces +z of its own frame; this turns it z-up, facing +x
    mount = root.add_body(name="H:mount", pos=[0, 0, PELVIS_H_M], quat=[0.5, 0.5, 0.5, 0.5])
    cmu = mujoco.MjSpec.from_file(cmu_xml_path())
    mount.add_frame().attach_body(cmu.body("root"), "C:", "")
    head = spec.body("C:head")
    head.add_camera(name="H:eye", pos=[0, 0.05, 0.1], xyaxes=[-1, 0, 0, 0, 1, 0], fovy=75)
    spec.body("C:rhand").add_site(name="H:wrist", pos=[0, 0, 0], size=[0.02, 0.02, 0.02])
    for g in spec.geoms:
        if g.name.startswith("C:") or (g.parent is not None and g.parent.name.startswith("C:")):
            g.contype, g.conaffinity = 0, 0
    for j in spec.joints:
        if j.name.startswith("C:"):
            j.stiffness, j.damping = [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]
    with warnings.catch_warnings():
        # the CMU file's own njmax/nconmax give way to the scene's defaults, which is what we want
        warnings.filterwarnings("ignore", message="Attach conflict")
        model = spec.compile()
    for g in range(model.ngeom):  # geoms attached without names: silence every CMU body geom
        b = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, model.geom_bodyid[g]) or ""
        if b.startswith("C:"):
            model.geom_contype[g] = model.geom_conaffinity[g] = 0
    return model


class CmuPoser:
    """Turns a Pose into CMU joint positions (cached per pose, since physics settling re-applies it often)."""

    def __init__(self, model: mujoco.MjModel) -> None:
        self.model = model
        self.data = mujoco.MjData(model)
        self.qadr = {
            mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_JOINT, j): int(model.jnt_qposadr[j]) for j in range(model.njnt)
        }
        self.wrist = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SITE, "H:wrist")
        self.lhand = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, "C:lhand")
        self._cache: dict = {}
        self.rest_r = self._solve_arm(R_ARM, self.wrist, None, np.array([0.05, -0.25, 0.8]), hb.Pose(0, 0, 0))
        self.rest_l = self._solve_arm(L_ARM, None, self.lhand, np.array([0.05, 0.25, 0.8]), hb.Pose(0, 0, 0))

    def _base(self, pose: hb.Pose) -> dict[str, float]:
        v = pose.joint_values()
        out = {k: v[k] for k in ("H:x", "H:y", "H:yaw", "H:crouch")}
        for ours, (theirs, sign) in DIRECT.items():
            out[theirs] = sign * v[ours]
        return out

    def _solve_arm(self, joints, site, body, target_local: np.ndarray, pose: hb.Pose) -> dict[str, float]:
        """Least squares on the arm joints so the hand reaches target_local (human frame, metres)."""
        d = self.data
        d.qpos[:] = 0
        for k, val in self._base(pose).items():
            d.qpos[self.qadr[k]] = val
        c, s = math.cos(pose.yaw), math.sin(pose.yaw)
        target = np.array(
            [
                pose.x + c * target_local[0] - s * target_local[1],
                pose.y + s * target_local[0] + c * target_local[1],
                target_local[2],
            ]
        )
        lo = np.array([self.model.jnt_range[self.model.joint(j).id][0] for j in joints])
        hi = np.array([self.model.jnt_range[self.model.joint(j).id][1] for j in joints])

        def resid(q):
            for j, val in zip(joints, q):
                d.qpos[self.qadr[j]] = val
            mujoco.mj_kinematics(self.model, d)
            p = d.site_xpos[site] if site is not None else d.xpos[body]
            return np.concatenate([p - target, 0.02 * q])

        sol = least_squares(resid, np.clip(np.zeros(len(joints)), lo, hi), bounds=(lo, hi), max_nfev=200)
        return {j: float(v) for j, v in zip(joints, sol.x)}

    def qpos_for(self, pose: hb.Pose) -> dict[str, float]:
        key = pose
        if key not in self._cache:
            out = self._base(pose)
            out.update(self.rest_l)
            if pose.shoulder_r_rad or pose.elbow_r_rad:
                out.update(self._solve_arm(R_ARM, self.wrist, None, capsule_wrist_local(pose), pose))
            else:
                out.update(self.rest_r)
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[key] = out
        return self._cache[key]


def capsule_wrist_local(pose: hb.Pose) -> np.ndarray:
    """Where the capsule body's right wrist is for this pose, in the human frame (x forward, y left)."""
    sz = hb.HIP_H_M - pose.crouch_m + hb.TORSO_M * math.cos(pose.lean_rad)
    sx = hb.TORSO_M * math.sin(pose.lean_rad)
    upper = -(pose.shoulder_r_rad + pose.lean_rad)
    fore = upper - pose.elbow_r_rad
    ex, ez = sx + hb.UPPER_ARM_M * math.sin(upper), sz - hb.UPPER_ARM_M * math.cos(upper)
    return np.array([ex + hb.FOREARM_M * math.sin(fore), -hb.SHOULDER_Y_M, ez - hb.FOREARM_M * math.cos(fore)])
