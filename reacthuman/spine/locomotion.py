"""The pre-trained G1 locomotion policy (holosoma-inference's PPO, ONNX) as a pure step function.

Observation, phase clock and action scaling follow the policy's metadata and its package's configuration
(read by `g1_assets.read_policy_metadata`): terms concatenated in sorted-name order, each times its scale;
two gait phases (left, right) advancing 2*pi per gait period, held at (pi, pi) while the command is zero
and restarted at (0, pi) when it becomes non-zero; joint target = default pose + action_scale * action.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reacthuman.spine.robot_state import RobotState
from reacthuman.spine.g1_assets import DEFAULT_WALKING_POLICY, PolicyMetadata, policy_session, read_policy_metadata

# Below this command norm the policy is asked to stand (the package's own threshold).
_STAND_THRESHOLD = 0.01
# The package clips raw actions to this magnitude before scaling.
_ACTION_CLIP = 100.0


@dataclass(frozen=True)
class VelocityCommand:
    vx_mps: float
    vy_mps: float
    yaw_rate_radps: float


class LocomotionPolicy:
    """Runs the ONNX policy at a fixed step `policy_dt_s`; one `step` per policy tick."""

    def __init__(
        self, policy_dt_s: float, metadata: PolicyMetadata | None = None, policy_name: str = DEFAULT_WALKING_POLICY
    ) -> None:
        if not policy_dt_s > 0:
            raise ValueError(f"policy_dt_s must be > 0, got {policy_dt_s}")
        self.meta = metadata or read_policy_metadata(policy_name)
        # one thread: deterministic and cheap (~1 ms per call), the machine's cores go to physics
        self._session = policy_session(policy_name, threads=1)
        self.policy_dt_s = policy_dt_s
        self._phase_dt = 2.0 * math.pi * policy_dt_s / self.meta.gait_period_s
        self.default_pose = np.asarray(self.meta.default_pose_rad, dtype=np.float64)
        self.reset()

    def reset(self) -> None:
        self.last_action = np.zeros(len(self.meta.dof_names), dtype=np.float32)
        self.phase = np.array([math.pi, math.pi])
        self._standing = True

    def clip_command(self, cmd: VelocityCommand) -> VelocityCommand:
        """The command the policy is trained on: each component clipped to the metadata's range."""
        r = self.meta.command_ranges
        return VelocityCommand(
            vx_mps=float(np.clip(cmd.vx_mps, *r["lin_vel_x"])),
            vy_mps=float(np.clip(cmd.vy_mps, *r["lin_vel_y"])),
            yaw_rate_radps=float(np.clip(cmd.yaw_rate_radps, *r["ang_vel_yaw"])),
        )

    def _advance_phase(self, cmd: VelocityCommand) -> None:
        self.phase = np.fmod(self.phase + self._phase_dt + math.pi, 2.0 * math.pi) - math.pi
        if math.hypot(cmd.vx_mps, cmd.vy_mps) < _STAND_THRESHOLD and abs(cmd.yaw_rate_radps) < _STAND_THRESHOLD:
            self.phase[:] = math.pi
            self._standing = True
        elif self._standing:
            self.phase = np.array([0.0, math.pi])
            self._standing = False

    def observation(
        self,
        state: RobotState,
        cmd: VelocityCommand,
        masked: np.ndarray | None = None,
        pose_offset_rad: np.ndarray | None = None,
    ) -> np.ndarray:
        """The policy input. Joints in `masked` are reported at the default pose, at rest: joints another
        controller drives (arms following IK) would otherwise put the policy far outside its training
        distribution (standing with both hands raised it shuffles and sways its torso by ~5 cm).
        `pose_offset_rad` is subtracted from the measured joint angles (and added to the targets by `step`):
        the policy balances a crouched body as if it stood at its default pose."""
        q = np.array(state.q, dtype=np.float64)
        dq = np.array(state.dq, dtype=np.float64)
        if pose_offset_rad is not None:
            q = q - pose_offset_rad
        if masked is not None:
            q[masked] = self.default_pose[masked]
            dq[masked] = 0.0
        terms = {
            "actions": self.last_action,
            "base_ang_vel": np.asarray(state.base_ang_vel_body),
            "command_ang_vel": np.array([cmd.yaw_rate_radps]),
            "command_lin_vel": np.array([cmd.vx_mps, cmd.vy_mps]),
            "cos_phase": np.cos(self.phase),
            "dof_pos": q - self.default_pose,
            "dof_vel": dq,
            "projected_gravity": np.asarray(state.projected_gravity()),
            "sin_phase": np.sin(self.phase),
        }
        parts = []
        for name in self.meta.obs_terms:
            if name not in terms:
                raise RuntimeError(f"the policy observes '{name}', which this wrapper does not provide")
            value = np.asarray(terms[name], dtype=np.float64) * self.meta.obs_scales.get(name, 1.0)
            if value.shape != (self.meta.obs_dims[name],):
                raise RuntimeError(f"observation term '{name}' has shape {value.shape}")
            parts.append(value)
        return np.concatenate(parts).astype(np.float32)[None, :]

    def step(
        self,
        state: RobotState,
        cmd: VelocityCommand,
        masked: np.ndarray | None = None,
        pose_offset_rad: np.ndarray | None = None,
    ) -> np.ndarray:
        """Advance one policy tick; returns the 29 joint position targets (rad). See `observation` for masked
        and pose_offset_rad."""
        cmd = self.clip_command(cmd)
        self._advance_phase(cmd)
        obs = self.observation(state, cmd, masked, pose_offset_rad)
        action = self._session.run([self.meta.output_name], {self.meta.input_name: obs})[0][0]
        action = np.clip(action, -_ACTION_CLIP, _ACTION_CLIP)
        self.last_action = action.astype(np.float32)
        target = self.default_pose + self.meta.action_scale * action.astype(np.float64)
        return target if pose_offset_rad is None else target + pose_offset_rad
