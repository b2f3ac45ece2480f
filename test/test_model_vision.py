"""Faithful model naming: `?options` on a model entry, images unless the model is known to be text-only, a
server that refuses images stopping the run before any row, replies cut at the token limit counted.

The servers are real HTTP servers on loopback speaking the OpenAI chat API, answering deterministically in the
words real servers use (vLLM, Ollama, OpenAI, OpenRouter, llama.cpp): a paid API cannot run here, so each test
that stands in for one says `deterministic_endpoint` in its name."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from reacthuman.brain import Observation, TrackSample, make_brain
from reacthuman.core.model_spec import ModelSpecError, parse_models
from reacthuman.evaluation import cli as eval_cli
from reacthuman.evaluation.progress import Progress
from reacthuman.core.presets import resolve_preset, split_model_options
from reacthuman.llm.loopback import EndpointReply, EndpointRequest, LoopbackEndpoint, chat_completion, error_body
from reacthuman.llm.vision import ImageInputRefused, is_image_refusal
from reacthuman.plan.plan import Pose2D
from reacthuman.scoring import SceneMeta, ScoringTruth, score_decision
from reacthuman.reporting.aggregate import calls_table, select_decisions
from reacthuman.scoring.episode import reply_of
from reacthuman.sim_bridge.body import GRAPH_BODY_DEFAULTS

VIEWS = ("egocentric", "closeup", "overhead")
TIMES = (0.0, 0.15, 0.3, 0.45, 0.6)
BRAIN_W, BRAIN_H = int(GRAPH_BODY_DEFAULTS["frame_width_px"]), int(GRAPH_BODY_DEFAULTS["frame_height_px"])
PLAN = {
    "object_identified": "mug",
    "intent": "step back",
    "confidence": 0.8,
    "walking_cmd": [-0.5, 0.0, 0.0],
    "walking_duration": 1.0,
    "catch_duration": 0.0,
    "keyframes": [{"t": 0.2, "left_hand": [0.0, 0.0, 0.0], "right_hand": [0.0, 0.0, 0.0], "knee_bend": 0.0}],
}
REFUSALS = {  # what real servers answer image parts to a text-only model with
    "vllm": (400, "stub is not a multimodal model None"),
    "ollama": (400, "this model does not support image input"),
    "openai": (400, "Invalid content type. image_url is only supported by certain models."),
    "openrouter": (404, "No endpoints found that support image input"),
    "llamacpp": (500, "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj"),
}


class Endpoint(LoopbackEndpoint):
    """An OpenAI-compatible server on loopback. `refuse`: (status, message) for any request with image parts;
    `props_vision`: what llama.cpp's /props reports (None: no /props); `finish`: the replies' finish_reason."""

    def __init__(
        self,
        refuse: tuple[int, str] | None = None,
        props_vision: bool | None = None,
        finish: str = "stop",
        content: str = json.dumps(PLAN),
    ) -> None:
        self.refuse, self.props_vision = refuse, props_vision
        self.reply = chat_completion(
            content, model="stub", finish_reason=finish, prompt_tokens=1234, completion_tokens=56
        )
        super().__init__(self._respond)
        self.url = self.base_url

    def _respond(self, request: EndpointRequest) -> EndpointReply:
        if request.method == "GET":
            if request.path == "/props" and self.props_vision is not None:
                return EndpointReply(body={"modalities": {"vision": self.props_vision}})
            if request.path == "/v1/models":  # as vLLM answers: no word on input modalities
                return EndpointReply(body={"data": [{"id": "stub", "object": "model"}]})
            return EndpointReply(404, {"error": "not found"})
        if request.path != "/v1/chat/completions":
            return EndpointReply(404, {"error": "not found"})
        if self.refuse is not None and request.image_urls:
            return EndpointReply(self.refuse[0], error_body(self.refuse[1], self.refuse[0]))
        return EndpointReply(body=self.reply)

    @property
    def chats(self) -> list[dict]:
        """The chat requests' bodies, in order."""
        return [r.body for r in self.requests if r.method == "POST" and r.path == "/v1/chat/completions"]


def _image_urls(body: dict) -> list[str]:
    return [
        p["image_url"]["url"]
        for m in body["messages"]
        if isinstance(m["content"], list)
        for p in m["content"]
        if p.get("type") == "image_url"
    ]


def _observation() -> Observation:
    rng = np.random.default_rng(7)
    images = {v: [rng.integers(0, 255, (BRAIN_H, BRAIN_W, 3), dtype=np.uint8) for _ in TIMES] for v in VIEWS}
    track = tuple(TrackSample(t, (1.1, -0.2, 1.6 - 4.905 * t * t), (0.0, 0.0, -9.81 * t)) for t in TIMES)
    return Observation("object_drop-0001", TIMES, images, track, "a blue mug", "kitchen", Pose2D(0.0, 0.0, 0.0))


