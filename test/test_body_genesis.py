"""The body in Genesis (the default engine): scripted plans against probe scenes, determinism, videos.

One module-scoped fixture runs every episode once (each scene build costs seconds; the first kernel
compile of a process minutes) and the tests read its results.
"""

from __future__ import annotations


import imageio.v2 as imageio
import numpy as np
import pytest

from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M, Keyframe, Plan
from reacthuman.sim_bridge.body import Body, default_config
from reacthuman.evaluation.episode import run_plan_episode
from reacthuman.sim_bridge.probes import heavy_overhead_probe, light_in_reach_probe
from reacthuman.sim_bridge.video import VideoConfig

STAND = Plan("steel box", "stand still", 0.5, (0.0, 0.0, 0.0), 0.0)
STEP_CLEAR = Plan("steel box", "walk forward out from under it", 0.9, (0.8, 0.0, 0.0), 1.5)


def reach_plan() -> Plan:
    """Both hands to chest height 0.42 m in front (robot frame), reached 0.25 s after the freeze."""
    left = tuple(t - r for t, r in zip((0.42, 0.05, 1.0), REST_LEFT_HAND_M))
    right = tuple(t - r for t, r in zip((0.42, -0.05, 1.0), REST_RIGHT_HAND_M))
    return Plan(
        "ball",
        "catch it in front",
        0.9,
        (0.0, 0.0, 0.0),
        0.0,
        keyframes=(Keyframe(0.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), Keyframe(0.25, left, right)),
    )


def small_body(**overrides) -> Body:
    return Body(default_config(engine="genesis", frame_width_px=96, frame_height_px=64, horizon_s=3.0, **overrides))


@pytest.fixture(scope="module")
def episodes(tmp_path_factory):
    out = {}
    body = small_body()
    try:
        out["stand_1"] = run_plan_episode(body, heavy_overhead_probe(), STAND)
        out["stand_2"] = run_plan_episode(body, heavy_overhead_probe(), STAND)
        out["clear"] = run_plan_episode(body, heavy_overhead_probe(), STEP_CLEAR)
    finally:
        body.close()
    video_body = small_body(video=VideoConfig(enabled=True, fps=10.0, width_px=128, height_px=96))
    try:
        out["reach"] = run_plan_episode(video_body, light_in_reach_probe(), reach_plan())
        out["videos"] = video_body.save_videos(tmp_path_factory.mktemp("videos"))
    finally:
        video_body.close()
    return out


def test_same_scene_and_plan_give_a_bit_identical_outcome(episodes):
    a, b = episodes["stand_1"], episodes["stand_2"]
    assert a.outcome == b.outcome  # dataclass equality: every float bit-identical
    assert len(a.frames) == len(b.frames) == 5
    for fa, fb in zip(a.frames, b.frames):
        assert fa.t_s == fb.t_s
        for name in ("egocentric", "closeup", "overhead"):
            assert np.array_equal(fa.images[name], fb.images[name])


def test_observation_window_frames(episodes):
    frames = episodes["stand_1"].frames
    assert [round(f.t_s, 6) for f in frames] == [0.0, 0.075, 0.15, 0.225, 0.3]  # probe window 0.3 s
    img = frames[-1].images["closeup"]
    assert img.shape == (64, 96, 3)
    assert img.dtype == np.uint8
    assert img.std() > 1.0  # a picture, not a blank


def test_standing_still_under_a_heavy_object_is_a_strike(episodes):
    o = episodes["stand_1"].outcome
    assert o.struck
    assert not o.caught
    assert o.strike_impulse_ns > 5.0  # 8 kg arriving at ~11 m/s
    assert o.strike_link in {"torso_link", "pelvis", "waist_yaw_link", "waist_roll_link"} or "shoulder" in o.strike_link
    assert o.plan_received
    assert o.plan_executed
    assert o.controller_fault is None


def test_stepping_clear_of_a_heavy_object_is_no_strike(episodes):
    o = episodes["clear"].outcome
    assert not o.struck
    assert o.strike_impulse_ns == 0.0
    assert o.reached_floor
    assert o.clearance_from_impact_m > 0.2
    assert o.final_base_pos_m[0] > 0.3  # it walked forward
    assert not o.fell


def test_reaching_for_a_light_object_in_reach_makes_contact(episodes):
    o = episodes["reach"].outcome
    assert o.hand_contact
    assert not o.struck  # contact; held (`caught`) or not is the plan's hold, here none
    assert o.min_hand_object_distance_m < 0.12
    assert o.catch_time_s == pytest.approx(o.min_distance_time_s, abs=0.1)


def test_execution_videos_are_written_as_mp4(episodes):
    videos = episodes["videos"]
    assert set(videos) == {"thirdperson", "egocentric"}
    for name, path in videos.items():
        assert path.name == f"video_{name}.mp4"
        assert path.stat().st_size > 1000
        frames = imageio.mimread(path)
        assert len(frames) >= 10
        assert frames[0].shape == (96, 128, 3)
        assert not any(p.name.startswith(".") for p in path.parent.iterdir())  # no temp files left
