"""Inverse kinematics of the G1's arms: damped least squares on MuJoCo's kinematics of the same MJCF.

Frame: the robot frame of reacthuman.plan.plan (origin at the pelvis projected to the floor, x forward, y left,
z up, gravity-aligned). The model's free base is placed at the origin with the measured roll and pitch (yaw
removed), so MuJoCo's world frame is the robot frame shifted down by the pelvis height; that height comes
from the legs' kinematics (the lowest foot point touches the floor), so no world position is needed and the
same code runs on the real robot.

Solved joints per arm: shoulder pitch/roll/yaw and elbow (3-D position target, one redundant DOF pulled
towards the default pose); the wrists keep their default angles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mujoco
import numpy as np

from reacthuman.core.validate import require_positive
from reacthuman.spine.g1_assets import (
    G1_JOINT_NAMES,
    LEFT_HAND_SITE,
    RIGHT_HAND_SITE,
    foot_geoms,
    g1_mjcf_path,
    lowest_foot_z,
    read_policy_metadata,
)

SIDES = ("left", "right")
_SOLVED = ("shoulder_pitch_joint", "shoulder_roll_joint", "shoulder_yaw_joint", "elbow_joint")


def arm_joint_indices(side: str) -> tuple[int, ...]:
    """Indices into G1_JOINT_NAMES of one arm's 7 joints (shoulder to wrist)."""
    return tuple(
        i
        for i, n in enumerate(G1_JOINT_NAMES)
        if n.startswith(f"{side}_") and any(k in n for k in ("shoulder", "elbow", "wrist"))
    )


@dataclass(frozen=True)
class ArmIKConfig:
    damping: float = 0.05  # DLS damping (m): keeps steps bounded near singular (straight-arm) poses
    max_iterations: int = 30
    tolerance_m: float = 1e-3
    max_step_rad: float = 0.3  # per iteration, per joint
    nullspace_gain: float = 0.1  # pull of the redundant DOF towards the default pose
    limit_margin_rad: float = 0.02

    def __post_init__(self) -> None:
        require_positive(self, ("damping", "tolerance_m", "max_step_rad", "limit_margin_rad"), "ArmIKConfig.")
        if self.max_iterations < 1:
            raise ValueError(f"ArmIKConfig.max_iterations must be >= 1, got {self.max_iterations}")
        if not 0 <= self.nullspace_gain <= 1:
            raise ValueError(f"ArmIKConfig.nullspace_gain must be in [0, 1], got {self.nullspace_gain}")


@dataclass(frozen=True)
class ArmSolution:
    q: tuple[float, ...]  # all 29 joints: the input posture with the arm joints replaced
    left_m: tuple[float, float, float]  # hand positions reached by q, robot frame
    right_m: tuple[float, float, float]
    left_error_m: float
    right_error_m: float
    # torques holding the arms against gravity in the solved posture (arm joints; 0 elsewhere), N m: the arm
    # gains are soft (kp ~14-17), so without them a raised arm sags ~10 cm below its target
    gravity_tau: tuple[float, ...]


def tilt_only(quat_wxyz: tuple[float, float, float, float]) -> np.ndarray:
    """The orientation with its yaw removed (roll and pitch kept)."""
    w, x, y, z = quat_wxyz
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    inv_yaw = np.array([math.cos(yaw / 2), 0.0, 0.0, -math.sin(yaw / 2)])
    out = np.zeros(4)
    mujoco.mju_mulQuat(out, inv_yaw, np.array([w, x, y, z], dtype=np.float64))
    return out / np.linalg.norm(out)


