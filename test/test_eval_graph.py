"""Evaluation runs end to end through the launched graph (real rclpy, FastDDS, Genesis, rosbag2):
ledger rows, manifest, bags and episode folders; kill-and-resume losing and duplicating nothing; rescore
reproducing the ledger from complete bags; a bag played back into a live scorer giving the same score.

Reliability: the eval's whole process group is SIGKILLed mid-run (no node may outlive it, the run lock
refuses a second eval meanwhile) and resumed with the body restarted alone between episodes (every check
below holds for the episodes after a restart), and the third model is a hostile OpenAI-compatible endpoint (a stub, in
this test process) that answers with broken replies and injects HTTP 429, 500 and dropped connections;
its API key must appear in no file of the run folder."""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reacthuman_msgs.msg import EpisodeScore

from reacthuman import ros_contract as graph
from reacthuman.evaluation.run_lock import run_processes
from reacthuman.core.bag import BagWriter, bag_info, deserialize, read_bag
from reacthuman.llm.loopback import EndpointReply, EndpointRequest, LoopbackEndpoint, chat_completion, error_body
from reacthuman.recording.images import observation_frames_in_bag
from reacthuman.recording.ros_msgs import stamp_ns
from reacthuman.scenes import generate_spec
from ros_helpers import GraphClient

STUB_MODEL = "stub_endpoint"
MODELS = ("oracle", "always_dodge", STUB_MODEL)
# A Dodge scene and a Catch scene. ceiling_drop 1-6: the hazard shows in the close-up alone at the freeze (the
# generator refuses them); 8 and 10: always_dodge's step away from the panel's tracked centre walks toward
# the truth's impact point, which the paper's rule classifies as a catch.
SCENES = (("object_drop", 3), ("ceiling_drop", 0))
STUB_KEY_ENV = "REACTHUMAN_TEST_STUB_KEY"
STUB_KEY = "sk-stub-" + secrets.token_hex(16)
# Each reply is preceded by three failed requests (429, 500, a dropped connection): the client retries
# through them and then gets a broken reply.
BROKEN_REPLIES = (
    '{"object_identified": "pan", "intent": "catch", "confidence": 0.9, "walking_cmd": [0.1, 0',
    "I would step back and raise both arms to be safe.",
    '{"confidence": NaN, "walking_cmd": [1e308, 1e308, 1e308], "keyframes": []}',
    "\x00\x01\ufffd\u202e binary \x7f",
    "[" * 10000,
    "",
)
FAILURES = ("429", "500", "drop")


def _reacthuman(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "reacthuman.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        **kw,
    )


