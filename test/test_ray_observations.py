"""The two-step protocol on a real Ray cluster on this machine (Genesis, real rclpy graphs on the Ray workers, a
real loopback HTTP model), on a Dodge and a Catch scene:

- `scenes render --executor ray` writes the same observation set as a local render, file for file and byte for
  byte, resumes where it stopped and shows the local progress line;
- `eval --plans RUN --executor ray` executes a decide run's plans on the workers' graphs (the plan travels with
  its task; the model is not asked again), appending rows equal to the decide rows in every scoring field, and
  names the pair whose decision was lost to an API error instead of skipping it silently;
- a `?vision=true` model whose server refuses images stops in one line on Ray as it does locally: no retry, no
  infrastructure failure, no row."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reacthuman.evaluation import cli as eval_cli
from reacthuman.evaluation.observation_set import folder_of
from reacthuman.evaluation.render_workers import render_set
from reacthuman.reporting.report_cli import main as report_main
from reacthuman.llm.loopback import EndpointReply, FixedReplyEndpoint, LoopbackEndpoint, chat_completion, error_body
from reacthuman.scenes import cli as scenes_cli
from reacthuman.scenes import generate_spec
from reacthuman.scoring.ledger import EXECUTION_FIELDS
from ray_helpers import local_cluster

SCENES = (("object_drop", 3), ("ceiling_drop", 0))  # a Dodge scene and a Catch scene (as test_eval_graph)
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
DOMAIN_BASE = str(30 + os.getpid() % 90)


@pytest.fixture(scope="module")
def cluster():
    with local_cluster(head_cpus=2, worker_nodes=0) as (c, _):
        yield c


@pytest.fixture(scope="module")
def specs() -> list:
    return [generate_spec(family, seed) for family, seed in SCENES]


def _write_scenes(root: Path, specs: list) -> Path:
    root.mkdir(parents=True)
    for spec in specs:
        (root / spec.scene_id).mkdir()
        (root / spec.scene_id / "spec.json").write_text(spec.to_json())
    return root


def _rows(run: Path) -> list[dict]:
    path = run / "ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


@pytest.fixture(scope="module")
def rendered(cluster, specs, tmp_path_factory) -> tuple[Path, Path, list[str]]:
    """(scenes to render on Ray, the same scenes rendered locally, the `scenes render` arguments for Ray)."""
    root = tmp_path_factory.mktemp("render")
    on_ray, local = _write_scenes(root / "ray", specs), _write_scenes(root / "local", specs)
    # renewed after every window: a renewed render process writes the same bytes as Ray's workers, which are not
    render_set(local, sorted(p.name for p in local.iterdir() if p.is_dir()), workers=1, renew_rss_mb=0.0)
    args = ["render", str(on_ray), "--executor", "ray", "--workers", "2", "--ray-address", cluster.address]
    return on_ray, local, args


def test_a_set_rendered_on_ray_is_the_local_set_byte_for_byte_and_resumes(rendered, capfd):
    on_ray, local, args = rendered
    assert scenes_cli.main(args) == 0
    out = capfd.readouterr()
    assert "rendered 2/2 (" in out.err and "ETA" in out.err, out.err
    assert "2 scenes (2 rendered now)" in out.out, out.out
    files = sorted(p.name for p in folder_of(local).iterdir())
    assert files == sorted(p.name for p in folder_of(on_ray).iterdir()) and len(files) == 3  # set.json + 2 windows
    for name in files:
        assert (folder_of(on_ray) / name).read_bytes() == (folder_of(local) / name).read_bytes(), name
    first = sorted(p for p in folder_of(on_ray).glob("*.npz"))[0]
    kept = first.read_bytes()
    first.unlink()  # an interrupted render: one window missing
    assert scenes_cli.main(args) == 0
    out = capfd.readouterr()
    assert "rendered 1/1 (" + first.stem + ")" in out.err and "2 scenes (1 rendered now)" in out.out, out
    assert first.read_bytes() == kept
    assert scenes_cli.main(args) == 0 and "2 scenes (0 rendered now)" in capfd.readouterr().out


def _one_api_error_endpoint() -> LoopbackEndpoint:
    """Answers every chat request with REPLY, except the second, which it refuses (HTTP 400, not retried)."""
    reply = EndpointReply(body=chat_completion(REPLY, model="fixed", prompt_tokens=100, completion_tokens=20))
    bad = EndpointReply(400, error_body("the prompt is too long for this deployment", 400))
    endpoint = LoopbackEndpoint(lambda request: bad if len(endpoint.requests) == 2 else reply)
    return endpoint


def test_eval_plans_on_ray_executes_the_stored_plans_and_names_the_pair_without_one(cluster, rendered, tmp_path, capfd):
    """A decide run on the Ray-rendered set with one decision lost to an API error, executed with
    `eval --plans --executor ray`."""
    from reacthuman.evaluation.decide import main as decide

    scenes = rendered[0]
    if len(list(folder_of(scenes).glob("*.npz"))) < len(SCENES):
        render_set(scenes, sorted(p.name for p in scenes.iterdir() if p.is_dir() and p.name != "observations"))
    endpoint, run = _one_api_error_endpoint(), tmp_path / "run"
    try:
        model = f"openai-compatible:fixed@{endpoint.base_url}?vision=true"
        decide(["--scenes", str(scenes), "--models", model, "--out", str(run)])
        decided, before = _rows(run), len(endpoint.requests)
        capfd.readouterr()
        args = ["--plans", str(run), "--executor", "ray", "--workers", "1", "--ray-address", cluster.address]
        status = eval_cli.main([*args, "--domain-base", DOMAIN_BASE])
        asked = len(endpoint.requests) - before
    finally:
        endpoint.close()
    out = capfd.readouterr()
    lost = [r for r in decided if r.get("api_error")]
    planned = [r for r in decided if not r.get("api_error")]
    assert len(lost) == len(planned) == 1, decided
    assert status == 0 and asked == 0, (status, asked)
    line = f"1 pair(s) had no plan (API errors): {lost[0]['scene_id']} x {lost[0]['model']}"
    assert "1/1 executed plans" in out.out and line in out.out, out.out  # the end summary
    assert line in out.err, out.err  # the progress line
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["counts"]["no_plan_api_errors"] == 1 and manifest["executor"]["name"] == "ray"
    rows = _rows(run)
    assert rows[: len(decided)] == decided  # append-only
    executed = rows[len(decided) :]
    assert len(executed) == 1 and executed[0]["executed"] is True and executed[0]["caught"] is not None
    row = planned[0]
    scoring = set(row) - set(EXECUTION_FIELDS) - {"executed"}
    differ = {k: (row[k], executed[0].get(k)) for k in scoring if executed[0].get(k) != row[k]}
    assert not differ, differ
    assert (run / "episodes").is_dir() and any((run / "episodes").rglob("score.json"))
    assert report_main([str(run), "--out", str(run / "report")]) == 0
    assert "1 pair(s) had no plan (API errors) and were not executed." in (run / "report" / "report.md").read_text()


def test_a_model_refusing_images_on_ray_stops_in_one_line_without_retries(cluster, rendered, tmp_path, capfd):
    scenes = rendered[0]
    server, out = FixedReplyEndpoint(REPLY, model="flaky", refuse_images_after=0), tmp_path / "run"
    model = f"openai-compatible:flaky@{server.base_url}"
    try:
        args = ["--scenes", str(scenes), "--models", f"{model}?vision=true", "--out", str(out)]
        ray = ["--executor", "ray", "--workers", "1", "--ray-address", cluster.address, "--domain-base", DOMAIN_BASE]
        status = eval_cli.main([*args, *ray])
    finally:
        server.close()
    text = capfd.readouterr()
    # the eval's own lines (a Ray worker's log lines may come to the driver's stderr too)
    last = [line for line in text.err.splitlines() if line.startswith("reacthuman eval:")][-1]
    assert status == 2 and last.startswith(f"reacthuman eval: model '{model}' refuses image input (HTTP 400"), (
        text.out[-2000:] + text.err[-3000:]
    )
    assert "--modality state_text" in last and "0/2 decisions" in text.out and "refused images" in text.out
    assert "retrying" not in text.err and "giving up" not in text.err, text.err[-3000:]
    assert len(server.bodies) == 1 and not _rows(out)  # the refused call: no row, no retry, no second scene
    failures = out / "failures.jsonl"
    assert not failures.exists() or not failures.read_text().strip(), failures.read_text()
