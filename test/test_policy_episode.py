"""Policy episodes in process with the G1 in MuJoCo (real physics, small frames; the scene labelled in Genesis): a scripted policy's
commands reach the body after the reaction delay, the body's measured motion is what gets classified and
scored, the same scene and policy give the same row twice, and the reference policy runs end to end."""

from __future__ import annotations

import time

import pytest

from reacthuman.spine.spine import Spine
from reacthuman.plan.plan import Action
from reacthuman.policy import Policy, PolicyAction, PolicyConfig, make_policy
from reacthuman.evaluation.policy_episode import PolicyTrace, run_policy_episode
from reacthuman.scenes import label_spec, sample_spec
from reacthuman.sim_bridge.body import Body, default_config

SEED = 1


class StepLeft(Policy):
    """Scripted: stands until 0.2 s after the event began, then walks left (+y) for the rest of the episode."""

    name = "step_left_scripted"

    def act(self, observation):
        return PolicyAction(base_velocity=(0.0, 0.5, 0.0)) if observation.t_s >= 0.2 else PolicyAction()


@pytest.fixture(scope="module")
def body():
    b = Body(default_config(engine="mujoco", frame_count=2, frame_width_px=96, frame_height_px=64, horizon_s=2.0))
    yield b
    b.close()


@pytest.fixture(scope="module")
def spine():
    return Spine()


@pytest.fixture(scope="module")
def scene():
    # a slow rolling ball: the event lasts seconds, long enough for a walk (labelled in Genesis, as generated)
    return label_spec(sample_spec("rolling_ball", SEED, speed_band="slow"))


def run(body, spine, scene, policy):
    traces: list[PolicyTrace] = []
    result = run_policy_episode(scene, policy, body, spine, on_trace=traces.append)
    return result, traces[0]


def test_a_scripted_policy_steps_left_after_its_reaction_delay_and_the_body_did_it(body, spine, scene):
    result, trace = run(body, spine, scene, StepLeft(PolicyConfig(policy_hz=10.0, reaction_delay_s=0.1)))
    assert result.ok
    assert result.outcome.controller_fault is None
    assert not result.outcome.fell
    times = [t for t, _ in trace.actions]
    control_s = scene.dt_s * spine.config.policy_decimation
    assert 0.0 <= times[0] < control_s  # from the first control tick of the event
    period_s = round(0.1 / control_s) * control_s  # every policy period, in whole control periods
    assert [b - a for a, b in zip(times, times[1:4])] == pytest.approx([period_s] * 3)
    first_walk = next(s for s in trace.samples if abs(s.base_xy_yaw[1]) > 0.02)
    assert first_walk.t_s >= 0.3  # the first walking action (0.2 s) reaches the spine 0.1 s later
    moved_y = trace.samples[-1].base_xy_yaw[1]
    assert moved_y > 0.15  # the body walked left
    record = result.record
    assert record.modality == "policy"
    assert record.action == Action.DODGE.value  # walking sideways, out of the hazard's path
    assert result.decision.plan.walking_cmd[1] > 0  # the executed plan walks left, as the body did


def test_the_same_policy_on_the_same_scene_gives_the_same_row(body, spine, scene):
    first, _ = run(body, spine, scene, StepLeft(PolicyConfig(policy_hz=10.0)))
    second, _ = run(body, spine, scene, StepLeft(PolicyConfig(policy_hz=10.0)))
    a, b = first.record.to_dict(), second.record.to_dict()
    for key in ("latency_s",):
        a.pop(key, None)
        b.pop(key, None)
    assert a == b


class SlowStepLeft(StepLeft):
    """StepLeft that takes at least SLEEP_S of wall time an action."""

    SLEEP_S = 0.01

    def act(self, observation):
        time.sleep(self.SLEEP_S)
        return super().act(observation)


def test_a_measured_policys_row_carries_the_mean_time_it_was_charged_not_the_budget(body, spine, scene):
    result, trace = run(body, spine, scene, SlowStepLeft(PolicyConfig(policy_hz=10.0, latency="measured")))
    assert len(trace.delays_s) == len(trace.actions) >= 10
    assert min(trace.delays_s) >= SlowStepLeft.SLEEP_S
    assert result.record.latency_s == sum(trace.delays_s) / len(trace.delays_s) != 0.1
    budget, _ = run(body, spine, scene, StepLeft(PolicyConfig(policy_hz=10.0)))
    assert budget.record.latency_s == 0.1


def test_the_reference_policy_runs_end_to_end_on_images_alone(body, spine, scene):
    result, trace = run(body, spine, scene, make_policy("image_servo"))
    assert result.ok
    assert result.outcome.controller_fault is None
    assert len(trace.actions) >= 10
    assert result.record.action in {a.value for a in Action}
