"""A policy's episode, in process: the scene runs without a freeze that matters (the body's freeze gate is
released at once, simulated time never stands still for the policy), the policy is asked every control
period from the event's start, its actions reach the spine `reaction_delay_s` later, and the episode is
scored with the same ground truth and metrics as a brain's.

The action is classified from what the body did, not from what the policy said: the measured base
displacement and the measured hands (relative to the pelvis, so arm motion alone) over the episode become
the plan the body executed (`executed_plan`), which the plan classifier and the scorer read as they read a
brain's plan. Frame: the robot frame at the event's start (where the robot stood; a robot that stood still
until the freeze has the paper's freeze-time frame).
"""

from __future__ import annotations

import json
import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

import numpy as np

from reacthuman.brain.base import BrainDecision
from reacthuman.brain.schema import MAX_KEYFRAMES
from reacthuman.spine.robot_state import RobotState
from reacthuman.evaluation.episode import ControlTicks, EpisodeResult, score, simulate_window
from reacthuman.plan.plan import Keyframe, Plan
from reacthuman.policy.base import Policy, PolicyAction, PolicyObservation, Proprioception, action_to_plan
from reacthuman.policy.schedule import CommandQueue, policy_schedule
from reacthuman.scenes.spec import SceneSpec

if TYPE_CHECKING:
    from reacthuman.spine.spine import Spine
    from reacthuman.sim_bridge.body import Body

MODALITY = "policy"


def _to_frame(origin_xy_yaw: tuple[float, float, float], xy: tuple[float, float]) -> tuple[float, float]:
    """A world-plane point in the robot frame of `origin_xy_yaw`."""
    x0, y0, yaw = origin_xy_yaw
    dx, dy = xy[0] - x0, xy[1] - y0
    c, s = math.cos(yaw), math.sin(yaw)
    return c * dx + s * dy, -s * dx + c * dy


@dataclass
class Sample:
    """What the body did at one policy tick (start robot frame): base pose and the hands' offsets from where
    they were, relative to the pelvis, at the event's start."""

    t_s: float
    base_xy_yaw: tuple[float, float, float]
    left_hand_m: tuple[float, float, float]
    right_hand_m: tuple[float, float, float]


@dataclass
class PolicyTrace:
    actions: list[tuple[float, PolicyAction]] = field(default_factory=list)  # (computed at t_s, action)
    samples: list[Sample] = field(default_factory=list)
    delays_s: list[float] = field(default_factory=list)  # the delay each action was charged, in action order


class BodySampler:
    """What the body did at each policy tick, in the robot frame of the first tick (`Sample`): the policy's
    episode samples it as it runs, a replay from the episode's bag samples the recorded states the same way."""

    def __init__(self) -> None:
        self._origin: tuple[float, float, float] | None = None
        self._hands0: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def origin(self) -> tuple[float, float, float]:
        assert self._origin is not None, "no tick sampled yet"
        return self._origin

    def sample(self, t_s: float, state: RobotState, base_pos_m, hands_m: tuple) -> Sample:
        pose = (state.base_pos_world[0], state.base_pos_world[1], state.yaw_rad())
        if self._origin is None:
            self._origin = pose
        base = np.asarray(base_pos_m)
        yaw = self._origin[2]
        rel = []
        for hand in hands_m:
            dx, dy = _to_frame((0.0, 0.0, pose[2]), tuple(np.asarray(hand)[:2] - base[:2]))
            rel.append(np.array([dx, dy, float(hand[2] - base[2])]))
        if self._hands0 is None:
            self._hands0 = (rel[0], rel[1])
        bx, by = _to_frame(self._origin, pose[:2])
        left = tuple(float(v) for v in rel[0] - self._hands0[0])
        right = tuple(float(v) for v in rel[1] - self._hands0[1])
        return Sample(t_s, (bx, by, pose[2] - yaw), left, right)  # type: ignore[arg-type]


