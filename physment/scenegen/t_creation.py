"""Object-creation templates: the answer is unreachable from the initial scene; the agent must create a body
(and in the Multi cells, launch or attach it) to build the experiment."""

from __future__ import annotations

from physment.scenegen import mjcf
from physment.scenegen.registry import Draft, call, scene_template, sig
from physment.scenegen.solvers import bisect
from physment.scenegen.t_hard import SLIDE_THRESHOLD_M
from physment.scenegen.t_standard import G, answer, perms

_STAND = '    <body name="object_1" pos="0 0 0.05">\n      <geom type="box" size="0.3 0.3 0.05" rgba="0.5 0.5 0.5 1"/>\n    </body>\n'


def _create(p: dict, pos: list[float]) -> dict:
    return call("create_objects", name="probe", pos=pos, density=p["density"], shape=p["shape"], size=p["size"])


def _shape_text(p: dict) -> str:
    if p["shape"] == "sphere":
        return f"a sphere of radius {p['size'][0]:g} m"
    if p["shape"] == "box":
        return "a box of half-sizes " + " x ".join(f"{s:g}" for s in p["size"]) + " m"
    return f"a cylinder of radius {p['size'][0]:g} m and half-height {p['size'][1]:g} m"


# ---- Easy Single + Creation ------------------------------------------------------------------------------
def _weight_build(p: dict) -> Draft:
    xml = mjcf.scene_xml("created_weight", _STAND, floor=mjcf.floor())
    return Draft(
        "Weigh a New Object",
        f"Create {_shape_text(p)} with density {p['density']:g} kg/m^3 at "
        "position (0, 0, 2), above object 1 (a fixed stand). What is the gravitational force on it in N?",
        xml,
        [(1, "stand", perms())],
        "Create the object, then measure the net force on it while it falls freely.",
        "Weight is m g with the mass fixed by density and volume.",
    )


@scene_template(
    "created_weight",
    "Easy",
    "Single",
    "object_creation",
    "newton",
    "calculation",
    build=_weight_build,
    params=[
        {"shape": s, "size": z, "density": d}
        for s, z, d in (
            ("sphere", [0.1], 1000),
            ("box", [0.1, 0.2, 0.05], 500),
            ("cylinder", [0.1, 0.1], 2700),
            ("sphere", [0.05], 7800),
            ("box", [0.15, 0.15, 0.15], 300),
        )
    ],
)
def _weight_solve(p: dict):
    r = yield [_create(p, [0, 0, 2])]
    oid, mass = r[0]["object_id"], r[0]["mass_kg"]
    r2 = yield [call("compute_force", object_id=oid, mass=mass)]
    yield answer(sig(abs(r2[0]["net_force_n"][2])))


# ---- Easy Multi + Creation -------------------------------------------------------------------------------
def _launch_build(p: dict) -> Draft:
    body = mjcf.sphere(1, (0, 0, 1), 0.1, mass=f"{p['target_mass']:g}")
    xml = mjcf.scene_xml("created_projectile", body, timestep_s=mjcf.FINE_TIMESTEP_S, gravity=(0, 0, 0))
    return Draft(
        "Hit It With a New Ball",
        f"Object 1 floats at rest where there is no gravity. Create "
        f"{_shape_text(p)} with density {p['density']:g} kg/m^3 at (-0.6, 0, 1), launch it along +x "
        f"at {p['speed']:g} m/s so that it hits object 1, and report object 1's speed in m/s after the "
        "collision.",
        xml,
        [(1, "target ball", perms(mass=True))],
        "Create the projectile, give it the velocity, step past the collision, read object 1's speed.",
        "Momentum is exchanged in the collision; the projectile's mass comes from its size and density.",
    )


@scene_template(
    "created_projectile",
    "Easy",
    "Multi",
    "object_creation",
    "momentum",
    "calculation",
    build=_launch_build,
    params=[
        {"shape": "sphere", "size": [z], "density": d, "speed": v, "target_mass": m}
        for z, d, v, m in (
            (0.1, 1000, 1.0, 4.0),
            (0.08, 2000, 2.0, 2.0),
            (0.12, 500, 1.5, 1.0),
            (0.05, 7800, 1.0, 3.0),
            (0.1, 300, 3.0, 0.5),
        )
    ],
)
def _launch_solve(p: dict):
    r = yield [_create(p, [-0.6, 0, 1])]
    oid = r[0]["object_id"]
    r2 = yield [
        call("set_velocity", object_id=oid, velocity_vector=[p["speed"], 0, 0]),
        call("step", duration=1.5),
        call("get_velocity", object_id=1),
    ]
    yield answer(sig(r2[2]["speed_m_s"]))


