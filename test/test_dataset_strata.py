"""The balanced set's stratified object draw and the lead-ins that make fast arrivals too soon to catch:
pure sampling, no simulation (docs/too-fast-to-catch.md, "Sampling for the paper's proportions")."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reacthuman.scenes.builders import DECISION_LEAD_S, rotate
from reacthuman.scenes.catalog import OBJECTS
from reacthuman.scenes.dataset import GenerateConfig, family_slots, group_strata, stratum_seeds
from reacthuman.scenes.families import FAMILIES, get_family
from reacthuman.scenes.families.slides import slide_exit_s
from reacthuman.scenes.label_config import load_label_config
from reacthuman.scenes.mjcf import OBSERVER_CLEAR_RADIUS_M
from reacthuman.scenes.randomize import choose_object, sample_spec
from reacthuman.scenes.reach import clear_of_geometry, distance_outside_reach_m
from reacthuman.scenes.spec import SPEED_BANDS, SceneSpec

SEEDS = (0, 1, 2, 3)


def _drawn(cfg: GenerateConfig, family: str) -> list[tuple[bool | None, list[str], str]]:
    """Each slot of the family's balanced-18 groups: its stratum, bands and the object its seed draws."""
    seeds = {s: stratum_seeds(cfg, family, s) for s in (True, False, None)}
    return [
        (stratum, bands, choose_object(family, next(seeds[stratum]), cfg.adversarial_rate))
        for stratum, bands in family_slots(cfg, family, 18)
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_every_family_draws_its_quota_of_dangerous_groups(seed: int) -> None:
    cfg = GenerateConfig(out="unused", balanced=18, seed=seed)
    for family in FAMILIES:
        quota = get_family(family).danger_quota
        slots = _drawn(cfg, family)
        assert sum(len(bands) for _, bands, _ in slots) == 18, family
        if quota is None:
            assert all(stratum is None for stratum, _, _ in slots), family
            continue
        assert sum(stratum is True for stratum, _, _ in slots) == int(quota * len(slots) + 0.5), family
        for stratum, _, obj in slots:  # the drawn object is of the kind its slot asks for
            assert bool(OBJECTS[obj].hazard_flags) == stratum, (family, obj, stratum)


def test_the_split_of_objects_does_not_hinge_on_the_seed() -> None:
    """Per family, the dangerous scenes of the balanced set differ between seeds by the cut group at most."""
    for family in FAMILIES:
        counts = set()
        for seed in range(8):
            slots = _drawn(GenerateConfig(out="unused", balanced=18, seed=seed), family)
            counts.add(sum(len(bands) for _, bands, obj in slots if OBJECTS[obj].hazard_flags))
        if get_family(family).danger_quota is not None:
            assert max(counts) - min(counts) <= 2, (family, counts)


def test_the_strata_order_is_a_seeded_permutation() -> None:
    orders = {tuple(group_strata(seed, "object_drop", 5)) for seed in range(10)}
    assert len(orders) > 1  # the dangerous groups move with the seed
    assert all(sum(o) == 2 for o in orders)  # their number does not
    assert group_strata(3, "object_drop", 5) == group_strata(3, "object_drop", 5)
    assert group_strata(3, "multi_object", 5) == [None] * 5  # one kind of object: nothing to stratify


def test_a_stratum_only_chooses_which_seeds_a_set_takes() -> None:
    cfg = GenerateConfig(out="unused", balanced=18, seed=0)
    harmless = stratum_seeds(cfg, "thrown_object", False)
    for seed in [next(harmless) for _ in range(5)]:  # the same seed, outside any set, draws the same scene
        assert sample_spec("thrown_object", seed).to_json() == sample_spec("thrown_object", seed).to_json()
        assert not OBJECTS[sample_spec("thrown_object", seed).object_id].hazard_flags


def _band_times(family: str, seed: int, distance_key: str, speed_key: str) -> dict[str, float]:
    out = {}
    for band in SPEED_BANDS:
        params = sample_spec(family, seed, speed_band=band).params
        out[band] = params[distance_key] / params[speed_key]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_rolling_balls_reach_the_edge_within_the_arms_travel_after_the_freeze_only_when_fast(seed: int) -> None:
    """The fast and very fast bands reach the table edge after the window but before the arms could get there
    (DECISION_LEAD_S after t0); the normal and slow bands later."""
    window_s = sample_spec("rolling_ball", seed).observation_window_s
    t = _band_times("rolling_ball", seed, "roll_distance_m", "roll_mps")
    assert window_s < t["very_fast"] < t["fast"] < DECISION_LEAD_S, t
    assert t["normal"] > DECISION_LEAD_S + 0.3, t


@pytest.mark.parametrize("seed", range(6))
def test_chain_triggers_strike_so_only_the_fast_bands_launch_their_target_too_soon(seed: int) -> None:
    """The target leaves 0.1-0.15 s after the strike: in the fast bands the strike comes late enough that it
    settled first (0.15 s) and early enough to arrive before DECISION_LEAD_S; in the normal band after it."""
    t = _band_times("chain_reaction", seed, "trigger_gap_m", "trigger_mps")
    assert 0.15 < t["very_fast"] < t["fast"] < DECISION_LEAD_S - 0.15, t
    assert t["normal"] > DECISION_LEAD_S, t


def test_thrown_objects_are_fast_from_the_normal_band_on() -> None:
    """Harmless throws are catchable in the slow band only: the normal band leaves at fast_speed_mps or more."""
    from reacthuman.scenes.label_config import load_label_config

    fast_mps = load_label_config().fast_speed_mps
    for seed in range(20):
        assert sample_spec("thrown_object", seed, speed_band="normal").params["throw_mps"] >= fast_mps
        assert sample_spec("thrown_object", seed, speed_band="slow").params["throw_mps"] < fast_mps


@pytest.mark.parametrize("seed", range(6))
def test_sliding_objects_leave_the_ramp_too_soon_only_when_fast(seed: int) -> None:
    """At nearly constant speed (a small margin over the friction cone) the fast and very fast bands reach the
    ramp's end after the window but before DECISION_LEAD_S; the normal and slow bands later."""
    window_s = sample_spec("sliding_object", seed).observation_window_s
    t = {}
    for band in SPEED_BANDS:
        p = sample_spec("sliding_object", seed, speed_band=band).params
        t[band] = slide_exit_s(p["slide_m"], p["slide_mps"], p["slide_accel_mps2"])
    assert window_s < t["very_fast"] < t["fast"] < DECISION_LEAD_S, t
    assert t["slow"] > t["normal"] > DECISION_LEAD_S + 0.1, t


def _reach_gap_m(spec: SceneSpec, point: tuple[float, float, float], radius_m: float = 0.0) -> float:
    """How far a world point of an object lies outside the G1's workspace before the freeze (<= 0: inside)."""
    pts = np.asarray([[point]], dtype=np.float64)
    return float(distance_outside_reach_m(spec, load_label_config(), pts, np.asarray([radius_m]), np.zeros(1))[0, 0])


@pytest.mark.parametrize("band", SPEED_BANDS)
def test_sliding_objects_leave_the_ramp_within_the_arms_reach(band: str) -> None:
    """Every band's object leaves the ramp at its lower end: that point, computed from the spec's ramp, lies
    inside the workspace of the observer the sampler placed in front of it (the old placement, beyond where
    the object lands, left slow objects on the floor out of reach)."""
    for seed in range(40):
        spec = sample_spec("sliding_object", seed, speed_band=band)
        ramp = spec.body("ramp")
        half_len = ramp.geoms[0].size[0]
        end = rotate(ramp.quat, (half_len, 0.0, 0.0))  # the ramp's lower end, from its centre
        gap = _reach_gap_m(spec, (ramp.pos[0] + end[0], ramp.pos[1] + end[1], ramp.pos[2] + end[2]))
        assert gap <= 0.0, (seed, spec.object_id, gap)
        assert clear_of_geometry(list(spec.bodies), spec.observer.x_m, spec.observer.y_m), seed


@pytest.mark.parametrize("band", SPEED_BANDS)
def test_doors_swing_through_the_observers_reach(band: str) -> None:
    """The observer stands in the door's swing, on the circle of its latch block (the leading edge at hand height,
    which the labeller samples): the latch and the panel's middle come within the arms' reach when the door
    reaches the observer's side."""
    for seed in range(40):
        spec = sample_spec("door_swing", seed, speed_band=band)
        door = spec.body("door")
        half_w, half_h = door.geoms[0].size[1], door.geoms[0].size[2]
        latch = door.geoms[1]
        side = math.atan2(spec.observer.x_m - door.pos[0], spec.observer.y_m - door.pos[1])  # from the closed panel
        for r, z in ((half_w, half_h), (latch.pos[1], latch.pos[2])):
            point = (door.pos[0] + r * math.sin(side), door.pos[1] + r * math.cos(side), door.pos[2] + z)
            assert _reach_gap_m(spec, point) <= 0.0, (seed, spec.object_id)
        assert clear_of_geometry(list(spec.bodies), spec.observer.x_m, spec.observer.y_m), seed


def test_slow_doors_still_move_fast_enough_to_arrive() -> None:
    """A point counts as arriving only at moving_mps or faster: in the slow band the latch block, the first part
    to arrive, starts at that speed with a margin for the hinge damping's loss over the swing."""
    moving_mps = load_label_config().moving_mps
    for seed in range(40):
        spec = sample_spec("door_swing", seed, speed_band="slow")
        latch_r = spec.body("door").geoms[1].pos[1]
        assert spec.params["swing_rps"] * latch_r >= 1.1 * moving_mps, (seed, spec.object_id)


@pytest.mark.parametrize("seed", range(6))
def test_doors_reach_the_arms_too_soon_only_when_fast(seed: int) -> None:
    """The door starts open on the far side, as far as makes its latch reach the arms DOOR_LEAD_S after t0 at the
    nominal rate: the fast and very fast bands after the window but before DECISION_LEAD_S, the others later."""
    from reacthuman.scenes.envelope import default_config as envelope_config

    reach_m = envelope_config().arm_reach_m
    t = {}
    for band in SPEED_BANDS:
        spec = sample_spec("door_swing", seed, speed_band=band)
        door, p = spec.body("door"), spec.params
        latch_r = door.geoms[1].pos[1]
        side = math.atan2(spec.observer.x_m - door.pos[0], spec.observer.y_m - door.pos[1])
        # on the latch's circle, up to the 2 cm the observer's placement may move it
        assert math.hypot(spec.observer.x_m - door.pos[0], spec.observer.y_m - door.pos[1]) == pytest.approx(
            latch_r, abs=0.025
        )
        t[band] = (p["start_angle_rad"] + side - 2 * math.asin(reach_m / (2 * latch_r))) / p["swing_rps"]
    assert spec.observation_window_s + 0.05 < t["very_fast"] < t["fast"] < DECISION_LEAD_S - 0.1, t
    assert t["normal"] > DECISION_LEAD_S + 0.3, t


@pytest.mark.parametrize("seed", range(6))
def test_bouncing_balls_reach_the_tables_end_too_soon_only_when_fast(seed: int) -> None:
    """The ball is dropped onto the far end of a long table and runs to its end, where the observer stands: the
    fast and very fast bands get there after the window but before DECISION_LEAD_S, the others later."""
    window_s = sample_spec("bouncing_object", seed).observation_window_s
    t = _band_times("bouncing_object", seed, "run_distance_m", "forward_mps")
    assert window_s < t["very_fast"] < t["fast"] < DECISION_LEAD_S, t
    assert t["normal"] > DECISION_LEAD_S + 0.3, t
    for band in SPEED_BANDS:
        spec = sample_spec("bouncing_object", seed, speed_band=band)
        ball = spec.body("hazard")
        r = ball.geoms[0].size[0]
        end = (0.0, ball.pos[1], spec.params["support_top_m"] + r)  # the ball at the table's end
        assert _reach_gap_m(spec, end, r) <= 0.0, (seed, band)


@pytest.mark.parametrize("band", SPEED_BANDS)
def test_pendulums_are_timed_so_only_the_fast_pushes_arrive_too_soon(band: str) -> None:
    """A pendulum is paced by gravity: the sampler integrates each band's swing and places the observer the arms'
    reach past an angle that the very fast bob reaches no sooner than PENDULUM_SOONEST_S after t0, the fast one by
    PENDULUM_FAST_BY_S, and the normal and slow ones not before PENDULUM_SLOW_FROM_S. Every seed finds such a
    set-up among its draws."""
    from reacthuman.scenes.builders import BAND_FACTOR
    from reacthuman.scenes.catalog import get_object
    from reacthuman.scenes.envelope import default_config as envelope_config
    from reacthuman.scenes.families import articulated as art

    for seed in range(40):
        spec = sample_spec("pendulum_swing", seed, speed_band=band)
        p, o = spec.params, get_object(spec.object_id)
        nominal = p["start_rate_rps"] / BAND_FACTOR[band]
        damping = 0.05 / (o.mass_kg * p["length_m"] ** 2)
        course = {
            b: art.swing_course(p["length_m"], p["start_angle_rad"], nominal * f, damping, 2.0)
            for b, f in BAND_FACTOR.items()
        }
        meet = p["meet_angle_rad"]
        assert art.first_reach_s(course["very_fast"], meet) >= art.PENDULUM_SOONEST_S, seed
        assert art.first_reach_s(course["fast"], meet) <= art.PENDULUM_FAST_BY_S, seed
        for b in ("slow", "normal"):
            t = art.first_reach_s(course[b], meet - art.PENDULUM_SHORT_RAD)
            assert t is None or t >= art.PENDULUM_SLOW_FROM_S, (seed, b)
        near_side_m = p["length_m"] * math.sin(meet) + o.size[0]
        assert spec.observer.x_m - near_side_m == pytest.approx(envelope_config().arm_reach_m, abs=2e-4)


@pytest.mark.parametrize("band", SPEED_BANDS)
def test_stairs_end_at_the_observers_feet(band: str) -> None:
    """The observer stands in the object's lane as near the lowest step as its feet are clear (it stood 0.55-0.85
    m past it, where a ball leaving the stairs had already reached the floor, below any hand)."""
    for seed in range(40):
        spec = sample_spec("stair_tumble", seed, speed_band=band)
        p, lane_y = spec.params, spec.body("hazard").pos[1]
        foot = ((p["steps"] - 1) * p["run_m"], lane_y)  # where the lane leaves the lowest step
        gap = math.hypot(spec.observer.x_m - foot[0], spec.observer.y_m - foot[1])
        assert OBSERVER_CLEAR_RADIUS_M <= gap <= OBSERVER_CLEAR_RADIUS_M + 0.06, (seed, gap)
        assert clear_of_geometry(list(spec.bodies), spec.observer.x_m, spec.observer.y_m), seed
