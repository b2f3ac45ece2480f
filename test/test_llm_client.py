"""The chat client against the real embedded llama.cpp server, a real dropping TCP proxy in front of it,
and a real local HTTP stub that answers with chosen statuses (what a paid API would send, without one)."""

from __future__ import annotations

import json
import logging
import socket
import threading
from typing import Iterator

import numpy as np
import pytest

from reacthuman.llm import image_part, make_client, resolve_preset, text_part
from reacthuman.llm.local_server import SHARED_SERVER
from reacthuman.llm.loopback import EndpointReply, EndpointRequest, LoopbackEndpoint, error_body

FAST_RETRY = {"backoff_s": 0.02, "backoff_max_s": 0.1}


@pytest.fixture(scope="module")
def local_client() -> Iterator:
    with make_client("local") as client:
        yield client


class DroppingProxy:
    """TCP proxy on 127.0.0.1: closes the first `drops` connections unanswered, forwards the rest."""

    def __init__(self, upstream_port: int, drops: int = 1) -> None:
        self.upstream_port = upstream_port
        self.drops_left = drops
        self.accepted = 0
        self._sock = socket.create_server(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self._stop = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            self.accepted += 1
            if self.drops_left > 0:
                self.drops_left -= 1
                conn.recv(65536)  # let the request arrive, then drop the connection without a reply
                conn.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            for src, dst in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pipe, args=(src, dst), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self._stop = True
        self._sock.close()


def start_status_stub(statuses: list[tuple[int, dict, dict]], final: dict) -> tuple[LoopbackEndpoint, list]:
    """HTTP server answering POSTs with the queued (status, headers, body) and then `final` (200)."""
    seen: list[dict] = []

    def respond(request: EndpointRequest) -> EndpointReply:
        auth = request.headers.get("authorization")
        seen.append({"auth": auth, "body": request.body})
        status, headers, body = statuses.pop(0) if statuses else (200, {}, final)
        if body.get("echo_auth"):
            body = error_body(f"bad key {auth}")
        return EndpointReply(status, body, headers)

    return LoopbackEndpoint(respond), seen


OK_BODY = {
    "model": "stub-model",
    "choices": [{"message": {"content": "fine"}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 3, "completion_tokens": 1},
}


def test_local_chat_returns_text_and_tokens(local_client):
    result = local_client.chat([{"role": "user", "content": "Name one fruit."}], max_tokens=16)
    assert result.api_error is None
    assert result.text.strip()
    assert result.prompt_tokens
    assert result.prompt_tokens > 0
    assert 0 < result.completion_tokens <= 16
    assert result.model_id == "SmolLM2-135M-Instruct"
    assert result.retries == 0


def test_local_json_schema_is_enforced(local_client):
    schema = {
        "type": "object",
        "properties": {"fruit": {"type": "string", "maxLength": 20}},
        "required": ["fruit"],
        "additionalProperties": False,
    }
    fmt = {"type": "json_schema", "json_schema": {"name": "fruit", "schema": schema, "strict": True}}
    result = local_client.chat(
        [{"role": "user", "content": "Name a fruit as JSON."}], response_format=fmt, max_tokens=40
    )
    assert result.api_error is None
    assert isinstance(json.loads(result.text)["fruit"], str)


def test_local_schema_goes_as_compact_grammar(local_client):
    schema = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {"type": "integer", "minimum": 0, "maximum": 9},
                "minItems": 2,
                "maxItems": 3,
            },
            "ok": {"type": "boolean"},
        },
        "required": ["items", "ok"],
    }
    fmt = {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}
    result = local_client.chat(
        [{"role": "user", "content": "Give two digits and a flag as JSON."}], response_format=fmt, max_tokens=40
    )
    assert result.api_error is None
    assert "\n" not in result.text
    assert result.text.startswith('{"items": [')
    data = json.loads(result.text)
    assert 2 <= len(data["items"]) <= 3
    assert all(0 <= v <= 9 for v in data["items"])
    assert isinstance(data["ok"], bool)


def test_schema_outside_the_grammar_subset_is_sent_as_is(local_client):
    schema = {"type": "object", "properties": {"word": {"type": "string", "pattern": "^[a-z]+$"}}, "required": ["word"]}
    fmt = {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}
    result = local_client.chat(
        [{"role": "user", "content": "One lowercase word as JSON."}], response_format=fmt, max_tokens=30
    )
    assert result.api_error is None
    assert json.loads(result.text)["word"].isalpha()


def test_local_server_reports_text_only(local_client):
    assert local_client.supports_images() is False
    assert local_client.image_input() is False
    assert local_client.vision_source == "llama.cpp /props"


