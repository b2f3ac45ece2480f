"""The simulated human: a kinematically animated capsule body with a head-mounted first-person camera.

Joints (set directly, never driven by physics): `H:x`, `H:y` slides, `H:yaw` hinge, `H:crouch` slide,
`H:lean` (torso pitch), `H:neck` (head pitch), hips, knees, shoulders, elbows. The right wrist carries
site `H:wrist`; a grasped object follows it. Geoms do not collide: routes and stances are checked on the
occupancy grid before the body moves (`grid.py`), so physics never pushes the body around.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

HIP_H_M = 0.9
SHIN_M = 0.45
THIGH_M = 0.45
TORSO_M = 0.5  # hip to shoulder
UPPER_ARM_M = 0.32
FOREARM_M = 0.34
SHOULDER_Y_M = 0.19
EYE_H_ABOVE_SHOULDER_M = 0.22
STRIDE_M = 1.2  # one full gait cycle
MAX_LEAN_RAD = 0.7
MAX_CROUCH_M = 0.7
BODY_RADIUS_M = 0.22
SKIN = "0.85 0.7 0.6 1"
CLOTH = "0.2 0.3 0.5 1"
NC = 'contype="0" conaffinity="0"'

HUMAN_JOINTS = (
    "H:x",
    "H:y",
    "H:yaw",
    "H:crouch",
    "H:lean",
    "H:neck",
    "H:hip_l",
    "H:knee_l",
    "H:hip_r",
    "H:knee_r",
    "H:shoulder_l",
    "H:elbow_l",
    "H:shoulder_r",
    "H:elbow_r",
)


def human_xml() -> str:
    leg = lambda s, y: (  # noqa: E731 - two mirrored legs
        f'<body name="H:thigh_{s}" pos="0 {y} {HIP_H_M}"><joint name="H:hip_{s}" type="hinge" axis="0 1 0"/>'
        f'<geom type="capsule" fromto="0 0 0 0 0 {-THIGH_M}" size="0.07" rgba="{CLOTH}" {NC}/>'
        f'<body name="H:shin_{s}" pos="0 0 {-THIGH_M}"><joint name="H:knee_{s}" type="hinge" axis="0 1 0"/>'
        f'<geom type="capsule" fromto="0 0 0 0 0 {-SHIN_M + 0.05}" size="0.055" rgba="{CLOTH}" {NC}/>'
        f'<geom type="box" pos="0.05 0 {-SHIN_M + 0.03}" size="0.11 0.045 0.03" rgba="0.1 0.1 0.1 1" {NC}/>'
        f"</body></body>"
    )
    arm = lambda s, y, extra: (  # noqa: E731
        f'<body name="H:upper_{s}" pos="0 {y} {TORSO_M}"><joint name="H:shoulder_{s}" type="hinge" axis="0 1 0"/>'
        f'<geom type="capsule" fromto="0 0 0 0 0 {-UPPER_ARM_M}" size="0.045" rgba="{CLOTH}" {NC}/>'
        f'<body name="H:fore_{s}" pos="0 0 {-UPPER_ARM_M}"><joint name="H:elbow_{s}" type="hinge" axis="0 1 0"/>'
        f'<geom type="capsule" fromto="0 0 0 0 0 {-FOREARM_M}" size="0.038" rgba="{SKIN}" {NC}/>'
        f"{extra}</body></body>"
    )
    eye_z = TORSO_M + EYE_H_ABOVE_SHOULDER_M
    return (
        '<body name="H:root" pos="0 0 0"><inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>'
        '<joint name="H:x" type="slide" axis="1 0 0"/><joint name="H:y" type="slide" axis="0 1 0"/>'
        '<joint name="H:yaw" type="hinge" axis="0 0 1"/>'
        '<body name="H:pelvis" pos="0 0 0"><inertial pos="0 0 0.9" mass="1" diaginertia="0.1 0.1 0.1"/><joint name="H:crouch" type="slide" axis="0 0 1"/>'
        + leg("l", 0.1)
        + leg("r", -0.1)
        + f'<body name="H:torso" pos="0 0 {HIP_H_M}"><joint name="H:lean" type="hinge" axis="0 1 0"/>'
        f'<geom type="capsule" fromto="0 0 0.05 0 0 {TORSO_M - 0.05}" size="0.16" rgba="{CLOTH}" {NC}/>'
        f'<body name="H:head" pos="0 0 {TORSO_M + 0.08}"><joint name="H:neck" type="hinge" axis="0 1 0"/>'
        f'<geom type="sphere" pos="0 0 0.14" size="0.1" rgba="{SKIN}" {NC}/>'
        f'<camera name="H:eye" pos="0.11 0 {eye_z - TORSO_M - 0.08:.3f}" xyaxes="0 -1 0 0 0 1" fovy="75"/>'
        "</body>"
        + arm("l", SHOULDER_Y_M, "")
        + arm("r", -SHOULDER_Y_M, f'<site name="H:wrist" pos="0 0 {-FOREARM_M}" size="0.02"/>')
        + "</body></body></body>"
    )


@dataclass(frozen=True)
class Pose:
    """Everything needed to set the body: base, posture, gaze and the right arm."""

    x: float
    y: float
    yaw: float
    crouch_m: float = 0.0
    lean_rad: float = 0.0
    neck_rad: float = 0.0
    gait_phase_rad: float = 0.0
    gait_amp: float = 0.0
    shoulder_r_rad: float = 0.0
    elbow_r_rad: float = 0.0

    def joint_values(self) -> dict[str, float]:
        swing = 0.45 * self.gait_amp * math.sin(self.gait_phase_rad)
        knee_l = 0.6 * self.gait_amp * max(0.0, math.sin(self.gait_phase_rad + math.pi / 2))
        knee_r = 0.6 * self.gait_amp * max(0.0, math.sin(self.gait_phase_rad - math.pi / 2))
        bend = min(1.0, self.crouch_m / MAX_CROUCH_M)
        return {
            "H:x": self.x,
            "H:y": self.y,
            "H:yaw": self.yaw,
            "H:crouch": -self.crouch_m,
            "H:lean": self.lean_rad,
            "H:neck": self.neck_rad,
            "H:hip_l": -swing - 0.9 * bend,
            "H:knee_l": knee_l + 1.6 * bend,
            "H:hip_r": swing - 0.9 * bend,
            "H:knee_r": knee_r + 1.6 * bend,
            "H:shoulder_l": 0.3 * swing,
            "H:elbow_l": -0.2,
            "H:shoulder_r": self.shoulder_r_rad if self.shoulder_r_rad else -0.3 * swing,
            "H:elbow_r": self.elbow_r_rad if self.shoulder_r_rad else -0.2,
        }


def gait_phase(distance_m: float) -> float:
    """Distance-phased gait: the legs' phase is a function of distance walked, not time."""
    return 2 * math.pi * distance_m / STRIDE_M


