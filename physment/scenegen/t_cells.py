"""More templates for the thin cells: object creation (the answer needs a body the agent makes), hidden objects
(the body asked about is unlisted until find_objects, sometimes already moving), and scene manipulation."""

from __future__ import annotations

import math

from physment.scenegen import mjcf
from physment.scenegen.registry import Draft, call, scene_template, sig
from physment.scenegen.solvers import crossing_time, scan
from physment.scenegen.t_hard import half_period_solve
from physment.scenegen.t_hidden import SLAB_XML, unlisted_id
from physment.scenegen.t_measure import peak_after_bounce, rebound_xml
from physment.scenegen.t_standard import answer, perms


def with_initial_velocity(xml: str, qvel: list[float]) -> str:
    """The scene with a keyframe giving the initial generalized velocities (the lab resets to keyframe 0)."""
    return xml.replace("</mujoco>", f'  <keyframe>\n    <key qvel="{mjcf.vec(qvel)}"/>\n  </keyframe>\n</mujoco>')


# ---- Creation --------------------------------------------------------------------------------------------
def _cforce_build(p: dict) -> Draft:
    h = p["half"]
    xml = mjcf.scene_xml("created_normal_force", SLAB_XML.format(oid=1))
    return Draft(
        "Weigh a Box You Make",
        f"Object 1 is a fixed slab whose top is at z = 0. Create a box of half-sizes "
        f"{h:g} x {h:g} x {h:g} m with density {p['density']:g} kg/m^3 resting on it (centre at (0, 0, "
        f"{h + 0.001:g})), let it settle for 1 s, and report the total contact force in N between the box "
        "and the slab.",
        xml,
        [(1, "slab", perms())],
        "Create the box, step to let it settle, read the contact force.",
        "At rest the slab carries the box's weight: N = m g.",
    )


@scene_template(
    "created_normal_force",
    "Easy",
    "Single",
    "object_creation",
    "newton",
    "calculation",
    build=_cforce_build,
    params=[{"half": h, "density": d} for h, d in ((0.1, 500), (0.15, 300), (0.08, 2000))],
)
def _cforce_solve(p: dict):
    h = p["half"]
    r = yield [
        call("create_objects", name="box", pos=[0, 0, h + 0.001], density=p["density"], shape="box", size=[h, h, h])
    ]
    oid = r[0]["object_id"]
    r2 = yield [call("step", duration=1.0), call("detect_collision", obj1_id=1, obj2_id=oid)]
    yield answer(sig(r2[1]["total_contact_force_n"], 3))


def _cdrop_build(p: dict) -> Draft:
    xml = mjcf.scene_xml(
        "created_drop_energy", mjcf.box(1, (2, 0, 0.1), (0.1, 0.1, 0.1), density=500), floor=mjcf.floor()
    )
    return Draft(
        "Drop a Ball You Make",
        f"Object 1 is a box on the floor. Create a sphere of radius {p['radius']:g} m "
        f"and density {p['density']:g} kg/m^3 at (0, 0, {p['z']:g}) and release it. What is its kinetic "
        f"energy in J after {p['t']:g} s?",
        xml,
        [(1, "box", perms())],
        "Create the ball, step the stated time, read its kinetic energy with its mass.",
        "Free fall (v = g t) and kinetic energy of a body that exists only once it is made.",
    )


@scene_template(
    "created_drop_energy",
    "Easy",
    "Multi",
    "object_creation",
    "energy",
    "calculation",
    build=_cdrop_build,
    params=[
        {"radius": r, "density": d, "z": z, "t": t}
        for r, d, z, t in ((0.1, 500, 3.0, 0.5), (0.05, 2000, 4.0, 0.7), (0.08, 1000, 2.5, 0.4))
    ],
)
def _cdrop_solve(p: dict):
    r = yield [
        call(
            "create_objects", name="ball", pos=[0, 0, p["z"]], density=p["density"], shape="sphere", size=[p["radius"]]
        )
    ]
    oid, mass = r[0]["object_id"], r[0]["mass_kg"]
    r2 = yield [call("step", duration=p["t"]), call("get_kinetic_energy", object_id=oid, mass=mass)]
    yield answer(sig(r2[1]["kinetic_energy_j"]))


def _crebound_build(p: dict) -> Draft:
    return Draft(
        "Bounce a Ball You Make",
        f"Object 1 is a fixed slab whose top is at z = 0 and whose bounciness is "
        f"not given. Create a sphere of radius 0.05 m and density 1000 kg/m^3 at (0, 0, {p['height']:g}), "
        "release it, and find how high in m above the slab's top its centre rises after the first bounce.",
        rebound_xml(p, with_ball=False),
        [(1, "slab", perms())],
        "Create the ball, step until it rises after the bounce and then turns down; read the peak.",
        "The slab's restitution is unknown: only a test body dropped on it reveals it.",
    )


