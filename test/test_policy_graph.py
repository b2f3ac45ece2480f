"""The policy slot through the launched graph (real rclpy, FastDDS, MuJoCo, rosbag2): `reacthuman eval --models
policy:<module>:<Class>` runs a scripted policy (written here, loaded by the policy node from its module) on one
short scene; its ledger row equals the in-process `run_policy_episode` row in every field but the latency,
its bag holds the executed plan and rescores to the ledger, and the policy's commands reached the body
(the row's executed plan walks as the script commands)."""

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
import numpy as np
from reacthuman.policy import Policy, PolicyAction


class ScriptedStepLeft(Policy):
    """Stands for 0.2 s, then walks left at a speed set by the frames' brightness, and from 0.6 s holds the
    hands out by an amount set by how far the body has moved: both inputs must reach it to the bit."""

    def act(self, observation):
        if observation.t_s < 0.2:
            return PolicyAction()
        brightness = float(np.mean(observation.images["egocentric"][-1])) / 255.0
        action = PolicyAction(base_velocity=(0.0, 0.3 + 0.2 * brightness, 0.0))
        if observation.t_s >= 0.6:
            moved = abs(observation.proprioception.base_xy_yaw[1])
            reach = (0.15, 0.0, min(0.2, moved))
            action = PolicyAction(action.base_velocity, reach, reach, 0.0)
        return action
'''
ENTRY = f"policy:{MODULE}:ScriptedStepLeft"


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
            ENTRY,
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
    from reacthuman.policy.loading import load_policy
    from reacthuman.scenes.spec import SceneSpec
    from reacthuman.sim_bridge.body import Body, graph_config

    rows = _rows(run)
    assert [r["model"] for r in rows] == [ENTRY]
    body = Body(graph_config(engine="mujoco"))
    try:
        for row in rows:
            spec = SceneSpec.from_json((scenes / row["scene_id"] / "spec.json").read_text())
            record = run_policy_episode(spec, load_policy(ENTRY), body, Spine(spine_config())).record.to_dict()
            differ = [
                k
                for k in sorted(set(row) | set(record))
                if k != "latency_s"
                and json.dumps(row.get(k), sort_keys=True) != json.dumps(record.get(k), sort_keys=True)
            ]
            assert not differ, {k: (row.get(k), record.get(k)) for k in differ}
    finally:
        body.close()


def test_the_row_scores_what_the_body_did_under_the_policys_commands(run):
    (row,) = _rows(run)
    assert row["modality"] == "policy"
    assert row["intent"].endswith("executed")
    folder = next((run / "episodes").glob("*/*"))
    plan = json.loads((folder / "plan.json").read_text())
    assert plan["walking_cmd"][1] > 0.05  # the body walked left, as commanded
    assert max(k["left_hand"][0] for k in plan["keyframes"]) > 0.03  # and held its hands out
    actions = json.loads((folder / "raw_reply.txt").read_text())
    assert len(actions) >= 20 and actions[0]["base_velocity"] == [0.0, 0.0, 0.0]


def test_rescore_from_the_bag_equals_the_ledger(run):
    done = subprocess.run(
        [sys.executable, "-m", "reacthuman.cli", "rescore", str(run)],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 identical, 0 different" in done.stdout, done.stdout
