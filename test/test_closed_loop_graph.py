"""The closed loop through the launched graph (real rclpy, FastDDS, MuJoCo, rosbag2): `reacthuman eval --loop
closed` re-plans a rolling ball with the oracle and with a model on images (an OpenAI-compatible endpoint on
loopback whose reply is a function of its whole request, prompt text and every frame's bytes, so the re-plans'
observations must be the in-process loop's to the bit); each row equals the in-process `run_closed_episode`
in every field but the model's latency, with several decision points; the bag holds every decision (freeze state, observation, plan)
and the hazard's path, and `reacthuman rescore` recomputes every decision point from it equal to the ledger; an
open-loop run of the same graph code keeps the paper's row, equal to the in-process `run_episode`."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from rclpy.serialization import deserialize_message, serialize_message
from reacthuman_msgs.msg import ReactionPlan

from reacthuman import ros_contract as graph
from reacthuman.brain import make_brain
from reacthuman.core.bag import read_bag
from reacthuman.evaluation.cli import main as eval_main
from reacthuman.evaluation.closed_loop import run_closed_episode
from reacthuman.evaluation.episode import run_episode
from reacthuman.llm.loopback import EndpointReply, EndpointRequest, LoopbackEndpoint, chat_completion
from reacthuman.scenes import generate_spec
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim_bridge.body import Body, graph_config
from reacthuman.spine.spine import Spine
from reacthuman.spine.spine import default_config as spine_config

# A ball rolling toward the observer: still moving at the first re-plans (test_closed_loop.py's scene).
SCENE = ("rolling_ball", 0)
VISION_MODEL = "loopback_vision"
MODELS = ("oracle", VISION_MODEL)
KEY_ENV = "REACTHUMAN_TEST_LOOP_KEY"
REPLIES = (  # a catch, a step to the left, standing: chosen by the request's hash
    {
        "object_identified": "ball",
        "intent": "catch",
        "confidence": 0.8,
        "walking_cmd": [0.0, 0.0, 0.0],
        "walking_duration": 0.0,
        "catch_duration": 1.0,
        "keyframes": [{"t": 0.3, "left_hand": [0.2, 0.0, 0.1], "right_hand": [0.2, 0.0, 0.1], "knee_bend": 0.1}],
    },
    {
        "object_identified": "ball",
        "intent": "step away",
        "confidence": 0.7,
        "walking_cmd": [0.0, 0.4, 0.0],
        "walking_duration": 1.0,
        "catch_duration": 0.0,
        "keyframes": [],
    },
    {
        "object_identified": "ball",
        "intent": "stay",
        "confidence": 0.6,
        "walking_cmd": [0.0, 0.0, 0.0],
        "walking_duration": 0.0,
        "catch_duration": 0.0,
        "keyframes": [],
    },
)


class HashingEndpoint(LoopbackEndpoint):
    """Answers each chat request with the reply its messages' hash picks, and keeps (hash, frames, re-planning)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, bool]] = []
        super().__init__(self._respond)

    def _respond(self, request: EndpointRequest) -> EndpointReply:
        if not request.path.endswith("/chat/completions"):  # a probe of the server: not a decision
            return EndpointReply(body={"data": [{"id": "stub"}]})
        text = json.dumps(request.body.get("messages"), sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()
        self.seen.append((digest, len(request.image_urls), "RE-PLANNING" in text))
        return EndpointReply(body=chat_completion(json.dumps(REPLIES[int(digest, 16) % 3]), model="stub"))


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory):
    """The loopback model, named by a models file that this process and the eval's graph both read."""
    stub = HashingEndpoint()
    preset = {
        "provider": "openai-compatible",
        "model_id": "stub",
        "base_url": stub.base_url,
        "api_key_env": KEY_ENV,
        "key_required": True,
        "vision": True,
        "max_retries": 1,
        "timeout_s": 60.0,
    }
    path = tmp_path_factory.mktemp("models") / "models.yaml"
    path.write_text(json.dumps({"defaults": {}, "presets": {VISION_MODEL: preset}}))
    saved = {k: os.environ.get(k) for k in ("REACTHUMAN_MODELS_YAML", KEY_ENV)}
    os.environ.update({"REACTHUMAN_MODELS_YAML": str(path), KEY_ENV: "sk-loop-test"})
    yield stub
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    stub.close()


