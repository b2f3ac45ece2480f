"""The policy slot's core: config, actions into spine plans, the registry and entries, the reference policy on
drawn frames, and the LeRobot-shaped adapter with a tiny policy built here (no weights downloaded)."""

from __future__ import annotations

import argparse
import sys
import types

import cv2
import numpy as np
import pytest

from reacthuman.brain.schema import KNEE_BEND_LIMIT, WALK_CMD_LIMIT
from reacthuman.policy import (
    PolicyAction,
    PolicyConfig,
    PolicyObservation,
    Proprioception,
    action_to_plan,
    default_config,
    make_policy,
    registered_policies,
)
from reacthuman.policy.image_servo import ImageServo, ImageServoConfig, moving_region
from reacthuman.policy.lerobot_adapter import ACTION_LAYOUT, LeRobotPolicy, action_from_output
from reacthuman.policy.graph_contract import policy_launch_args
from reacthuman.policy.loading import is_policy_entry, load_policy
from reacthuman.policy.schedule import CommandQueue, policy_schedule

H, W = 180, 320


def proprio(speed_mps: float = 0.0) -> Proprioception:
    return Proprioception(
        joint_q_rad=(0.0,) * 29,
        joint_dq_radps=(0.0,) * 29,
        base_xy_yaw=(0.0, 0.0, 0.0),
        base_velocity_mps=(speed_mps, 0.0, 0.0),
    )


def disc_frame(centre_xy: tuple[int, int], radius_px: int) -> np.ndarray:
    frame = np.full((H, W, 3), 120, np.uint8)
    cv2.circle(frame, centre_xy, radius_px, (230, 40, 40), thickness=-1)
    return frame


def obs(t_s: float, frames: tuple[np.ndarray, ...], speed_mps: float = 0.0) -> PolicyObservation:
    times = tuple(t_s - 0.1 * (len(frames) - 1 - i) for i in range(len(frames)))
    return PolicyObservation(t_s, times, {"egocentric": frames}, proprio(speed_mps))


def test_config_rejects_bad_values_in_one_line():
    with pytest.raises(ValueError, match="policy_hz"):
        PolicyConfig(policy_hz=0.0)
    with pytest.raises(ValueError, match="views"):
        PolicyConfig(views=("left_eye",))
    with pytest.raises(ValueError, match="latency"):
        PolicyConfig(latency="wall")
    with pytest.raises(ValueError, match="unknown PolicyConfig field"):
        default_config(hz=5)
    with pytest.raises(ValueError, match="action_hold_s"):
        PolicyConfig(policy_hz=2.0, action_hold_s=0.1)
    assert default_config(policy_hz=5).period_s == pytest.approx(0.2)


def test_action_becomes_a_held_plan_inside_the_schema():
    plan = action_to_plan(PolicyAction((9.0, 0.0, 0.0), (0.2, 0.0, 0.1), (0.2, 0.0, 0.1), knee_bend=0.9), 1.0, "x")
    assert plan.walking_cmd == (WALK_CMD_LIMIT, 0.0, 0.0)
    assert plan.walking_duration_s == pytest.approx(1.0)
    assert len(plan.keyframes) == 1
    assert plan.keyframes[0].knee_bend == KNEE_BEND_LIMIT
    assert plan.keyframes[0].left_hand == (0.2, 0.0, 0.1)


def test_standing_action_has_no_keyframes():
    plan = action_to_plan(PolicyAction(), 0.1, "x")
    assert plan.keyframes == ()
    assert plan.walking_cmd == (0.0, 0.0, 0.0)


def test_action_refuses_nan():
    with pytest.raises(ValueError, match="NaN"):
        PolicyAction(base_velocity=(float("nan"), 0.0, 0.0))


def test_registry_names_the_reference_policy_and_refuses_unknown():
    assert "image_servo" in registered_policies()
    assert isinstance(make_policy("image_servo"), ImageServo)
    with pytest.raises(ValueError, match="unknown policy 'nope'"):
        make_policy("nope")


