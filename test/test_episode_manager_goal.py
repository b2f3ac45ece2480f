"""The episode manager as a real process, driven by the evaluation's own action client: a RunEpisode goal for
another scenes folder or another model fails at once with the reason in its result, before anything is
announced or written; a goal for the graph's own folder and model goes on to the scene generator (here a
stand-in that has no such scene, or does not answer in time: the goal fails naming it, the graph does not hang)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from reacthuman_msgs.srv import GenerateScene

from reacthuman import ros_contract as graph
from reacthuman.nodes.eval_client import EpisodeClient

STAND_IN_ERROR = "stand-in scene generator: no scenes here"


def _check_alive(proc: subprocess.Popen):
    def check() -> None:
        if proc.poll() is not None:
            raise RuntimeError(f"the episode manager exited with status {proc.returncode}")

    return check


def test_a_goal_for_another_scenes_folder_or_model_fails_with_the_reason(ros_domain_id, tmp_path):
    scenes, run_dir = tmp_path / "scenes", tmp_path / "run"
    scenes.mkdir()
    env = dict(os.environ, ROS_DOMAIN_ID=str(ros_domain_id), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    manager = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from reacthuman.nodes.episode_manager_node import main; main()",
            "--ros-args",
            "-p",
            f"scenes_dir:={scenes}",
            "-p",
            "model:=oracle",
            "-p",
            f"run_dir:={run_dir}",
            "-p",
            "announce_timeout_s:=2.0",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    client = EpisodeClient(ros_domain_id, _check_alive(manager))
    asked: list[str] = []

    def generate(request, response):
        asked.append(request.scene_id)
        if request.scene_id == "scene-unanswered":
            time.sleep(4.0)  # past the manager's announce_timeout_s: it has given up by the time this answers
        response.ok, response.error = False, STAND_IN_ERROR
        return response

    client.node.create_service(GenerateScene, graph.GENERATE_SCENE_SRV, generate)

    def run(scenes_dir: str, model: str, scene_id: str = "scene-1") -> tuple:
        now = time.monotonic()
        return client.run(scene_id, scenes_dir, model, now + 30, now + 60)

    try:
        client.wait_ready(90, "the episode manager alone")
        ok, record, error = run(str(tmp_path / "other"), "oracle")
        assert not ok
        assert record is None
        assert error.startswith("goal refused: the goal's scenes_dir"), error
        assert f"({str(scenes)!r})" in error, error
        ok, _, error = run(str(scenes), "always_dodge")
        assert not ok
        assert error == "goal refused: the goal's model 'always_dodge' is not this graph's brain model ('oracle')"
        assert asked == []
        assert not (run_dir / "episodes").exists()  # nothing announced, nothing written

        ok, _, error = run(str(scenes) + "/", "oracle")  # the graph's own folder, spelt with a trailing slash
        assert not ok, error
        assert error == f"RuntimeError: scene generator: {STAND_IN_ERROR}", error
        assert asked == ["scene-1"]
        ok, _, error = run(str(scenes), "oracle", "scene-unanswered")
        assert not ok, error
        assert error == "RuntimeError: the scene generator did not answer for scene-unanswered within 2 s", error
    finally:
        client.close()
        manager.terminate()
        output, _ = manager.communicate(timeout=60)
    assert "goal refused: the goal's model 'always_dodge'" in output, output
