"""Hidden-object templates (a task-relevant body missing from the initial list until find_objects) and
scene-manipulation templates (the scene must be edited: delete, move)."""

from __future__ import annotations

from physment.scenegen import mjcf
from physment.scenegen.registry import Draft, call, paper_solver, scene_template, sig
from physment.scenegen.solvers import bisect, scan
from physment.scenegen.t_standard import G, answer, perms

SLAB_XML = '    <body name="object_{oid}" pos="0 0 -0.05">\n      <geom type="box" size="3 3 0.05" rgba="0.6 0.6 0.6 1"/>\n    </body>\n'


def unlisted_id(found: dict, listed: set[str]) -> str:
    """The id find_objects revealed that the prompt did not list."""
    return next(o["object_id"] for o in found["objects"] if o["object_id"] not in listed)


# ---- Easy Single + Hidden --------------------------------------------------------------------------------
def _hmass_build(p: dict) -> Draft:
    body = mjcf.box(1, (0, 0, 0.1), (0.1, 0.1, 0.1), density=500) + mjcf.sphere(
        p["hid"], (1, 0, p["radius"]), p["radius"], density=p["density"], rgba="0.1 0.1 0.1 1"
    )
    xml = mjcf.scene_xml("hidden_mass", body, floor=mjcf.floor())
    return Draft(
        "The Unlisted Object",
        "Besides object 1, the scene holds one object that is not listed. What is its mass in kg?",
        xml,
        [(1, "box", perms()), (p["hid"], "dark sphere", perms(mass=True, hidden=True))],
        "Reveal every object, then read the new one's parameters.",
        "Mass is a property of the hidden body; it has to be found before it can be queried.",
    )


@scene_template(
    "hidden_mass",
    "Easy",
    "Single",
    "hidden_objects",
    "newton",
    "calculation",
    build=_hmass_build,
    params=[
        {"hid": h, "radius": r, "density": d}
        for h, r, d in ((2, 0.1, 1000), (3, 0.05, 7800), (2, 0.15, 300), (4, 0.08, 2700), (2, 0.12, 900))
    ],
)
def _hmass_solve(p: dict):
    r = yield [call("find_objects")]
    oid = unlisted_id(r[0], {"1"})
    r2 = yield [call("get_parameters", object_id=oid)]
    yield answer(sig(r2[0]["mass_kg"]))


# ---- Easy Multi + Hidden ---------------------------------------------------------------------------------
def _hfall_build(p: dict) -> Draft:
    h = 0.5 * G * p["t"] ** 2 + 1.0
    body = mjcf.box(1, (2, 0, 0.1), (0.1, 0.1, 0.1), density=500) + mjcf.sphere(
        p["hid"], (0, 0, h), 0.08, density=p["density"], rgba="0.1 0.1 0.1 1"
    )
    xml = mjcf.scene_xml("hidden_fall", body, floor=mjcf.floor())
    return Draft(
        "Something Is Falling",
        f"Besides object 1, an unlisted ball is released from rest at time 0. "
        f"What is that ball's kinetic energy in J after {p['t']:g} s?",
        xml,
        [(1, "box", perms()), (p["hid"], "ball", perms(mass=True, hidden=True))],
        "Reveal the ball, read its mass, step the stated time, compute its kinetic energy.",
        "Free fall and kinetic energy of a body that first has to be found.",
    )


@scene_template(
    "hidden_fall",
    "Easy",
    "Multi",
    "hidden_objects",
    "energy",
    "calculation",
    build=_hfall_build,
    params=[
        {"hid": h, "t": t, "density": d}
        for h, t, d in ((2, 0.5, 1000), (3, 0.8, 2700), (2, 1.0, 500), (5, 0.6, 7800), (2, 0.3, 1500))
    ],
)
def _hfall_solve(p: dict):
    r = yield [call("find_objects"), call("step", duration=p["t"])]
    oid = unlisted_id(r[0], {"1"})
    r2 = yield [call("get_parameters", object_id=oid)]
    r3 = yield [call("get_kinetic_energy", object_id=oid, mass=r2[0]["mass_kg"])]
    yield answer(sig(r3[0]["kinetic_energy_j"]))


