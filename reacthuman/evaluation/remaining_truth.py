"""The truth a brain that reads it (the oracle) is shown at a re-plan: the labeller's rule applied at the
decision's moment to what is still catchable or still threatens, from where the robot stands then.

The executed future is not known at a decision, so the path judged is the hazard's free run: the scene
alone, without the robot, simulated from its spec in the body's engine (`sim_bridge.agreement.engine_path`,
every step from t = 0, kept whole as the body reports it). It is the path the episode records
(`scoring.closed_loop` judges each decision against that one after the fact) for as long as the robot has
not touched the hazard; once it has (a catch in hand, a push, a strike), the free run goes on as if the robot
were not there and the two truths may part. The result is a pure function of (spec, engine, decision time,
robot pose), so the graph's brain and the in-process loop are shown the same truth.

Times are given on the event's clock (s after the event began, like frame_times_s), as the first
decision's truth (`observe.ground_truth_dict`) gives them."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import replace

from reacthuman.plan.plan import Pose2D
from reacthuman.scenes.genesis_sim import Track
from reacthuman.scenes.label import truth_at
from reacthuman.scenes.spec import GroundTruth, SceneSpec
from reacthuman.sim_bridge.agreement import engine_path
from reacthuman.sim_bridge.engine import default_config as engine_config, make_engine

_KEPT = 2  # free runs kept: a closed-loop episode re-plans one scene several times in a row
_free_runs: OrderedDict[tuple[str, int, str], Track] = OrderedDict()


def free_run_path(spec: SceneSpec, engine: str, end_s: float) -> Track:
    """The scene's hazards run alone in `engine` ("genesis" or "mujoco") from the spec's t = 0 to `end_s` (at
    least the scene's duration: an episode's execution may run past it). The last runs asked are kept: each
    re-plan of an episode reads the same one."""
    steps = max(spec.n_steps, int(round(end_s / spec.dt_s)))
    key = (engine, steps, hashlib.sha256(spec.to_json().encode()).hexdigest())
    if key in _free_runs:
        _free_runs.move_to_end(key)
        return _free_runs[key]
    sim = make_engine(engine, engine_config(dt_s=spec.dt_s))
    try:
        track, _ = engine_path(sim, spec, steps=steps)
    finally:
        sim.close()
    _free_runs[key] = track
    while len(_free_runs) > _KEPT:
        _free_runs.popitem(last=False)
    return track


def remaining_truth(spec: SceneSpec, t_s: float, pose: Pose2D, engine: str, end_s: float) -> GroundTruth:
    """The labeller's rule at decision time `t_s` (s after the event began) from `pose` (world), on the
    hazard's free run in `engine` to `end_s` (s from t = 0: where the episode's execution ends at the latest);
    its times moved onto the event's clock."""
    truth = truth_at(spec, free_run_path(spec, engine, end_s), t_s, pose)
    shift_s = t_s - spec.observation_window_s  # truth_at counts from the start it moved there

    def moved(v: float | None) -> float | None:
        return None if v is None else v + shift_s

    return replace(
        truth,
        impact_time_s=moved(truth.impact_time_s),
        time_to_floor_s=moved(truth.time_to_floor_s),
        intercept_time_s=moved(truth.intercept_time_s),
    )
