"""The oracle re-plans to the remaining truth (evaluation/remaining_truth.py): at each re-plan it is shown the
labeller's rule applied to the hazard's free run from that moment and from where the robot stands then, not the
scene's label. An orange that rolls off a table past the observer's hands: the scene's label is a catch, and once it
is on the floor nothing comes within reach any more, so the oracle's re-plans stand, and each is judged right against
the recorded path."""

from __future__ import annotations

import pytest

from reacthuman.brain.reference import OracleBrain
from reacthuman.evaluation.closed_loop import LoopConfig, run_closed_episode_with_path
from reacthuman.evaluation.remaining_truth import free_run_path, remaining_truth
from reacthuman.scenes import generate_spec
from reacthuman.scenes.label import truth_at
from reacthuman.scoring.closed_loop import decision_truth, points_from_row
from reacthuman.sim_bridge.body import Body, graph_config
from reacthuman.spine.spine import Spine, default_config as spine_config

# an orange rolls off the table and falls past the hands before the freeze, never meeting the robot
SCENE = ("object_drop", 7)


@pytest.fixture(scope="module")
def spec():
    return generate_spec(*SCENE, speed_band="slow")


@pytest.fixture(scope="module")
def episode(spec):
    body = Body(graph_config(engine="mujoco", frame_width_px=160, frame_height_px=90))
    try:
        result, path = run_closed_episode_with_path(
            spec, OracleBrain(), body, Spine(spine_config()), LoopConfig(max_replans=2)
        )
        return result.record.to_dict(), path, body.config.horizon_s
    finally:
        body.close()


def test_the_oracle_re_plans_to_the_remaining_truth_not_the_scene_label(spec, episode):
    row, path, horizon_s = episode
    assert spec.ground_truth.correct_action == "CATCH" and row["action"] == "CATCH"
    assert row["replans"] == 2
    end_s = row["decisions"][0]["t_s"] + horizon_s
    for d, point in zip(row["decisions"][1:], points_from_row(row)[1:]):
        truth = remaining_truth(spec, point.t_s, point.pose, "mujoco", end_s)
        assert truth.correct_action == "NO_ACTION" != spec.ground_truth.correct_action
        assert d["action"] == truth.correct_action  # the oracle followed the truth of its moment
        # the free run is the recorded path while the robot has not touched the orange: the same truth
        assert decision_truth(spec, path, point).correct_action == truth.correct_action
    assert row["decision_saa"] == [1, 1, 1] and row["saa_final"] == 1 and not row["regression"]


def test_the_remaining_truth_is_a_pure_function_on_the_event_clock(spec, episode):
    row, _, horizon_s = episode
    point = points_from_row(row)[0]  # the first decision: the scene's own moment and the observer's pose
    end_s = point.t_s + horizon_s
    truth = remaining_truth(spec, point.t_s, point.pose, "mujoco", end_s)
    assert truth == remaining_truth(spec, point.t_s, point.pose, "mujoco", end_s)
    assert truth.correct_action == spec.ground_truth.correct_action
    # truth_at counts from the moved start, which at the first decision is the event's own: no shift
    moved = truth_at(spec, free_run_path(spec, "mujoco", end_s), point.t_s, point.pose)
    assert moved.impact_time_s == pytest.approx(truth.impact_time_s, abs=1e-9)
    later = points_from_row(row)[1]
    shifted = truth_at(spec, free_run_path(spec, "mujoco", end_s), later.t_s, later.pose)
    assert shifted.time_to_floor_s is None or remaining_truth(
        spec, later.t_s, later.pose, "mujoco", end_s
    ).time_to_floor_s == pytest.approx(shifted.time_to_floor_s + later.t_s - spec.observation_window_s)
