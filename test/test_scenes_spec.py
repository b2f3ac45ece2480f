"""Scene specs, catalogue, MJCF, randomizer and planner: everything short of simulation (no Genesis)."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys

import mujoco
import numpy as np
import pytest

from reacthuman.scenes import (
    FAMILIES,
    GRAVITY_FAMILIES,
    OBJECTS,
    SPEED_FAMILIES,
    SceneSpec,
    SpecError,
    sample_spec,
    scene_mjcf,
)
from reacthuman.scenes.catalog import ADVERSARIAL_IDS, get_object
from reacthuman.scenes.families import FAMILY_DEFS
from reacthuman.scenes.mjcf import OBSERVER_CLEAR_RADIUS_M, insert_into_worldbody
from reacthuman.scenes.planner import PlannerError, check_answer, plan, rule_parse
from reacthuman.scenes.randomize import BAND_FACTOR
from reacthuman.scenes.reach import clear_of_geometry
from reacthuman.scenes.spec import SPEED_BANDS


@pytest.fixture(scope="module")
def specs() -> dict[str, list[SceneSpec]]:
    return {f: [sample_spec(f, seed) for seed in range(4)] for f in FAMILIES}


def test_taxonomy_counts() -> None:
    assert len(FAMILIES) == 17
    assert len(SPEED_FAMILIES) == 12
    assert len(GRAVITY_FAMILIES) == 5


def test_catalogue_size_and_adversarial_twins() -> None:
    assert len(OBJECTS) >= 82
    assert len(ADVERSARIAL_IDS) >= 14
    for required in (
        "foam_anvil",
        "steel_apple",
        "lead_tennis_ball",
        "foam_mirror",
        "hollow_prop_door",
        "foam_ceiling_panel",
        "lead_sandbag",
        "solid_steel_can",
    ):
        assert required in ADVERSARIAL_IDS
    for aid in ADVERSARIAL_IDS:
        adv, twin = get_object(aid), get_object(get_object(aid).looks_like)
        # Same look (shape, size, colour, pattern), different physics.
        assert (adv.shape, adv.size, adv.color, adv.texture) == (twin.shape, twin.size, twin.color, twin.texture)
        assert (adv.mass_kg, adv.material) != (twin.mass_kg, twin.material)
        assert any(aid in d.objects for d in FAMILY_DEFS.values()), f"{aid} is in no family catalogue"
    for o in OBJECTS.values():
        assert o.mass_kg > 0
        assert o.color[3] > 0
        assert o.shape in ("box", "sphere", "cylinder", "capsule")


def test_json_round_trip_every_family(specs) -> None:
    for f, group in specs.items():
        for s in group:
            again = SceneSpec.from_json(s.to_json())
            assert again == s, f
            assert again.to_json() == s.to_json()
            assert {c.name for c in s.cameras} == {"egocentric", "closeup", "overhead"}
            assert s.observation_window_s == 0.6
            assert s.t0_s == 0.0
            assert s.dt_s == 1 / 240


def test_sampling_is_pure_across_processes() -> None:
    code = (
        "from reacthuman.scenes import sample_spec, FAMILIES;"
        "print(''.join(sample_spec(f, 7).to_json() for f in FAMILIES))"
    )
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123", "PATH": "/usr/bin"},
    ).stdout.strip()
    assert other == "".join(sample_spec(f, 7).to_json() for f in FAMILIES)


def test_speed_group_differs_only_in_speed() -> None:
    for f in SPEED_FAMILIES:
        group = [sample_spec(f, 11, speed_band=b) for b in SPEED_BANDS]
        assert len({s.speed_group for s in group}) == 1
        assert group[0].speed_group
        base = group[1]  # normal
        for s in group:
            assert (s.object_id, s.room, s.observer, s.cameras) == (
                base.object_id,
                base.room,
                base.observer,
                base.cameras,
            )
            ratio = BAND_FACTOR[s.speed_band]
            for b, b0 in zip(s.bodies, base.bodies):
                assert b.geoms == b0.geoms
                assert b.name == b0.name
                speeds = [math.hypot(*b.lin_vel), math.hypot(*b0.lin_vel)]
                if speeds[1] > 1e-3 and f != "thrown_object":  # throws re-aim: same speed ratio, other elevation
                    assert speeds[0] == pytest.approx(ratio * speeds[1], rel=2e-3, abs=2e-4), f
    with pytest.raises(SpecError):
        sample_spec("ceiling_drop", 1, speed_band="fast")  # gravity-paced families have no speed band


def test_malformed_spec_errors_are_one_line(specs) -> None:
    good = json.loads(specs["door_swing"][0].to_json())
    cases = [
        "{not json",
        "[]",
        json.dumps({**good, "bogus": 1}),
        json.dumps({k: v for k, v in good.items() if k != "bodies"}),
        json.dumps({**good, "seed": -3}),
        json.dumps({**good, "hazard_bodies": ["nobody"]}),
        json.dumps(
            {
                **good,
                "ground_truth": {
                    "correct_action": "RUN",
                    "dangerous": True,
                    "impact_point": None,
                    "time_to_floor_s": None,
                    "speed_band": "fast",
                    "adversarial": False,
                },
            }
        ),
    ]
    for text in cases:
        with pytest.raises(SpecError) as err:
            SceneSpec.from_json(text)
        assert "\n" not in str(err.value)
        assert str(err.value)


def test_mjcf_loads_in_mujoco_and_leaves_observer_free(specs) -> None:
    for f, group in specs.items():
        for s in group:
            xml = scene_mjcf(s)
            model = mujoco.MjModel.from_xml_string(xml)
            names = {model.body(i).name for i in range(model.nbody)}
            assert set(s.hazard_bodies) <= names
            hinged = [b for b in s.bodies if b.joint is not None and b.joint.kind == "hinge"]
            assert model.njnt == sum(1 for b in s.bodies if b.dynamic)
            assert all(model.joint(f"{b.name}_hinge").type == mujoco.mjtJoint.mjJNT_HINGE for b in hinged)
            mass = {b.name: b.mass_kg for b in s.bodies if b.dynamic}
            for name, m in mass.items():
                assert model.body(name).mass[0] == pytest.approx(m, rel=1e-6)
            assert clear_of_geometry(list(s.bodies), s.observer.x_m, s.observer.y_m), (
                f"{f}: geometry at the observer's feet"
            )
            assert "observer_proxy" not in xml
            assert "observer_proxy" in scene_mjcf(s, with_observer_proxy=True)
    assert OBSERVER_CLEAR_RADIUS_M > 0.3
    robot = '<body name="robot" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>'
    extended = insert_into_worldbody(scene_mjcf(specs["object_drop"][0]), robot)
    assert mujoco.MjModel.from_xml_string(extended).body("robot").id > 0


def test_articulated_families_use_real_joints(specs) -> None:
    for f in ("door_swing", "pendulum_swing", "furniture_tip"):
        assert all(s.hazard.joint.kind == "hinge" for s in specs[f])
    regimes = {sample_spec("ladder_slip", seed).params["regime"] for seed in range(12)}
    assert regimes == {"slide", "tip"}


def test_sliding_ramps_are_steeper_than_the_friction_cone() -> None:
    for seed in range(30):
        p = sample_spec("sliding_object", seed).params
        assert p["ramp_angle_rad"] > math.atan(p["friction"])


DESCRIPTIONS = {
    "object_drop": "a cast-iron pan slides off the counter while someone is cooking",
    "shelf_slide": "a ceramic vase slides off a high shelf in the living room",
    "hanging_fall": "a picture frame comes off the wall",
    "ceiling_drop": "the ceiling fan falls from the ceiling",
    "sliding_object": "a coffee mug slides down a ramp in the kitchen",
    "rolling_ball": "a rubber ball rolls off the dining table",
    "surface_cascade": "a hardcover book hops from the table onto the stool then the floor",
    "furniture_tip": "a tall wardrobe tips over in the bedroom",
    "stack_collapse": "a stack of tin cans collapses",
    "ladder_slip": "an aluminium ladder slips in the garage",
    "door_swing": "a glass door swings open violently",
    "pendulum_swing": "a chandelier swings towards me",
    "thrown_object": "someone throws a cricket ball at the robot",
    "bouncing_object": "a tennis ball bounces towards me",
    "stair_tumble": "a soccer ball tumbles down the stairs",
    "chain_reaction": "a steel ball knocks into a plastic bottle",
    "multi_object": "a row of dominoes falls one after another",
}


def test_fallback_parser_handles_every_family() -> None:
    assert set(DESCRIPTIONS) == set(FAMILIES)
    for family, text in DESCRIPTIONS.items():
        sel = rule_parse(text)
        assert sel.family == family, text
        assert sel.planner == "rule"
        assert sel.object_id in FAMILY_DEFS[family].objects, text
        spec = sample_spec(sel.family, 3, object_id=sel.object_id, room=sel.room, hints=sel.hints, planner=sel.planner)
        assert spec.object_id == sel.object_id
        assert spec.planner == "rule"
    assert rule_parse("a foam anvil falls off the desk").object_id == "foam_anvil"
    assert rule_parse("a steel apple is tossed at me").object_id == "steel_apple"
    with pytest.raises(PlannerError):
        rule_parse("the weather is lovely today")


def test_model_answers_are_checked_against_the_catalogue() -> None:
    ok = check_answer(
        '{"family": "door_swing", "object_id": "glass_door", "room": "hallway", '
        '"hints": {"surface": "", "regime": "", "support": ""}}',
        "d",
    )
    assert (ok.family, ok.object_id, ok.planner) == ("door_swing", "glass_door", "llm")
    for bad in (
        '{"family": "door_swing", "object_id": "apple", "room": "hallway", "hints": {}}',
        '{"family": "teleport", "object_id": "apple", "room": "hallway", "hints": {}}',
        "nope",
        "[1]",
    ):
        with pytest.raises(ValueError):
            check_answer(bad, "d")


def test_planner_with_the_real_local_model() -> None:
    from reacthuman.llm import make_client

    with make_client("local") as client:
        sel = plan("a rubber ball bounces towards me in the living room", client, retries=1)
    assert sel.planner in ("llm", "rule")
    assert sel.family in FAMILIES
    if sel.object_id is not None:
        assert sel.object_id in FAMILY_DEFS[sel.family].objects
    assert dataclasses.asdict(sel)["description"].startswith("a rubber ball")


def test_the_window_frames_end_at_the_freeze_even_when_there_is_one() -> None:
    from reacthuman.scenes.spec import window_frame_times_s

    assert window_frame_times_s(0.6, 1) == (0.6,)  # the freeze: what a brain reads as the decision instant
    times = window_frame_times_s(0.6, 5)
    assert times[0] == 0.0
    assert times[-1] == 0.6
    assert len(times) == 5
    assert all(b > a for a, b in zip(times, times[1:]))
    with pytest.raises(ValueError, match="frame_count"):
        window_frame_times_s(0.6, 0)


def test_the_walk_room_is_the_floor_free_of_furniture_about_the_observer():
    """The observer of a rolling_ball scene stands 0.35-0.5 m from the table's edge, facing along the table: a
    walk towards the edge stops where the legs (the envelope's cylinder) meet the table; backwards is floor."""
    from reacthuman.scenes.envelope import default_config
    from reacthuman.scenes.reach import WALK_PROBE_STEP_M, walk_room

    spec = sample_spec("rolling_ball", 3)
    room = walk_room(spec)
    pose = spec.observer.pose()
    to_edge = np.array(spec.params["event_target"][:2]) - (pose.x_m, pose.y_m)
    c, s = math.cos(pose.yaw_rad), math.sin(pose.yaw_rad)
    ux, uy = (c * to_edge[0] + s * to_edge[1], -s * to_edge[0] + c * to_edge[1]) / np.linalg.norm(to_edge)
    forward = float(room(np.array(ux), np.array(uy)))
    assert forward <= np.linalg.norm(to_edge) - default_config().leg_radius_m + WALK_PROBE_STEP_M
    assert room(np.array(-ux), np.array(-uy)) >= 0.5


def test_the_lead_in_is_the_window_plus_the_arms_travel():
    """DECISION_LEAD_S is a constant, so that scenes stay a function of their seed alone; it must still cover the
    paper's window and the measured arm travel (config/envelope.yaml)."""
    from reacthuman.scenes.envelope import default_config
    from reacthuman.scenes.builders import DECISION_LEAD_S

    window_s = sample_spec("rolling_ball", 1).observation_window_s
    assert DECISION_LEAD_S >= window_s + default_config().arm_travel_s - 1e-9