# ---- Hard Single + Creation ------------------------------------------------------------------------------
def _stop_build(p: dict) -> Draft:
    body = mjcf.sphere(1, (0, 0, 1), 0.1, density=p["target_density"])
    xml = mjcf.scene_xml("stop_dead", body, timestep_s=mjcf.FINE_TIMESTEP_S, gravity=(0, 0, 0))
    return Draft(
        "Stop Dead",
        "Object 1 floats at rest where there is no gravity. You will create a sphere of radius "
        "0.1 m at (-0.6, 0, 1) and launch it along +x at 1 m/s into object 1. For which density in kg/m^3 "
        "does the new sphere come to rest right after the collision?",
        xml,
        [(1, "target ball", perms())],
        "Search over the density: create, launch, step, read the new sphere's velocity, reset, narrow.",
        "The projectile stops when the momentum it gives away equals all it had.",
    )


@scene_template(
    "stop_dead",
    "Hard",
    "Single",
    "object_creation",
    "momentum",
    "computation",
    build=_stop_build,
    params=[{"target_density": d} for d in (500, 1000, 2000, 4000, 7800)],
)
def _stop_solve(p: dict):
    def probe(density: float) -> list[dict]:
        return [
            call("reset_sim"),
            call("create_objects", name="probe", pos=[-0.6, 0, 1], density=density, shape="sphere", size=[0.1]),
            call("set_velocity", object_id=2, velocity_vector=[1.0, 0, 0]),
            call("step", duration=1.5),
            call("get_velocity", object_id=2),
        ]

    # a heavier projectile keeps moving forward: find the smallest density that still moves on
    lo, hi = yield from bisect(
        probe, lambda r: r[-1]["linear_velocity_m_s"][0] > 0, 50.0, 50000.0, turns=4, geometric=True
    )
    yield answer(sig((lo * hi) ** 0.5, 3))


# ---- Hard Multi + Creation -------------------------------------------------------------------------------
def _attach_build(p: dict) -> Draft:
    mu = p["mu"]
    # a wide, low base so the loaded pair slides before it can tip
    body = mjcf.box(1, (0, 0, 0.05), (0.25, 0.25, 0.05), mass=f"{p['mass']:g}", friction=f"{mu:g} 0.005 0.0001")
    xml = mjcf.scene_xml("loaded_block", body, floor=mjcf.floor(mu))
    return Draft(
        "Load the Block",
        f"Object 1 is a block on a rough floor. Create a box of half-sizes 0.1 x 0.1 x "
        f"0.1 m with density {p['density']:g} kg/m^3 at (0, 0, 0.2), on top of it, and attach it to object 1. "
        "What is the smallest horizontal force in N which, applied to object 1 along +x for 1 s, moves the "
        "pair more than 1 cm?",
        xml,
        [(1, "block", perms(mass=True))],
        "Build the loaded block, then search over the force (push, step, check, reset, rebuild).",
        "Friction grows with the normal force, which now carries both masses.",
    )


@scene_template(
    "loaded_block",
    "Hard",
    "Multi",
    "object_creation",
    "friction",
    "calculation",
    build=_attach_build,
    params=[
        {"mass": m, "mu": mu, "density": d}
        for m, mu, d in ((1.0, 0.5, 500), (2.0, 0.3, 1000), (0.5, 0.8, 250), (3.0, 0.4, 800), (1.5, 0.6, 1500))
    ],
)
def _attach_solve(p: dict):
    total_kg = p["mass"] + p["density"] * 0.008

    def probe(f_n: float) -> list[dict]:
        return [
            call("reset_sim"),
            call(
                "create_objects", name="load", pos=[0, 0, 0.2], density=p["density"], shape="box", size=[0.1, 0.1, 0.1]
            ),
            call("attach_objects", object1_id=1, object2_id=2),
            call("apply_force", object_id=1, force_vector=[f_n, 0, 0], duration=1.0),
            call("step", duration=1.0),
            call("get_displacement", object_id=1),
        ]

    _, hi = yield from bisect(
        probe, lambda r: r[-1]["distance_m"] > SLIDE_THRESHOLD_M, 0.0, 2.0 * total_kg * G, turns=4
    )
    yield answer(sig(hi, 3))
