"""Each lab tool against analytic physics, on small real MuJoCo scenes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from physment.scene import parse_scene
from physment.tools import ToolBox
from physment.toolspec import TOOL_NAMES

G = 9.81


def box(xml_body: str, objects: dict, perms: dict | None = None, options: str = 'timestep="0.002"') -> ToolBox:
    xml = f"<mujoco><option {options}/><worldbody>{xml_body}</worldbody></mujoco>"
    meta = {
        "metadata": {"scene_name": "t", "task": "t", "problem_type": "calculation"},
        "answer": 0,
        "objects": {f"object_{k}": {"name": v, "object_id": str(k)} for k, v in objects.items()},
        "object_permissions": perms or {},
    }
    return ToolBox(parse_scene(meta, xml, 1, Path(".")))


def ok(tb: ToolBox, name: str, /, **args) -> dict:
    res = tb.call(name, args)
    assert res.ok, res.result
    return res.result


FALL = '<body name="object_1" pos="0 0 10"><freejoint/><geom type="sphere" size="0.1" density="1000"/></body>'


def test_tool_table_has_every_named_tool():
    # the issue names 26 simulation tools plus the terminal `answer`
    assert len(set(TOOL_NAMES)) == len(TOOL_NAMES) == 27
    assert TOOL_NAMES[-1] == "answer"


def test_free_fall_position_velocity_acceleration():
    tb = box(FALL, {1: "ball"})
    # acceleration at t=0 comes from the dynamics, not a finite difference
    assert ok(tb, "get_acceleration", object_id=1)["linear_acceleration_m_s2"][2] == pytest.approx(-G, rel=1e-6)
    ok(tb, "step", duration=1.0)
    z = ok(tb, "get_position", object_id="object_1")["position_m"][2]
    assert z == pytest.approx(10 - 0.5 * G, abs=0.02)
    assert ok(tb, "get_velocity", object_id=1)["linear_velocity_m_s"][2] == pytest.approx(-G, rel=1e-3)
    assert ok(tb, "get_displacement", object_id=1)["displacement_m"][2] == pytest.approx(-0.5 * G, abs=0.02)
    m = 1000 * 4 / 3 * math.pi * 0.1**3
    assert ok(tb, "get_kinetic_energy", object_id=1, mass=m)["kinetic_energy_j"] == pytest.approx(
        0.5 * m * G * G, rel=2e-3
    )
    assert ok(tb, "get_momentum", object_id=1, mass=m)["momentum_kg_m_s"][2] == pytest.approx(-m * G, rel=1e-3)
    assert ok(tb, "compute_force", object_id=1, mass=m)["net_force_n"][2] == pytest.approx(-m * G, rel=1e-6)
    pe = ok(tb, "get_potential_energy", object_id=1, mass=2.0, gravity=10.0)
    assert pe["potential_energy_j"] == pytest.approx(2.0 * 10.0 * z, rel=1e-5)


def test_constant_force_lasts_its_duration_and_reset_clears_it():
    tb = box(FALL, {1: "ball"}, options='timestep="0.005" gravity="0 0 0"')
    m = 1000 * 4 / 3 * math.pi * 0.1**3
    ok(tb, "apply_force", object_id=1, force_vector=[2 * m, 0, 0], duration=1.0)
    assert ok(tb, "get_acceleration", object_id=1)["linear_acceleration_m_s2"][0] == pytest.approx(2.0, rel=1e-6)
    ok(tb, "step", duration=2.0)
    # the force acted for 1 s only: v = 2 m/s, then coasting
    assert ok(tb, "get_velocity", object_id=1)["linear_velocity_m_s"][0] == pytest.approx(2.0, rel=1e-6)
    assert ok(tb, "get_acceleration", object_id=1)["linear_acceleration_m_s2"][0] == pytest.approx(0.0, abs=1e-9)
    assert ok(tb, "get_displacement", object_id=1)["displacement_m"][0] == pytest.approx(1.0 + 2.0, rel=1e-2)
    ok(tb, "apply_force", object_id=1, force_vector=[m, 0, 0], duration=5.0)
    ok(tb, "reset_sim")
    ok(tb, "step", duration=1.0)
    assert ok(tb, "get_velocity", object_id=1)["linear_velocity_m_s"] == [0.0, 0.0, 0.0]
    # default duration: the next step call only
    ok(tb, "apply_force", object_id=1, force_vector=[m, 0, 0])
    ok(tb, "step", duration=0.5)
    ok(tb, "step", duration=0.5)
    assert ok(tb, "get_velocity", object_id=1)["linear_velocity_m_s"][0] == pytest.approx(0.5, rel=1e-6)


def test_elastic_collision_of_equal_masses_exchanges_velocities():
    body = (
        '<body name="object_1" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1" density="1000" '
        'solref="-100000 0"/></body><body name="object_2" pos="1 0 1"><freejoint/>'
        '<geom type="sphere" size="0.1" density="1000" solref="-100000 0"/></body>'
    )
    tb = box(body, {1: "a", 2: "b"}, options='timestep="0.0005" gravity="0 0 0"')
    ok(tb, "set_velocity", object_id=1, velocity_vector=[2.0, 0, 0])
    ok(tb, "step", duration=0.2)
    assert ok(tb, "detect_collision", obj1_id=1, obj2_id=2)["colliding"] is False
    touched_at = None
    for i in range(200):
        ok(tb, "step", duration=0.002)
        if touched_at is None and ok(tb, "detect_collision", obj1_id=1, obj2_id=2)["colliding"]:
            touched_at = 0.2 + 0.002 * (i + 1)
    assert touched_at == pytest.approx(0.4, abs=0.005)
    assert ok(tb, "get_velocity", object_id=1)["linear_velocity_m_s"][0] == pytest.approx(0.0, abs=0.05)
    assert ok(tb, "get_velocity", object_id=2)["linear_velocity_m_s"][0] == pytest.approx(2.0, rel=0.02)


def test_pendulum_period_matches_small_angle_formula():
    length_m, theta0 = 1.0, 0.1
    x, z = length_m * math.sin(theta0), 2.0 - length_m * math.cos(theta0)
    body = (
        f'<body name="object_1" pos="{x} 0 {z}"><joint type="hinge" axis="0 1 0" pos="{-x} 0 {2.0 - z}"/>'
        '<geom type="sphere" size="0.01" mass="1"/></body>'
    )
    tb = box(body, {1: "bob"})
    crossings, prev, t = [], None, 0.0
    for _ in range(400):
        ok(tb, "step", duration=0.01)
        t += 0.01
        vx = ok(tb, "get_velocity", object_id=1)["linear_velocity_m_s"][0]
        if prev is not None and prev * vx < 0:
            crossings.append(t)
        prev = vx
    period = 2 * (crossings[2] - crossings[1])
    assert period == pytest.approx(2 * math.pi * math.sqrt(length_m / G), rel=0.01)
    with_hinge = tb.call("move_object", {"object_id": 1, "x": 0, "y": 0, "z": 1})
    assert not with_hinge.ok
    assert "free joint" in with_hinge.result["error"]


def test_hollow_sphere_rolls_slower_than_solid():
    angle = 0.3
    ramp = f'<geom type="plane" size="20 5 .1" euler="0 {math.degrees(angle)} 0" friction="1 0 0"/>'

    def ball(i, y, inertia):
        zc = 0.1 / math.cos(angle) + 0.01
        return (
            f'<body name="object_{i}" pos="0 {y} {zc}"><freejoint/><geom type="sphere" size="0.1" mass="1" '
            f'shellinertia="{inertia}"/></body>'
        )

    tb = box(ramp + ball(1, -1, "true") + ball(2, 1, "false"), {1: "hollow", 2: "solid"}, options='timestep="0.001"')
    ok(tb, "step", duration=1.0)
    d_hollow = ok(tb, "get_displacement", object_id=1)["distance_m"]
    d_solid = ok(tb, "get_displacement", object_id=2)["distance_m"]
    g_along = G * math.sin(angle)
    assert d_solid == pytest.approx(0.5 * g_along / (1 + 2 / 5), rel=0.05)
    assert d_hollow == pytest.approx(0.5 * g_along / (1 + 2 / 3), rel=0.05)


def test_torque_rotational_energy_and_angular_momentum():
    body = '<body name="object_1" pos="0 0 1"><freejoint/><geom type="cylinder" size="0.2 0.05" mass="2"/></body>'
    tb = box(body, {1: "disk"}, options='timestep="0.001" gravity="0 0 0"')
    inertia = 0.5 * 2 * 0.2**2
    ok(tb, "apply_torque", object_id=1, torque_vector=[0, 0, 0.4], duration=1.0)
    assert ok(tb, "get_torque", object_id=1)["net_torque_nm"][2] == pytest.approx(0.4, rel=1e-6)
    ok(tb, "step", duration=1.0)
    w = ok(tb, "get_velocity", object_id=1)["angular_velocity_rad_s"][2]
    assert w == pytest.approx(0.4 / inertia, rel=1e-3)
    assert ok(tb, "get_rotational_energy", object_id=1, mass=2)["rotational_energy_j"] == pytest.approx(
        0.5 * inertia * w * w, rel=1e-3
    )
    assert ok(tb, "get_angular_momentum", object_id=1, mass=2)["angular_momentum_kg_m2_s"][2] == pytest.approx(
        0.4, rel=1e-3
    )


def test_create_attach_delete_and_center_of_mass():
    tb = box(FALL, {1: "ball"}, options='timestep="0.002" gravity="0 0 0"')
    made = ok(tb, "create_objects", name="cube", pos=[1, 0, 10], density=500, shape="box", size=[0.1, 0.1, 0.1])
    assert made["object_id"] == "2"
    assert made["mass_kg"] == pytest.approx(500 * 0.2**3)
    params = ok(tb, "get_parameters", object_id=2)
    assert params["density_kg_m3"] == pytest.approx(500)
    assert params["size_m"] == [0.1, 0.1, 0.1]
    m1 = 1000 * 4 / 3 * math.pi * 0.1**3
    com = ok(tb, "get_center_of_mass")["center_of_mass_m"][0]
    assert com == pytest.approx(4.0 / (m1 + 4.0), rel=1e-5)
    ok(tb, "attach_objects", object1_id=1, object2_id=2)
    ok(tb, "apply_force", object_id=1, force_vector=[0, 0, m1 + 4.0], duration=1.0)
    ok(tb, "step", duration=1.0)
    v1 = ok(tb, "get_velocity", object_id=1)["linear_velocity_m_s"][2]
    v2 = ok(tb, "get_velocity", object_id=2)["linear_velocity_m_s"][2]
    # the pushed pair moves as one body: total momentum F*t, and the two keep their separation
    assert m1 * v1 + 4.0 * v2 == pytest.approx(m1 + 4.0, rel=0.01)
    gap = np.subtract(
        ok(tb, "get_position", object_id=2)["position_m"], ok(tb, "get_position", object_id=1)["position_m"]
    )
    assert np.linalg.norm(gap) == pytest.approx(1.0, abs=0.01)
    ok(tb, "delete_objects", object_id=2)
    assert not tb.call("get_position", {"object_id": 2}).ok
    ok(tb, "reset_sim")
    assert tb.lab.object_ids() == ["1"]


def test_permissions_hidden_objects_and_bad_calls():
    body = FALL + '<body name="object_2" pos="2 0 1"><freejoint/><geom type="box" size=".1 .1 .1" mass="3"/></body>'
    tb = box(
        body,
        {1: "ball", 2: "secret"},
        {"object_1_permissions": {"body_mass": False, "geom_type": True}, "2": {"mass": True, "hidden": True}},
    )
    p1 = ok(tb, "get_parameters", object_id=1)
    assert p1["shape"] == "sphere"
    assert "mass_kg" not in p1
    assert not tb.call("get_position", {"object_id": 2}).ok
    assert [o["object_id"] for o in ok(tb, "find_objects")["objects"]] == ["1", "2"]
    assert ok(tb, "get_parameters", object_id=2)["mass_kg"] == pytest.approx(3.0)
    for name, args in [
        ("step", {"duration": -1}),
        ("step", {}),
        ("apply_force", {"object_id": 1, "force_vector": [1, 2]}),
        ("get_velocity", {"object_id": "banana"}),
        ("get_velocity", {"object_id": 9}),
        ("nope", {}),
        ("step", {"duration": 1, "extra": 2}),
        ("step", "1"),
        ("quat_to_rot_matrix", {"q": [0, 0, 0, 0]}),
        ("create_objects", {"name": "x", "pos": [0, 0, 1], "density": -1}),
    ]:
        res = tb.call(name, args)
        assert not res.ok, (name, args)
        assert res.result["error"], (name, args)
    rot = ok(tb, "quat_to_rot_matrix", q=[math.cos(math.pi / 4), 0, 0, math.sin(math.pi / 4)])["rotation_matrix"]
    assert np.allclose(rot, [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-6)
    res = ok(tb, "change_position", object_id=1, dx=1, dy=0, dz=0)
    assert res["position_m"] == [1.0, 0.0, 10.0]
    assert ok(tb, "answer", answer=3)["submitted"] == 3
    assert not tb.call("step", {"duration": 1}).ok


def test_step_is_deterministic_regardless_of_reads():
    a, b = box(FALL, {1: "ball"}), box(FALL, {1: "ball"})
    ok(a, "step", duration=1.5)
    for _ in range(3):
        ok(b, "step", duration=0.5)
        ok(b, "get_acceleration", object_id=1)
    assert ok(a, "get_position", object_id=1) == ok(b, "get_position", object_id=1)


def test_prompt_states_the_scenes_own_timestep_axes_and_visible_attributes():
    from physment.prompt import build_prompt

    tb = box(
        FALL,
        {1: "ball"},
        {"object_1_permissions": {"body_mass": True, "density": False}},
        options='timestep="0.004" gravity="0 -9.81 0"',
    )
    text = build_prompt(tb, 10)
    assert "along -y, so y is up" in text
    assert "timestep: 0.004 s" in text
    assert "at most 10 iterations" in text
    assert '"mass_kg": 4.18879' in text
    assert "density" not in text.split("## Tools")[0].split("## Objects")[1]


def test_huge_force_is_reported_not_fatal():
    tb = box(FALL, {1: "ball"})
    ok(tb, "apply_force", object_id=1, force_vector=[1e300, 0, 0], duration=1.0)
    res = ok(tb, "step", duration=0.1)
    assert "warning" in res
    assert "unstable" in res["warning"]
    assert tb.call("get_position", {"object_id": 1}).ok