class PolicyStepper:
    """One policy tick, whichever transport brings its inputs: the robot's state, the base and the hands as
    the body measured them (world frame) and the frames of the asked views, rendered at that step. Keeps the
    frame history and the trace (what the body did, what the policy said); returns the action and the
    delay it is charged."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        config = policy.config
        self.frames: dict[str, deque] = {v: deque(maxlen=config.frame_history) for v in config.views}
        self.frame_times: deque = deque(maxlen=config.frame_history)
        self.trace = PolicyTrace()
        self.sampler = BodySampler()

    def tick(
        self, t_s: float, state: RobotState, base_pos_m, hands_m: tuple, images: dict[str, np.ndarray]
    ) -> tuple[PolicyAction, float]:
        sample = self.sampler.sample(t_s, state, base_pos_m, hands_m)
        self.trace.samples.append(sample)
        for view in self.frames:
            self.frames[view].append(images[view])
        self.frame_times.append(t_s)
        vx, vy = _to_frame((0.0, 0.0, self.sampler.origin[2]), state.base_lin_vel_world[:2])
        proprio = Proprioception(
            state.q,
            state.dq,
            sample.base_xy_yaw,
            (vx, vy, state.base_ang_vel_body[2]),
            sample.left_hand_m,
            sample.right_hand_m,
        )
        observation = PolicyObservation(
            t_s, tuple(self.frame_times), {v: tuple(f) for v, f in self.frames.items()}, proprio
        )
        started = time.perf_counter()
        action = self.policy.act(observation)
        delay_s = self.policy.config.reaction_delay_s
        if self.policy.config.latency == "measured":
            delay_s = time.perf_counter() - started
        self.trace.actions.append((t_s, action))
        self.trace.delays_s.append(delay_s)
        return action, delay_s

    def plan(self, action: PolicyAction) -> Plan:
        """The spine's plan for an action of this policy."""
        return action_to_plan(action, self.policy.config.action_hold_s, self.policy.name)

    def command_text(self, action: PolicyAction) -> str:
        """The last tick's command as its message carries it (`raw_text`), for the episode's bag: the tick's
        time, the times of the frames the policy was given (its frame history, oldest first) and the action,
        every number whole (JSON keeps each bit), so a replay from the bag rebuilds the trace exactly."""
        return json.dumps(
            {
                "t_s": self.frame_times[-1],
                "frames_t_s": list(self.frame_times),
                "base_velocity": list(action.base_velocity),
                "left_hand_m": list(action.left_hand_m),
                "right_hand_m": list(action.right_hand_m),
                "knee_bend": action.knee_bend,
            }
        )


def command_from_text(text: str) -> tuple[float, PolicyAction]:
    """A recorded command's tick time and action (`PolicyStepper.command_text`)."""
    try:
        d = json.loads(text)
        return float(d["t_s"]), PolicyAction(
            tuple(d["base_velocity"]), tuple(d["left_hand_m"]), tuple(d["right_hand_m"]), float(d["knee_bend"])
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"a policy command's raw_text is not a recorded command ({exc}): {text[:80]!r}") from None


def replay_trace(ticks: list[tuple[RobotState, tuple, tuple, str]]) -> PolicyTrace:
    """The trace of a policy episode rebuilt from what its bag recorded at each tick, in tick order: the
    robot's state, the base position and the hands (world frame) of the tick's stamp, and the command the
    policy sent for it (its raw_text)."""
    sampler, trace = BodySampler(), PolicyTrace()
    for state, base_pos_m, hands_m, text in ticks:
        t_s, action = command_from_text(text)
        trace.samples.append(sampler.sample(t_s, state, base_pos_m, hands_m))
        trace.actions.append((t_s, action))
    return trace


class PolicyTicks:
    """The command source of a policy episode in process: at every policy tick (`schedule`) it shows the
    policy the latest frames and the robot's state, and hands each action to the spine when it takes
    effect; otherwise it asks the spine exactly as `ControlTicks` does."""

    def __init__(self, policy: Policy, spine: "Spine", body: "Body", spec: SceneSpec) -> None:
        self.spine, self.body, self.spec = spine, body, spec
        decimation = spine.config.policy_decimation
        self.control = ControlTicks(spine.command, spec.dt_s, decimation)
        self.schedule = policy_schedule(spec.t0_s, spec.dt_s, decimation, policy.config.policy_hz)
        self.commands: CommandQueue[Plan] = CommandQueue(self.schedule)
        self.stepper = PolicyStepper(policy)

    @property
    def trace(self) -> PolicyTrace:
        return self.stepper.trace

    def __call__(self, sim_time_s: float, state: RobotState):
        step = int(round(sim_time_s / self.spec.dt_s))
        for plan in self.commands.due(step):
            self.spine.set_plan(plan)
        if self.schedule.is_tick(step):
            snap = self.body.snapshot()
            images = {v: self.body.engine.render(v) for v in self.stepper.frames}
            action, delay_s = self.stepper.tick(
                self.schedule.t_s(step), state, snap.base.pos_m, (snap.left_hand_m, snap.right_hand_m), images
            )
            self.commands.add(step, delay_s, self.stepper.plan(action))
        return self.control(sim_time_s, state)