def test_moving_region_finds_the_disc_and_nothing_in_a_still_scene():
    still = disc_frame((160, 90), 10)
    assert moving_region(still, still, ImageServoConfig()) is None
    blob = moving_region(disc_frame((100, 90), 10), disc_frame((110, 90), 12), ImageServoConfig())
    assert blob is not None
    assert blob.centre_x < 0  # left half of the image


def test_image_servo_dodges_a_looming_object_away_from_its_side():
    policy = make_policy("image_servo")
    # a disc right of centre that grows fast: on a collision course
    frames = [disc_frame((200, 90), r) for r in (6, 10, 18, 30)]
    actions = [policy.act(obs(0.1 * (i + 1), (frames[i], frames[i + 1]))) for i in range(3)]
    dodge = actions[-1]
    assert dodge.base_velocity[1] > 0  # object on the image's right (robot's -y): step left (+y)
    # committed: the next period keeps dodging even with a still image
    assert policy.act(obs(0.45, (frames[-1], frames[-1]))) == dodge


def test_image_servo_reaches_for_a_slow_centred_object_and_stands_when_nothing_moves():
    policy = make_policy("image_servo")
    a = policy.act(obs(0.1, (disc_frame((150, 90), 10), disc_frame((156, 90), 10))))
    assert a.left_hand_m[0] > 0
    assert a.right_hand_m[0] > 0
    assert a.base_velocity == (0.0, 0.0, 0.0)
    policy.reset()
    still = disc_frame((150, 90), 10)
    assert policy.act(obs(0.1, (still, still))) == PolicyAction()


def test_image_servo_ignores_the_image_while_walking():
    policy = make_policy("image_servo")
    moving = (disc_frame((150, 90), 10), disc_frame((160, 90), 14))
    assert policy.act(obs(0.1, moving, speed_mps=0.5)) == PolicyAction()


class TinyLeRobotPolicy:
    """A LeRobot-shaped policy built in the test: a linear layer over the state and the image's mean."""

    def __init__(self) -> None:
        import torch

        torch.manual_seed(0)
        self.layer = torch.nn.Linear(2, len(ACTION_LAYOUT))
        self.seen: list[dict] = []
        self.resets = 0

    def reset(self) -> None:
        self.resets += 1

    def select_action(self, batch):
        import torch

        self.seen.append(batch)
        image = batch["observation.images.egocentric"]
        state = batch["observation.state"]
        features = torch.stack([image.mean(), state.mean()]).unsqueeze(0)
        return self.layer(features)


def test_lerobot_adapter_sends_the_batch_lerobot_expects_and_reads_ten_numbers():
    inner = TinyLeRobotPolicy()
    policy = LeRobotPolicy(inner, PolicyConfig(views=("egocentric",)))
    policy.reset()
    frame = disc_frame((150, 90), 10)
    action = policy.act(obs(0.1, (frame, frame)))
    batch = inner.seen[-1]
    image = batch["observation.images.egocentric"]
    assert tuple(image.shape) == (1, 3, H, W)
    assert float(image.max()) <= 1.0
    assert tuple(batch["observation.state"].shape) == (1, len(proprio().vector()))
    assert inner.resets == 1
    assert isinstance(action, PolicyAction)
    with pytest.raises(ValueError, match="must have 10 numbers"):
        action_from_output(np.zeros(7))


def test_policy_entries_load_user_classes_and_refuse_bad_ones():
    module = types.ModuleType("user_policies_for_test")
    module.Tiny = TinyLeRobotPolicy
    module.NotAPolicy = dict
    sys.modules[module.__name__] = module
    try:
        assert is_policy_entry("policy:user_policies_for_test:Tiny")
        assert is_policy_entry("image_servo")
        assert not is_policy_entry("oracle")
        assert isinstance(load_policy("policy:user_policies_for_test:Tiny"), LeRobotPolicy)
        with pytest.raises(ValueError, match="neither a reacthuman Policy"):
            load_policy("policy:user_policies_for_test:NotAPolicy")
        with pytest.raises(ValueError, match="has no class 'Missing'"):
            load_policy("policy:user_policies_for_test:Missing")
        with pytest.raises(ValueError, match="cannot import module"):
            load_policy("policy:no_such_module_here:X")
        with pytest.raises(ValueError, match="must be policy:<module>:<Class>"):
            load_policy("policy:only_module")
    finally:
        del sys.modules[module.__name__]


