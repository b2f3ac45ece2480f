"""The apartment (deterministic, real joints), the appliance state machine, the predicates on hand-made
states, routing on the occupancy grid, the human body and first-person rendering."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest

from interactiveworld.actions import navigation as nav
from interactiveworld.world import human_body as hb
from interactiveworld.world.appliances import ApplianceMachine, SpillState
from interactiveworld.world.grid import CELL_M
from interactiveworld.world.layout import LAYOUTS, generate_apartment
from interactiveworld.world.mjcf import build_mjcf
from interactiveworld.world.objects import ObjectSpec
from interactiveworld.world.predicates import Predicate, evaluate
from interactiveworld.world.scene import SceneSpec
from interactiveworld.world.sim import World

OBJS = (
    ObjectSpec("milk", "milk", "white", "fridge", 0),
    ObjectSpec("red_mug", "mug", "red", "counter", 1),
    ObjectSpec("pot", "pot", "gray", "stove", 0),
    ObjectSpec("egg", "egg", "white", "pot", 0),
)


@pytest.fixture(scope="module")
def world() -> World:
    return World(SceneSpec("flat3", 7, OBJS, human_room="kitchen", foods=("egg",), doors_open=True))


def test_apartment_is_a_pure_function_of_layout_and_seed():
    for layout in LAYOUTS:
        a, b = generate_apartment(layout, 11), generate_apartment(layout, 11)
        assert a == b
        assert build_mjcf(a, OBJS) == build_mjcf(b, OBJS)
        assert [r.name for r in a.rooms] == list(LAYOUTS[layout])
        assert len(a.doors) == len(a.rooms) - 1
    assert generate_apartment("house5", 1) != generate_apartment("house5", 2)
    with pytest.raises(ValueError, match="unknown layout"):
        generate_apartment("castle", 1)


def test_fixtures_have_real_joints(world):
    m = world.model
    kinds = {mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, j): m.jnt_type[j] for j in range(m.njnt)}
    assert kinds["J:fridge"] == mujoco.mjtJoint.mjJNT_HINGE
    assert kinds["J:kitchen_drawer"] == mujoco.mjtJoint.mjJNT_SLIDE
    assert kinds["J:left_burner"] == mujoco.mjtJoint.mjJNT_HINGE
    assert kinds["J:living_kitchen_door"] == mujoco.mjtJoint.mjJNT_HINGE
    assert kinds["O:milk:free"] == mujoco.mjtJoint.mjJNT_FREE


def test_objects_rest_where_the_scene_puts_them(world):
    assert world.region_of("milk").owner == "fridge"
    assert world.region_of("milk").kind == "R"
    assert world.region_of("red_mug").owner == "counter"
    assert world.region_of("red_mug").kind == "S"
    assert world.region_of("egg").owner == "pot"
    z = world.object_pos("red_mug")[2]
    world.settle(500)  # physics keeps them there
    assert abs(world.object_pos("red_mug")[2] - z) < 0.005


def test_predicates_on_hand_made_states():
    w = World(SceneSpec("studio", 2, OBJS, human_room="kitchen", foods=("egg",)))
    p_in, p_on = Predicate("in", ("red_mug", "fridge")), Predicate("on", ("red_mug", "kitchen_table"))
    assert not evaluate(p_in, w)
    assert not evaluate(p_on, w)
    w.set_open("fridge", True)
    assert evaluate(Predicate("open", ("fridge",)), w)
    assert not evaluate(Predicate("closed", ("fridge",)), w)
    slot = w.free_slot(w.regions["fridge"][1], "red_mug")
    w.put_object("red_mug", slot, 0.0)
    w.settle()
    assert evaluate(p_in, w)
    assert not evaluate(p_on, w)
    table = [r for r in w.regions["kitchen_table"] if r.kind == "S"][0]
    w.put_object("red_mug", w.free_slot(table, "red_mug"), 0.0)
    w.settle()
    assert evaluate(p_on, w)
    assert not evaluate(p_in, w)
    w.grasp("red_mug")
    assert evaluate(Predicate("held", ("red_mug",)), w)
    assert not evaluate(p_on, w)
    w.set_burner_level("right_burner", 1)
    assert evaluate(Predicate("powered", ("right_burner",)), w)
    assert not evaluate(Predicate("unpowered", ("right_burner",)), w)
    assert not evaluate(Predicate("cooked", ("egg",)), w)
    assert not evaluate(Predicate("filled", ("pot",)), w)
    with pytest.raises(ValueError, match="takes 2 args"):
        Predicate("in", ("milk",))


def test_appliance_state_machine():
    m = ApplianceMachine(foods={"egg": "egg"}, power={"faucet": False, "kettle": False})
    m.spills["sink_spill"] = SpillState("sink_spill", 0, 0, False, "faucet_overflow")
    assert m.set_power("kettle", True, kettle_filled=False) == "UNSAFE"
    assert m.set_power("faucet", False) == "ALREADY_IN_STATE"
    assert m.set_power("oven", True) == "INVALID_TARGET"
    m.advance(299.0, {"egg": 2}, {"pot": 2})
    assert m.cook_state("egg") == "raw"
    assert m.scorched.get("pot")  # a dry pot on heat scorches
    m.advance(1.0, {"egg": 2}, {})
    assert m.cook_state("egg") == "cooked"
    m.advance(600.0, {"egg": 2}, {})
    assert m.cook_state("egg") == "overcooked"
    m.fill("kettle")
    assert m.set_power("kettle", True, kettle_filled=True) is None
    m.set_timer(30.0)
    events = m.advance(130.0, {}, {})
    assert m.boiled["kettle"]
    assert not m.power["kettle"]
    assert "timer rang" in events
    assert m.timer_ringing()
    m.set_power("faucet", True)
    m.advance(100.0, {}, {})
    assert m.spills["sink_spill"].present
    assert m.wipe("sink_spill") is None
    assert not m.spills["sink_spill"].present
    assert m.pour("kettle", "mug") is None
    assert m.filled["mug"]
    assert m.pour("kettle", "cup") == "EMPTY"
    with pytest.raises(ValueError):
        m.advance(-1.0, {}, {})


def test_route_is_collision_free_and_opens_doors():
    w = World(SceneSpec("house5", 4, (), human_room="bedroom", doors_open=False))
    a = nav.anchor_of(w, "room", "lobby")
    plan = nav.plan_walk(w, a)
    assert plan is not None
    pts, length = plan
    assert length > 10.0
    grid = nav.walk_grid(w)
    assert all(grid.free(grid.cell(x, y)) for x, y in pts[1:])
    steps = [math.hypot(b[0] - a_[0], b[1] - a_[1]) for a_, b in zip(pts[1:], pts[2:])]
    assert max(steps) <= CELL_M * math.sqrt(2) + 1e-6  # 0.10 m grid moves
    nav.walk(w, pts, (a.x, a.y))
    assert w.apartment.room_at(w.pose.x, w.pose.y) == "lobby"
    assert all(w.is_open(d.name) for d in w.apartment.doors)


def test_gait_and_reach_posture():
    assert hb.gait_phase(hb.STRIDE_M) == pytest.approx(2 * math.pi)
    p = hb.Pose(0, 0, 0, gait_phase_rad=math.pi / 2, gait_amp=1.0).joint_values()
    assert p["H:hip_l"] == pytest.approx(-p["H:hip_r"])
    assert p["H:hip_r"] > 0.3
    assert hb.reach_posture(0.4, 1.0) is not None
    assert hb.reach_posture(0.4, 0.05) is not None
    assert hb.reach_posture(1.5, 1.0) is None
    assert hb.reach_posture(0.3, 2.6) is None
    w = World(SceneSpec("studio", 1, (), human_room="kitchen"))
    target = np.array([w.pose.x + 0.5, w.pose.y - hb.SHOULDER_Y_M, 0.9])
    crouch, lean, sh, el = hb.reach_posture(0.5, 0.9)
    w.set_pose(hb.Pose(w.pose.x, w.pose.y, 0.0, crouch_m=crouch, lean_rad=lean, shoulder_r_rad=sh, elbow_r_rad=el))
    assert np.linalg.norm(w.wrist_pos() - target) < 0.03  # the IK puts the wrist on the target


def test_first_person_frame_renders(world):
    from interactiveworld.world.render import FRAME_H_PX, FRAME_W_PX, EyeCamera

    with EyeCamera(world) as cam:
        img = cam.frame()
    assert img.shape == (FRAME_H_PX, FRAME_W_PX, 3)
    assert img.dtype == np.uint8
    assert img.std() > 5.0  # a scene, not a blank image


def test_world_is_bit_reproducible():
    a = World(SceneSpec("flat3", 9, OBJS, foods=("egg",)))
    b = World(SceneSpec("flat3", 9, OBJS, foods=("egg",)))
    a.settle(200)
    b.settle(200)
    assert a.digest() == b.digest()


def test_cmu_humanoid_body_acts_and_carries():
    """dm_control's CMU humanoid (from the installed package) as the kinematic body: same actions, the
    grasped object follows its right hand, and its head camera renders."""
    from interactiveworld.actions.executor import Executor
    from interactiveworld.actions.parser import parse_command
    from interactiveworld.world.render import EyeCamera

    w = World(
        SceneSpec("studio", 3, (ObjectSpec("red_mug", "mug", "red", "counter", 0),), human_room="living"), body="cmu"
    )
    assert mujoco.mj_name2id(w.model, mujoco.mjtObj.mjOBJ_BODY, "C:head") >= 0
    ex = Executor(w)
    assert ex.run(parse_command("pick up the red mug", ex.catalog)).ok
    assert np.linalg.norm(w.wrist_pos() - w.object_pos("red_mug")) < 0.15
    assert ex.run(parse_command("put the red mug on the kitchen table", ex.catalog)).ok
    assert evaluate(Predicate("on", ("red_mug", "kitchen_table")), w)
    with EyeCamera(w) as cam:
        assert cam.frame().std() > 5.0
    with pytest.raises(ValueError, match="body must be"):
        World(SceneSpec("studio", 3), body="robot")