@scene_template(
    "created_rebound",
    "Hard",
    "Single",
    "object_creation",
    "energy",
    "calculation",
    build=_crebound_build,
    params=[{"height": h, "damping_ratio": z} for h, z in ((1.2, 0.06), (0.9, 0.1), (2.0, 0.08))],
)
def _crebound_solve(p: dict):
    r = yield [call("create_objects", name="ball", pos=[0, 0, p["height"]], density=1000, shape="sphere", size=[0.05])]
    peak = yield from peak_after_bounce(r[0]["object_id"])
    yield answer(sig(peak, 3))


# ---- Hidden ----------------------------------------------------------------------------------------------
def _moving_hidden_xml(p: dict, model: str) -> str:
    body = mjcf.box(1, (0, -1, 1), (0.1, 0.1, 0.1), density=500) + mjcf.sphere(
        p["hid"], (0, 1, 1), 0.08, density=p["density"], rgba="0.1 0.1 0.1 1"
    )
    vx, vy = p["velocity"]
    return with_initial_velocity(mjcf.scene_xml(model, body, gravity=(0, 0, 0)), [0] * 6 + [vx, vy, 0, 0, 0, 0])


def _hspeed_build(p: dict) -> Draft:
    return Draft(
        "Something Is Moving",
        "Besides object 1, an unlisted object drifts through the scene (there is "
        "no gravity). What is its speed in m/s?",
        _moving_hidden_xml(p, "hidden_speed"),
        [(1, "box", perms()), (p["hid"], "ball", perms(mass=True, hidden=True))],
        "Reveal every object, then read the new one's velocity.",
        "Speed is the length of the velocity vector of a body that first has to be found.",
    )


@scene_template(
    "hidden_speed",
    "Easy",
    "Single",
    "hidden_objects",
    "kinematics",
    "calculation",
    build=_hspeed_build,
    params=[
        {"hid": h, "density": 800, "velocity": v} for h, v in ((2, (0.3, 0.4)), (3, (-0.5, 0.2)), (2, (0.7, -0.1)))
    ],
)
def _hspeed_solve(p: dict):
    r = yield [call("find_objects")]
    r2 = yield [call("get_velocity", object_id=unlisted_id(r[0], {"1"}))]
    yield answer(sig(r2[0]["speed_m_s"]))


def _hmom_build(p: dict) -> Draft:
    return Draft(
        "Momentum of the Unlisted Ball",
        "Besides object 1, an unlisted ball drifts through the scene "
        "(there is no gravity). What is the magnitude of its momentum in kg*m/s?",
        _moving_hidden_xml(p, "hidden_momentum"),
        [(1, "box", perms()), (p["hid"], "ball", perms(mass=True, hidden=True))],
        "Reveal the ball, read its mass and velocity: p = m v.",
        "Momentum needs both the mass and the velocity of a body that first has to be found.",
    )


@scene_template(
    "hidden_momentum",
    "Easy",
    "Multi",
    "hidden_objects",
    "momentum",
    "calculation",
    build=_hmom_build,
    params=[
        {"hid": h, "density": d, "velocity": v}
        for h, d, v in ((2, 1000, (0.2, 0.1)), (3, 2500, (-0.4, 0.0)), (4, 600, (0.1, 0.6)))
    ],
)
def _hmom_solve(p: dict):
    r = yield [call("find_objects")]
    oid = unlisted_id(r[0], {"1"})
    r2 = yield [call("get_parameters", object_id=oid), call("get_velocity", object_id=oid)]
    yield answer(sig(r2[0]["mass_kg"] * r2[1]["speed_m_s"]))


def _hperiod_build(p: dict) -> Draft:
    body = mjcf.box(1, (2, 0, 0.1), (0.1, 0.1, 0.1), density=500) + mjcf.pendulum(
        p["hid"], (0, 0, p["length"] + 0.5), p["length"], 0.1, 0.5
    )
    xml = mjcf.scene_xml("hidden_period", body, timestep_s=0.002, floor=mjcf.floor())
    return Draft(
        "The Unlisted Pendulum",
        "Besides object 1, the scene holds an unlisted pendulum bob swinging at a "
        "small angle. What is its period of oscillation in s?",
        xml,
        [(1, "box", perms()), (p["hid"], "pendulum bob", perms(mass=True, hidden=True))],
        "Reveal the bob, then time half a swing by stepping in small increments.",
        "A small-angle pendulum's period; the bob has to be found before it can be timed.",
    )


@scene_template(
    "hidden_period",
    "Hard",
    "Single",
    "hidden_objects",
    "oscillation",
    "calculation",
    build=_hperiod_build,
    params=[{"hid": h, "length": L} for h, L in ((2, 0.6), (3, 1.0), (2, 0.3))],
)
def _hperiod_solve(p: dict):
    r = yield [call("find_objects")]
    half = yield from half_period_solve(int(unlisted_id(r[0], {"1"})))
    yield answer(sig(2.0 * half, 3))