def test_image_to_text_only_model_is_a_clear_error_not_retried(local_client):
    frame = np.zeros((16, 16, 3), np.uint8)
    result = local_client.chat(
        [{"role": "user", "content": [text_part("What is this?"), image_part(frame)]}], max_tokens=8
    )
    assert result.http_status == 500  # the real llama.cpp server's answer, in its own words
    assert result.api_error is not None
    assert "refused image input" in result.api_error
    assert result.images_refused  # what stops a run that sends images (reacthuman/llm/vision.py)
    assert result.retries == 0
    assert result.text == ""


def test_local_server_is_shared_between_clients(local_client):
    starts = SHARED_SERVER.starts
    with make_client("local") as second:
        assert second.base_url == local_client.base_url
    assert SHARED_SERVER.starts == starts
    assert local_client.chat([{"role": "user", "content": "Hi"}], max_tokens=4).api_error is None


def test_retry_after_dropped_connection(local_client):
    port = int(local_client.base_url.rsplit(":", 1)[1].split("/")[0])
    proxy = DroppingProxy(port, drops=1)
    try:
        with make_client(f"openai-compatible:local@http://127.0.0.1:{proxy.port}/v1", **FAST_RETRY) as client:
            result = client.chat([{"role": "user", "content": "Say yes."}], max_tokens=8)
    finally:
        proxy.close()
    assert result.api_error is None, result.api_error
    assert result.retries == 1
    assert result.text.strip()
    assert proxy.accepted >= 2


def test_retries_on_429_and_5xx_then_succeeds_stub_server():
    queued = [(429, {"retry-after": "0"}, {"error": {"message": "rate limited"}}), (503, {}, {"error": "busy"})]
    server, seen = start_status_stub(queued, OK_BODY)
    try:
        with make_client(f"openai-compatible:m@http://127.0.0.1:{server.port}/v1", **FAST_RETRY) as client:
            result = client.chat([{"role": "user", "content": "x"}])
    finally:
        server.close()
    assert (result.text, result.retries, result.api_error) == ("fine", 2, None)
    assert result.model_id == "stub-model"
    assert len(seen) == 3


def test_gives_up_after_max_retries_with_api_error_stub_server():
    queued = [(500, {}, {"error": {"message": "boom"}})] * 5
    server, seen = start_status_stub(queued, OK_BODY)
    try:
        with make_client(
            f"openai-compatible:m@http://127.0.0.1:{server.port}/v1", max_retries=2, **FAST_RETRY
        ) as client:
            result = client.chat([{"role": "user", "content": "x"}])
    finally:
        server.close()
    assert result.api_error == "HTTP 500: boom"
    assert result.retries == 2
    assert len(seen) == 3


def test_client_error_is_not_retried_stub_server():
    server, seen = start_status_stub([(400, {}, {"error": {"message": "bad request"}})], OK_BODY)
    try:
        with make_client(f"openai-compatible:m@http://127.0.0.1:{server.port}/v1", **FAST_RETRY) as client:
            result = client.chat([{"role": "user", "content": "x"}])
    finally:
        server.close()
    assert result.api_error == "HTTP 400: bad request"
    assert len(seen) == 1


def test_timeout_is_reported_after_retries():
    silent = socket.create_server(("127.0.0.1", 0))  # accepts (backlog) but never answers
    try:
        spec = f"openai-compatible:m@http://127.0.0.1:{silent.getsockname()[1]}/v1"
        with make_client(spec, timeout_s=0.3, max_retries=1, **FAST_RETRY) as client:
            result = client.chat([{"role": "user", "content": "x"}])
    finally:
        silent.close()
    assert result.api_error is not None
    assert result.api_error.startswith("timed out")
    assert result.retries == 1


def test_api_key_sent_but_never_shown_stub_server(monkeypatch, caplog):
    secret = "sk-test-DO-NOT-LEAK-123456"
    monkeypatch.setenv("STUB_KEY", secret)
    server, seen = start_status_stub([(401, {}, {"echo_auth": True}), (500, {}, {"echo_auth": True})], OK_BODY)
    caplog.set_level(logging.DEBUG)
    try:
        spec = f"openai-compatible:m@http://127.0.0.1:{server.port}/v1"
        with make_client(spec, api_key_env="STUB_KEY", **FAST_RETRY) as client:
            shown = repr(client)
            first = client.chat([{"role": "user", "content": "x"}])
            second = client.chat([{"role": "user", "content": "x"}])
    finally:
        server.close()
    assert seen[0]["auth"] == f"Bearer {secret}"
    assert first.api_error is not None
    assert "[REDACTED]" in first.api_error
    for text in (shown, first.api_error, second.api_error or "", repr(first), caplog.text):
        assert secret not in text


def test_paid_preset_without_key_fails_clearly_mock_paid_api(monkeypatch):
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    with pytest.raises(ValueError, match="OPENROUTER_API_KEY is not set"):
        make_client("gpt-5.5")


