"""OpenAI-compatible chat-completions client for OpenRouter, vLLM, Ollama, llama.cpp and the embedded model.

Failures of the API (after retries) come back as `ChatResult.api_error`, never as exceptions: an
evaluation run records them and moves on. Configuration mistakes (unknown model, missing key) raise.
The API key is read from the environment variable the preset names and appears in no repr, log line or
error message (anything a server echoes back is redacted).
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from reacthuman.llm.grammar import schema_to_gbnf
from reacthuman.llm.images import has_image_parts
from reacthuman.llm.local_server import SHARED_SERVER
from reacthuman.core.presets import ModelPreset, resolve_preset
from reacthuman.llm.vision import is_image_refusal

LOG = logging.getLogger(__name__)

REDACTED = "[REDACTED]"
RETRY_STATUS = frozenset({408, 409, 429})  # plus every 5xx except unsupported-input answers
ERROR_TEXT_MAX_CHARS = 400
# Servers answer a request the model can never serve (llama.cpp: image parts to a text-only model) with a
# 5xx; retrying cannot help, so these are reported at once.
UNSUPPORTED_MARKERS = ("not supported", "unsupported", "mmproj")


@dataclass
class ChatResult:
    text: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # {name, arguments: dict, raw_arguments: str}
    latency_s: float = 0.0  # wall time of the whole call, retries and back-off included
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    retries: int = 0
    api_error: str | None = None
    model_id: str = ""
    finish_reason: str | None = None
    http_status: int | None = None
    images_refused: bool = False  # the server turned the request's image parts away (llm/vision.py)

    @property
    def truncated(self) -> bool:
        """The reply was cut at the token limit (`finish_reason: length`)."""
        return self.finish_reason == "length"


class _Failure(Exception):
    def __init__(
        self,
        message: str,
        retryable: bool,
        status: int | None = None,
        retry_after_s: float | None = None,
        images_refused: bool = False,
    ):
        super().__init__(message)
        self.retryable = retryable
        self.status = status
        self.retry_after_s = retry_after_s
        self.images_refused = images_refused


class ChatClient:
    """One model behind an OpenAI-compatible `/v1/chat/completions`. Use `make_client` to build one."""

    def __init__(self, preset: ModelPreset) -> None:
        self.preset = preset
        self._secret: str | None = None
        if preset.api_key_env:
            self._secret = os.environ.get(preset.api_key_env) or None
            if self._secret is None and preset.key_required:
                raise ValueError(
                    f"model '{preset.name}': environment variable {preset.api_key_env} is not set (it must hold the API key)"
                )
        self._owns_local = preset.provider == "embedded"
        base_url = SHARED_SERVER.acquire() if self._owns_local else preset.base_url
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {self._secret}"} if self._secret else {}
        self._http = httpx.Client(
            timeout=httpx.Timeout(preset.timeout_s, connect=min(10.0, preset.timeout_s)), headers=headers
        )
        self._vision: bool | None = preset.vision
        self._asked = preset.vision is not None
        self.vision_source = "preset" if preset.vision is not None else ""  # who said whether it takes images
        self._closed = False

    # -- lifecycle ---------------------------------------------------------------------------------------
    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._http.close()
        if self._owns_local:
            SHARED_SERVER.release()

    def __enter__(self) -> "ChatClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        key_state = "set" if self._secret else "none"
        return f"ChatClient(model={self.preset.name!r}, model_id={self.preset.model_id!r}, base_url={self.base_url!r}, api_key={key_state})"

    @property
    def model_id(self) -> str:
        return self.preset.model_id

    # -- capabilities ------------------------------------------------------------------------------------
    def image_input(self) -> bool | None:
        """Whether the model takes image parts: the preset's `vision`, else the server's own account (llama.cpp
        `/props` modalities.vision, an OpenRouter-style `/models` entry's input modalities, Ollama's `/api/show`
        capabilities), else None: unknown (vLLM and OpenAI say nothing). `vision_source` names who said it."""
        if not self._asked:
            self._asked = True
            self._vision, self.vision_source = self._ask_vision()
        return self._vision

    def supports_images(self) -> bool:
        """Whether to send this model images: yes unless it is known to be text-only (llm/vision.py)."""
        return self.image_input() is not False

    def _ask_vision(self) -> tuple[bool | None, str]:
        root = self.base_url[: -len("/v1")] if self.base_url.endswith("/v1") else self.base_url
        try:
            response = self._http.get(root + "/props")
            if response.status_code == 200:
                modalities = response.json().get("modalities") or {}
                if "vision" in modalities:
                    return bool(modalities["vision"]), "llama.cpp /props"
            response = self._http.get(self.base_url + "/models")
            if response.status_code == 200:
                for entry in response.json().get("data") or []:
                    inputs = (entry.get("architecture") or {}).get("input_modalities") or []
                    if inputs and entry.get("id") in (self.preset.model_id, None):
                        return "image" in inputs, "/models input_modalities"
            response = self._http.post(root + "/api/show", json={"model": self.preset.model_id})
            if response.status_code == 200:
                capabilities = response.json().get("capabilities")
                if isinstance(capabilities, list) and capabilities:
                    return "vision" in capabilities, "Ollama /api/show capabilities"
        except (httpx.HTTPError, ValueError, AttributeError) as exc:
            LOG.warning(
                "model %s: could not ask the server about image input (%s)", self.preset.name, self._redact(str(exc))
            )
        return None, ""

    # -- chat --------------------------------------------------------------------------------------------
    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        response_format: dict[str, Any] | None = None,
        tools: list[dict[str, Any]] | None = None,
        max_tokens: int | None = None,
    ) -> ChatResult:
        if self._closed:
            raise RuntimeError(f"model '{self.preset.name}': chat() on a closed client")
        body: dict[str, Any] = {
            "model": self.preset.model_id,
            "messages": messages,
            "temperature": self.preset.temperature,
            "max_tokens": int(max_tokens or self.preset.max_tokens),
        }
        if self.preset.seed is not None:
            body["seed"] = self.preset.seed
        if response_format is not None:
            grammar = self._compact_grammar(response_format)
            if grammar is not None:
                body["grammar"] = grammar  # llama.cpp's own extension; replaces the whitespace-loose schema grammar
            else:
                body["response_format"] = response_format
        if tools:
            body["tools"] = tools
        start_s = time.monotonic()
        retries = 0
        failure: _Failure | None = None
        for attempt in range(self.preset.max_retries + 1):
            if attempt > 0:
                delay_s = self._backoff_s(attempt, failure)
                LOG.warning(
                    "model %s: attempt %d failed (%s); retrying in %.2f s", self.preset.name, attempt, failure, delay_s
                )
                time.sleep(delay_s)
                retries += 1
            try:
                result = self._attempt(body, has_image_parts(messages))
            except _Failure as exc:
                failure = exc
                if not exc.retryable:
                    break
                continue
            result.latency_s = time.monotonic() - start_s
            result.retries = retries
            return result
        assert failure is not None
        return ChatResult(
            text="",
            latency_s=time.monotonic() - start_s,
            retries=retries,
            model_id=self.preset.model_id,
            api_error=str(failure),
            http_status=failure.status,
            images_refused=failure.images_refused,
        )

    def _compact_grammar(self, response_format: dict[str, Any]) -> str | None:
        if not self.preset.compact_json or response_format.get("type") != "json_schema":
            return None
        schema = (response_format.get("json_schema") or {}).get("schema")
        return schema_to_gbnf(schema) if isinstance(schema, dict) else None

    def _backoff_s(self, attempt: int, failure: _Failure | None) -> float:
        delay_s = min(self.preset.backoff_max_s, self.preset.backoff_s * 2 ** (attempt - 1))
        if failure is not None and failure.retry_after_s is not None:
            delay_s = min(self.preset.backoff_max_s, max(delay_s, failure.retry_after_s))
        return delay_s

    def _attempt(self, body: dict[str, Any], with_images: bool) -> ChatResult:
        try:
            response = self._http.post(self.base_url + "/chat/completions", json=body)
        except httpx.TimeoutException as exc:
            raise _Failure(
                f"timed out after {self.preset.timeout_s:g} s ({type(exc).__name__})", retryable=True
            ) from None
        except httpx.TransportError as exc:
            raise _Failure(
                f"connection failed: {type(exc).__name__}: {self._redact(str(exc))}", retryable=True
            ) from None
        status = response.status_code
        if status != 200:
            raise self._http_failure(response, with_images)
        try:
            payload = response.json()
        except ValueError:
            raise _Failure(
                f"HTTP 200 with a body that is not JSON: {self._snippet(response.text)}", retryable=True, status=status
            ) from None
        if isinstance(payload, dict) and payload.get("error"):
            # OpenRouter reports upstream failures inside a 200 body.
            error = payload["error"]
            code = error.get("code") if isinstance(error, dict) else None
            message = error.get("message") if isinstance(error, dict) else error
            text = self._snippet(str(message))
            refused = with_images and is_image_refusal(code if isinstance(code, int) else None, text)
            retryable = not refused and isinstance(code, int) and (code in RETRY_STATUS or code >= 500)
            raise _Failure(f"provider error {code}: {text}", retryable=retryable, status=status, images_refused=refused)
        return self._parse(payload, status)

    def _http_failure(self, response: httpx.Response, with_images: bool) -> _Failure:
        status = response.status_code
        message = self._snippet(self._server_message(response))
        if with_images and is_image_refusal(status, message):
            return _Failure(
                f"HTTP {status}: the model refused image input: {message}",
                retryable=False,
                status=status,
                images_refused=True,
            )
        unsupported = any(marker in message.lower() for marker in UNSUPPORTED_MARKERS)
        if unsupported:
            return _Failure(f"HTTP {status}: the model refused this input: {message}", retryable=False, status=status)
        retryable = status in RETRY_STATUS or status >= 500
        retry_after_s: float | None = None
        header = response.headers.get("retry-after")
        if header:
            try:
                retry_after_s = max(0.0, float(header))
            except ValueError:
                retry_after_s = None
        return _Failure(f"HTTP {status}: {message}", retryable=retryable, status=status, retry_after_s=retry_after_s)

    @staticmethod
    def _server_message(response: httpx.Response) -> str:
        try:
            error = response.json().get("error")
            if isinstance(error, dict) and error.get("message"):
                return str(error["message"])
            if error:
                return str(error)
        except (ValueError, AttributeError):
            pass
        return response.text or response.reason_phrase

    def _parse(self, payload: Any, status: int) -> ChatResult:
        choices = payload.get("choices") if isinstance(payload, dict) else None
        if not choices:
            raise _Failure(
                f"HTTP 200 without choices: {self._snippet(json.dumps(payload)[:ERROR_TEXT_MAX_CHARS])}",
                retryable=True,
                status=status,
            )
        choice = choices[0]
        message = choice.get("message") or {}
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        usage = payload.get("usage") or {}
        return ChatResult(
            text=content or "",
            tool_calls=[_tool_call(c) for c in message.get("tool_calls") or []],
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            # Routers report the model that actually answered; the embedded server reports a file path.
            model_id=self.preset.model_id if self._owns_local else str(payload.get("model") or self.preset.model_id),
            finish_reason=choice.get("finish_reason"),
            http_status=status,
        )

    def _redact(self, text: str) -> str:
        return text.replace(self._secret, REDACTED) if self._secret else text

    def _snippet(self, text: str) -> str:
        text = self._redact(text.strip())
        return text if len(text) <= ERROR_TEXT_MAX_CHARS else text[:ERROR_TEXT_MAX_CHARS] + "..."


def _tool_call(call: dict[str, Any]) -> dict[str, Any]:
    function = call.get("function") or {}
    raw = function.get("arguments")
    if isinstance(raw, dict):
        arguments, raw_text = raw, json.dumps(raw)
    else:
        raw_text = raw or ""
        try:
            parsed = json.loads(raw_text) if raw_text else {}
        except ValueError:
            parsed = {}
        arguments = parsed if isinstance(parsed, dict) else {}
    return {"name": function.get("name", ""), "arguments": arguments, "raw_arguments": raw_text}


def make_client(model: str, **overrides: Any) -> ChatClient:
    """A ChatClient for a preset name (config/models.yaml), `local`, or `openai-compatible:<model_id>@<base_url>`.

    Overrides replace preset fields: temperature, max_tokens, timeout_s, max_retries, backoff_s,
    backoff_max_s, seed, base_url, model_id, api_key_env, vision, json_schema, compact_json.
    """
    return ChatClient(resolve_preset(model, **overrides))