@pytest.fixture
def models_yaml(tmp_path, monkeypatch):
    """A models.yaml with one text-only preset at `url`; returns a function that writes it."""

    def write(url: str) -> None:
        path = tmp_path / "models.yaml"
        path.write_text(
            json.dumps(
                {
                    "defaults": {"max_retries": 0},
                    "presets": {
                        "textonly": {
                            "provider": "openai-compatible",
                            "model_id": "stub",
                            "base_url": url,
                            "vision": False,
                        }
                    },
                }
            )
        )
        monkeypatch.setenv("REACTHUMAN_MODELS_YAML", str(path))

    return write


# -- options ----------------------------------------------------------------------------------------------


def test_options_on_a_model_entry_set_its_fields_and_stay_out_of_its_name(monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-test-0123456789")
    entry = (
        "openai-compatible:myvlm@http://127.0.0.1:9/v1?vision=true&api_key_env=MY_KEY&max_tokens=4096&temperature=0.2"
    )
    (spec,) = parse_models(entry, {"oracle": "reference"})
    assert spec.name == "openai-compatible:myvlm@http://127.0.0.1:9/v1"
    assert spec.entry == entry
    p = spec.preset
    assert (p.name, p.vision, p.api_key_env, p.key_required, p.max_tokens, p.temperature) == (
        spec.name,
        True,
        "MY_KEY",
        True,
        4096,
        0.2,
    )
    assert p.base_url == "http://127.0.0.1:9/v1"
    assert p.model_id == "myvlm"
    assert resolve_preset("local?vision=false&max_tokens=5").max_tokens == 5
    assert split_model_options("gpt-5.5") == ("gpt-5.5", {})


@pytest.mark.parametrize(
    "entry, says",
    [
        ("local?colour=red", "unknown option 'colour'"),
        ("local?vision=maybe", "option vision='maybe' is not true or false"),
        ("local?max_tokens=0", "option max_tokens='0' is not an integer >= 1"),
        ("local?max_tokens=many", "is not an integer"),
        ("local?temperature=9", "is not a number in [0, 2]"),
        ("local?temperature", "option temperature needs a value"),
        ("local?max_tokens=5&max_tokens=6", "option max_tokens is given twice"),
        ("local?api_key=sk-abcdef0123456789", "option api_key is refused"),
        ("local?api_key_env=sk-abcdef0123456789", "option api_key_env is not the NAME"),
        ("oracle?vision=true", "'oracle' is a reference; it takes no options"),
        ("local,local?max_tokens=5", "'local' is given twice"),
    ],
)
def test_bad_options_fail_in_one_line_naming_the_option(entry, says):
    with pytest.raises(ModelSpecError) as err:
        parse_models(entry, {"oracle": "reference"})
    message = str(err.value)
    assert says in message
    assert "\n" not in message
    assert "abcdef0123456789" not in message  # a key pasted on the command line is never echoed


# -- images unless known text-only ------------------------------------------------------------------------


def test_deterministic_endpoint_with_vision_receives_the_three_views_at_the_brains_size():
    server = Endpoint()  # says nothing about images, as vLLM, Ollama's /v1 and OpenAI do: it gets them
    try:
        with make_brain(f"openai-compatible:stub@{server.url}?max_tokens=900") as brain:
            assert brain.modality == "images"
            assert brain.modality_note == ""
            assert brain.name == f"openai-compatible:stub@{server.url}"  # the ledger's model: no options
            decision = brain.plan(_observation())
        assert decision.parse_ok
        assert decision.modality == "images"
        assert decision.brain == brain.name
        probe, asked = server.chats[0], server.chats[-1]
        assert len(_image_urls(probe)) == 1
        assert len(server.chats) == 2  # one small image first, then the decision
        assert asked["max_tokens"] == 900
        texts = [p["text"] for p in asked["messages"][1]["content"] if p["type"] == "text"]
        assert [v for v in VIEWS if any(f"View '{v}'" in t for t in texts)] == list(VIEWS)
        urls = _image_urls(asked)
        assert len(urls) == len(VIEWS) * len(TIMES)
        for url in urls:
            png = base64.b64decode(url.split(",", 1)[1])
            assert Image.open(io.BytesIO(png)).size == (BRAIN_W, BRAIN_H)
    finally:
        server.close()


@pytest.mark.parametrize("server_kind", sorted(REFUSALS))
def test_deterministic_endpoint_refusing_images_stops_eval_in_one_line_with_no_rows(server_kind, tmp_path, capsys):
    server = Endpoint(refuse=REFUSALS[server_kind])
    model = f"openai-compatible:stub@{server.url}"
    out = tmp_path / "run"
    try:
        code = eval_cli.main(["--scenes", str(tmp_path / "scenes"), "--models", f"oracle,{model}", "--out", str(out)])
    finally:
        server.close()
    err = capsys.readouterr().err.strip()
    assert code != 0
    assert len(err.splitlines()) == 1
    assert f"model '{model}' refuses image input" in err
    assert "--modality state_text" in err
    assert not out.exists()  # nothing written: no ledger, no manifest
    assert len(server.chats) == 1  # the refused probe, not retried


def test_a_model_declared_to_take_images_that_refuses_them_raises_instead_of_writing_a_row():
    server = Endpoint(refuse=REFUSALS["vllm"])
    try:
        with make_brain(f"openai-compatible:stub@{server.url}?vision=true") as brain:
            assert server.chats == []  # declared: no probe
            with pytest.raises(ImageInputRefused, match="--modality state_text"):
                brain.plan(_observation())
    finally:
        server.close()


def test_server_words_for_refused_images_are_recognised_and_others_are_not():
    for status, message in REFUSALS.values():
        assert is_image_refusal(status, message)
    assert not is_image_refusal(429, "rate limit: image requests are not allowed this minute")
    assert not is_image_refusal(500, "internal server error")
    assert not is_image_refusal(400, "max_tokens is too large")


def test_deterministic_endpoint_text_only_preset_runs_on_state_text_and_says_so(models_yaml, caplog):
    server = Endpoint(refuse=REFUSALS["openai"])
    models_yaml(server.url)
    try:
        with caplog.at_level("WARNING"), make_brain("textonly") as brain:
            decision = brain.plan(_observation())
        assert brain.modality == decision.modality == "state_text"
        assert "text-only (its preset says vision: false)" in brain.modality_note
        assert "privileged-state ablation" in caplog.text
        assert all(not _image_urls(r) for r in server.chats)
        # eval says so before it starts, on its progress line, and in the manifest (model_modalities' note)
        shown = eval_cli.model_modalities({"textonly": "textonly"}, "images")
        assert shown["textonly"].modality == "state_text"
        assert "text-only" in shown["textonly"].note
    finally:
        server.close()
    progress = Progress(2, stream=io.StringIO())
    progress.tag("textonly", "state_text")
    progress.add("textonly", {"saa": 1, "safe": 1})
    assert "textonly [state_text]: SAA 1.00" in progress.stream.getvalue()


def test_deterministic_endpoint_whose_server_reports_text_only_runs_on_state_text():
    server = Endpoint(props_vision=False, refuse=REFUSALS["llamacpp"])  # as the embedded llama.cpp server
    try:
        with make_brain(f"openai-compatible:stub@{server.url}") as brain:
            assert brain.modality == "state_text"
            assert "its server reports a text-only model (llama.cpp /props)" in brain.modality_note
        assert server.chats == []
    finally:
        server.close()


# -- replies cut at the token limit ----------------------------------------------------------------------


def test_deterministic_endpoint_reply_cut_at_the_token_limit_is_recorded_and_counted_as_truncated():
    cut = json.dumps(PLAN)[:60]
    server = Endpoint(finish="length", content=cut)
    try:
        with make_brain(f"openai-compatible:stub@{server.url}?vision=true") as brain:
            decision = brain.plan(_observation())
    finally:
        server.close()
    assert decision.truncated
    assert not decision.parse_ok
    assert "cut at the token limit" in decision.parse_error
    meta = SceneMeta("s1", "object_drop", "mug", decision.brain)
    truth = ScoringTruth.from_spec(
        {"correct_action": "CATCH", "dangerous": False, "impact_point": (0.8, 0.0, 0.6), "adversarial": False}
    )
    record = score_decision(meta, truth, Pose2D(0.0, 0.0, 0.0), reply_of(decision))
    row = record.to_dict()
    assert row["truncated"] is True
    assert row["prompt_tokens"] == 1234
    assert row["completion_tokens"] == 56
    assert row["rule"] == "R1"
    assert "?" not in row["model"]
    table = calls_table(select_decisions([record]))
    assert table.rows == [[decision.brain, None, 1, 1, 1234, 56]]


def test_physment_and_interactiveworld_build_their_clients_with_the_options_and_physment_rows_name_the_model():
    import argparse

    from interactiveworld.agents.assistants import agent_name, recorded_name
    from physment.cli import _config

    (spec,) = parse_models("local?max_tokens=33&temperature=0.5", {"oracle": "reference"})
    assert agent_name(spec) == "llm:local?max_tokens=33&temperature=0.5"  # the client is built from it
    assert recorded_name(agent_name(spec)) == "llm:local" and recorded_name("oracle") == "oracle"  # results name
    args = argparse.Namespace(
        scenes=Path("scenes"),
        budget=1,
        out=Path("out"),
        prompting="zero-shot",
        tool_mode="native",
        all_scenes=False,
        limit=None,
        max_tokens=None,
        brief_api=False,
        protocol="paper",
        tools=None,
        matcher=None,
        cell_map=None,
        dialogue=None,
    )
    config = _config(args, spec)
    assert config.agent == "local"  # rows: the name
    assert config.agent_entry == "local?max_tokens=33&temperature=0.5"
    entry = config.agent_entry
    assert resolve_preset(entry).max_tokens == 33
    assert resolve_preset(entry).temperature == 0.5
