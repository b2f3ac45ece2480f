"""Standard-modality templates, Hard Single and Hard Multi: experimental loops in which later actions depend
on earlier observations (bisection over a control, scans for an event)."""

from __future__ import annotations

from physment.scenegen import mjcf
from physment.scenegen.registry import Draft, call, paper_solver, scene_template, sig
from physment.scenegen.solvers import bisect, crossing_time, scan
from physment.scenegen.t_standard import G, answer, perms

SLIDE_THRESHOLD_M = 0.01


def _moved(results: list[dict]) -> bool:
    return results[-1]["distance_m"] > SLIDE_THRESHOLD_M


# ---- Hard Single -----------------------------------------------------------------------------------------
def _threshold_build(p: dict) -> Draft:
    m, mu = p["mass"], p["mu"]
    body = mjcf.box(1, (0, 0, 0.1), (0.1, 0.1, 0.1), mass=f"{m:g}", friction=f"{mu:g} 0.005 0.0001")
    xml = mjcf.scene_xml("static_friction_threshold", body, floor=mjcf.floor(mu))
    return Draft(
        "Breaking Static Friction",
        "Object 1 is a block resting on a rough floor. What is the smallest "
        "horizontal force in N which, applied along +x for 1 s, moves it more than 1 cm?",
        xml,
        [(1, "block", perms(mass=True))],
        "Search over the force: push, step 1 s, check the displacement, reset, and narrow the bracket.",
        "The block moves once the push exceeds the maximum static friction force.",
    )


@scene_template(
    "static_friction_threshold",
    "Hard",
    "Single",
    "standard",
    "friction",
    "calculation",
    build=_threshold_build,
    params=[{"mass": m, "mu": mu} for m, mu in ((1.0, 0.5), (2.0, 0.3), (0.5, 0.8), (3.0, 0.4), (1.5, 0.6))],
)
def _threshold_solve(p: dict):
    m = p["mass"]
    hi_n = 2.0 * m * G  # any friction coefficient up to 2

    def probe(f_n: float) -> list[dict]:
        return [
            call("reset_sim"),
            call("apply_force", object_id=1, force_vector=[f_n, 0, 0], duration=1.0),
            call("step", duration=1.0),
            call("get_displacement", object_id=1),
        ]

    _, hi = yield from bisect(probe, _moved, 0.0, hi_n, turns=4)
    yield answer(sig(hi, 3))


def _impact_build(p: dict) -> Draft:
    h, r = p["height"], 0.05
    body = (
        mjcf.sphere(1, (0, 0, h), r, density=1000)
        + '    <body name="object_2" pos="0 0 -0.05">\n      <geom type="box" size="2 2 0.05" rgba="0.6 0.6 0.6 1"/>\n    </body>\n'
    )
    xml = mjcf.scene_xml("impact_time", body)
    return Draft(
        "Time to Impact",
        "Object 1, a ball, is released from rest above object 2, a fixed slab. At what "
        "time in s does the ball first touch the slab?",
        xml,
        [(1, "ball", perms()), (2, "slab", perms())],
        "Step in small increments and check for contact; refine around the first contact.",
        "Free fall from the release height: t = sqrt(2 h / g), measured rather than assumed.",
    )


@scene_template(
    "impact_time",
    "Hard",
    "Single",
    "standard",
    "kinematics",
    "calculation",
    build=_impact_build,
    params=[{"height": h} for h in (1.0, 2.0, 3.5, 0.6, 4.5)],
)
def _impact_solve(p: dict):
    touch = call("detect_collision", obj1_id=1, obj2_id=2)
    t0, _, _, _ = yield from scan(touch, lambda r: float(r["colliding"]), lambda v: v > 0.5, 0.05, max_turns=3)
    t1, _, t2, _ = yield from scan(
        touch,
        lambda r: float(r["colliding"]),
        lambda v: v > 0.5,
        0.005,
        max_turns=1,
        first=[call("reset_sim"), call("step", duration=t0)],
        start_t_s=t0,
    )
    yield answer(sig(t2, 3))


