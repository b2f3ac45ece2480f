"""Standard-modality templates, Easy Single and Easy Multi."""

from __future__ import annotations

import math

from physment.scenegen import mjcf
from physment.scenegen.registry import Draft, call, scene_template, sig
from reacthuman.core.physics import GRAVITY_MPS2

G = GRAVITY_MPS2


def perms(mass: bool = False, friction: bool = False, density: bool = False, hidden: bool = False) -> dict:
    out = {
        "geom_type": True,
        "body_pos": True,
        "size": True,
        "body_mass": mass,
        "friction": friction,
        "density": density,
    }
    if hidden:
        out["hidden"] = True
    return out


def answer(value: object) -> list[dict]:
    return [call("answer", answer=value)]


# ---- Easy Single -----------------------------------------------------------------------------------------
def _fall_build(p: dict) -> Draft:
    h = 0.5 * G * p["t"] ** 2 + 1.0
    xml = mjcf.scene_xml("free_fall", mjcf.sphere(1, (0, 0, h), 0.05, density=p["density"]), floor=mjcf.floor())
    return Draft(
        "Free Fall Speed",
        f"Object 1, a ball, is released from rest. What is its speed in m/s after {p['t']:g} s of free fall?",
        xml,
        [(1, "ball", perms())],
        "Step the simulation for the stated time and read the ball's velocity.",
        "In free fall the speed grows linearly with time, v = g t.",
    )


@scene_template(
    "fall_speed",
    "Easy",
    "Single",
    "standard",
    "kinematics",
    "calculation",
    build=_fall_build,
    params=[{"t": t, "density": d} for t, d in ((0.4, 1000), (0.6, 2000), (0.8, 700), (1.0, 7800), (1.2, 300))],
)
def _fall_solve(p: dict):
    r = yield [call("step", duration=p["t"]), call("get_velocity", object_id=1)]
    yield answer(sig(r[1]["speed_m_s"]))


def _push_build(p: dict) -> Draft:
    half = p["half"]
    xml = mjcf.scene_xml(
        "push_mass", mjcf.box(1, (0, 0, 1), (half, half, half), density=p["density"]), gravity=(0, 0, 0)
    )
    return Draft(
        "Mass From a Push",
        "Object 1 is a box floating at rest where there is no gravity. Its mass is "
        "not given. Determine its mass in kg by experiment.",
        xml,
        [(1, "box", perms())],
        "Apply a known force for a known time, measure the velocity, and use m = F t / v.",
        "Newton's second law: impulse equals change in momentum.",
    )


@scene_template(
    "push_mass",
    "Easy",
    "Single",
    "standard",
    "newton",
    "calculation",
    build=_push_build,
    params=[{"density": d, "half": h} for d, h in ((200, 0.1), (500, 0.15), (800, 0.08), (1500, 0.1), (2700, 0.05))],
)
def _push_solve(p: dict):
    f_n, t_s = 10.0, 1.0
    r = yield [
        call("apply_force", object_id=1, force_vector=[f_n, 0, 0], duration=t_s),
        call("step", duration=t_s),
        call("get_velocity", object_id=1),
    ]
    yield answer(sig(f_n * t_s / r[2]["linear_velocity_m_s"][0]))


def _incline_z(radius: float, angle: float, x: float = 0.0) -> float:
    return -x * math.tan(angle) + radius / math.cos(angle) + 0.002


def _hollow_build(p: dict) -> Draft:
    a, r = p["angle"], 0.1
    balls = ""
    for oid, y in ((1, -0.5), (2, 0.5)):
        shell = "true" if oid == p["hollow"] else "false"
        balls += mjcf.sphere(oid, (0, y, _incline_z(r, a)), r, mass="1", shellinertia=shell)
    xml = mjcf.scene_xml("hollow_or_solid", balls, timestep_s=0.002, floor=mjcf.floor(1.0, tilt_rad=a))
    return Draft(
        "Hollow or Solid",
        "Objects 1 and 2 are spheres of equal mass and radius resting side by side "
        "on an inclined plane. One is a thin hollow shell, the other is solid. Which one is hollow?",
        xml,
        [(1, "sphere A", perms(mass=True)), (2, "sphere B", perms(mass=True))],
        "Let both roll and compare how far each travels; the hollow one lags.",
        "A hollow sphere has a larger moment of inertia (2/3 m r^2 vs 2/5 m r^2), so it accelerates less.",
    )