# ---- Hard Single + Hidden --------------------------------------------------------------------------------
def _hheavy_build(p: dict) -> Draft:
    d1, d2, d3 = p["densities"]
    body = "".join(
        mjcf.box(i, (0, y, 1), (0.1, 0.1, 0.1), density=d) for i, y, d in ((1, -0.6, d1), (2, 0, d2), (3, 0.6, d3))
    )
    xml = mjcf.scene_xml("hidden_heaviest", body, gravity=(0, 0, 0))
    return Draft(
        "The Heaviest of Three",
        "Objects 1 and 2 are boxes floating where there is no gravity; a third, "
        "identical-looking box is not listed. Which of the three boxes has the largest mass? Answer with "
        "its object id.",
        xml,
        [(1, "box A", perms()), (2, "box B", perms()), (3, "box C", perms(hidden=True))],
        "Reveal the third box, give all three the same push, and compare their speeds.",
        "Equal impulses: the heaviest box gains the least speed.",
    )


@scene_template(
    "hidden_heaviest",
    "Hard",
    "Single",
    "hidden_objects",
    "newton",
    "comparison",
    build=_hheavy_build,
    params=[
        {"densities": d}
        for d in ((500, 700, 900), (900, 600, 300), (400, 1200, 800), (1000, 900, 1100), (2000, 2500, 1500))
    ],
)
def _hheavy_solve(p: dict):
    r = yield [call("find_objects")]
    ids = [o["object_id"] for o in r[0]["objects"]]
    push = dict(force_vector=[3.0, 0, 0], duration=0.5)
    r2 = (
        yield [call("apply_force", object_id=i, **push) for i in ids]
        + [call("step", duration=0.5)]
        + [call("get_velocity", object_id=i) for i in ids]
    )
    speeds = {i: res["speed_m_s"] for i, res in zip(ids, r2[len(ids) + 1 :])}
    yield answer(int(min(speeds, key=speeds.get)))


# ---- Hard Multi + Hidden ---------------------------------------------------------------------------------
def _hpush_build(p: dict) -> Draft:
    mu = p["mu"]
    fr = f"{mu:g} 0.005 0.0001"
    body = mjcf.box(1, (0, 0, 0.1), (0.1, 0.1, 0.1), mass=f"{p['m1']:g}", friction=fr) + mjcf.box(
        2, (0.5, 0, 0.1), (0.1, 0.1, 0.1), mass=f"{p['m2']:g}", friction=fr, rgba="0.1 0.1 0.1 1"
    )
    xml = mjcf.scene_xml("hidden_push", body, timestep_s=0.002, floor=mjcf.floor(mu))
    return Draft(
        "Knock It Along",
        "Object 1 is a block on a rough floor; an unlisted block lies somewhere along +x. "
        f"What is the smallest speed in m/s at which object 1 must be launched along +x so that the unlisted "
        f"block ends up more than {p['distance']:g} m from where it started?",
        xml,
        [(1, "block", perms(mass=True)), (2, "dark block", perms(mass=True, hidden=True))],
        "Reveal the block, then search over the launch speed (launch, step, read its displacement, reset).",
        "Friction slows the striker, the collision passes momentum on, friction stops the struck block.",
    )


@scene_template(
    "hidden_push",
    "Hard",
    "Multi",
    "hidden_objects",
    "momentum",
    "calculation",
    build=_hpush_build,
    params=[
        {"m1": a, "m2": b, "mu": mu, "distance": d}
        for a, b, mu, d in (
            (1.0, 1.0, 0.2, 0.5),
            (2.0, 1.0, 0.3, 0.3),
            (1.0, 2.0, 0.2, 0.2),
            (1.5, 0.5, 0.4, 0.5),
            (1.0, 1.0, 0.5, 0.1),
        )
    ],
)
def _hpush_solve(p: dict, by_hand: bool = False):
    r = yield [call("find_objects")]
    oid = unlisted_id(r[0], {"1"})
    # by hand (the paper's 26 tools have no reset_sim): both blocks teleported back, at rest
    restore = (
        [call("move_object", object_id=1, x=0, y=0, z=0.1), call("move_object", object_id=oid, x=0.5, y=0, z=0.1)]
        if by_hand
        else [call("reset_sim")]
    )

    def probe(v: float) -> list[dict]:
        return [
            *restore,
            call("set_velocity", object_id=1, velocity_vector=[v, 0, 0]),
            call("step", duration=4.0),
            call("get_displacement", object_id=oid),
        ]

    lo, hi = yield from bisect(probe, lambda res: res[-1]["distance_m"] > p["distance"], 0.0, 15.0, turns=4)
    yield answer(sig(0.5 * (lo + hi), 3))