def test_schedule_ticks_at_control_ticks_from_the_event_and_delays_in_whole_steps():
    dt_s = 1.0 / 240.0
    schedule = policy_schedule(t0_s=0.51, dt_s=dt_s, decimation=5, policy_hz=10.0)
    assert schedule.first_step % 5 == 0 and 0 <= schedule.first_step - round(0.51 / dt_s) < 5
    assert schedule.period_steps == 25  # 0.1 s in whole control periods (24 steps -> 5 x 5)
    assert schedule.is_tick(schedule.first_step + 50) and not schedule.is_tick(schedule.first_step + 24)
    assert schedule.apply_step(100, 0.1) == 124
    assert schedule.apply_step(100, 0.0) == 101  # never before the policy has seen its tick
    with pytest.raises(ValueError, match="policy_hz > 0"):
        policy_schedule(0.0, dt_s, 5, 0.0)


def test_command_queue_says_when_a_tick_may_be_answered_and_what_takes_effect():
    schedule = policy_schedule(t0_s=0.0, dt_s=0.01, decimation=5, policy_hz=10.0)  # ticks at 0, 10, 20 ...
    queue = CommandQueue(schedule)
    assert queue.ready(0)  # no tick before the first
    assert not queue.ready(5)  # tick 0's command is needed from step 1 on
    queue.add(0, 0.05, "a")  # takes effect at step 5
    assert queue.ready(10) and not queue.ready(11)
    assert queue.due(4) == [] and queue.due(5) == ["a"] and queue.due(6) == []
    with pytest.raises(ValueError, match="out of order"):
        queue.add(20, 0.0, "c")
    with pytest.raises(ValueError, match="no policy tick"):
        queue.add(15, 0.0, "c")


def test_eval_takes_policies_as_models_and_decide_refuses_them_in_one_line(tmp_path, capsys):
    from reacthuman.evaluation.cli import main as eval_main, models_option
    from reacthuman.evaluation.decide import main as decide_main

    args = argparse.Namespace(models="image_servo,policy:some_module:SomeClass,oracle")
    assert [s.name for s in models_option().parse(args)] == ["image_servo", "policy:some_module:SomeClass", "oracle"]
    assert decide_main(["--scenes", str(tmp_path), "--models", "image_servo", "--out", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "image_servo: a policy acts every control period" in err
    assert (
        eval_main(["--scenes", str(tmp_path), "--models", "policy:no_such_module_here:X", "--out", str(tmp_path / "e")])
        == 2
    )
    assert "cannot import module 'no_such_module_here'" in capsys.readouterr().err
    assert policy_launch_args("image_servo") == ("policy_hz:=10.0", "policy_views:=egocentric")


def test_policy_launch_is_the_eval_graph_with_the_policy_node_in_the_brains_place():
    from reacthuman import ros_contract as graph
    from reacthuman.evaluation.graph_worker import LAUNCH_FILE
    from reacthuman.launching.launch_file import load
    from reacthuman.launching.launcher import node_command
    from reacthuman.policy.graph_contract import POLICY_LAUNCH_FILE, POLICY_NODE

    path = LAUNCH_FILE.with_name(POLICY_LAUNCH_FILE)  # the one the eval launches for a policy
    spec = load(path, dict(a.split(":=") for a in policy_launch_args("image_servo")))
    expected = (set(graph.NODES) - {"brain"}) | {POLICY_NODE.name}
    assert sorted(n.name for n in spec.nodes) == sorted(expected)
    nodes = {n.name: n for n in spec.nodes}
    for name in ("body", "spine", "policy"):
        assert dict(nodes[name].params)["policy_hz"] == 10.0
    assert dict(nodes["policy"].params)["model"] == "image_servo"
    for node in spec.nodes:
        assert f"reacthuman.nodes.{node.executable}" in node_command(node)[2]
