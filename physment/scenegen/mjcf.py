"""MJCF fragments for generated scenes: every dynamic object is a body named object_{id} with a free joint
(pendulum bobs and spring masses carry a hinge or slide joint instead, which the prompt's tools report)."""

from __future__ import annotations

import math

from reacthuman.core.physics import GRAVITY_MPS2

TIMESTEP_S = 0.005  # the paper's fixed timestep; collision scenes use a finer one for bounce accuracy
# elliptic friction cones with a high impratio: static friction holds without creep (pyramidal cones let a
# block creep under a sub-threshold push and put sliding thresholds ~25 % low)
FINE_TIMESTEP_S = 0.001
ELASTIC_SOLREF = "-200000 0"  # stiffness, zero damping: a near-elastic contact


def _f(x: float) -> str:
    return f"{x:.6g}"


def vec(v: tuple[float, ...] | list[float]) -> str:
    return " ".join(_f(x) for x in v)


def scene_xml(
    model: str, body: str, timestep_s: float = TIMESTEP_S, gravity: tuple = (0, 0, -GRAVITY_MPS2), floor: str = ""
) -> str:
    return (
        f'<mujoco model="{model}">\n  <compiler angle="radian"/>\n'
        f'  <option timestep="{_f(timestep_s)}" gravity="{vec(gravity)}" integrator="implicitfast" cone="elliptic" impratio="10"/>\n'
        f'  <worldbody>\n    <light pos="0 0 5" dir="0 0 -1"/>\n{floor}{body}  </worldbody>\n</mujoco>\n'
    )


def floor(friction: float = 1.0, solref: str = "", tilt_rad: float = 0.0) -> str:
    extra = f' solref="{solref}"' if solref else ""
    euler = f' euler="0 {_f(tilt_rad)} 0"' if tilt_rad else ""
    return (
        f'    <geom name="floor" type="plane" size="50 50 0.1" friction="{_f(friction)} 0.005 0.0001"'
        f'{euler}{extra} rgba="0.8 0.8 0.8 1"/>\n'
    )


def free_body(oid: int, geom: str, pos: tuple, rgba: str = "0.2 0.4 0.8 1", **geom_attrs: object) -> str:
    attrs = "".join(f' {k}="{v}"' for k, v in geom_attrs.items())
    return (
        f'    <body name="object_{oid}" pos="{vec(pos)}">\n'
        f'      <freejoint name="object_{oid}_joint"/>\n'
        f'      <geom type="{geom}" rgba="{rgba}"{attrs}/>\n    </body>\n'
    )


def sphere(oid: int, pos: tuple, radius: float, rgba: str = "0.2 0.4 0.8 1", **attrs: object) -> str:
    return free_body(oid, "sphere", pos, rgba, size=_f(radius), **attrs)


def box(oid: int, pos: tuple, half: tuple, rgba: str = "0.8 0.4 0.2 1", **attrs: object) -> str:
    return free_body(oid, "box", pos, rgba, size=vec(half), **attrs)


def cylinder(
    oid: int, pos: tuple, radius: float, half_height: float, rgba: str = "0.5 0.5 0.5 1", **attrs: object
) -> str:
    return free_body(oid, "cylinder", pos, rgba, size=f"{_f(radius)} {_f(half_height)}", **attrs)


def pendulum(oid: int, pivot: tuple, length_m: float, angle_rad: float, bob_mass_kg: float) -> str:
    """A bob on a massless rod: the body sits at the bob, the hinge at the pivot (y axis), released at angle."""
    bx = pivot[0] + length_m * math.sin(angle_rad)
    bz = pivot[2] - length_m * math.cos(angle_rad)
    rel = (pivot[0] - bx, 0.0, pivot[2] - bz)
    return (
        f'    <body name="object_{oid}" pos="{vec((bx, pivot[1], bz))}">\n'
        f'      <joint name="object_{oid}_joint" type="hinge" axis="0 1 0" pos="{vec(rel)}"/>\n'
        f'      <geom type="sphere" size="0.03" mass="{_f(bob_mass_kg)}" rgba="0.9 0.2 0.2 1"/>\n'
        f"    </body>\n"
    )


def spring_mass(oid: int, pos: tuple, mass_kg: float, stiffness_n_m: float, offset_m: float) -> str:
    """A block on a horizontal spring (a slide joint along x), released offset_m from equilibrium."""
    return (
        f'    <body name="object_{oid}" pos="{vec((pos[0] + offset_m, pos[1], pos[2]))}">\n'
        f'      <joint name="object_{oid}_joint" type="slide" axis="1 0 0" stiffness="{_f(stiffness_n_m)}" '
        f'springref="{_f(-offset_m)}"/>\n'
        f'      <geom type="box" size="0.05 0.05 0.05" mass="{_f(mass_kg)}" contype="0" conaffinity="0" '
        f'rgba="0.3 0.7 0.3 1"/>\n    </body>\n'
    )
