"""The policy slot through the launched graph (real rclpy, FastDDS, MuJoCo, rosbag2). One `reacthuman eval` runs
two policies written here (loaded by the policy node from their module) on one short scene, each in its graph:
- a LeRobot-shaped policy (`select_action(batch)` on torch tensors, through `policy.lerobot_adapter`): its ledger
  row equals the in-process `run_policy_episode` row in every field but the latency, and the policy's commands
  reached the body (the row's executed plan walks as the script commands);
- a policy under `latency: measured`: every command is charged the wall time the policy took (its recorded
  `latency_s`), not the budget.
Both bags hold every command the policy sent (with the times of the frames it was given), and `reacthuman
rescore` replays each episode from them: the executed plan rebuilt from the recorded ticks equals the ledger."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reacthuman.scenes import generate_spec

SCENE = ("rolling_ball", 1)  # a 4 s scene: the event lasts long enough for a walk
MODULE = "scripted_policy_for_graph_test"
SCRIPT = '''
import time

import torch

from reacthuman.policy import Policy, PolicyAction
from reacthuman.policy.base import default_config


class TinyLeRobotStepLeft:
    """LeRobot-shaped (select_action on a batch of tensors): stands for two ticks, then walks left at a speed set
    by the frame's brightness, and from the sixth tick holds the hands out by an amount set by how far the
    body has moved (observation.state's base y): both inputs must reach it to the bit."""

    def __init__(self):
        self.calls = 0

    def reset(self):
        self.calls = 0

    def select_action(self, batch):
        tick, self.calls = self.calls, self.calls + 1
        action = torch.zeros(1, 10, dtype=torch.float64)
        if tick < 2:
            return action
        state = batch["observation.state"][0]
        joints = (state.shape[0] - 12) // 2  # q, dq, then base x, y, yaw, its velocity and the hands
        action[0, 1] = 0.3 + 0.2 * batch["observation.images.egocentric"].double().mean()
        if tick >= 6:
            reach = min(0.2, abs(float(state[2 * joints + 1])))
            action[0, 3:9] = torch.tensor([0.15, 0.0, reach, 0.15, 0.0, reach], dtype=torch.float64)
        return action


class MeasuredStepLeft(Policy):
    """Charged the wall time it takes (`latency: measured`), at least SLEEP_S a tick; walks left after 0.2 s."""

    SLEEP_S = 0.02

    def __init__(self, config=None):
        super().__init__(config or default_config(latency="measured"))

    def act(self, observation):
        time.sleep(self.SLEEP_S)
        return PolicyAction(base_velocity=(0.0, 0.4 if observation.t_s >= 0.2 else 0.0, 0.0))
'''
LEROBOT = f"policy:{MODULE}:TinyLeRobotStepLeft"
MEASURED = f"policy:{MODULE}:MeasuredStepLeft"
SLEEP_S = 0.02


@pytest.fixture(scope="module")
def policy_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("policy_module")
    (root / f"{MODULE}.py").write_text(SCRIPT)
    sys.path.insert(0, str(root))
    yield root
    sys.path.remove(str(root))


@pytest.fixture(scope="module")
def scenes(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("scenes")
    spec = generate_spec(*SCENE)
    (root / spec.scene_id).mkdir()
    (root / spec.scene_id / "spec.json").write_text(spec.to_json())
    return root


@pytest.fixture(scope="module")
def run(scenes, policy_dir, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run") / "run"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(policy_dir), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "reacthuman.cli",
            "eval",
            "--scenes",
            str(scenes),
            "--models",
            f"{LEROBOT},{MEASURED}",
            "--engine",
            "mujoco",
            "--out",
            str(out),
            "--domain-base",
            str(20 + os.getpid() % 100),
            "--retries",
            "1",
        ],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _rows(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "ledger.jsonl").read_text().splitlines() if line.strip()]


def test_graph_rows_equal_the_in_process_policy_episode_to_the_bit(run, scenes):
    from reacthuman.spine.spine import Spine
    from reacthuman.spine.spine import default_config as spine_config
    from reacthuman.evaluation.policy_episode import run_policy_episode
    from reacthuman.policy.lerobot_adapter import LeRobotPolicy
    from reacthuman.policy.loading import load_policy
    from reacthuman.scenes.spec import SceneSpec
    from reacthuman.sim_bridge.body import Body, graph_config

    rows = _rows(run)
    assert sorted(r["model"] for r in rows) == sorted([LEROBOT, MEASURED])
    body = Body(graph_config(engine="mujoco"))
    try:
        for row in rows:
            if row["model"] != LEROBOT:  # measured latency: the episode depends on the machine's timing
                continue
            spec = SceneSpec.from_json((scenes / row["scene_id"] / "spec.json").read_text())
            policy = load_policy(LEROBOT)
            assert isinstance(policy, LeRobotPolicy)
            record = run_policy_episode(spec, policy, body, Spine(spine_config())).record.to_dict()
            differ = [
                k
                for k in sorted(set(row) | set(record))
                if k != "latency_s"
                and json.dumps(row.get(k), sort_keys=True) != json.dumps(record.get(k), sort_keys=True)
            ]
            assert not differ, {k: (row.get(k), record.get(k)) for k in differ}
    finally:
        body.close()


def _folder(run: Path, model: str) -> Path:
    from reacthuman.recording.episode_files import EpisodeFolder

    row = next(r for r in _rows(run) if r["model"] == model)
    return EpisodeFolder(run, model, row["scene_id"]).final


def _commands(folder: Path) -> list:
    from rclpy.serialization import deserialize_message

    from reacthuman.core.bag import read_bag
    from reacthuman.nodes.runtime import msg_type
    from reacthuman.policy.graph_contract import POLICY_COMMAND

    return [
        deserialize_message(m.raw, msg_type(m.msgtype)) for m in read_bag(folder / "bag") if m.topic == POLICY_COMMAND
    ]


def test_the_row_scores_what_the_body_did_under_the_policys_commands(run):
    row = next(r for r in _rows(run) if r["model"] == LEROBOT)
    assert row["modality"] == "policy"
    assert row["intent"].endswith("executed")
    folder = _folder(run, LEROBOT)
    plan = json.loads((folder / "plan.json").read_text())
    assert plan["walking_cmd"][1] > 0.05  # the body walked left, as commanded
    assert max(k["left_hand"][0] for k in plan["keyframes"]) > 0.03  # and held its hands out
    actions = json.loads((folder / "raw_reply.txt").read_text())
    assert len(actions) >= 20 and actions[0]["base_velocity"] == [0.0, 0.0, 0.0]
    commands = _commands(folder)  # every tick's command is in the bag, with the frames it was given
    assert len(commands) == len(actions)
    ticks = [json.loads(c.raw_text) for c in commands]
    assert [round(t["t_s"], 4) for t in ticks] == [a["t"] for a in actions]
    assert ticks[0]["frames_t_s"] == [ticks[0]["t_s"]] and ticks[5]["frames_t_s"] == [ticks[4]["t_s"], ticks[5]["t_s"]]
    assert {c.latency_s for c in commands} == {0.1}  # the budget


def test_measured_latency_charges_each_command_the_policys_wall_time(run):
    row = next(r for r in _rows(run) if r["model"] == MEASURED)
    assert row["modality"] == "policy"
    delays = [c.latency_s for c in _commands(_folder(run, MEASURED))]
    assert len(delays) >= 20 and min(delays) >= SLEEP_S and len(set(delays)) > 1, delays
    # the row's latency is the mean measured delay, not the configured budget (0.1 s)
    assert row["latency_s"] == pytest.approx(sum(delays) / len(delays), rel=1e-3, abs=1e-3), row["latency_s"]
    plan = json.loads((_folder(run, MEASURED) / "plan.json").read_text())
    assert plan["walking_cmd"][1] > 0.05  # the commands reached the body however late


def test_rescore_replays_each_policy_episode_from_its_bag_and_equals_the_ledger(run, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "reacthuman.cli", "rescore", str(run)],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 identical, 0 different" in done.stdout, done.stdout
    # the replay reads the commands, not the plan the policy node published: a changed command is found
    from rclpy.serialization import deserialize_message, serialize_message

    from reacthuman.core.bag import BagError, BagWriter, read_bag
    from reacthuman.evaluation.rescore import rescore_bag
    from reacthuman.nodes.runtime import msg_type
    from reacthuman.policy.graph_contract import POLICY_COMMAND

    writer, changed = BagWriter(tmp_path / "bag"), 0
    for m in read_bag(_folder(run, LEROBOT) / "bag"):
        raw = m.raw
        if (
            m.topic == POLICY_COMMAND
            and not changed
            and json.loads((c := deserialize_message(raw, msg_type(m.msgtype))).raw_text)["base_velocity"][1]
        ):
            tick = json.loads(c.raw_text)
            tick["base_velocity"][1] += 0.5
            c.raw_text, changed = json.dumps(tick), 1
            raw = serialize_message(c)
        writer.write(m.topic, m.msgtype, m.stamp_ns, raw)
    writer.close()
    with pytest.raises(BagError, match="differs from its plan in raw_text$"):
        rescore_bag(tmp_path / "bag", LEROBOT)