@scene_template(
    "hollow_or_solid",
    "Easy",
    "Single",
    "standard",
    "rotation",
    "comparison",
    build=_hollow_build,
    params=[{"angle": a, "hollow": h} for a, h in ((0.2, 1), (0.25, 2), (0.3, 2), (0.35, 1), (0.4, 2))],
)
def _hollow_solve(p: dict):
    r = yield [call("step", duration=1.0), call("get_displacement", object_id=1), call("get_displacement", object_id=2)]
    yield answer(1 if r[1]["distance_m"] < r[2]["distance_m"] else 2)


def _heavier_build(p: dict) -> Draft:
    d1, d2 = p["densities"]
    body = mjcf.box(1, (0, -0.5, 1), (0.1, 0.1, 0.1), density=d1) + mjcf.box(
        2, (0, 0.5, 1), (0.1, 0.1, 0.1), density=d2, rgba="0.2 0.8 0.4 1"
    )
    xml = mjcf.scene_xml("which_heavier", body, gravity=(0, 0, 0))
    return Draft(
        "Which Is Heavier",
        "Objects 1 and 2 are identical-looking boxes floating where there is no "
        "gravity. Which one has the greater mass?",
        xml,
        [(1, "box A", perms()), (2, "box B", perms())],
        "Push both with the same force for the same time and compare their speeds.",
        "For the same impulse, the heavier box gains less speed.",
    )


@scene_template(
    "which_heavier",
    "Easy",
    "Single",
    "standard",
    "newton",
    "comparison",
    build=_heavier_build,
    params=[{"densities": d} for d in ((500, 800), (1200, 700), (300, 310 * 1.5), (2000, 1000), (900, 2500))],
)
def _heavier_solve(p: dict):
    push = dict(force_vector=[5.0, 0, 0], duration=0.5)
    r = yield [
        call("apply_force", object_id=1, **push),
        call("apply_force", object_id=2, **push),
        call("step", duration=0.5),
        call("get_velocity", object_id=1),
        call("get_velocity", object_id=2),
    ]
    yield answer(1 if r[3]["speed_m_s"] < r[4]["speed_m_s"] else 2)


def _collide_build(p: dict) -> Draft:
    r1, d2 = 0.1, 1000.0
    body = mjcf.sphere(1, (0, 0, 1), r1, density=d2 * p["ratio"], solref=mjcf.ELASTIC_SOLREF) + mjcf.sphere(
        2, (0.6, 0, 1), r1, density=d2, solref=mjcf.ELASTIC_SOLREF, rgba="0.9 0.6 0.1 1"
    )
    xml = mjcf.scene_xml("collision_outcome", body, timestep_s=mjcf.FINE_TIMESTEP_S, gravity=(0, 0, 0))
    return Draft(
        "Collision Outcome",
        "Give object 1 a velocity of 1 m/s along +x so that it hits object 2, "
        "which is at rest. After the collision, what does object 1 do? Answer with one word: stops, "
        "reverses or continues.",
        xml,
        [(1, "ball 1", perms(mass=True)), (2, "ball 2", perms(mass=True))],
        "Launch object 1, step past the collision, and read its velocity.",
        "In an elastic collision a lighter ball bounces back, an equal one stops, a heavier one goes on.",
    )


@scene_template(
    "collision_outcome",
    "Easy",
    "Single",
    "standard",
    "momentum",
    "observation",
    build=_collide_build,
    params=[{"ratio": r} for r in (0.5, 1.0, 2.0, 0.25, 3.0)],
)
def _collide_solve(p: dict):
    r = yield [
        call("set_velocity", object_id=1, velocity_vector=[1.0, 0, 0]),
        call("step", duration=1.5),
        call("get_velocity", object_id=1),
    ]
    vx = r[2]["linear_velocity_m_s"][0]
    yield answer("reverses" if vx < -0.05 else "stops" if vx <= 0.05 else "continues")


