"""The executed outcome of an episode, and the per-step tracker that measures it from simulator state.

The tracker is pure: the body feeds it one `StepObservation` per physics step (from the event start t0 on,
the observation window included) and it keeps the running facts. Times in the outcome are seconds since
t0, the event start. Rules:
- a hazard "reaches the floor" at its first contact with a non-robot body at a height at most
  `floor_contact_height_m` (the floor plane is z = 0); that contact point is the impact point;
- a hand link touching a hazard before that hazard reached the floor is a hand contact; the catch holds
  (`caught`) when that hazard then stays off the floor for `catch_hold_s` and is still in contact with an arm
  link (hand, wrist, elbow, shoulder: an object cradled on the forearm is held) within the last
  `hold_contact_recent_s` of that time; a hand contact that does not hold is `deflected` (a touch that did
  not stop it). The episode does not end at rest while a hold is still being judged;
- a strike is contact between a hazard and any robot link other than the hands; its impulse is the
  contact force integrated over the `strike_window_s` after that hazard first touched such a link (N s: the
  impact, not the weight of an object later resting on an arm); `struck` when it reaches
  `strike_min_impulse_ns`;
- the G1 fell when its pelvis dropped below `fall_pelvis_height_m` or tilted past `fall_tilt_deg`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from reacthuman.core.config import config_with
from reacthuman.core.validate import require_positive
from reacthuman.sim_bridge.engine import Contact


@dataclass(frozen=True)
class OutcomeConfig:
    floor_contact_height_m: float = 0.03
    # a nudge is not a strike: 0.5 N s is a 0.15 kg plate landing on a foot from table height (~4 m/s);
    # a ball rolling into an ankle stays below it
    strike_min_impulse_ns: float = 0.5
    strike_window_s: float = 0.1
    fall_pelvis_height_m: float = 0.45
    fall_tilt_deg: float = 60.0
    rest_speed_mps: float = 0.05
    rest_ang_speed_radps: float = 0.5
    rest_hold_s: float = 0.25
    # a catch holds when the object is kept off the floor this long after the first hand contact ...
    catch_hold_s: float = 0.5
    # ... and an arm link still touches it within this long before that time (contacts flicker step to step)
    hold_contact_recent_s: float = 0.1

    def __post_init__(self) -> None:
        require_positive(
            self,
            (
                "floor_contact_height_m",
                "strike_min_impulse_ns",
                "strike_window_s",
                "fall_pelvis_height_m",
                "rest_speed_mps",
                "rest_ang_speed_radps",
                "rest_hold_s",
                "catch_hold_s",
                "hold_contact_recent_s",
            ),
            "OutcomeConfig.",
            allow_zero=True,
        )
        if not 0 < self.fall_tilt_deg < 180:
            raise ValueError(f"OutcomeConfig.fall_tilt_deg must be in (0, 180), got {self.fall_tilt_deg}")


def default_config(**overrides: Any) -> OutcomeConfig:
    """config/outcome.yaml with `overrides` applied."""
    return config_with(OutcomeConfig, overrides)


@dataclass(frozen=True)
class Outcome:
    scene_id: str
    engine: str
    caught: bool
    catch_time_s: float | None
    struck: bool
    strike_impulse_ns: float
    strike_link: str | None
    strike_time_s: float | None
    min_hand_object_distance_m: float
    min_distance_time_s: float
    reached_floor: bool
    time_to_floor_s: float | None
    impact_point_m: tuple[float, float, float] | None
    clearance_from_impact_m: float | None
    fell: bool
    fall_time_s: float | None
    hazard_at_rest: bool
    end_time_s: float
    final_left_hand_m: tuple[float, float, float]
    final_right_hand_m: tuple[float, float, float]
    final_base_pos_m: tuple[float, float, float]
    controller_fault: str | None
    plan_received: bool
    plan_late: bool
    plan_executed: bool
    wrong_scene_plans: tuple[str, ...] = ()
    # a hand touched a hazard before it reached the floor (caught or deflected); catch_time_s is when
    hand_contact: bool = False
    deflected: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class StepObservation:
    """What the tracker reads at one physics step (world frame)."""

    t_s: float  # since t0
    dt_s: float
    left_hand_m: np.ndarray
    right_hand_m: np.ndarray
    hazard_pos_m: dict[str, np.ndarray]  # each hazard's centre of mass (not its origin: a hinged one's is its pivot)
    hazard_speed_mps: dict[str, float]
    hazard_ang_speed_radps: dict[str, float]
    contacts: list[Contact]
    base_pos_m: np.ndarray
    projected_gravity: np.ndarray


@dataclass
class OutcomeTracker:
    config: OutcomeConfig
    hazards: frozenset[str]
    robot_links: frozenset[str]
    hand_links: frozenset[str]
    arm_links: frozenset[str] = frozenset()  # links that can hold an object (hands included)
    # measured so far
    hand_touch_s: dict[str, float] = field(default_factory=dict)  # hazard -> first hand contact before the floor
    last_arm_contact_s: dict[str, float] = field(default_factory=dict)
    held_at_s: float | None = None  # when a hold was confirmed (hand contact + catch_hold_s)
    strike_impulse_by_link: dict[str, float] = field(default_factory=dict)
    first_touch_s: dict[str, float] = field(default_factory=dict)  # hazard -> first non-hand robot contact
    first_strike_s: float | None = None
    min_distance_m: float = math.inf
    min_distance_t_s: float = 0.0
    floor_t_s: dict[str, float] = field(default_factory=dict)
    impact_point_m: tuple[float, float, float] | None = None
    clearance_m: float | None = None
    fall_t_s: float | None = None
    rest_since_s: float | None = None
    last: StepObservation | None = None

    def update(self, obs: StepObservation, robot_link_positions: Callable[[], np.ndarray]) -> None:
        """Fold one step in. `robot_link_positions` (N x 3) is read only at the first floor impact."""
        self.last = obs
        for name, pos in obs.hazard_pos_m.items():
            for hand in (obs.left_hand_m, obs.right_hand_m):
                d = float(np.linalg.norm(hand - pos))
                if d < self.min_distance_m:
                    self.min_distance_m, self.min_distance_t_s = d, obs.t_s
        for c in obs.contacts:
            self._contact(c, obs, robot_link_positions)
        self._judge_holds(obs.t_s)
        if self.fall_t_s is None and self._fallen(obs):
            self.fall_t_s = obs.t_s
        resting = all(
            obs.hazard_speed_mps[h] <= self.config.rest_speed_mps
            and obs.hazard_ang_speed_radps[h] <= self.config.rest_ang_speed_radps
            for h in self.hazards
        )
        if not resting:
            self.rest_since_s = None
        elif self.rest_since_s is None:
            self.rest_since_s = obs.t_s

    def _contact(self, c: Contact, obs: StepObservation, robot_link_positions: Callable[[], np.ndarray]) -> None:
        if c.body_a in self.hazards:
            hazard, other = c.body_a, c.body_b
        elif c.body_b in self.hazards:
            hazard, other = c.body_b, c.body_a
        else:
            return
        if other in self.hand_links or other in self.arm_links:
            self.last_arm_contact_s[hazard] = obs.t_s
        if other in self.hand_links:
            if hazard not in self.hand_touch_s and hazard not in self.floor_t_s:
                self.hand_touch_s[hazard] = obs.t_s
        elif other in self.robot_links:
            start_s = self.first_touch_s.setdefault(hazard, obs.t_s)
            if obs.t_s - start_s > self.config.strike_window_s:
                return
            impulse = c.force_n * obs.dt_s
            self.strike_impulse_by_link[other] = self.strike_impulse_by_link.get(other, 0.0) + impulse
            if self.first_strike_s is None and self.strike_impulse_ns >= self.config.strike_min_impulse_ns:
                self.first_strike_s = obs.t_s
        elif other not in self.hazards and c.position_m[2] <= self.config.floor_contact_height_m:
            if hazard not in self.floor_t_s:
                self.floor_t_s[hazard] = obs.t_s
                if self.impact_point_m is None:
                    self.impact_point_m = tuple(float(v) for v in c.position_m)
                    links = robot_link_positions()
                    planar = np.linalg.norm(links[:, :2] - np.asarray(self.impact_point_m[:2]), axis=1)
                    self.clearance_m = float(planar.min())

    def _judge_holds(self, now_s: float) -> None:
        if self.held_at_s is not None:
            return
        for hazard, touch_s in self.hand_touch_s.items():
            due_s = touch_s + self.config.catch_hold_s
            if now_s < due_s or self.floor_t_s.get(hazard, math.inf) <= due_s:
                continue
            if self.last_arm_contact_s.get(hazard, -math.inf) >= due_s - self.config.hold_contact_recent_s:
                self.held_at_s = now_s
                return

    def _hold_pending(self, now_s: float) -> bool:
        """A hand contact whose hold is not yet judged (the object neither held long enough nor dropped)."""
        if self.held_at_s is not None:
            return False
        return any(
            now_s < t + self.config.catch_hold_s and h not in self.floor_t_s for h, t in self.hand_touch_s.items()
        )

    @property
    def first_hand_contact_s(self) -> float | None:
        return min(self.hand_touch_s.values()) if self.hand_touch_s else None

    def _fallen(self, obs: StepObservation) -> bool:
        tilt_cos = -float(obs.projected_gravity[2])  # 1 upright, 0 lying
        return float(obs.base_pos_m[2]) < self.config.fall_pelvis_height_m or tilt_cos < math.cos(
            math.radians(self.config.fall_tilt_deg)
        )

    @property
    def strike_impulse_ns(self) -> float:
        return float(sum(self.strike_impulse_by_link.values()))

    def at_rest(self, now_s: float) -> bool:
        return (
            self.rest_since_s is not None
            and now_s - self.rest_since_s >= self.config.rest_hold_s
            and not self._hold_pending(now_s)
        )

    def outcome(
        self,
        *,
        scene_id: str,
        engine: str,
        controller_fault: str | None,
        plan_received: bool,
        plan_late: bool,
        plan_executed: bool,
        wrong_scene_plans: tuple[str, ...],
    ) -> Outcome:
        if self.last is None:
            raise RuntimeError("no step was tracked: the outcome needs at least the observation window")
        obs = self.last
        impulse = self.strike_impulse_ns
        strike_link = (
            max(self.strike_impulse_by_link, key=self.strike_impulse_by_link.get)
            if self.strike_impulse_by_link
            else None
        )
        first_floor = min(self.floor_t_s.values()) if self.floor_t_s else None
        return Outcome(
            scene_id=scene_id,
            engine=engine,
            caught=self.held_at_s is not None,
            catch_time_s=self.first_hand_contact_s,
            struck=impulse >= self.config.strike_min_impulse_ns and impulse > 0,
            strike_impulse_ns=impulse,
            strike_link=strike_link,
            strike_time_s=self.first_strike_s,
            min_hand_object_distance_m=self.min_distance_m,
            min_distance_time_s=self.min_distance_t_s,
            reached_floor=first_floor is not None,
            time_to_floor_s=first_floor,
            impact_point_m=self.impact_point_m,
            clearance_from_impact_m=self.clearance_m,
            fell=self.fall_t_s is not None,
            fall_time_s=self.fall_t_s,
            hazard_at_rest=self.at_rest(obs.t_s),
            end_time_s=obs.t_s,
            final_left_hand_m=tuple(float(v) for v in obs.left_hand_m),
            final_right_hand_m=tuple(float(v) for v in obs.right_hand_m),
            final_base_pos_m=tuple(float(v) for v in obs.base_pos_m),
            controller_fault=controller_fault,
            plan_received=plan_received,
            plan_late=plan_late,
            plan_executed=plan_executed,
            wrong_scene_plans=wrong_scene_plans,
            hand_contact=bool(self.hand_touch_s),
            deflected=bool(self.hand_touch_s) and self.held_at_s is None,
        )


_ARM_LINK_PARTS = ("shoulder", "elbow", "wrist", "hand")


def arm_links(robot_links: frozenset[str]) -> frozenset[str]:
    """The robot links an object can be held by: the arm chains from shoulder to hand."""
    return frozenset(n for n in robot_links if any(part in n for part in _ARM_LINK_PARTS))