@pytest.fixture(scope="module")
def scenes(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("scenes")
    spec = generate_spec(*SCENE)
    (root / spec.scene_id).mkdir()
    (root / spec.scene_id / "spec.json").write_text(spec.to_json())
    return root


def _rescore(run: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "reacthuman.cli", "rescore", str(run)],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _eval(scenes: Path, out: Path, loop: str, models: tuple[str, ...], domain_offset: int) -> Path:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "reacthuman.cli",
            "eval",
            "--scenes",
            str(scenes),
            "--models",
            ",".join(models),
            "--engine",
            "mujoco",
            "--loop",
            loop,
            "--out",
            str(out),
            "--domain-base",
            str(domain_offset + os.getpid() % 90),
            "--retries",
            "1",
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


@pytest.fixture(scope="module")
def closed_run(scenes, endpoint, tmp_path_factory) -> Path:
    return _eval(scenes, tmp_path_factory.mktemp("closed") / "run", "closed", MODELS, 10)


@pytest.fixture(scope="module")
def open_run(scenes, tmp_path_factory) -> Path:
    return _eval(scenes, tmp_path_factory.mktemp("open") / "run", "open", MODELS[:1], 12)


def _rows(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "ledger.jsonl").read_text().splitlines() if line.strip()]


def _differ(a: dict, b: dict) -> dict:
    keys = sorted(set(a) | set(b))
    return {
        k: (a.get(k), b.get(k))
        for k in keys
        if json.dumps(a.get(k), sort_keys=True) != json.dumps(b.get(k), sort_keys=True)
    }


def test_graph_closed_loop_rows_equal_the_in_process_loop_with_several_decisions(closed_run, scenes, endpoint):
    rows = _rows(closed_run)
    assert sorted(r["model"] for r in rows) == sorted(MODELS)
    graph_requests = list(endpoint.seen)
    endpoint.seen.clear()
    body = Body(graph_config(engine="mujoco"))
    try:
        for row in rows:
            assert row["loop"] == "closed" and row["replans"] >= 1, row
            assert len(row["decisions"]) == row["replans"] + 1 >= 2
            spec = SceneSpec.from_json((scenes / row["scene_id"] / "spec.json").read_text())
            brain = make_brain(row["model"], modality="images")
            try:
                record = run_closed_episode(spec, brain, body, Spine(spine_config())).record.to_dict()
            finally:
                brain.close()
            # every field; the model's latency is wall time (the oracle reports none), which sim time never sees
            differ = _differ(row, record)
            assert not differ or (row["model"] == VISION_MODEL and set(differ) == {"latency_s"}), differ
    finally:
        body.close()
    # the model was asked the same things, frames included: every re-plan with its window's frames (3 views x 5)
    assert graph_requests == endpoint.seen, (graph_requests, endpoint.seen)
    assert len(graph_requests) >= 2 and all(frames == 15 for _, frames, _ in graph_requests)
    assert [replanning for _, _, replanning in graph_requests] == [False] + [True] * (len(graph_requests) - 1)


