"""The body does what the plan says, in Genesis (dt 1/240, PD torques every physics step): a standing reach
ends on its target, a walk covers the commanded distance, knee_bend crouches, a ball that bounces off a hand
is deflected, not caught, and the oracle's dodges clear on two scene families. One Genesis process for the
module (a plane scene with a ball, the robot put back at its start pose before each test; then the scenes)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reacthuman.perf.tracking import CHEST_FRONT, PlaneRig, TrackingCase, run_case
from reacthuman.spine.spine import Spine, default_config
from reacthuman.sim_bridge.engine import quat_rotate_wxyz
from reacthuman.sim_bridge.outcome import OutcomeConfig, OutcomeTracker, StepObservation, arm_links

BALL_RADIUS_M = 0.05
# at rest on a pedestal until the deflection test throws it (off the floor: a hazard that has touched the floor
# can no longer be caught or deflected)
PEDESTAL_TOP_M = 0.3
BALL_START_M = (1.5, -0.6, PEDESTAL_TOP_M + BALL_RADIUS_M + 0.001)
WORLD_MJCF = f"""<mujoco model="plane_and_ball"><worldbody>
<geom name="floor" type="plane" size="0 0 0.05"/>
<geom name="pedestal" type="box" size="0.1 0.1 {PEDESTAL_TOP_M / 2}" pos="{BALL_START_M[0]} {BALL_START_M[1]} {PEDESTAL_TOP_M / 2}"/>
<body name="ball" pos="{BALL_START_M[0]} {BALL_START_M[1]} {BALL_START_M[2]}"><freejoint/>
<geom type="sphere" size="{BALL_RADIUS_M}" mass="0.2" friction="0.8"/></body>
</worldbody></mujoco>"""


@pytest.fixture(scope="module")
def rig() -> PlaneRig:
    r = PlaneRig(WORLD_MJCF)
    yield r
    r.close()


@pytest.fixture(scope="module")
def spine() -> Spine:
    return Spine(default_config())


def test_standing_reach_in_front_of_the_chest_ends_within_5cm(rig, spine):
    left, right = CHEST_FRONT
    result = run_case(rig, TrackingCase("reach", left_m=left, right_m=right, t_hands_s=1.0), spine)
    assert spine.status().reach_clamps == ()  # the target is inside the arms' reach: no clamp hides an error
    assert not result.fell
    assert max(result.hand_error_held_m) < 0.05, result


def test_half_a_metre_per_second_for_two_seconds_walks_one_metre(rig, spine):
    result = run_case(rig, TrackingCase("walk", (0.5, 0.0, 0.0), 2.0), spine)
    assert not result.fell
    assert result.displacement_m[0] == pytest.approx(1.0, rel=0.10), result


def test_knee_bend_crouches_the_pelvis_down_and_back_up(rig, spine):
    # held 1 s at knee_bend 0.25 from t = 1 s, back to straight legs 0.5 s after the hold
    result = run_case(rig, TrackingCase("crouch", knee_bend=0.25, t_hands_s=1.0), spine)
    assert not result.fell
    assert result.min_pelvis_m < rig.state().base_pos_world[2] - 0.12, result  # ends standing, crouched >= 12 cm lower


def _throw_at(rig: PlaneRig, target_m: np.ndarray, flight_s: float) -> None:
    start = rig.engine.body_state("ball").pos_m
    velocity = (target_m - start) / flight_s + np.array([0.0, 0.0, 0.5 * 9.81 * flight_s])
    rig.engine.set_body_velocity("ball", tuple(float(v) for v in velocity), (0.0, 0.0, 0.0))


def test_a_ball_bouncing_off_a_hand_is_deflected_not_caught(rig, spine):
    rig.reset()
    spine.reset(None)  # standing, hands at rest by the thighs
    hand_link, offset = rig.hands[1]
    b = rig.engine.body_state(hand_link)
    palm = b.pos_m + quat_rotate_wxyz(b.quat_wxyz, offset)
    _throw_at(rig, palm + np.array([0.0, 0.0, BALL_RADIUS_M]), 0.6)  # lands on the back of the right hand
    links = frozenset(rig.engine.robot_body_names())
    hands = frozenset(link for link, _ in rig.hands)
    tracker = OutcomeTracker(OutcomeConfig(), frozenset({"ball"}), links, hands, arm_links(links))
    dt = rig.engine.dt_s
    for k in range(int(2.0 / dt)):
        s = rig.step(spine)
        ball = rig.engine.body_state("ball")
        left, right = rig.hands_world()
        obs = StepObservation(
            t_s=(k + 1) * dt,
            dt_s=dt,
            left_hand_m=left,
            right_hand_m=right,
            hazard_pos_m={"ball": ball.pos_m},
            hazard_speed_mps={"ball": float(np.linalg.norm(ball.lin_vel_mps))},
            hazard_ang_speed_radps={"ball": float(np.linalg.norm(ball.ang_vel_radps))},
            contacts=rig.engine.contacts(frozenset({"ball"})),
            base_pos_m=np.asarray(s.base_pos_world),
            projected_gravity=np.asarray(s.projected_gravity()),
        )
        tracker.update(obs, lambda: np.array([rig.engine.body_state(n).pos_m for n in links]))
    o = tracker.outcome(
        scene_id="throw",
        engine="genesis",
        controller_fault=None,
        plan_received=True,
        plan_late=False,
        plan_executed=True,
        wrong_scene_plans=(),
    )
    assert o.hand_contact, o
    assert o.reached_floor, o  # it touched the hand, then fell to the floor
    assert o.deflected
    assert not o.caught
    assert math.isfinite(o.min_hand_object_distance_m)
    assert o.min_hand_object_distance_m < 0.15


# --- the oracle's plans, executed: dodges that clear, a catch that holds -----------------------------
# Scenes of different families whose correct action this body can carry out (ground_truth.body_reachable); the seed
# is the first the sampler accepts from, as `scenes generate` does, at the sampler's band unless one is named. The
# catches are speed groups of `scenes generate --balanced 6 --seed 21`, where the oracle's catches held in 8 of the
# 10 judged reachable (docs/reachability.md, "Measured on a balanced set"): a domino row's last piece and a rolling
# ball, both met at the table's edge, in the normal band (their fast bands arrive too soon to catch:
# docs/too-fast-to-catch.md). ladder_slip's seed-11 scene, here before, is marked since the judgement
# follows the path: the ladder's foot reaches the legs.
ORACLE_SCENES = [
    ("furniture_tip", 11, "DODGE", None),
    ("surface_cascade", 11, "DODGE", None),
    ("multi_object", 698855685, "CATCH", "normal"),
    ("rolling_ball", 1198397208, "CATCH", "normal"),
]


@pytest.fixture(scope="module")
def body():
    from reacthuman.sim_bridge.body import Body, default_config as body_config

    b = Body(body_config(engine="genesis", frame_count=1, frame_width_px=16, frame_height_px=16))
    yield b
    b.close()


def _scene(family: str, seed: int, band: str | None = None):
    from reacthuman.scenes import SceneInvalid, generate_spec

    for s in range(seed, seed + 10):
        try:
            return generate_spec(family, s) if band is None else generate_spec(family, s, speed_band=band)
        except SceneInvalid:
            continue
    raise AssertionError(f"no valid {family} scene in seeds {seed}..{seed + 9}")


@pytest.mark.parametrize("family,seed,action,band", ORACLE_SCENES)
def test_the_oracles_dodge_clears_and_its_catch_holds(body, family, seed, action, band):
    from reacthuman.brain import make_brain
    from reacthuman.scenes.envelope import scene_feasibility
    from reacthuman.evaluation.episode import run_episode

    spec = _scene(family, seed, band)
    assert spec.ground_truth.correct_action == action
    assert scene_feasibility(spec).reachable
    result = run_episode(spec, make_brain("oracle"), body, Spine(default_config()))
    o = result.outcome
    assert not o.fell
    assert o.controller_fault is None
    if action == "CATCH":
        assert o.caught, o
        assert not o.struck, o
    else:
        assert not o.struck, o
        assert not o.caught, o


# --- what the brain is shown: the hazard at every rendered frame, its moving mass ------------------------
def test_the_window_track_has_the_swinging_bob_at_every_frame_and_ends_at_the_freeze_state_and_the_hands_are_measured_to_it():
    """A pendulum's body frame is its pivot: the track must follow the bob (the centre of mass), once per frame
    the body renders, tangent to its circle; the last frame is the freeze instant the scorer reads."""
    from reacthuman.evaluation.observe import WindowTracker
    from reacthuman.scenes.mass_centre import centre_local_m
    from reacthuman.scenes import sample_spec
    from reacthuman.sim_bridge.body import Body, default_config as body_config

    spec = sample_spec("pendulum_swing", 11, speed_band="normal")
    pivot = np.array(spec.hazard.pos)
    # the centre of mass: on the rod, most of the way down to the bob (the mass is spread over rod and bob by volume)
    radius = float(np.linalg.norm(centre_local_m(spec, "pendulum")))
    assert 0.8 * spec.params["length_m"] < radius < spec.params["length_m"]
    frames = Body(body_config(engine="genesis", frame_count=4, frame_width_px=16, frame_height_px=16))
    try:
        frames.load(spec)
        spine = Spine(default_config())
        spine.reset(None)
        tracker = WindowTracker(frames, spine.command, spec, frames.frame_times_s())
        rendered = frames.simulate_window(tracker)
        # one sample per rendered frame, keyed by the frame's own time (what the observation is built from)
        assert sorted(tracker.samples) == [f.t_s for f in rendered]
        assert len(rendered) == 4
        assert [f.t_s for f in rendered] == pytest.approx(list(frames.frame_times_s()), abs=1e-12)
        positions = []
        for t, (pos, vel) in sorted(tracker.samples.items()):
            arm = pos - pivot
            # on its circle about the pivot (where a pivot sample would be 0 m away), moving along it
            assert np.linalg.norm(arm) == pytest.approx(radius, abs=0.005), (t, pos)
            assert abs(float(np.dot(vel, arm))) < 0.02 * np.linalg.norm(vel) * radius + 1e-6, (t, vel)
            positions.append(pos)
        assert min(np.linalg.norm(b - a) for a, b in zip(positions, positions[1:])) > 0.01  # it swings
        last_pos, last_vel = tracker.samples[rendered[-1].t_s]
        freeze_pos, freeze_vel = tracker.freeze_state()
        assert np.array_equal(last_pos, freeze_pos)
        assert np.array_equal(last_vel, freeze_vel)
        # the executed hand distance is measured to the same moving point, never to the pivot
        snap = frames.snapshot()
        to_bob = min(np.linalg.norm(h - freeze_pos) for h in (snap.left_hand_m, snap.right_hand_m))
        assert frames.outcome().min_hand_object_distance_m <= to_bob + 1e-9
        assert (
            frames.outcome().min_hand_object_distance_m
            < min(np.linalg.norm(h - pivot) for h in (snap.left_hand_m, snap.right_hand_m)) - 0.3
        )
    finally:
        frames.close()