def _pendulum_build(p: dict) -> Draft:
    body = mjcf.pendulum(1, (0, 0, p["length"] + 0.5), p["length"], p["angle"], p["mass"])
    xml = mjcf.scene_xml("pendulum_period", body, timestep_s=0.002)
    return Draft(
        "Pendulum Period",
        f"Object 1 is the bob of a simple pendulum of length {p['length']:g} m, "
        "released from rest at a small angle. Measure its period of oscillation in s.",
        xml,
        [(1, "pendulum bob", perms(mass=True))],
        "Step in small increments, watch the velocity change sign, and time half a swing.",
        "The bob is at rest at both turning points; half a period separates them.",
    )


def _velocity_x(r: dict) -> float:
    return r["linear_velocity_m_s"][0]


def half_period_solve(read_id: int):
    read = call("get_velocity", object_id=read_id)
    # the velocity leaves zero (one sign), then crosses zero again half a period later
    _, _, t_start, v_start = yield from scan(
        read, _velocity_x, lambda v: abs(v) > 1e-4, 0.05, pairs_per_turn=1, max_turns=1
    )
    sign = 1.0 if v_start > 0 else -1.0
    t0, v0, t1, v1 = yield from scan(read, _velocity_x, lambda v: sign * v < 0, 0.05, max_turns=4)
    return crossing_time(t0, v0, t1, v1)


@scene_template(
    "pendulum_period",
    "Hard",
    "Single",
    "standard",
    "oscillation",
    "calculation",
    build=_pendulum_build,
    params=[
        {"length": L, "angle": a, "mass": m}
        for L, a, m in ((0.5, 0.1, 1.0), (1.0, 0.15, 0.5), (1.5, 0.1, 2.0), (2.0, 0.12, 1.0), (0.8, 0.2, 0.3))
    ],
)
def _pendulum_solve(p: dict):
    half = yield from half_period_solve(1)
    yield answer(sig(2.0 * half, 3))


def _spring_build(p: dict) -> Draft:
    body = mjcf.spring_mass(1, (0, 0, 1), p["mass"], p["stiffness"], p["offset"])
    xml = mjcf.scene_xml("spring_period", body, timestep_s=0.002, gravity=(0, 0, 0))
    return Draft(
        "Spring Oscillator",
        "Object 1 is a block on a horizontal spring, released from rest away from "
        "equilibrium. Measure its period of oscillation in s.",
        xml,
        [(1, "block", perms())],
        "Step in small increments, watch the velocity reverse, and time half an oscillation.",
        "A mass on a spring oscillates with T = 2 pi sqrt(m / k).",
    )


@scene_template(
    "spring_period",
    "Hard",
    "Single",
    "standard",
    "oscillation",
    "calculation",
    build=_spring_build,
    params=[
        {"mass": m, "stiffness": k, "offset": x}
        for m, k, x in ((1.0, 40.0, 0.1), (0.5, 50.0, 0.05), (2.0, 30.0, 0.2), (1.5, 100.0, 0.1), (0.3, 20.0, 0.08))
    ],
)
def _spring_solve(p: dict):
    half = yield from half_period_solve(1)
    yield answer(sig(2.0 * half, 3))


# ---- Hard Multi ------------------------------------------------------------------------------------------
def _force_speed_build(p: dict) -> Draft:
    mu = p["mu"]
    body = mjcf.box(1, (0, 0, 0.1), (0.1, 0.1, 0.1), mass=f"{p['mass']:g}", friction=f"{mu:g} 0.005 0.0001")
    xml = mjcf.scene_xml("force_for_speed", body, floor=mjcf.floor(mu))
    return Draft(
        "Force for a Target Speed",
        f"Object 1 is a block on a rough floor. What constant horizontal force "
        f"in N, applied along +x for 1 s, leaves it moving at {p['speed']:g} m/s at the end of that second?",
        xml,
        [(1, "block", perms(mass=True))],
        "Search over the force: push 1 s, read the speed, reset, and narrow the bracket.",
        "Newton's second law with kinetic friction: F = m (v / t + mu g).",
    )