def reach_posture(horizontal_m: float, height_m: float) -> tuple[float, float, float, float] | None:
    """Crouch, lean, shoulder and elbow angles that put the right wrist at (horizontal_m ahead of the right
    shoulder's base line, height_m above the floor), or None when no posture reaches it.

    Posture adapts to the target: crouch for low targets, lean for far ones, then planar two-link IK.
    """
    for crouch in (0.0, 0.15, 0.3, 0.45, 0.6, MAX_CROUCH_M):
        if crouch > 0 and height_m > HIP_H_M + TORSO_M - UPPER_ARM_M - crouch + 0.2:
            continue
        for lean in (0.0, 0.2, 0.4, 0.55, MAX_LEAN_RAD):
            sx = TORSO_M * math.sin(lean)
            sz = HIP_H_M - crouch + TORSO_M * math.cos(lean)
            dx, dz = horizontal_m - sx, height_m - sz
            r = math.hypot(dx, dz)
            if r > UPPER_ARM_M + FOREARM_M - 0.01 or r < 0.1:
                continue
            cos_e = (r * r - UPPER_ARM_M**2 - FOREARM_M**2) / (2 * UPPER_ARM_M * FOREARM_M)
            elbow = math.acos(max(-1.0, min(1.0, cos_e)))
            # angle of the target from straight down, forward positive
            to_target = math.atan2(dx, -dz)
            k = math.atan2(FOREARM_M * math.sin(elbow), UPPER_ARM_M + FOREARM_M * math.cos(elbow))
            upper = to_target - k  # elbow below the line, forearm flexed forward as a person's is
            # joint sign: rotating about +y by -a swings a hanging arm forward by a; the arm rides on the
            # leaning torso, so the lean is taken off the shoulder angle
            return crouch, lean, -upper - lean, -elbow
    return None