def test_paper_presets_resolve_to_the_seven_openrouter_ids():
    ids = {
        resolve_preset(n).model_id
        for n in (
            "claude-opus-4.8",
            "gpt-5.5",
            "gemini-2.5-flash",
            "kimi-k2.6",
            "qwen3-vl-235b",
            "qwen3-vl-30b",
            "gemma-3-27b",
        )
    }
    assert ids == {
        "anthropic/claude-opus-4.8",
        "openai/gpt-5.5",
        "google/gemini-2.5-flash",
        "moonshotai/kimi-k2.6",
        "qwen/qwen3-vl-235b-a22b-instruct",
        "qwen/qwen3-vl-30b-a3b-instruct",
        "google/gemma-3-27b-it",
    }
    assert resolve_preset("gpt-5.5").base_url.startswith("https://")


def test_bad_model_specs_name_the_problem():
    with pytest.raises(ValueError, match="unknown model"):
        resolve_preset("no-such-model")
    with pytest.raises(ValueError, match="openai-compatible:<model_id>@<base_url>"):
        resolve_preset("openai-compatible:missing-url")
    with pytest.raises(ValueError, match="temperature"):
        resolve_preset("local", temperature=5.0)
    with pytest.raises(ValueError, match="unknown field"):
        resolve_preset("local", temprature=0.1)


def test_models_yaml_override_must_exist(monkeypatch, tmp_path):
    monkeypatch.setenv("REACTHUMAN_MODELS_YAML", str(tmp_path / "missing.yaml"))
    with pytest.raises(FileNotFoundError, match="REACTHUMAN_MODELS_YAML names"):
        resolve_preset("local")
    custom = tmp_path / "models.yaml"
    custom.write_text("presets:\n  mine:\n    provider: vllm\n    model_id: m\n    base_url: http://127.0.0.1:1/v1\n")
    monkeypatch.setenv("REACTHUMAN_MODELS_YAML", str(custom))
    assert resolve_preset("mine").model_id == "m"
    assert resolve_preset("mine").max_tokens == 1024


def test_tool_calls_are_parsed_stub_server():
    body = {
        "choices": [
            {
                "message": {
                    "content": None,
                    "tool_calls": [
                        {"type": "function", "function": {"name": "commit_plan", "arguments": '{"a": 1}'}},
                        {"type": "function", "function": {"name": "broken", "arguments": "{not json"}},
                    ],
                }
            }
        ]
    }
    server, seen = start_status_stub([], body)
    try:
        with make_client(f"openai-compatible:m@http://127.0.0.1:{server.port}/v1") as client:
            tools = [{"type": "function", "function": {"name": "commit_plan", "parameters": {"type": "object"}}}]
            result = client.chat([{"role": "user", "content": "x"}], tools=tools, max_tokens=7)
    finally:
        server.close()
    assert seen[0]["body"]["tools"] == tools
    assert seen[0]["body"]["max_tokens"] == 7
    assert result.tool_calls[0] == {"name": "commit_plan", "arguments": {"a": 1}, "raw_arguments": '{"a": 1}'}
    assert result.tool_calls[1]["arguments"] == {}
    assert result.tool_calls[1]["raw_arguments"] == "{not json"
    assert result.text == ""


def test_closed_client_refuses_to_chat():
    client = make_client("openai-compatible:m@http://127.0.0.1:9/v1")
    client.close()
    with pytest.raises(RuntimeError, match="closed"):
        client.chat([{"role": "user", "content": "x"}])


def test_a_frame_asked_by_many_threads_at_once_is_encoded_once(monkeypatch):
    """`decide` asks every model about a scene at once: the frame is encoded by the first asker, the others get
    the same URL (each encoding it cost 7x the work)."""
    from reacthuman.llm import images

    calls, gate = [], threading.Event()
    real = images._encode

    def slow_encode(array, fmt):
        calls.append(fmt)
        gate.wait(5)  # hold the first encoder until every thread has asked
        return real(array, fmt)

    monkeypatch.setattr(images, "_encode", slow_encode)
    images.clear_encoded_cache()
    frame = np.random.default_rng(3).integers(0, 255, (36, 64, 3), dtype=np.uint8)
    urls: list[str] = []
    threads = [threading.Thread(target=lambda: urls.append(images.image_data_url(frame))) for _ in range(7)]
    for t in threads:
        t.start()
    while not calls:
        threading.Event().wait(0.01)
    threading.Event().wait(0.2)
    gate.set()
    for t in threads:
        t.join(10)
    assert calls == ["png"] and len(urls) == 7 and len(set(urls)) == 1
    assert urls[0] == real(frame, "png")
    images.clear_encoded_cache()