# the paper's 26 tools have no reset_sim: its references put the block back by hand (teleported, at rest)
_BLOCK_BACK = [call("move_object", object_id=1, x=0, y=0, z=0.1)]


@scene_template(
    "force_for_speed",
    "Hard",
    "Multi",
    "standard",
    "friction",
    "calculation",
    build=_force_speed_build,
    params=[
        {"mass": m, "mu": mu, "speed": v}
        for m, mu, v in ((1.0, 0.3, 2.0), (2.0, 0.5, 1.0), (0.5, 0.2, 3.0), (3.0, 0.4, 1.5), (1.5, 0.45, 2.5))
    ],
)
def _force_speed_solve(p: dict, restore: list[dict] | None = None):
    hi_n = p["mass"] * (p["speed"] + 2.5 * G)
    restore = restore or [call("reset_sim")]

    def probe(f_n: float) -> list[dict]:
        return [
            *restore,
            call("apply_force", object_id=1, force_vector=[f_n, 0, 0], duration=1.0),
            call("step", duration=1.0),
            call("get_velocity", object_id=1),
        ]

    lo, hi = yield from bisect(probe, lambda r: r[-1]["linear_velocity_m_s"][0] >= p["speed"], 0.0, hi_n, turns=4)
    yield answer(sig(0.5 * (lo + hi), 3))


def _spin_time_build(p: dict) -> Draft:
    body = mjcf.cylinder(1, (0, 0, 1), p["radius"], 0.05, mass=f"{p['mass']:g}")
    xml = mjcf.scene_xml("spin_up_time", body, timestep_s=0.002, gravity=(0, 0, 0))
    return Draft(
        "Time to Store Energy",
        f"A constant torque of {p['torque']:g} N*m about the z axis is applied to "
        f"object 1, a disk at rest. After how many seconds does its rotational energy reach "
        f"{p['energy']:g} J?",
        xml,
        [(1, "disk", perms(mass=True))],
        "Apply the torque, step in increments while reading the rotational energy, refine around the target.",
        "Torque gives angular acceleration tau / I; rotational energy grows as (tau t)^2 / (2 I).",
    )


@scene_template(
    "spin_up_time",
    "Hard",
    "Multi",
    "standard",
    "energy",
    "calculation",
    build=_spin_time_build,
    params=[
        {"radius": r, "mass": m, "torque": tq, "energy": e}
        for r, m, tq, e in (
            (0.2, 2.0, 0.5, 3.0),
            (0.3, 1.0, 0.2, 2.0),
            (0.15, 3.0, 1.0, 10.0),
            (0.25, 4.0, 2.0, 20.0),
            (0.1, 0.5, 0.05, 0.8),
        )
    ],
)
def _spin_time_solve(p: dict):
    r = yield [call("get_parameters", object_id=1)]
    mass = r[0]["mass_kg"]
    torque = call("apply_torque", object_id=1, torque_vector=[0, 0, p["torque"]], duration=30.0)
    read = call("get_rotational_energy", object_id=1, mass=mass)
    energy = lambda res: res["rotational_energy_j"]  # noqa: E731
    t0, _, _, _ = yield from scan(read, energy, lambda e: e >= p["energy"], 0.1, max_turns=2, first=[torque])
    t1, e1, t2, e2 = yield from scan(
        read,
        energy,
        lambda e: e >= p["energy"],
        0.01,
        max_turns=1,
        first=[call("reset_sim"), torque, call("step", duration=t0)],
        start_t_s=t0,
    )
    yield answer(sig(crossing_time(t1, e1, t2, e2, p["energy"]), 3))


# references with the paper's 26 tools only (no reset_sim), for `--protocol paper`; keys stay the stored ones
# (static_friction_threshold has none: its strongest probes tip the block, and no tool of the 26 sets it upright)
@paper_solver("force_for_speed")
def _force_for_speed_paper_solve(p: dict):
    return _force_speed_solve(p, _BLOCK_BACK)
