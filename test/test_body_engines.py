"""Genesis and MuJoCo through the same adapter: a balanced set of generated scenes (two seeds per family, all
three labels represented) simulated in both, labelled by the scene generator's own labeller, compared. The report
is printed whatever the result, with a computed explanation for every disagreement."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from reacthuman.plan.plan import Plan, Pose2D
from reacthuman.scenes import FAMILIES, sample_spec
from reacthuman.scenes.genesis_sim import GenesisSimulator
from reacthuman.sim_bridge.agreement import compare_engines, engine_track, format_rows
from reacthuman.sim_bridge.body import Body, default_config
from reacthuman.sim_bridge.engine import default_config as engine_config, engine_names, make_engine
from reacthuman.evaluation.episode import run_plan_episode
from reacthuman.spine.g1_assets import default_pose_geometry

SEEDS = (1, 2)
SEED = SEEDS[0]


@pytest.fixture(scope="module")
def rows():
    return compare_engines([sample_spec(family, seed) for seed in SEEDS for family in FAMILIES])


def test_engines_agree_on_labels_for_at_least_90_percent(rows, capsys):
    with capsys.disabled():
        labels = dict(Counter(r.labels["genesis"] for r in rows))
        print(f"\nGenesis vs MuJoCo, seeds {SEEDS} of every family (labels {labels}):\n{format_rows(rows)}")
    assert len(rows) == len(SEEDS) * len(FAMILIES)
    # balanced over families by construction; both main labels well represented (NO_ACTION is rare by design)
    assert Counter(r.family for r in rows) == {f: len(SEEDS) for f in FAMILIES}
    labels = Counter(r.labels["genesis"] for r in rows)
    assert min(labels["CATCH"], labels["DODGE"]) >= len(rows) // 4, f"the set is not balanced: {labels}"
    agree = sum(r.label_agrees for r in rows)
    assert agree >= 0.9 * len(rows), format_rows(rows)
    for r in rows:
        if not (r.label_agrees and r.time_agrees):
            assert r.explanation, f"{r.scene_id}: a disagreement without an explanation"


def test_both_engines_are_registered_and_unknown_is_refused():
    assert engine_names() == ("genesis", "mujoco")
    with pytest.raises(ValueError, match="unknown physics engine 'bullet'"):
        make_engine("bullet")


def test_a_generated_scene_runs_with_the_g1_in_mujoco():
    spec = sample_spec("object_drop", SEED)
    body = Body(default_config(engine="mujoco", frame_count=2, frame_width_px=64, frame_height_px=48, horizon_s=1.5))
    try:
        result = run_plan_episode(body, spec, Plan("object", "stand", 0.5, (0.0, 0.0, 0.0), 0.0))
    finally:
        body.close()
    o = result.outcome
    assert len(result.frames) == 2
    assert set(result.frames[0].images) == {"egocentric", "closeup", "overhead"}
    assert not o.fell
    assert o.controller_fault is None
    assert o.plan_executed
    assert abs(o.final_base_pos_m[0] - spec.observer.x_m) < 0.3
    assert abs(o.final_base_pos_m[1] - spec.observer.y_m) < 0.3
    # standing, the hands rest where forward kinematics of the default pose puts them (robot frame)
    pose = Pose2D(o.final_base_pos_m[0], o.final_base_pos_m[1], spec.observer.yaw_rad)
    rest = default_pose_geometry()
    for measured, expected in ((o.final_left_hand_m, rest.left_hand_m), (o.final_right_hand_m, rest.right_hand_m)):
        robot = pose.to_robot(measured)
        print(f"standing hand, robot frame: {tuple(round(v, 3) for v in robot)} (kinematics: {expected})")
        assert math.dist(robot, expected) < 0.04


# hinged hazards (no rotor inertia added), and free bodies spinning at t = 0 from a tilted pose
SAME_WORLD_FAMILIES = ("door_swing", "furniture_tip", "pendulum_swing", "thrown_object")


@pytest.mark.parametrize("family", SAME_WORLD_FAMILIES)
def test_the_body_engine_without_the_robot_simulates_the_labelled_track_to_the_bit(family: str) -> None:
    """The labeller and the body load a scene's world alike (genesis_sim.add_mjcf_entity) and set its initial
    velocities with the same rotation (builders.to_body_frame): what the body's Genesis simulates before the
    robot is in it is the labelled path itself, so the ground truth is about the world the robot meets."""
    spec = sample_spec(family, SEED)
    labelled = GenesisSimulator().run(spec)
    engine = make_engine("genesis", engine_config(dt_s=spec.dt_s))
    try:
        executed = engine_track(engine, spec).track
    finally:
        engine.close()
    n = len(labelled.times_s)
    moved = np.abs(labelled.quat[-1] - labelled.quat[0]).max() + np.abs(labelled.pos[-1] - labelled.pos[0]).max()
    assert moved > 0.05, f"{spec.scene_id}: the hazard hardly moves, the comparison would say nothing"
    for field in ("pos", "quat", "vel", "ang_vel"):
        a, b = getattr(executed, field)[:n], getattr(labelled, field)
        assert np.array_equal(a, b), (
            f"{spec.scene_id} {field}: first differs at step {np.flatnonzero((a != b).any(axis=(1, 2)))[0]}"
        )
