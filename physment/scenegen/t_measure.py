"""Standard-modality templates whose answer needs an experiment: a property the scene does not give (a mass or
its distribution, the friction of an incline, a pendulum's length, a spring's stiffness, a contact's
restitution) has to be measured before any formula applies.

(A launched block's kinetic friction read from two speeds was tried and dropped: under a sudden launch the
block chatters on its contacts and the speed drops by 0-1.2 mu g per 50 ms, so no reading is a robust key.)"""

from __future__ import annotations

import math

from physment.scenegen import mjcf
from physment.scenegen.registry import Draft, call, scene_template, sig
from physment.scenegen.solvers import scan
from physment.scenegen.t_hard import half_period_solve
from physment.scenegen.t_standard import G, answer, perms

SETTLE_GAP_M = 0.002  # bodies start this far above their support: no initial interpenetration


# ---- Easy Single -----------------------------------------------------------------------------------------
def _inertia_build(p: dict) -> Draft:
    body = mjcf.cylinder(1, (0, 0, 1), p["radius"], 0.05, mass=f"{p['mass']:g}")
    xml = mjcf.scene_xml("moment_of_inertia", body, gravity=(0, 0, 0))
    return Draft(
        "Moment of Inertia",
        "Object 1 is a disk floating where there is no gravity; its mass cannot be "
        "read. Determine its moment of inertia about its symmetry (z) axis in kg*m^2 by experiment.",
        xml,
        [(1, "disk", perms())],
        "Apply a known torque for a known time and read the angular velocity.",
        "The rotational form of Newton's second law: I = tau t / omega.",
    )


@scene_template(
    "moment_of_inertia",
    "Easy",
    "Single",
    "standard",
    "rotation",
    "calculation",
    build=_inertia_build,
    params=[{"radius": r, "mass": m} for r, m in ((0.2, 2.0), (0.3, 1.0), (0.15, 4.0))],
)
def _inertia_solve(p: dict):
    tau, t_s = 0.1, 1.0
    r = yield [
        call("apply_torque", object_id=1, torque_vector=[0, 0, tau], duration=t_s),
        call("step", duration=t_s),
        call("get_velocity", object_id=1),
    ]
    yield answer(sig(tau * t_s / r[2]["angular_velocity_rad_s"][2]))


# ---- Easy Multi ------------------------------------------------------------------------------------------
def _push_ke_build(p: dict) -> Draft:
    h = p["half"]
    xml = mjcf.scene_xml("push_energy", mjcf.box(1, (0, 0, 1), (h, h, h), density=p["density"]), gravity=(0, 0, 0))
    return Draft(
        "Energy From a Push",
        f"Object 1, a box whose mass is not given, floats at rest where there is no "
        f"gravity. Push it with a force of {p['force']:g} N along +x for {p['t']:g} s. What is its kinetic "
        "energy in J at the end of the push?",
        xml,
        [(1, "box", perms())],
        "Push, step the push's duration, read the speed; KE = F t v / 2 since m v = F t.",
        "Impulse gives the momentum, the measured speed then gives the energy without the mass.",
    )


@scene_template(
    "push_energy",
    "Easy",
    "Multi",
    "standard",
    "energy",
    "calculation",
    build=_push_ke_build,
    params=[
        {"half": h, "density": d, "force": f, "t": t}
        for h, d, f, t in ((0.1, 500, 5.0, 1.0), (0.15, 300, 2.0, 2.0), (0.08, 1000, 10.0, 0.5))
    ],
)
def _push_ke_solve(p: dict):
    r = yield [
        call("apply_force", object_id=1, force_vector=[p["force"], 0, 0], duration=p["t"]),
        call("step", duration=p["t"]),
        call("get_velocity", object_id=1),
    ]
    yield answer(sig(0.5 * p["force"] * p["t"] * r[2]["speed_m_s"]))


def _incline_build(p: dict) -> Draft:
    a, h, mu = p["angle"], 0.1, p["mu"]
    d = h + SETTLE_GAP_M  # along the incline's normal (sin a, 0, cos a)
    body = (
        f'    <body name="object_1" pos="{mjcf.vec((d * math.sin(a), 0, d * math.cos(a)))}" euler="0 {a:.6g} 0">\n'
        f'      <freejoint name="object_1_joint"/>\n      <geom type="box" size="{h} {h} {h}" '
        f'mass="{p["mass"]:g}" friction="{mu:g} 0.005 0.0001" rgba="0.8 0.4 0.2 1"/>\n    </body>\n'
    )
    xml = mjcf.scene_xml("incline_acceleration", body, floor=mjcf.floor(mu, tilt_rad=a))
    return Draft(
        "Sliding Down an Incline",
        f"Object 1 is a block on a plane inclined at {math.degrees(a):.0f} "
        "degrees, whose friction is not given. Release it: what is its acceleration along the incline "
        "in m/s^2?",
        xml,
        [(1, "block", perms(mass=True))],
        "Let it slide a known time and read the distance travelled: a = 2 d / t^2.",
        "Gravity along the slope minus kinetic friction: a = g (sin a - mu cos a).",
    )


@scene_template(
    "incline_acceleration",
    "Easy",
    "Multi",
    "standard",
    "friction",
    "calculation",
    build=_incline_build,
    params=[{"angle": math.radians(a), "mu": mu, "mass": 1.0} for a, mu in ((30, 0.3), (25, 0.2), (35, 0.5))],
)
def _incline_solve(p: dict):
    t_s = 1.0
    r = yield [call("step", duration=t_s), call("get_displacement", object_id=1)]
    yield answer(sig(2.0 * r[1]["distance_m"] / t_s**2, 3))


