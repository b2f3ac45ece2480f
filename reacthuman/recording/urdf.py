"""The G1's URDF (from the installed holosoma package, read at run time) and its forward kinematics.

The bags carry this URDF as /robot_description and the link transforms it implies as /tf, so a viewer
draws the robot exactly where the simulator had it: each revolute joint's transform is its URDF origin
followed by a rotation of the recorded joint angle about its axis (what robot_state_publisher computes),
and fixed joints go to /tf_static. Mesh paths are rewritten to absolute file:// URIs of the installed
package: a viewer on the same machine loads them; nothing is copied into the repository or the bag.

Frames: metres; quaternions here are (x, y, z, w), the geometry_msgs order.
"""

from __future__ import annotations

import importlib.util
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

Quat = tuple[float, float, float, float]  # x, y, z, w
Vec3 = tuple[float, float, float]


class UrdfError(ValueError):
    pass


@dataclass(frozen=True)
class UrdfJoint:
    name: str
    kind: str  # revolute | continuous | prismatic | fixed
    parent: str
    child: str
    xyz: Vec3
    quat: Quat  # the origin's rotation
    axis: Vec3


@dataclass(frozen=True)
class Transform:
    parent: str
    child: str
    translation: Vec3
    rotation: Quat


def g1_urdf_path() -> Path:
    spec = importlib.util.find_spec("holosoma")
    if spec is None or spec.origin is None:
        raise UrdfError("package 'holosoma' is not installed (tools/bootstrap.sh installs it)")
    path = Path(spec.origin).parent / "data" / "robots" / "g1" / "g1_29dof.urdf"
    if not path.is_file():
        raise UrdfError(f"the installed holosoma package lacks {path}")
    return path


@lru_cache(maxsize=1)
def g1_robot_description() -> str:
    """The URDF text with every relative mesh filename made an absolute file:// URI."""
    path = g1_urdf_path()
    base = path.parent

    def absolute(m: re.Match) -> str:
        name = m.group(1)
        if "://" in name:
            return m.group(0)
        return f'filename="{(base / name).resolve().as_uri()}"'

    return re.sub(r'filename="([^"]+)"', absolute, path.read_text())


def rpy_to_quat(roll: float, pitch: float, yaw: float) -> Quat:
    """URDF rpy (fixed axes x, then y, then z) as a quaternion (x, y, z, w)."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    )


def quat_mul(a: Quat, b: Quat) -> Quat:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def axis_angle_quat(axis: Vec3, angle_rad: float) -> Quat:
    n = math.sqrt(sum(c * c for c in axis)) or 1.0
    s = math.sin(angle_rad / 2) / n
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle_rad / 2))


def quat_rotate(q: Quat, v: Vec3) -> Vec3:
    x, y, z, w = q
    r = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )
    return tuple(float(c) for c in r @ np.asarray(v, dtype=float))  # type: ignore[return-value]


def compose(a: Transform, b: Transform) -> Transform:
    """a (parent -> mid) then b (mid -> child)."""
    t = quat_rotate(a.rotation, b.translation)
    return Transform(
        a.parent,
        b.child,
        tuple(x + y for x, y in zip(a.translation, t)),  # type: ignore[arg-type]
        quat_mul(a.rotation, b.rotation),
    )


def _floats(text: str | None, n: int, where: str) -> tuple[float, ...]:
    values = tuple(float(v) for v in (text or " ".join(["0"] * n)).split())
    if len(values) != n:
        raise UrdfError(f"{where} needs {n} numbers, got {text!r}")
    return values


def parse_joints(urdf_text: str) -> tuple[UrdfJoint, ...]:
    root = ET.fromstring(urdf_text)
    joints = []
    for j in root.iter("joint"):
        name = j.get("name", "")
        origin = j.find("origin")
        xyz = _floats(origin.get("xyz") if origin is not None else None, 3, f"joint {name} origin xyz")
        rpy = _floats(origin.get("rpy") if origin is not None else None, 3, f"joint {name} origin rpy")
        axis_el = j.find("axis")
        axis = _floats(axis_el.get("xyz") if axis_el is not None else "1 0 0", 3, f"joint {name} axis")
        parent, child = j.find("parent"), j.find("child")
        if parent is None or child is None:
            raise UrdfError(f"joint {name} lacks a parent or child link")
        joints.append(
            UrdfJoint(
                name,
                j.get("type", "fixed"),
                parent.get("link", ""),
                child.get("link", ""),
                xyz,
                rpy_to_quat(*rpy),
                axis,
            )
        )  # type: ignore[arg-type]
    return tuple(joints)


@lru_cache(maxsize=1)
def g1_joints() -> tuple[UrdfJoint, ...]:
    return parse_joints(g1_robot_description())


def root_link(joints: tuple[UrdfJoint, ...]) -> str:
    children = {j.child for j in joints}
    roots = sorted({j.parent for j in joints} - children)
    if len(roots) != 1:
        raise UrdfError(f"the URDF must have one root link, found {roots}")
    return roots[0]


def joint_transform(joint: UrdfJoint, position: float = 0.0) -> Transform:
    if joint.kind in ("revolute", "continuous"):
        rotation = quat_mul(joint.quat, axis_angle_quat(joint.axis, position))
        return Transform(joint.parent, joint.child, joint.xyz, rotation)
    if joint.kind == "prismatic":
        shift = tuple(o + a * position for o, a in zip(joint.xyz, joint.axis))
        return Transform(joint.parent, joint.child, shift, joint.quat)  # type: ignore[arg-type]
    return Transform(joint.parent, joint.child, joint.xyz, joint.quat)


def static_transforms(joints: tuple[UrdfJoint, ...]) -> list[Transform]:
    return [joint_transform(j) for j in joints if j.kind == "fixed"]


def moving_transforms(joints: tuple[UrdfJoint, ...], positions: dict[str, float]) -> list[Transform]:
    """Parent-to-child transforms of every moving joint at the given angles (rad); a joint missing from
    `positions` is an error, so a renamed joint cannot silently freeze a link."""
    out = []
    for j in joints:
        if j.kind == "fixed":
            continue
        if j.name not in positions:
            raise UrdfError(f"no position for joint {j.name!r} in the joint state")
        out.append(joint_transform(j, float(positions[j.name])))
    return out


def link_poses(root_pose: Transform, transforms: list[Transform]) -> dict[str, Transform]:
    """World poses of every link reachable from root_pose.child through the given transforms."""
    by_parent: dict[str, list[Transform]] = {}
    for t in transforms:
        by_parent.setdefault(t.parent, []).append(t)
    poses, stack = {root_pose.child: root_pose}, [root_pose.child]
    while stack:
        link = stack.pop()
        for t in by_parent.get(link, []):
            poses[t.child] = compose(poses[link], t)
            stack.append(t.child)
    return poses