def _slide_or_stay_build(p: dict) -> Draft:
    m, mu = p["mass"], p["mu"]
    body = mjcf.box(1, (0, 0, 0.1), (0.1, 0.1, 0.1), mass=f"{m:g}", friction=f"{mu:g} 0.005 0.0001")
    xml = mjcf.scene_xml("slide_or_stay", body, floor=mjcf.floor(mu))
    force = sig(p["ratio"] * mu * m * G, 3)
    return Draft(
        "Slide or Stay",
        f"Push object 1, a block resting on the floor, with a horizontal force of "
        f"{force:g} N along +x for 1 s. Does it slide or stay? Answer slides or stays.",
        xml,
        [(1, "block", perms(mass=True))],
        "Apply the force, step, and check the displacement.",
        "The block slides only if the push exceeds the maximum static friction mu m g.",
    )


@scene_template(
    "slide_or_stay",
    "Easy",
    "Single",
    "standard",
    "friction",
    "observation",
    build=_slide_or_stay_build,
    params=[
        {"mass": m, "mu": mu, "ratio": k}
        for m, mu, k in ((1.0, 0.5, 0.5), (2.0, 0.3, 1.6), (0.5, 0.8, 0.7), (3.0, 0.4, 2.0), (1.5, 0.6, 0.3))
    ],
)
def _slide_or_stay_solve(p: dict):
    force = sig(p["ratio"] * p["mu"] * p["mass"] * G, 3)
    r = yield [
        call("apply_force", object_id=1, force_vector=[force, 0, 0], duration=1.0),
        call("step", duration=1.0),
        call("get_displacement", object_id=1),
    ]
    yield answer("slides" if r[2]["distance_m"] > 0.02 else "stays")


# ---- Easy Multi ------------------------------------------------------------------------------------------
def _slide_build(p: dict) -> Draft:
    mu = p["mu"]
    body = mjcf.box(1, (0, 0, 0.1), (0.1, 0.1, 0.1), density=500, friction=f"{mu:g} 0.005 0.0001")
    xml = mjcf.scene_xml("slide_distance", body, floor=mjcf.floor(mu))
    return Draft(
        "Sliding Distance",
        f"Launch object 1, a block on a rough floor, along +x at {p['v0']:g} m/s. "
        "How far in metres does it slide before it stops?",
        xml,
        [(1, "block", perms(mass=True))],
        "Set the velocity, step until the block has stopped, and read its displacement.",
        "Friction removes the kinetic energy: d = v0^2 / (2 mu g).",
    )


@scene_template(
    "slide_distance",
    "Easy",
    "Multi",
    "standard",
    "friction",
    "calculation",
    build=_slide_build,
    params=[{"mu": mu, "v0": v} for mu, v in ((0.2, 2.0), (0.3, 3.0), (0.5, 2.5), (0.4, 1.5), (0.25, 4.0))],
)
def _slide_solve(p: dict):
    t_s = p["v0"] / (p["mu"] * G) + 1.0
    r = yield [
        call("set_velocity", object_id=1, velocity_vector=[p["v0"], 0, 0]),
        call("step", duration=t_s),
        call("get_displacement", object_id=1),
    ]
    yield answer(sig(r[2]["distance_m"]))


def _spin_build(p: dict) -> Draft:
    body = mjcf.cylinder(1, (0, 0, 1), p["radius"], 0.05, mass=f"{p['mass']:g}")
    xml = mjcf.scene_xml("spin_up", body, timestep_s=0.002, gravity=(0, 0, 0))
    return Draft(
        "Spin Up a Disk",
        f"Apply a torque of {p['torque']:g} N*m about the z axis to object 1, a disk, "
        f"for {p['t']:g} s. Report [angular speed in rad/s, rotational energy in J] at the end.",
        xml,
        [(1, "disk", perms(mass=True))],
        "Apply the torque for the stated time, read the angular velocity and the rotational energy.",
        "Angular impulse gives I w = tau t; rotational energy is I w^2 / 2.",
    )