# ---- Hard Single -----------------------------------------------------------------------------------------
def rebound_xml(p: dict, with_ball: bool) -> str:
    # the slab's contact parameters win the mix (solmix): a ball the agent creates carries MuJoCo's defaults
    solref = f"0.02 {p['damping_ratio']:g}"
    ball = mjcf.sphere(1, (0, 0, p["height"]), 0.05, density=1000, solref=solref) if with_ball else ""
    slab = (
        f'    <body name="object_{2 if with_ball else 1}" pos="0 0 -0.05">\n      <geom type="box" '
        f'size="3 3 0.05" solref="{solref}" solmix="1000" rgba="0.6 0.6 0.6 1"/>\n    </body>\n'
    )
    return mjcf.scene_xml("rebound", ball + slab, timestep_s=0.001)


def _rebound_build(p: dict) -> Draft:
    return Draft(
        "How High Does It Bounce",
        "Object 1, a ball, is dropped from rest onto object 2, a fixed slab "
        "whose bounciness is not given. How high in m above the slab's top does the ball's centre rise "
        "after its first bounce?",
        rebound_xml(p, True),
        [(1, "ball", perms(mass=True)), (2, "slab", perms())],
        "Step until the ball moves up after the bounce, then until it turns down; read the peak height.",
        "The rebound height depends on the contact's energy loss, which only an experiment reveals.",
    )


def _vz(r: dict) -> float:
    return r["linear_velocity_m_s"][2]


def peak_after_bounce(oid: object, first: list[dict] | None = None):
    """Reference steps: until the body moves up (it bounced), then until it turns down; the peak height of its
    origin from the last position and vertical speed (ballistic: z + vz^2 / 2g)."""
    read = call("get_velocity", object_id=oid)
    yield from scan(read, _vz, lambda v: v > 0.05, 0.05, first=first)
    yield from scan(read, _vz, lambda v: v <= 0.0, 0.02)
    r = yield [call("get_position", object_id=oid), call("get_velocity", object_id=oid)]
    return r[0]["position_m"][2] + _vz(r[1]) ** 2 / (2 * G)


@scene_template(
    "rebound_height",
    "Hard",
    "Single",
    "standard",
    "energy",
    "calculation",
    build=_rebound_build,
    params=[{"height": h, "damping_ratio": z} for h, z in ((1.0, 0.05), (0.8, 0.08), (1.5, 0.12))],
)
def _rebound_solve(p: dict):
    peak = yield from peak_after_bounce(1)
    yield answer(sig(peak, 3))


def _plength_build(p: dict) -> Draft:
    body = mjcf.pendulum(1, (0, 0, p["length"] + 0.5), p["length"], p["angle"], p["mass"])
    xml = mjcf.scene_xml("pendulum_length", body, timestep_s=0.002)
    return Draft(
        "How Long Is the Pendulum",
        "Object 1 is the bob of a simple pendulum whose length and pivot are "
        "not given, released from rest at a small angle. Determine the pendulum's length in m.",
        xml,
        [(1, "pendulum bob", perms(mass=True))],
        "Time half a swing by stepping in small increments, then L = g (T / 2 pi)^2.",
        "The small-angle period depends only on the length: T = 2 pi sqrt(L / g).",
    )


@scene_template(
    "pendulum_length",
    "Hard",
    "Single",
    "standard",
    "oscillation",
    "calculation",
    build=_plength_build,
    params=[{"length": L, "angle": 0.1, "mass": m} for L, m in ((0.8, 0.5), (1.2, 1.0), (0.4, 0.2))],
)
def _plength_solve(p: dict):
    half = yield from half_period_solve(1)
    yield answer(sig(G * (2.0 * half / (2 * math.pi)) ** 2, 3))


# ---- Hard Multi ------------------------------------------------------------------------------------------
def _stiff_build(p: dict) -> Draft:
    body = mjcf.spring_mass(1, (0, 0, 1), p["mass"], p["stiffness"], p["offset"])
    xml = mjcf.scene_xml("spring_stiffness", body, timestep_s=0.002, gravity=(0, 0, 0))
    return Draft(
        "How Stiff Is the Spring",
        "Object 1 is a block (its mass can be read) on a horizontal spring "
        "whose stiffness is not given, released away from equilibrium. Determine the spring's stiffness "
        "in N/m.",
        xml,
        [(1, "block", perms(mass=True))],
        "Read the mass, time half an oscillation, then k = m (2 pi / T)^2.",
        "Oscillation period and Newton's second law together: T = 2 pi sqrt(m / k).",
    )


@scene_template(
    "spring_stiffness",
    "Hard",
    "Multi",
    "standard",
    "oscillation",
    "calculation",
    build=_stiff_build,
    params=[
        {"mass": m, "stiffness": k, "offset": x} for m, k, x in ((1.0, 25.0, 0.1), (0.4, 60.0, 0.05), (2.5, 80.0, 0.1))
    ],
)
def _stiff_solve(p: dict):
    r = yield [call("get_parameters", object_id=1)]
    half = yield from half_period_solve(1)
    yield answer(sig(r[0]["mass_kg"] * (2 * math.pi / (2.0 * half)) ** 2, 3))