class HostileEndpointStub(LoopbackEndpoint):
    """A stub OpenAI-compatible endpoint on loopback standing in for a paid API at its worst."""

    def __init__(self) -> None:
        self.kinds: list[str] = []  # what each request got: a failure name or "reply"
        super().__init__(self._respond)

    def _respond(self, request: EndpointRequest) -> EndpointReply:
        n = len(self.kinds)
        kind = FAILURES[n % 4] if n % 4 < len(FAILURES) else "reply"
        self.kinds.append(kind)
        if kind == "drop":
            return EndpointReply(drop=True)
        if kind != "reply":
            return EndpointReply(int(kind), error_body(f"injected {kind}"))
        return EndpointReply(
            body=chat_completion(
                BROKEN_REPLIES[(n // 4) % len(BROKEN_REPLIES)], model="stub", prompt_tokens=10, completion_tokens=5
            )
        )

    @property
    def keys_seen(self) -> set[str]:
        return {r.headers.get("authorization", "") for r in self.requests}

    def models_yaml(self, path: Path) -> Path:
        path.write_text(
            json.dumps(
                {
                    "defaults": {},
                    "presets": {
                        STUB_MODEL: {
                            "provider": "openai-compatible",
                            "model_id": "stub",
                            "base_url": self.base_url,
                            "api_key_env": STUB_KEY_ENV,
                            "key_required": True,
                            "vision": True,
                            "max_retries": 4,
                            "backoff_s": 0.05,
                            "backoff_max_s": 0.2,
                            "timeout_s": 20.0,
                        }
                    },
                }
            )
        )
        return path


def _ledger(run: Path) -> list[dict]:
    path = run / "ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


@pytest.fixture(scope="module")
def scenes(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("scenes")
    for family, seed in SCENES:
        spec = generate_spec(family, seed)
        (root / spec.scene_id).mkdir()
        (root / spec.scene_id / "spec.json").write_text(spec.to_json())
    return root


@pytest.fixture(scope="module")
def stub() -> HostileEndpointStub:
    stub = HostileEndpointStub()
    yield stub
    stub.close()


@pytest.fixture(scope="module")
def run(scenes, stub, tmp_path_factory) -> Path:
    """Started (models one after another), its whole process group SIGKILLed mid-run after the third decision
    (the second model's second episode is running), then resumed to completion with the models side by side."""
    out = tmp_path_factory.mktemp("run") / "run"
    domain = str(20 + os.getpid() % 100)
    env = dict(
        os.environ, REACTHUMAN_MODELS_YAML=str(stub.models_yaml(out.parent / "models.yaml")), **{STUB_KEY_ENV: STUB_KEY}
    )
    args = ("eval", "--scenes", str(scenes), "--models", ",".join(MODELS), "--out", str(out), "--domain-base", domain)
    first = _reacthuman(*args, env=env, start_new_session=True)
    deadline = time.monotonic() + 1200

    def wait_rows(n: int) -> None:
        while len(_ledger(out)) < n and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(_ledger(out)) >= n, first.communicate()[0] if first.poll() is not None else f"no {n} rows"

    wait_rows(1)
    # a second eval on the same run folder while the first runs; checked early, so that the kill below lands
    # within a poll of the third row, while the second model's second episode runs, however slow the machine
    beside = _reacthuman(*args, env=env)
    refused, _ = beside.communicate(timeout=120)
    assert beside.returncode == 2, refused
    assert f"in use by a running reacthuman eval (pid {first.pid})" in refused, refused
    assert run_processes(out), "the running graph carries no run tag"
    wait_rows(3)
    os.killpg(first.pid, signal.SIGKILL)  # the eval and its launcher, as `kill -9 -PGID` does
    first.wait()
    kept = _ledger(out)
    assert len(kept) == 3, f"the first session wrote {len(kept)} rows before the kill, the tests below need 3"
    deadline = time.monotonic() + 30  # nodes get SIGTERM from the kernel as their launcher dies
    while run_processes(out) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not run_processes(out), f"orphans of the killed run: {run_processes(out)}"
    # resumed with the two models left side by side, the body restarted before every episode after a graph's
    # first (Genesis cannot free a scene): once here, before the last model's second episode
    # always_dodge may have 2 graphs, and gets one: it has one scene left
    second = _reacthuman(
        *args, "--restart-every", "1", "--models-side-by-side", "--workers", "1,always_dodge=2", env=env
    )
    output, _ = second.communicate(timeout=1800)
    assert second.returncode == 0, output
    assert "resuming" in output
    (out.parent / "resumed_output.txt").write_text(output)
    rows = _ledger(out)
    assert rows[: len(kept)] == kept  # nothing rewritten or lost
    assert not run_processes(out)
    return out


def test_a_graph_that_fails_to_start_is_reported_not_raised(scenes, tmp_path):
    out = tmp_path / "run"
    proc = _reacthuman(
        "eval",
        "--scenes",
        str(scenes),
        "--models",
        "oracle",
        "--out",
        str(out),
        "--startup-timeout",
        "0.5",
        "--domain-base",
        str(os.getpid() % 100),
    )
    text, _ = proc.communicate(timeout=300)
    assert proc.returncode == 1, text
    assert "Traceback" not in text, text
    assert "NameError" not in text, text
    assert "graph for oracle (domain " in text, text
    assert "did not come up within 0 s" in text, text
    assert f"0/{len(SCENES)} decisions" in text, text
    assert "(incomplete)" in text, text
    assert not run_processes(out)


def test_the_body_alone_is_restarted_between_episodes_and_ignores_the_previous_scene(run):
    """The resumed eval restarts the body before a graph's second episode: the launcher respawns it, the new
    body drops the latched announcement of the episode before it if that reaches it, and the rest of the
    graph stays (every episode after the restart is checked by the tests below)."""
    output = (run.parent / "resumed_output.txt").read_text()
    restarts = output.count("restarting body of ")
    assert restarts >= 1, output
    assert "starting a fresh graph" not in output, output
    logs = "".join(p.read_text() for p in (run / "logs").glob("*.log"))
    assert logs.count("'body' stopped (status 0); respawning it") == restarts
    # the previous scene reaches the new body only when its reader matches before the next announcement
    assert logs.count("announced before this body started (a respawned body)") <= restarts
    samples = [json.loads(line) for line in (run / "logs" / "memory.jsonl").read_text().splitlines()]
    assert sum(1 for s in samples if s["graph_episode"] == 1) >= len(MODELS) + restarts  # counted from each restart


def test_every_pair_is_decided_exactly_once_with_the_ledger_fields(run, scenes):
    rows = _ledger(run)
    pairs = [(r["scene_id"], r["model"]) for r in rows]
    expected = {(d.name, m) for d in scenes.iterdir() for m in MODELS}
    assert sorted(pairs) == sorted(expected)
    for r in rows:
        for field in (
            "family",
            "speed_band",
            "speed_group",
            "adversarial",
            "action",
            "correct_action",
            "saa",
            "safe",
            "rule",
            "d_end",
            "aia",
            "d_min",
            "closing",
            "caught",
            "struck",
            "fell",
            "latency_s",
            "api_error",
        ):
            assert field in r, field
        assert r["saa"] == int(r["action"] == r["correct_action"])
    oracle = [r for r in rows if r["model"] == "oracle"]
    assert all(r["saa"] == 1 and r["safe"] == 1 for r in oracle), oracle
    dodge = [r for r in rows if r["model"] == "always_dodge"]
    assert all(r["action"] == "DODGE" for r in dodge), dodge
    assert {r["modality"] for r in oracle} == {"ground_truth"}  # every row says what its brain was shown


def test_a_hostile_endpoint_gives_a_scored_decision_per_scene_and_leaks_no_key(run, stub):
    assert {"429", "500", "drop"} <= set(stub.kinds), stub.kinds
    assert stub.keys_seen == {f"Bearer {STUB_KEY}"}
    rows = [r for r in _ledger(run) if r["model"] == STUB_MODEL]
    assert len(rows) == len(SCENES)
    for r in rows:
        assert not r["api_error"], r
        assert r["rule"] == "R1", r
        assert not r["safe"], r
    leaked = [p for p in run.rglob("*") if p.is_file() and STUB_KEY.encode() in p.read_bytes()]
    assert leaked == []
    assert not (run / "failures.jsonl").exists()


def test_manifest_records_versions_hashes_and_counts(run):
    m = json.loads((run / "manifest.json").read_text())
    assert m["status"] == "complete"
    assert m["ended"]
    assert m["counts"]["decisions"] == len(SCENES) * len(MODELS)
    assert m["packages"]["genesis-world"]
    assert m["packages"]["ros-rclpy"]
    assert len(m["scene_set_sha256"]) == 64
    assert len(m["config_sha256"]) == 64
    assert sorted(m["models"]) == sorted(MODELS)
    assert len(m["sessions"]) == 2  # killed once, resumed once


def test_each_episode_has_a_complete_folder_and_a_standard_bag(run):
    folders = sorted((run / "episodes").glob("*/*"))
    assert len(folders) == len(SCENES) * len(MODELS)
    assert not list((run / "episodes").rglob("*.partial"))
    for folder in folders:
        for name in ("spec.json", "plan.json", "raw_reply.txt", "outcome.json", "score.json"):
            assert (folder / name).is_file(), folder / name
        # the frames once: in the bag's observation (this run keeps every bag), not again as PNGs
        assert not list(folder.glob("brain_view_*.png"))
        assert len(observation_frames_in_bag(folder / "bag")["egocentric"]) >= 3
        info = bag_info(folder / "bag")
        assert (folder / "bag" / "metadata.yaml").is_file()
        assert list((folder / "bag").glob("*.mcap"))
        assert sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) < 2_000_000  # paper-scale storage
        for topic in (
            graph.SCENE,
            graph.OBSERVATION,
            graph.PLAN,
            graph.OUTCOME,
            graph.SCORE,
            graph.CLOCK,
            graph.JOINT_COMMAND,
            graph.JOINT_STATES,
        ):
            assert info["topics"].get(topic, {}).get("count", 0) >= 1, (folder, topic)


def test_rescore_reproduces_the_ledger_from_the_bags(run):
    out = _reacthuman("rescore", str(run))
    text, _ = out.communicate(timeout=300)
    assert out.returncode == 0, text
    assert f"{len(SCENES) * len(MODELS)} identical, 0 different" in text


def test_rescore_refuses_a_bag_that_lost_its_last_tick(run, tmp_path):
    """The bag the issue found: the same episode without its plan and its last joint state."""
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    row = _ledger(copy)[0]
    bag = copy / "episodes" / row["model"] / row["scene_id"] / "bag"
    messages = list(read_bag(bag))
    # by the tick's own stamp: two ticks taken while the clock stood still share a log stamp
    ticks = [i for i, m in enumerate(messages) if m.topic == graph.JOINT_STATES]
    last = max(ticks, key=lambda i: stamp_ns(deserialize(messages[i]).header))
    shutil.rmtree(bag)
    writer = BagWriter(bag)
    for i, m in enumerate(messages):
        if m.topic != graph.PLAN and i != last:
            writer.write(m.topic, m.msgtype, m.stamp_ns, m.raw)
    writer.close()
    out = _reacthuman("rescore", str(copy))
    text, _ = out.communicate(timeout=300)
    assert out.returncode == 1, text
    assert f"DIFFERS {row['scene_id']} x {row['model']}: " in text, text
    assert "incomplete" in text, text
    assert graph.PLAN in text, text
    assert f"{graph.JOINT_STATES} (1 of" in text, text


def test_a_bag_played_into_a_live_scorer_gives_the_same_score(run, ros_domain_id):
    row = _ledger(run)[0]
    bag = run / "episodes" / row["model"] / row["scene_id"] / "bag"
    env = dict(os.environ, ROS_DOMAIN_ID=str(ros_domain_id), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    scorer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from reacthuman.nodes.scorer_node import main; main()",
            "--ros-args",
            "-p",
            f"model:={row['model']}",
        ],
        env=env,
    )
    client = GraphClient(ros_domain_id, "replay_test")
    scores: list[EpisodeScore] = []
    try:
        client.node.create_subscription(EpisodeScore, graph.SCORE, scores.append, 10)
        assert client.wait_for(lambda: client.node.count_publishers(graph.SCORE) > 0, 60)
        player = _reacthuman(
            "bag",
            "play",
            str(bag),
            "--rate",
            "0",
            "--domain-id",
            str(ros_domain_id),
            "--topics",
            graph.SCENE,
            graph.FREEZE_STATE,
            graph.PLAN,
            graph.OUTCOME,
        )
        assert client.wait_for(lambda: bool(scores), 120), player.communicate()[0]
        player.wait(timeout=60)
    finally:
        client.close()
        scorer.terminate()
        scorer.wait(timeout=30)
    assert json.loads(scores[0].record_json) == row


def test_graph_rows_say_whether_the_body_could_do_the_correct_action_as_in_process_rows_do(run, scenes):
    from reacthuman.scenes.envelope import scene_feasibility
    from reacthuman.scenes.spec import SceneSpec

    for r in _ledger(run):
        spec = SceneSpec.from_json((scenes / r["scene_id"] / "spec.json").read_text())
        assert r["physically_unreachable"] is (not scene_feasibility(spec).reachable), r
        assert isinstance(r["deflected"], bool), r
        assert not (r["deflected"] and r["caught"]), r


def test_graph_rows_equal_in_process_episodes_to_the_bit_for_the_deterministic_brains(run, scenes):
    """The same episode run with direct calls (evaluation.episode.run_episode, at the body node's defaults) gives
    the graph's ledger row in every field but the brain's latency: one engine, two transports."""
    from reacthuman.brain import make_brain
    from reacthuman.spine.spine import Spine, default_config as spine_config
    from reacthuman.evaluation.episode import run_episode
    from reacthuman.scenes.spec import SceneSpec
    from reacthuman.sim_bridge.body import Body, graph_config

    rows = [r for r in _ledger(run) if r["model"] in ("oracle", "always_dodge")]
    assert len(rows) == 2 * len(SCENES)
    body = Body(graph_config(engine="genesis"))
    try:
        for row in rows:
            spec = SceneSpec.from_json((scenes / row["scene_id"] / "spec.json").read_text())
            record = run_episode(spec, make_brain(row["model"]), body, Spine(spine_config())).record.to_dict()
            differ = [
                k
                for k in sorted(set(row) | set(record))
                if k != "latency_s"
                and json.dumps(row.get(k), sort_keys=True) != json.dumps(record.get(k), sort_keys=True)
            ]
            assert not differ, {k: (row.get(k), record.get(k)) for k in differ}
    finally:
        body.close()


def _stamps(log: Path, pattern: str) -> list[float]:
    """Wall times (ROS log stamps) of a graph's log lines that match `pattern`."""
    found = (re.match(rf"\[\w+\] \[INFO\] \[([0-9.]+)\] .*{pattern}", line) for line in log.read_text().splitlines())
    return [float(m.group(1)) for m in found if m]


def test_the_models_left_ran_side_by_side_and_a_finished_model_got_no_graph(run):
    """The resumed eval ran always_dodge's last episode and the stub's two in two graphs up at once; their rows
    equal the in-process episodes' like the rows of the graphs run one after another (the test above)."""
    logs = run / "logs"
    assert len(_stamps(logs / "oracle.log", "brain 'oracle' ready")) == 1  # its graph of the first session only
    assert len(_stamps(logs / "always_dodge.log", "brain 'always_dodge' ready")) == 2  # one graph per session
    ready = {m: _stamps(logs / f"{m}.log", f"brain '{m}' ready")[-1] for m in ("always_dodge", STUB_MODEL)}
    samples = [json.loads(line) for line in (logs / "memory.jsonl").read_text().splitlines()]
    last_episode_end = {m: max(s["time"] for s in samples if s["model"] == m) for m in ready}
    assert ready[STUB_MODEL] < last_episode_end["always_dodge"], (ready, last_episode_end)
    assert ready["always_dodge"] < last_episode_end[STUB_MODEL], (ready, last_episode_end)
    manifest = json.loads((run / "manifest.json").read_text())
    assert [session["executor"]["models"] for session in manifest["sessions"]] == ["one after another", "side by side"]
    assert manifest["executor"]["models"] == "side by side"
    assert [session["executor"].get("workers_per_model") for session in manifest["sessions"]] == [
        None,
        {"always_dodge": 2},
    ]


def _bags(run: Path) -> list[Path]:
    return sorted((run / "episodes").glob("*/*/bag"))


def test_bags_carry_what_a_3d_viewer_needs_and_every_frame_resolves(run):
    """/tf, /tf_static, /robot_description and the scene markers; each marker, image and camera-info frame is
    placed in `world` by the TF tree at the time it was recorded, and so is every G1 link once it stands."""
    from reacthuman.core.bag import deserialize, read_bag
    from reacthuman.recording.tf_check import TfIndex
    from reacthuman.recording.urdf import g1_joints
    from reacthuman.recording.viewer_topics import ROBOT_DESCRIPTION, SCENE_MARKERS, TF, TF_STATIC

    links = {j.child for j in g1_joints()} | {j.parent for j in g1_joints()}
    for bag in _bags(run):
        messages = list(read_bag(bag))
        counts = {
            t: sum(1 for m in messages if m.topic == t)
            for t in (TF, TF_STATIC, ROBOT_DESCRIPTION, SCENE_MARKERS, graph.JOINT_STATES, graph.HAZARD_STATE)
        }
        assert counts[TF_STATIC] == counts[ROBOT_DESCRIPTION] == counts[SCENE_MARKERS] == 1, (bag, counts)
        # one robot /tf per control tick, one per hazard state, and the hazards' spec pose at the announcement
        assert counts[TF] == counts[graph.JOINT_STATES] + counts[graph.HAZARD_STATE] + 1, (bag, counts)
        index = TfIndex.from_messages(messages)
        used = []
        for m in messages:
            if m.topic == SCENE_MARKERS:
                used += [(mk.header.frame_id, m.stamp_ns) for mk in deserialize(m).markers]
            elif m.topic.startswith("/camera/"):
                used.append((deserialize(m).header.frame_id, m.stamp_ns))
            elif m.topic == graph.OBSERVATION:  # the images the brain got, whichever camera topics the bag holds
                for view in deserialize(m).views:
                    used += [(f.header.frame_id, m.stamp_ns) for f in view.frames]
                    used.append((view.camera_info.header.frame_id, m.stamp_ns))
            elif m.topic == graph.SCENE:
                hazards = {f"scene/{h}" for h in json.loads(deserialize(m).spec_json)["hazard_bodies"]}
        assert {f for f, _ in used} >= set(graph.VIEWS) | hazards, bag
        unresolved = sorted({f for f, t in used if not index.resolves(f, t)})
        assert not unresolved, (bag, unresolved)
        first_state = min(m.stamp_ns for m in messages if m.topic == graph.JOINT_STATES)
        end = max(m.stamp_ns for m in messages)
        for t_ns in (first_state, end):
            assert all(index.resolves(link, t_ns) for link in links), (bag, t_ns)


def test_the_standard_mcap_ros2_decoder_decodes_every_message_of_every_topic(run):
    from mcap.reader import make_reader
    from mcap_ros2.decoder import DecoderFactory

    for bag in _bags(run):
        (mcap_file,) = bag.glob("*.mcap")
        decoded_per_topic: dict[str, int] = {}
        with open(mcap_file, "rb") as f:
            for _, channel, _, msg in make_reader(f, decoder_factories=[DecoderFactory()]).iter_decoded_messages():
                assert msg is not None
                decoded_per_topic[channel.topic] = decoded_per_topic.get(channel.topic, 0) + 1
        info = bag_info(bag)
        assert decoded_per_topic == {t: v["count"] for t, v in info["topics"].items()}, bag


def test_the_report_shows_each_episode_in_headless_chromium(run, tmp_path):
    from browser_helpers import Browser

    from reacthuman.reporting.report import write_report

    files = write_report(run, tmp_path / "report")
    browser = Browser()
    try:
        browser.load(files.html)
        assert browser.errors() == []
        links = browser.evaluate(
            "Array.from(document.querySelectorAll('#episodes a')).map(a => a.getAttribute('href'))"
        )
        assert len(links) == len(SCENES) * len(MODELS)
        for link in links:
            browser.load(files.html.parent / link)
            assert browser.errors() == [], link
            widths = browser.evaluate("Array.from(document.querySelectorAll('img.frame')).map(i => i.naturalWidth)")
            assert len(widths) >= 3, (link, widths)
            assert all(w > 0 for w in widths), (link, widths)
            assert browser.evaluate("document.querySelector('img.overlay').naturalWidth") > 0, link
    finally:
        browser.close()


def test_tf_puts_the_g1_hands_where_the_simulator_measured_them(run):
    """Forward kinematics of the recorded /tf (URDF) against /g1/hand_positions (the body's palm sites in
    Genesis) at the same stamps: the viewer draws the robot where it physically was."""
    import mujoco

    from reacthuman.recording import ros_msgs, urdf
    from reacthuman.core.bag import deserialize, read_bag
    from reacthuman.spine.g1_assets import LEFT_HAND_SITE, RIGHT_HAND_SITE, g1_mjcf_path

    model = mujoco.MjModel.from_xml_path(str(g1_mjcf_path()))
    sites = {}
    for site in (LEFT_HAND_SITE, RIGHT_HAND_SITE):
        i = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SITE, site)
        body = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, model.site_bodyid[i])
        sites[site] = urdf.Transform(body, site, tuple(model.site_pos[i]), (0.0, 0.0, 0.0, 1.0))

    def transform(t) -> urdf.Transform:
        tr, q = t.transform.translation, t.transform.rotation
        return urdf.Transform(t.header.frame_id, t.child_frame_id, (tr.x, tr.y, tr.z), (q.x, q.y, q.z, q.w))

    for bag in _bags(run):
        messages = list(read_bag(bag))
        static = [transform(t) for m in messages if m.topic == "/tf_static" for t in deserialize(m).transforms]
        robot: dict[int, dict[str, urdf.Transform]] = {}
        for m in messages:
            if m.topic == "/tf":
                for t in deserialize(m).transforms:
                    robot.setdefault(ros_msgs.stamp_ns(t.header), {})[t.child_frame_id] = transform(t)
        compared = 0
        for m in messages:
            if m.topic != graph.HAND_POSITIONS:
                continue
            hands = deserialize(m)
            tick = robot.get(ros_msgs.stamp_ns(hands.header), {})
            if "pelvis" not in tick:
                continue
            poses = urdf.link_poses(tick["pelvis"], [t for t in tick.values() if t.parent != "world"] + static)
            for site, measured in ((LEFT_HAND_SITE, hands.left), (RIGHT_HAND_SITE, hands.right)):
                p = urdf.compose(poses[sites[site].parent], sites[site]).translation
                assert math.dist(p, (measured.x, measured.y, measured.z)) < 1e-4, (bag, site)
                compared += 1
        assert compared >= 20, (bag, compared)