def executed_plan(trace: PolicyTrace, name: str) -> Plan:
    """The plan the body executed: its measured base displacement as a walk over the episode and, as
    keyframes, the measured hand offsets at up to MAX_KEYFRAMES ticks (those that reached furthest, in
    time order)."""
    samples = trace.samples
    if not samples:
        return Plan("", f"policy {name}: no tick", 1.0, (0.0, 0.0, 0.0), 0.0)
    duration_s = max(samples[-1].t_s - samples[0].t_s, 1e-3)
    dx, dy, _ = samples[-1].base_xy_yaw
    reach = [max(np.linalg.norm(s.left_hand_m), np.linalg.norm(s.right_hand_m)) for s in samples]
    chosen = sorted(sorted(range(len(samples)), key=lambda i: -reach[i])[:MAX_KEYFRAMES])
    keyframes = tuple(
        Keyframe(samples[i].t_s - samples[0].t_s, samples[i].left_hand_m, samples[i].right_hand_m) for i in chosen
    )
    return Plan(
        "", f"policy {name}: executed", 1.0, (dx / duration_s, dy / duration_s, 0.0), duration_s, keyframes=keyframes
    )


def trace_text(trace: PolicyTrace) -> str:
    """The policy's actions as JSON (the row's raw text: what the policy said, beside what the body did)."""
    return json.dumps(
        [
            {
                "t": round(t, 4),
                "base_velocity": a.base_velocity,
                "left_hand": a.left_hand_m,
                "right_hand": a.right_hand_m,
                "knee_bend": a.knee_bend,
            }
            for t, a in trace.actions
        ]
    )


def charged_latency_s(policy: Policy, trace: PolicyTrace) -> float:
    """The mean delay the trace's actions were charged (the budget when the policy is charged its budget or
    acted no tick)."""
    if policy.config.latency != "measured" or not trace.delays_s:
        return policy.config.reaction_delay_s
    return sum(trace.delays_s) / len(trace.delays_s)


def policy_decision(policy: Policy, trace: PolicyTrace) -> BrainDecision:
    """The row's decision: the plan the body executed, the policy's actions as its text, and as its latency
    the mean delay its actions were charged: the configured reaction delay (`budget`), or the mean of the
    policy's measured times (`measured`)."""
    return BrainDecision(
        brain=policy.name,
        plan=executed_plan(trace, policy.name),
        raw_text=trace_text(trace),
        parse_ok=True,
        latency_s=charged_latency_s(policy, trace),
        modality=MODALITY,
    )


def run_policy_episode(
    spec: SceneSpec, policy: Policy, body: "Body", spine: "Spine", on_trace: Callable[[PolicyTrace], None] | None = None
) -> EpisodeResult:
    """One policy episode with the policy called directly: load, run from the start with the policy acting
    every period (the body's freeze released at once), execute to the horizon, score what the body did."""
    started = time.perf_counter()
    spine.reset(None)
    policy.reset()
    body.load(spec)
    ticks = PolicyTicks(policy, spine, body, spec)
    window = simulate_window(body, ticks)
    body.offer_plan(spec.scene_id)
    outcome = body.execute(ticks)
    if on_trace is not None:
        on_trace(ticks.trace)
    decision = policy_decision(policy, ticks.trace)
    record = score(spec, decision, window.freeze_position_m, outcome)
    return EpisodeResult(
        True, record, outcome=outcome, frames=window.frames, decision=decision, wall_s=time.perf_counter() - started
    )