class ArmIK:
    def __init__(self, config: ArmIKConfig | None = None) -> None:
        self.config = config or ArmIKConfig()
        self.model = mujoco.MjModel.from_xml_path(str(g1_mjcf_path()))
        self.data = mujoco.MjData(self.model)
        names = tuple(mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_JOINT, j) for j in range(1, self.model.njnt))
        if names != G1_JOINT_NAMES:
            raise RuntimeError("the G1 MJCF's joint order differs from G1_JOINT_NAMES")
        self._qadr = np.array([self.model.jnt_qposadr[j] for j in range(1, self.model.njnt)])
        self._vadr = np.array([self.model.jnt_dofadr[j] for j in range(1, self.model.njnt)])
        self.limits = self.model.jnt_range[1:].copy()  # (29, 2) rad
        self.default_pose = np.asarray(read_policy_metadata().default_pose_rad)
        self._sites = {s: self.model.site(n).id for s, n in zip(SIDES, (LEFT_HAND_SITE, RIGHT_HAND_SITE))}
        self._solved = {s: np.array([G1_JOINT_NAMES.index(f"{s}_{j}") for j in _SOLVED]) for s in SIDES}
        self._feet = foot_geoms(self.model)
        self._arms = np.array(arm_joint_indices("left") + arm_joint_indices("right"))
        self._jac = np.zeros((3, self.model.nv))
        self._height_m = 0.0
        self._q = self.default_pose.copy()

    # --- posture -------------------------------------------------------------------------------------
    def _forward(self, q: np.ndarray) -> None:
        self.data.qpos[self._qadr] = q
        mujoco.mj_kinematics(self.model, self.data)
        mujoco.mj_comPos(self.model, self.data)

    def set_posture(
        self,
        q: "np.ndarray | tuple[float, ...]",
        base_quat_wxyz: tuple[float, float, float, float],
        arm_seed: "np.ndarray | tuple[float, ...] | None" = None,
    ) -> float:
        """Place the model in the measured posture; returns the pelvis height above the floor (m).

        arm_seed (29 joints) replaces the arm joints, so a solve warm-starts from the last commanded arm
        angles rather than the measured ones that lag behind them.
        """
        self.data.qpos[0:3] = 0.0
        self.data.qpos[3:7] = tilt_only(base_quat_wxyz)
        self._q = np.asarray(q, dtype=np.float64).copy()
        if arm_seed is not None:
            self._q[self._arms] = np.asarray(arm_seed, dtype=np.float64)[self._arms]
        self._forward(self._q)
        self._height_m = -lowest_foot_z(self.model, self.data, self._feet)
        return self._height_m

    def hand_positions(self) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """Both hands in the robot frame for the posture last set or solved."""
        return self._site_robot("left"), self._site_robot("right")

    def _site_robot(self, side: str) -> tuple[float, float, float]:
        x, y, z = self.data.site_xpos[self._sites[side]]
        return (float(x), float(y), float(z + self._height_m))

    # --- solving -------------------------------------------------------------------------------------
    def solve(
        self, left_target_m: "tuple[float, float, float] | None", right_target_m: "tuple[float, float, float] | None"
    ) -> ArmSolution:
        """Arm joints reaching the targets (robot frame) from the posture last set; None keeps an arm as is.

        The two arms do not share joints, so each is solved alone; joint limits are enforced every iteration,
        so an unreachable target ends at a nearby reachable point and the error says how far it stayed.
        """
        errors = {"left": 0.0, "right": 0.0}
        for side, target in zip(SIDES, (left_target_m, right_target_m)):
            if target is not None:
                errors[side] = self._solve_arm(side, np.asarray(target, dtype=np.float64))
        self._forward(self._q)
        left, right = self.hand_positions()
        bias = np.zeros(self.model.nv)
        mujoco.mj_rne(self.model, self.data, 0, bias)  # zero velocity and acceleration: gravity alone
        tau = np.zeros(len(self._q))
        tau[self._arms] = bias[self._vadr[self._arms]]
        return ArmSolution(
            tuple(float(v) for v in self._q), left, right, errors["left"], errors["right"], tuple(float(v) for v in tau)
        )

    def _solve_arm(self, side: str, target_robot: np.ndarray) -> float:
        cfg = self.config
        idx = self._solved[side]
        low = self.limits[idx, 0] + cfg.limit_margin_rad
        high = self.limits[idx, 1] - cfg.limit_margin_rad
        target = target_robot - np.array([0.0, 0.0, self._height_m])
        site = self._sites[side]
        cols = self._vadr[idx]
        error = math.inf
        for _ in range(cfg.max_iterations):
            self._forward(self._q)
            residual = target - self.data.site_xpos[site]
            error = float(np.linalg.norm(residual))
            if error < cfg.tolerance_m:
                break
            mujoco.mj_jacSite(self.model, self.data, self._jac, None, site)
            jac = self._jac[:, cols]
            inv = jac.T @ np.linalg.inv(jac @ jac.T + cfg.damping**2 * np.eye(3))
            step = inv @ residual
            # the redundant DOF drifts towards the default pose instead of wandering
            null = (np.eye(len(idx)) - inv @ jac) @ (self.default_pose[idx] - self._q[idx])
            step = np.clip(step + cfg.nullspace_gain * null, -cfg.max_step_rad, cfg.max_step_rad)
            self._q[idx] = np.clip(self._q[idx] + step, low, high)
        else:
            self._forward(self._q)
            error = float(np.linalg.norm(target - self.data.site_xpos[site]))
        return error
