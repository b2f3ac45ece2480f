"""The TF tree of an episode: what /tf_static and /tf carry, as tf2_msgs/msg/TFMessage.

Frames (all metres; the scene spec's world frame is the root):
- `world`: the spec's world frame (z up, floor at z = 0).
- `scene/<body>`: every body of the scene spec. Bodies welded to the world (room, furniture) and moving
  bodies whose state the body node does not stream (props, triggers) are static at their spec pose; the
  hazard bodies move with /reacthuman/hazard_state.
- `<view>` (egocentric, closeup, overhead): each camera's optical frame (z forward, x right, y down, the
  sensor_msgs/Image convention), the frame_id the body stamps on its images and camera infos. All three
  are static in `world`, the egocentric one included although it is the G1's head camera: frames are
  rendered and published only during the observation window, from the spec's fixed pose at the standing
  G1's eyes (scenes.cameras.place_cameras), so a child of `head_link` would drift by the robot's sway
  from where the images were taken. (The execution video's egocentric camera does ride on the torso,
  but it is an mp4 beside the bag, not an image topic with a frame.)
- the G1's URDF links: `pelvis` from /g1/base_state, the others from /g1/joint_states through the URDF's
  joints (fixed ones static).
"""

from __future__ import annotations

import math
from typing import Any

from reacthuman import ros_contract as graph
from reacthuman.recording import ros_msgs as rm
from reacthuman.recording import urdf

WORLD_FRAME = graph.WORLD_FRAME  # the frame the body stamps on its world-frame states
SCENE_PREFIX = "scene/"
TF_TYPE = "tf2_msgs/msg/TFMessage"


def scene_frame(body_name: str) -> str:
    return SCENE_PREFIX + body_name


def _wxyz_to_xyzw(q: Any) -> urdf.Quat:
    w, x, y, z = (float(c) for c in q)
    return (x, y, z, w)


def _camera_optical(cam: dict) -> urdf.Transform:
    """World -> camera optical frame from the spec's pos/lookat (the same basis as scenes.cameras.project:
    world z is up unless the camera looks straight down, then world +x)."""
    pos = tuple(float(c) for c in cam["pos"])
    f = [look - c for look, c in zip((float(c) for c in cam["lookat"]), pos)]
    n = math.sqrt(sum(c * c for c in f)) or 1.0
    f = [c / n for c in f]
    up = (0.0, 0.0, 1.0) if abs(f[2]) < 0.99 else (1.0, 0.0, 0.0)
    r = [f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0]]
    n = math.sqrt(sum(c * c for c in r)) or 1.0
    r = [c / n for c in r]
    u = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]]
    down = [-c for c in u]
    # Columns of the rotation: the optical x (right), y (down), z (forward) axes in world coordinates.
    return urdf.Transform(WORLD_FRAME, str(cam["name"]), pos, _matrix_to_quat(r, down, f))  # type: ignore[arg-type]


def _matrix_to_quat(cx: list[float], cy: list[float], cz: list[float]) -> urdf.Quat:
    m = [[cx[0], cy[0], cz[0]], [cx[1], cy[1], cz[1]], [cx[2], cy[2], cz[2]]]
    trace = m[0][0] + m[1][1] + m[2][2]
    if trace > 0:
        s = 2.0 * math.sqrt(trace + 1.0)
        return ((m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s)
    i = max(range(3), key=lambda k: m[k][k])
    j, k = (i + 1) % 3, (i + 2) % 3
    s = 2.0 * math.sqrt(1.0 + m[i][i] - m[j][j] - m[k][k])
    q = [0.0, 0.0, 0.0, (m[k][j] - m[j][k]) / s]
    q[i], q[j], q[k] = 0.25 * s, (m[j][i] + m[i][j]) / s, (m[k][i] + m[i][k]) / s
    return (q[0], q[1], q[2], q[3])


def scene_static_transforms(spec: dict) -> list[urdf.Transform]:
    """Every scene body that is not a streamed hazard, and the three cameras."""
    hazards = set(spec.get("hazard_bodies", ()))
    out = [
        urdf.Transform(
            WORLD_FRAME,
            scene_frame(b["name"]),
            tuple(float(c) for c in b["pos"]),  # type: ignore[arg-type]
            _wxyz_to_xyzw(b.get("quat", (1.0, 0.0, 0.0, 0.0))),
        )
        for b in spec.get("bodies", ())
        if b["name"] not in hazards
    ]
    out += [_camera_optical(c) for c in spec.get("cameras", ())]
    return out


def hazard_initial_transforms(spec: dict) -> list[urdf.Transform]:
    """The hazards at their spec pose: /tf before the first streamed state (the scene's t = 0)."""
    hazards = set(spec.get("hazard_bodies", ()))
    return [
        urdf.Transform(
            WORLD_FRAME,
            scene_frame(b["name"]),
            tuple(float(c) for c in b["pos"]),  # type: ignore[arg-type]
            _wxyz_to_xyzw(b.get("quat", (1.0, 0.0, 0.0, 0.0))),
        )
        for b in spec.get("bodies", ())
        if b["name"] in hazards
    ]


def robot_static_transforms() -> list[urdf.Transform]:
    return urdf.static_transforms(urdf.g1_joints())


def robot_transforms(
    base_pos: tuple[float, float, float], base_quat_xyzw: urdf.Quat, joint_positions: dict[str, float]
) -> list[urdf.Transform]:
    """world -> pelvis from the floating base, then every moving URDF joint at its recorded angle."""
    joints = urdf.g1_joints()
    root = urdf.Transform(WORLD_FRAME, urdf.root_link(joints), base_pos, base_quat_xyzw)
    return [root] + urdf.moving_transforms(joints, joint_positions)


def tf_message(transforms: list[urdf.Transform], stamp_ns: int) -> Any:
    items = [
        rm.build(
            "geometry_msgs/msg/TransformStamped",
            header=rm.header(stamp_ns, t.parent),
            child_frame_id=t.child,
            transform=rm.build(
                "geometry_msgs/msg/Transform",
                translation=rm.vector3(t.translation),
                rotation=rm.quaternion_xyzw(t.rotation),
            ),
        )
        for t in transforms
    ]
    return rm.build(TF_TYPE, transforms=items)