@scene_template(
    "spin_up",
    "Easy",
    "Multi",
    "standard",
    "rotation",
    "computation",
    build=_spin_build,
    params=[
        {"radius": r, "mass": m, "torque": tq, "t": t}
        for r, m, tq, t in (
            (0.2, 2.0, 0.5, 1.0),
            (0.3, 1.0, 0.2, 2.0),
            (0.15, 3.0, 1.0, 0.5),
            (0.25, 4.0, 2.0, 1.5),
            (0.1, 0.5, 0.05, 1.0),
        )
    ],
)
def _spin_solve(p: dict):
    r = yield [
        call("get_parameters", object_id=1),
        call("apply_torque", object_id=1, torque_vector=[0, 0, p["torque"]], duration=p["t"]),
        call("step", duration=p["t"]),
        call("get_velocity", object_id=1),
    ]
    mass, w = r[0]["mass_kg"], abs(r[3]["angular_velocity_rad_s"][2])
    r2 = yield [call("get_rotational_energy", object_id=1, mass=mass)]
    yield answer([sig(w), sig(r2[0]["rotational_energy_j"])])


def _drop_energy_build(p: dict) -> Draft:
    h = 0.5 * G * p["t"] ** 2 + 1.0
    xml = mjcf.scene_xml(
        "drop_energy", mjcf.sphere(1, (0, 0, h), p["radius"], density=p["density"]), floor=mjcf.floor()
    )
    return Draft(
        "Kinetic Energy in Free Fall",
        f"Object 1, a ball, is released from rest. What is its kinetic energy in J after {p['t']:g} s?",
        xml,
        [(1, "ball", perms(mass=True))],
        "Read the mass, step the stated time, and compute the kinetic energy.",
        "Free fall (v = g t) and kinetic energy (m v^2 / 2).",
    )


@scene_template(
    "drop_energy",
    "Easy",
    "Multi",
    "standard",
    "energy",
    "calculation",
    build=_drop_energy_build,
    params=[
        {"t": t, "radius": r, "density": d}
        for t, r, d in ((0.5, 0.1, 1000), (0.8, 0.05, 7800), (1.0, 0.08, 2700), (0.3, 0.12, 500), (0.6, 0.1, 1200))
    ],
)
def _drop_energy_solve(p: dict):
    r = yield [call("get_parameters", object_id=1), call("step", duration=p["t"])]
    r2 = yield [call("get_kinetic_energy", object_id=1, mass=r[0]["mass_kg"])]
    yield answer(sig(r2[0]["kinetic_energy_j"]))


def _transfer_build(p: dict) -> Draft:
    body = mjcf.sphere(1, (0, 0, 1), 0.1, mass=f"{p['m1']:g}", solref=mjcf.ELASTIC_SOLREF) + mjcf.sphere(
        2, (0.6, 0, 1), 0.1, mass=f"{p['m2']:g}", solref=mjcf.ELASTIC_SOLREF, rgba="0.9 0.6 0.1 1"
    )
    xml = mjcf.scene_xml("momentum_transfer", body, timestep_s=mjcf.FINE_TIMESTEP_S, gravity=(0, 0, 0))
    return Draft(
        "Momentum Transfer",
        f"Launch object 1 along +x at {p['v0']:g} m/s into object 2, which is at "
        "rest. What is the speed of object 2 in m/s after the collision?",
        xml,
        [(1, "ball 1", perms(mass=True)), (2, "ball 2", perms(mass=True))],
        "Launch, step past the collision, read object 2's velocity.",
        "Momentum and kinetic energy are both conserved: v2 = 2 m1 v0 / (m1 + m2).",
    )


@scene_template(
    "momentum_transfer",
    "Easy",
    "Multi",
    "standard",
    "momentum",
    "calculation",
    build=_transfer_build,
    params=[
        {"m1": a, "m2": b, "v0": v}
        for a, b, v in ((1.0, 2.0, 1.0), (2.0, 1.0, 1.5), (1.0, 1.0, 2.0), (3.0, 1.0, 0.8), (0.5, 2.5, 1.2))
    ],
)
def _transfer_solve(p: dict):
    r = yield [
        call("set_velocity", object_id=1, velocity_vector=[p["v0"], 0, 0]),
        call("step", duration=1.5),
        call("get_velocity", object_id=2),
    ]
    yield answer(sig(r[2]["speed_m_s"]))
