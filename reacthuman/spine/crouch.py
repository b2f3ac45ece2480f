"""The crouch a plan's knee_bend asks for, as an offset of the leg joints from the walking policy's pose.

The policy takes no height command. A crouch is the policy's own standing (or walking) posture with both
legs folded symmetrically, hip pitch -a, knee +2a, ankle pitch -a: the shin and thigh tilt by the same
angle, so the feet stay flat and the pelvis drops straight down with the torso upright. The policy is shown
the measured angles minus this offset and its targets get the offset added (LocomotionPolicy.step), so it
keeps balancing the lowered body as if it stood at its default pose. Measured in Genesis (docs/spine-and-body.md,
"Every plan field is executed"): pelvis 0.759 m standing, 0.706 m at a = 0.15 rad, 0.637 m at 0.30, 0.568 m at 0.45.
"""

from __future__ import annotations

import numpy as np

from reacthuman.spine.g1_assets import G1_JOINT_NAMES

# joint -> multiple of the crouch angle a
_FOLD = {"hip_pitch": -1.0, "knee": 2.0, "ankle_pitch": -1.0}
_FOLD_VECTOR = np.zeros(len(G1_JOINT_NAMES))
for _side in ("left", "right"):
    for _joint, _factor in _FOLD.items():
        _FOLD_VECTOR[G1_JOINT_NAMES.index(f"{_side}_{_joint}_joint")] = _factor


def crouch_angle_rad(knee_bend: float, rad_per_knee_bend: float, max_rad: float) -> float:
    """The fold angle a for a plan's knee_bend, within [0, max_rad] (the measured stable range)."""
    return float(min(max(knee_bend * rad_per_knee_bend, 0.0), max_rad))


def crouch_offset_rad(angle_rad: float) -> np.ndarray:
    """Offsets of all 29 joints (policy order) for fold angle a: zero outside hip pitch, knee, ankle pitch."""
    return _FOLD_VECTOR * angle_rad