def test_the_bag_holds_every_decision_and_rescore_recomputes_them_equal_to_the_ledger(closed_run):
    for row in _rows(closed_run):
        bag = closed_run / "episodes" / row["model"] / row["scene_id"] / "bag"
        counts = Counter(m.topic for m in read_bag(bag))
        decisions = row["replans"] + 1
        for topic in (graph.OBSERVATION, graph.FREEZE_STATE, graph.PLAN):
            assert counts[topic] == decisions, (topic, counts[topic], decisions)
        assert counts[graph.HAZARD_PATH] == 1
    # a ledger row edited after the fact no longer equals what its bag recomputes
    done = _rescore(closed_run)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(MODELS)} identical, 0 different" in done.stdout, done.stdout
    ledger = closed_run / "ledger.jsonl"
    original = ledger.read_text()
    try:
        rows = _rows(closed_run)
        rows[0]["decision_saa"] = [1 - s for s in rows[0]["decision_saa"]]
        ledger.write_text("".join(json.dumps(r) + "\n" for r in rows))
        done = _rescore(closed_run)
        assert done.returncode == 1 and "decision_saa" in done.stdout, done.stdout
    finally:
        ledger.write_text(original)


def test_an_open_loop_run_keeps_the_papers_row_equal_to_the_in_process_episode(open_run, scenes):
    (row,) = _rows(open_run)
    assert "loop" not in row and "decisions" not in row
    counts = Counter(m.topic for m in read_bag(open_run / "episodes" / row["model"] / row["scene_id"] / "bag"))
    assert counts[graph.PLAN] == counts[graph.OBSERVATION] == 1 and counts[graph.HAZARD_PATH] == 0
    spec = SceneSpec.from_json((scenes / row["scene_id"] / "spec.json").read_text())
    body = Body(graph_config(engine="mujoco"))
    try:
        record = run_episode(spec, make_brain(row["model"]), body, Spine(spine_config())).record.to_dict()
    finally:
        body.close()
    assert not _differ(row, record), _differ(row, record)


@pytest.mark.parametrize(
    ("extra", "named"),
    [(("--models", "image_servo"), "policies (image_servo)"), (("--models", "oracle", "--executor", "ray"), "local")],
)
def test_closed_loop_runs_refused_in_one_line_name_why(extra, named, scenes, tmp_path, capsys):
    out = tmp_path / "run"
    assert eval_main(["--scenes", str(scenes), "--out", str(out), "--loop", "closed", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--loop closed" in err and named in err, err
    assert not out.exists()


def test_messages_recorded_before_their_appended_fields_are_made_whole():
    """Messages as bags recorded before the closed loop hold them (no trailing fields) decode, through rclpy
    (rescore, the bag player) and the bag type store (the viewer, the report): the appended fields at their
    defaults (decision 0), every other field as recorded."""
    from reacthuman.core.bag import BagMessage, deserialize, whole_raw
    from reacthuman_msgs.msg import FreezeState

    plan = ReactionPlan(scene_id="s", intent="catch", parse_ok=True, truncated=True, decision_index=0)
    short = serialize_message(plan)[:-4]  # the trailing uint32
    with pytest.raises(RuntimeError):
        deserialize_message(short, ReactionPlan)
    plan_type = "reacthuman_msgs/msg/ReactionPlan"
    for read in (
        deserialize_message(whole_raw(short, plan_type), ReactionPlan),
        deserialize(BagMessage("/reacthuman/plan", plan_type, 0, short)),
    ):
        assert (read.scene_id, read.intent, read.parse_ok, read.truncated, read.decision_index) == (
            "s",
            "catch",
            True,
            True,
            0,
        )
    freeze = FreezeState(scene_id="s")
    freeze.position.x = 1.5
    whole = serialize_message(freeze)
    short = whole[: -(4 + 8 + 24)]  # decision_index, t_s, robot_pose (with the alignment before t_s, if any)
    freeze_type = "reacthuman_msgs/msg/FreezeState"
    for read in (
        deserialize_message(whole_raw(short, freeze_type), FreezeState),
        deserialize(BagMessage("/reacthuman/freeze", freeze_type, 0, short)),
    ):
        assert (read.scene_id, read.position.x, read.decision_index, read.t_s) == ("s", 1.5, 0, 0.0)
    assert whole_raw(whole, freeze_type) == whole  # a whole message is left as it is
