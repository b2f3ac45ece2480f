"""Quaternion arithmetic of the scene generator: quaternions (w, x, y, z), vectors in metres or m/s.

Pure functions with no scene imports, so the builders, the object meshes and the labeller share them without
importing one another.
"""

from __future__ import annotations

import math

Vec3 = tuple[float, float, float]


def quat_axis_angle(axis: Vec3, angle_rad: float) -> tuple[float, float, float, float]:
    n = math.sqrt(sum(a * a for a in axis))
    s = math.sin(angle_rad / 2.0) / n
    return (math.cos(angle_rad / 2.0), axis[0] * s, axis[1] * s, axis[2] * s)


def quat_mul(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float]:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def rotate(q: tuple[float, ...], v: Vec3) -> Vec3:
    w, x, y, z = q
    # v' = v + 2w(u x v) + 2 u x (u x v), u = (x, y, z)
    cx, cy, cz = y * v[2] - z * v[1], z * v[0] - x * v[2], x * v[1] - y * v[0]
    dx, dy, dz = y * cz - z * cy, z * cx - x * cz, x * cy - y * cx
    return (v[0] + 2 * (w * cx + dx), v[1] + 2 * (w * cy + dy), v[2] + 2 * (w * cz + dz))


def to_body_frame(quat_wxyz: tuple[float, ...], v_world: Vec3) -> Vec3:
    """A world-frame vector in the frame of a body at orientation quat_wxyz (a free joint's angular velocity dofs
    are in this frame). The labeller and the body's engines all convert with it, so that a scene's initial
    velocities are the same to the bit wherever it is simulated."""
    w, x, y, z = quat_wxyz
    return rotate((w, -x, -y, -z), v_world)
