"""Observation sets and decision-only evaluation (Genesis, a real local HTTP endpoint).

A Catch and a Dodge scene are rendered into an observation set by `reacthuman scenes render`; the same
scenes are run as whole in-process episodes (`evaluation.episode.run_episode`, at the graph body's
settings: proven equal to the graph's episodes to the bit by test_eval_graph) with an LLM brain on a
deterministic OpenAI-compatible endpoint. The set's observation equals, pixel for pixel and number for number,
the observation the episode's brain was handed; `reacthuman decide` sends the endpoint byte-identical requests
and writes the episode's ledger row in every scoring field, with the execution columns empty. The set exported as a
Hugging Face dataset loads with `load_dataset`, and `decide --dataset` in a fresh virtual environment with the
client requirements alone (no Genesis, MuJoCo or ROS 2) writes the same rows and sends the same requests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from reacthuman.llm.loopback import FixedReplyEndpoint
from reacthuman.scoring.ledger import EXECUTION_FIELDS
from reacthuman.scenes import generate_spec

SCENES = (("object_drop", 3), ("ceiling_drop", 0))  # a Dodge scene and a Catch scene (as test_eval_graph)
MODEL = "deterministic_endpoint"
KEY_ENV = "REACTHUMAN_TEST_OBS_SET_KEY"
REPLY = json.dumps(
    {
        "object_identified": "the falling object",
        "intent": "step back out of its way",
        "confidence": 0.7,
        "walking_cmd": [-0.4, 0.0, 0.0],
        "walking_duration": 1.0,
        "catch_duration": 0.5,
        "keyframes": [{"t": 0.3, "left_hand": [0.1, 0.1, 0.0], "right_hand": [0.1, -0.1, 0.0], "knee_bend": 0.1}],
    }
)


class DeterministicEndpoint(FixedReplyEndpoint):
    """An OpenAI-compatible endpoint on loopback that answers every request with the same reply and keeps
    every request body it got."""

    def __init__(self) -> None:
        super().__init__(REPLY, model="deterministic", prompt_tokens=100, completion_tokens=20)

    def models_yaml(self, path: Path) -> Path:
        path.write_text(
            json.dumps(
                {
                    "defaults": {},
                    "presets": {
                        MODEL: {
                            "provider": "openai-compatible",
                            "model_id": "deterministic",
                            "vision": True,
                            "key_required": True,
                            "base_url": self.base_url,
                            "api_key_env": KEY_ENV,
                            "timeout_s": 20.0,
                        }
                    },
                }
            )
        )
        return path


class RecordingBrain:
    """The brain it wraps, keeping the observation each decision was made on."""

    def __init__(self, brain) -> None:
        self.brain, self.observations = brain, []
        self.needs_ground_truth = brain.needs_ground_truth

    def plan(self, observation):
        self.observations.append(observation)
        return self.brain.plan(observation)


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory):
    endpoint = DeterministicEndpoint()
    patch = pytest.MonkeyPatch()
    patch.setenv("REACTHUMAN_MODELS_YAML", str(endpoint.models_yaml(tmp_path_factory.mktemp("models") / "models.yaml")))
    patch.setenv(KEY_ENV, "sk-test-not-a-secret-0000")
    yield endpoint
    patch.undo()
    endpoint.close()


@pytest.fixture(scope="module")
def scenes(tmp_path_factory) -> Path:
    from reacthuman.scenes.cli import main

    root = tmp_path_factory.mktemp("scenes")
    for family, seed in SCENES:
        spec = generate_spec(family, seed)
        (root / spec.scene_id).mkdir()
        (root / spec.scene_id / "spec.json").write_text(spec.to_json())
    assert main(["render", str(root), "--workers", "2"]) == 0
    return root


@pytest.fixture(scope="module")
def episodes(scenes, endpoint) -> dict:
    """scene id -> (the observation the in-process episode's brain got, its ledger row, its request body)."""
    from reacthuman.brain import make_brain
    from reacthuman.spine.spine import Spine, default_config as spine_config
    from reacthuman.evaluation.episode import run_episode
    from reacthuman.scenes.dataset import read_spec, scene_dirs
    from reacthuman.sim_bridge.body import Body, graph_config

    body, out = Body(graph_config(engine="genesis")), {}
    try:
        for d in scene_dirs(str(scenes)):
            spec = read_spec(str(Path(d) / "spec.json"))
            brain = RecordingBrain(make_brain(MODEL))
            record = run_episode(spec, brain, body, Spine(spine_config())).record.to_dict()
            out[spec.scene_id] = (brain.observations[0], record, endpoint.bodies[-1])
    finally:
        body.close()
    return out


@pytest.fixture(scope="module")
def decided(scenes, endpoint, episodes, tmp_path_factory) -> tuple[list[dict], list[dict]]:
    from reacthuman.evaluation.decide import main

    run, before = tmp_path_factory.mktemp("run") / "run", len(endpoint.bodies)
    assert main(["--scenes", str(scenes), "--models", MODEL, "--out", str(run), "--concurrency", "2"]) == 0
    rows = [json.loads(line) for line in (run / "ledger.jsonl").read_text().splitlines()]
    return rows, endpoint.bodies[before:]


def test_the_set_holds_the_observation_the_episode_s_brain_was_handed_to_the_bit(scenes, episodes):
    from reacthuman.evaluation.observation_set import load_window, window_path
    from reacthuman.scenes.dataset import read_spec

    actions = set()
    for scene_id, (handed, _, _) in episodes.items():
        spec = read_spec(str(scenes / scene_id / "spec.json"))
        actions.add(spec.ground_truth.correct_action)
        shown = load_window(window_path(scenes, scene_id)).observation(spec)
        assert shown.frame_times_s == handed.frame_times_s
        assert len(shown.frame_times_s) == 5
        assert list(shown.images) == list(handed.images) == ["egocentric", "closeup", "overhead"]  # the prompt's order
        for view, frames in handed.images.items():
            assert all(f.shape == (360, 640, 3) for f in frames)
            assert all(np.array_equal(a, b) for a, b in zip(shown.images[view], frames, strict=True)), view
        assert shown.track == handed.track
        assert len(shown.track) == 5
        assert (shown.object_look, shown.room, shown.observer_pose) == (
            handed.object_look,
            handed.room,
            handed.observer_pose,
        )
        assert shown.ground_truth == handed.ground_truth
    assert actions == {"CATCH", "DODGE"}


def test_decide_sends_the_same_requests_and_writes_the_episode_s_row_unexecuted(episodes, decided):
    rows, bodies = decided
    assert sorted(r["scene_id"] for r in rows) == sorted(episodes)
    assert {r["model"] for r in rows} == {MODEL}
    for row in rows:
        _, episode_row, episode_body = episodes[row["scene_id"]]
        assert episode_body in bodies  # the same prompt and the same image bytes
        images = [
            p
            for m in episode_body["messages"]
            if isinstance(m["content"], list)
            for p in m["content"]
            if p["type"] == "image_url"
        ]
        assert len(images) == 15
        assert row["modality"] == "images"
        assert row["executed"] is False
        assert all(row[c] is None for c in EXECUTION_FIELDS if c in row)
        assert episode_row["caught"] is not None
        assert "executed" not in episode_row
        scoring = set(episode_row) - set(EXECUTION_FIELDS) - {"latency_s"}
        differ = {k: (row.get(k), episode_row[k]) for k in scoring if row.get(k) != episode_row[k]}
        assert not differ, differ
        assert row["saa"] is not None
        assert row["plan_parse_ok"] is True


def test_decide_resumes_without_asking_again_and_refuses_a_set_of_other_settings(
    scenes, endpoint, decided, tmp_path, capsys
):
    from reacthuman.evaluation.observation_set import SETTINGS, folder_of
    from reacthuman.evaluation.decide import main

    before = len(endpoint.bodies)
    run = tmp_path / "run"
    assert main(["--scenes", str(scenes), "--models", "always_dodge", "--out", str(run), "--limit", "1"]) == 0
    assert main(["--scenes", str(scenes), "--models", "always_dodge", "--out", str(run), "--limit", "1"]) == 0
    assert len((run / "ledger.jsonl").read_text().splitlines()) == 1
    assert len(endpoint.bodies) == before
    capsys.readouterr()
    other = tmp_path / "other"
    other.mkdir()
    for d in scenes.iterdir():
        if (d / "spec.json").is_file():
            (other / d.name).mkdir()
            (other / d.name / "spec.json").write_text((d / "spec.json").read_text())
    folder_of(other).mkdir()
    settings = json.loads((folder_of(scenes) / SETTINGS).read_text())
    (folder_of(other) / SETTINGS).write_text(json.dumps(settings | {"frame_width_px": 320}))
    assert main(["--scenes", str(other), "--models", "always_dodge", "--out", str(tmp_path / "r2")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, err
    assert "frame_width_px 320 (set) vs 640 (evaluation)" in err, err


@pytest.fixture(scope="module")
def exported(scenes, tmp_path_factory) -> Path:
    from reacthuman.evaluation.dataset_export import main

    out = tmp_path_factory.mktemp("dataset") / "ds"
    assert main(["export", str(scenes), "--out", str(out)]) == 0
    return out


def test_the_exported_dataset_loads_with_datasets_and_is_a_pure_function_of_the_scene_set(scenes, exported, tmp_path):
    import yaml
    from datasets import load_dataset

    from reacthuman.evaluation.dataset_export import main
    from reacthuman.evaluation.observation_set import load_window, window_path
    from reacthuman.evaluation.scene_set import load_scene_set

    loaded = load_dataset(str(exported))
    assert list(loaded) == ["test"]
    assert loaded["test"].num_rows == 2  # under 18 per family: all in test
    row = next(r for r in loaded["test"] if r["scene_id"].startswith("object_drop"))
    window = load_window(window_path(scenes, row["scene_id"]))
    for view in ("egocentric", "closeup", "overhead"):
        assert [np.asarray(im.convert("RGB")).tobytes() for im in row[view]] == [
            f.tobytes() for f in window.images[view]
        ]
        assert (exported / "videos" / row["scene_id"] / f"{view}.mp4").stat().st_size > 1000
    assert row["correct_action"] == "DODGE"
    assert row["state_text"].startswith("You stand in the")
    text = (exported / "README.md").read_text()
    front = yaml.safe_load(text.split("---")[1])
    assert front["license"] == "cc-by-4.0"
    assert front["task_categories"]
    assert front["configs"][0]["data_files"] == [{"split": "test", "path": "data/test-*.parquet"}]
    assert {f["name"] for f in front["dataset_info"]["features"]} >= {"scene_id", "egocentric", "correct_action"}
    assert load_scene_set(scenes)[1] in text
    assert "## Attribution" in text
    again = tmp_path / "again"
    assert main(["export", str(scenes), "--out", str(again)]) == 0
    for name in ("README.md", "data/test-00000-of-00001.parquet"):
        assert (again / name).read_bytes() == (exported / name).read_bytes(), name


def test_decide_on_the_dataset_in_a_light_environment_gives_the_scene_folder_s_rows(
    exported, endpoint, decided, tmp_path
):
    """A fresh virtual environment with the client requirements alone (no Genesis, MuJoCo or ROS 2)."""
    root = Path(__file__).resolve().parents[1]
    venv = tmp_path / "venv"
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # the documented light install: the project editable with its `client` extra (docs/observation-sets.md)
    subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "-c",
            str(root / "requirements.lock"),
            "-e",
            f"{root}[client]",
        ],
        check=True,
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    absent = subprocess.run(
        [
            python,
            "-c",
            "import importlib.util as u; print([m for m in ('genesis', 'mujoco', 'rclpy', 'torch') if u.find_spec(m)])",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert absent.stdout.strip() == "[]"
    before, run = len(endpoint.bodies), tmp_path / "run"
    proc = subprocess.run(
        [python, "-m", "reacthuman.cli", "decide", "--dataset", str(exported), "--models", MODEL, "--out", str(run)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = {r["scene_id"]: r for r in map(json.loads, (run / "ledger.jsonl").read_text().splitlines())}
    scene_rows, scene_bodies = decided
    for row in scene_rows:
        light = rows[row["scene_id"]]
        assert {k: v for k, v in light.items() if k != "latency_s"} == {
            k: v for k, v in row.items() if k != "latency_s"
        }
    assert sorted(map(json.dumps, endpoint.bodies[before:])) == sorted(map(json.dumps, scene_bodies))


def test_a_vision_model_refusing_images_mid_run_is_stopped_in_one_line_and_the_others_go_on(scenes, tmp_path, capsys):
    from reacthuman.evaluation.decide import main

    server, run = FixedReplyEndpoint(REPLY, model="flaky", refuse_images_after=1), tmp_path / "run"
    model = f"openai-compatible:flaky@{server.base_url}"
    try:
        code = main(["--scenes", str(scenes), "--models", f"{model}?vision=true,always_dodge", "--out", str(run)])
    finally:
        server.close()
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 2 and last.startswith(f"reacthuman decide: model '{model}' refuses image input (HTTP 400"), last
    assert "--modality state_text" in last and "is not a multimodal model" in last
    rows = [json.loads(line) for line in (run / "ledger.jsonl").read_text().splitlines()]
    assert len(server.bodies) == 2  # stopped at the refusal: no retry, no request for a further scene
    assert [r["model"] for r in rows].count(model) == 1 and not any(r.get("api_error") for r in rows)
    assert [r["model"] for r in rows].count("always_dodge") == len(SCENES)
