"""What this body can do, measured, and whether a scene's correct action is within it.

The figures are the spine on the G1 in Genesis (README, "The spine and the body"; `reacthuman bench
--sections tracking` measures them again): the arms reach a target in front of the chest within 5 cm in
0.3 s of arm travel; walking forward or back covers 0.5 m/s after a start-up lag; sideways the gait covers
only about 0.25 m/s. A scene is physically unreachable for this body when the time left after the freeze
is shorter than what its correct action needs:
- CATCH: the hands must be under the object before it reaches the floor: arm travel plus the walk to bring
  the target within arm's reach; an object that arrives lower than the hands go even crouched (rolling on
  the floor) cannot be caught;
- DODGE: the body must leave the object's footprint before it lands or arrives: a step of
  `dodge_step_m` at the walking speed (the direction the oracle chooses: away from the impact point).
NO_ACTION needs nothing. Pure functions of the ground truth, no simulation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from reacthuman.core.validate import require_positive


@dataclass(frozen=True)
class BodyEnvelope:
    arm_travel_s: float = 0.3  # rest to a chest-front target
    arm_reach_m: float = 0.55  # planar, from the pelvis axis, with the hands in front of the chest
    walk_speed_mps: float = 0.5  # forward or back, sustained
    walk_lag_s: float = 0.1  # closed loop, 0.5 m/s for 1 s covered 0.55 m
    side_speed_mps: float = 0.25
    dodge_step_m: float = 0.3  # out of the footprint of an object landing at the robot
    lowest_hand_m: float = 0.45  # hand height in the deepest crouch (knee_bend 0.25)

    def __post_init__(self) -> None:
        require_positive(self, tuple(self.__dict__), "BodyEnvelope.")


def default_envelope(**overrides: object) -> BodyEnvelope:
    return replace(BodyEnvelope(), **overrides)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Feasibility:
    reachable: bool
    needed_s: float  # time the action needs after the freeze
    available_s: float | None  # time the scene leaves after the freeze (None: unbounded)
    reason: str


def _walk_time_s(distance_m: float, env: BodyEnvelope) -> float:
    return 0.0 if distance_m <= 0 else env.walk_lag_s + distance_m / env.walk_speed_mps


def feasibility(correct_action: str, impact_robot_xy: tuple[float, float] | None, freeze_s: float,
                impact_time_s: float | None, time_to_floor_s: float | None,
                env: BodyEnvelope | None = None, impact_height_m: float | None = None) -> Feasibility:
    """Can this body carry out `correct_action`? Times count from the event's start (like the ground truth);
    impact_robot_xy is the impact point in the freeze-time robot frame, impact_height_m its height."""
    env = env or BodyEnvelope()
    floor_left = None if time_to_floor_s is None else time_to_floor_s - freeze_s
    impact_left = None if impact_time_s is None else impact_time_s - freeze_s
    if correct_action == "CATCH":
        distance = math.hypot(*impact_robot_xy) if impact_robot_xy is not None else 0.0
        needed = env.arm_travel_s + _walk_time_s(distance - env.arm_reach_m, env)
        if impact_height_m is not None and impact_height_m < env.lowest_hand_m:
            return Feasibility(False, needed, floor_left, f"the object arrives {impact_height_m:.2f} m high, below "
                                                          f"the hands' {env.lowest_hand_m:.2f} m")
        if floor_left is None:
            return Feasibility(True, needed, None, "the object never reaches the floor")
        ok = floor_left >= needed
        return Feasibility(ok, needed, floor_left, f"the object lands {floor_left:.2f} s after the freeze; "
                                                   f"the hands need {needed:.2f} s")
    if correct_action == "DODGE":
        needed = _walk_time_s(env.dodge_step_m, env)
        left = [t for t in (floor_left, impact_left) if t is not None and t > 0]
        available = max(left) if left else (floor_left if floor_left is not None else impact_left)
        if available is None:
            return Feasibility(True, needed, None, "no arrival time")
        ok = available >= needed
        return Feasibility(ok, needed, available, f"the object arrives {available:.2f} s after the freeze; "
                                                  f"a step clear needs {needed:.2f} s")
    return Feasibility(True, 0.0, None, "no action needed")


def scene_feasibility(spec: "SceneSpec", env: BodyEnvelope | None = None) -> Feasibility:  # noqa: F821
    """feasibility() for a labelled scene, frozen at the end of its observation window."""
    gt = spec.ground_truth
    xy = None
    if gt.impact_point is not None:
        xy = spec.observer.pose().to_robot(tuple(gt.impact_point))[:2]
    return feasibility(gt.correct_action, xy, spec.observation_window_s, gt.impact_time_s, gt.time_to_floor_s, env,
                       None if gt.impact_point is None else gt.impact_point[2])


def execution_extras(spec: "SceneSpec", deflected: bool) -> dict[str, bool]:  # noqa: F821
    """The ledger fields beside the scored ones that say what the body could and did do: the scorer node and
    the in-process episode both write exactly these, so their ledgers agree field for field.
    physically_unreachable separates "the model chose wrong" from "no plan of this body could succeed"
    (reacthuman.scoring.outcomes); deflected is a hand touch that did not hold the object."""
    return {"physically_unreachable": not scene_feasibility(spec).reachable, "deflected": bool(deflected)}