def _hstiff_build(p: dict) -> Draft:
    body = mjcf.box(1, (0, 1, 1), (0.1, 0.1, 0.1), density=500) + mjcf.spring_mass(
        p["hid"], (0, 0, 1), p["mass"], p["stiffness"], 0.1
    )
    xml = mjcf.scene_xml("hidden_stiffness", body, timestep_s=0.002, gravity=(0, 0, 0))
    return Draft(
        "The Unlisted Spring",
        "Besides object 1, an unlisted block oscillates on a horizontal spring "
        "(there is no gravity; the block's mass can be read once it is found). What is the spring's "
        "stiffness in N/m?",
        xml,
        [(1, "box", perms()), (p["hid"], "block", perms(mass=True, hidden=True))],
        "Reveal the block, read its mass, time half an oscillation: k = m (2 pi / T)^2.",
        "Oscillation and Newton's second law, on a body that first has to be found.",
    )


@scene_template(
    "hidden_stiffness",
    "Hard",
    "Multi",
    "hidden_objects",
    "oscillation",
    "calculation",
    build=_hstiff_build,
    params=[{"hid": h, "mass": m, "stiffness": k} for h, m, k in ((2, 1.0, 40.0), (3, 0.5, 20.0), (2, 2.0, 90.0))],
)
def _hstiff_solve(p: dict):
    r = yield [call("find_objects")]
    oid = unlisted_id(r[0], {"1"})
    r2 = yield [call("get_parameters", object_id=oid)]
    half = yield from half_period_solve(int(oid))
    yield answer(sig(r2[0]["mass_kg"] * (2 * math.pi / (2.0 * half)) ** 2, 3))


# ---- Scene manipulation ----------------------------------------------------------------------------------
def _move_build(p: dict) -> Draft:
    body = mjcf.sphere(1, (0, 0, 0.051), 0.05, density=1000) + SLAB_XML.format(oid=2)
    xml = mjcf.scene_xml("move_and_time", body, timestep_s=0.002)
    return Draft(
        "Move It Up and Time the Fall",
        f"Object 1, a ball of radius 0.05 m, rests on object 2, a fixed "
        f"slab whose top is at z = 0. Move the ball with move_object so that its centre is at (0, 0, "
        f"{p['height']:g}) and release it. How long in s does it take to first touch the slab?",
        xml,
        [(1, "ball", perms(mass=True)), (2, "slab", perms())],
        "Move it, then step in small increments until its lowest point reaches the slab's top.",
        "Free fall through h - r: t = sqrt(2 (h - r) / g).",
    )


@scene_template(
    "move_and_time",
    "Hard",
    "Single",
    "scene_manipulation",
    "kinematics",
    "calculation",
    build=_move_build,
    params=[{"height": h} for h in (1.0, 2.2, 0.5)],
)
def _move_solve(p: dict):
    read = call("get_position", object_id=1)
    t0, z0, t1, z1 = yield from scan(
        read,
        lambda r: r["position_m"][2],
        lambda z: z <= 0.05,
        0.02,
        first=[call("move_object", object_id=1, x=0, y=0, z=p["height"])],
        start_t_s=0.0,
    )
    yield answer(sig(crossing_time(t0, z0, t1, z1, 0.05), 3))


def _attach_build(p: dict) -> Draft:
    body = mjcf.box(1, (0, 0, 1), (0.1, 0.1, 0.1), density=p["d1"]) + mjcf.box(
        2, (0.25, 0, 1), (0.1, 0.1, 0.1), density=p["d2"], rgba="0.2 0.8 0.4 1"
    )
    xml = mjcf.scene_xml("attach_and_push", body, gravity=(0, 0, 0))
    return Draft(
        "Attach, Then Push",
        f"Objects 1 and 2 are boxes floating where there is no gravity; their masses "
        f"cannot be read. Attach object 2 to object 1, then push object 1 with {p['force']:g} N along +x "
        f"for {p['t']:g} s. What is the speed in m/s of the pair at the end of the push?",
        xml,
        [(1, "box A", perms()), (2, "box B", perms())],
        "Attach, push, step the push's duration, read the speed.",
        "The pair moves as one body: v = F t / (m1 + m2).",
    )


@scene_template(
    "attach_and_push",
    "Easy",
    "Multi",
    "scene_manipulation",
    "newton",
    "calculation",
    build=_attach_build,
    params=[
        {"d1": a, "d2": b, "force": f, "t": t}
        for a, b, f, t in ((500, 1000, 4.0, 1.0), (800, 300, 2.0, 1.5), (1200, 1200, 6.0, 0.5))
    ],
)
def _attach_solve(p: dict):
    r = yield [
        call("attach_objects", object1_id=1, object2_id=2),
        call("apply_force", object_id=1, force_vector=[p["force"], 0, 0], duration=p["t"]),
        call("step", duration=p["t"]),
        call("get_velocity", object_id=1),
    ]
    yield answer(sig(r[3]["speed_m_s"]))