# ---- Scene manipulation ----------------------------------------------------------------------------------
def _wall_build(p: dict) -> Draft:
    mu = p["mu"]
    body = (
        mjcf.box(1, (0, 0, 0.1), (0.1, 0.1, 0.1), density=500, friction=f"{mu:g} 0.005 0.0001")
        + '    <body name="object_2" pos="0.4 0 0.3">\n      <geom type="box" size="0.05 1 0.3" rgba="0.7 0.3 0.3 1"/>\n    </body>\n'
    )
    xml = mjcf.scene_xml("remove_the_wall", body, floor=mjcf.floor(mu))
    return Draft(
        "Remove the Wall",
        f"Object 2 is a fixed wall just in front of object 1, a block on a rough floor. "
        f"Delete the wall, then launch object 1 along +x at {p['v0']:g} m/s. How far in m does it slide "
        "before it stops?",
        xml,
        [(1, "block", perms(mass=True)), (2, "wall", perms())],
        "Delete the wall, launch the block, step until it stops, read the displacement.",
        "With the wall gone, friction alone stops the block: d = v0^2 / (2 mu g).",
    )


@scene_template(
    "remove_the_wall",
    "Easy",
    "Multi",
    "scene_manipulation",
    "friction",
    "calculation",
    build=_wall_build,
    params=[{"mu": mu, "v0": v} for mu, v in ((0.2, 2.0), (0.3, 3.0), (0.5, 2.5), (0.4, 1.5), (0.25, 4.0))],
)
def _wall_solve(p: dict):
    t_s = p["v0"] / (p["mu"] * G) + 1.0
    r = yield [
        call("delete_objects", object_id=2),
        call("set_velocity", object_id=1, velocity_vector=[p["v0"], 0, 0]),
        call("step", duration=t_s),
        call("get_displacement", object_id=1),
    ]
    yield answer(sig(r[3]["distance_m"]))


def _raise_build(p: dict) -> Draft:
    body = mjcf.sphere(1, (0, 0, 0.06), 0.05, density=1000) + SLAB_XML.format(oid=2)
    xml = mjcf.scene_xml("raise_and_drop", body, timestep_s=0.002)
    return Draft(
        "Raise and Drop",
        f"Object 1, a ball, rests on object 2, a fixed slab. Raise the ball by "
        f"{p['raise']:g} m with change_position and release it. What is its speed in m/s just before it "
        "touches the slab again?",
        xml,
        [(1, "ball", perms(mass=True)), (2, "slab", perms())],
        "Raise it, find the moment of contact by stepping, and read the speed just before.",
        "Energy conservation: v = sqrt(2 g h).",
    )


@scene_template(
    "raise_and_drop",
    "Hard",
    "Multi",
    "scene_manipulation",
    "energy",
    "calculation",
    build=_raise_build,
    params=[{"raise": h} for h in (0.5, 1.0, 1.5, 2.0, 3.0)],
)
def _raise_solve(p: dict):
    lift = call("change_position", object_id=1, dx=0, dy=0, dz=p["raise"], in_world_frame=True)
    touch = call("detect_collision", obj1_id=1, obj2_id=2)
    coarse, _, _, _ = yield from scan(
        touch, lambda r: float(r["colliding"]), lambda v: v > 0.5, 0.02, max_turns=2, first=[lift]
    )
    before, _, _, _ = yield from scan(
        touch,
        lambda r: float(r["colliding"]),
        lambda v: v > 0.5,
        0.002,
        max_turns=1,
        first=[call("reset_sim"), lift, call("step", duration=coarse)],
        start_t_s=coarse,
    )
    r = yield [call("reset_sim"), lift, call("step", duration=before), call("get_velocity", object_id=1)]
    yield answer(sig(r[3]["speed_m_s"], 3))


# references with the paper's 26 tools only (no reset_sim), for `--protocol paper`; keys stay the stored ones
@paper_solver("hidden_push")
def _hidden_push_paper_solve(p: dict):
    return _hpush_solve(p, by_hand=True)
