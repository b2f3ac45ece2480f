"""OpenAI-compatible chat endpoints on loopback: real HTTP servers whose answers are scripted, for the bench's
study section and the tests (no paid API runs here).

`LoopbackEndpoint` serves 127.0.0.1 on a free port and asks a `respond(request)` function for every answer (a
status, a JSON body, headers, or a dropped connection); `FixedReplyEndpoint` answers every chat request with one
reply. `chat_completion(...)` writes the body of a chat reply, text or tool calls.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass(frozen=True)
class EndpointRequest:
    """One request the endpoint got: method, path, headers (names lower-cased) and the JSON body ({} for none)."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def image_urls(self) -> list[str]:
        """The image parts' URLs of a chat request, in message order."""
        return [
            p["image_url"]["url"]
            for m in self.body.get("messages") or []
            if isinstance(m.get("content"), list)
            for p in m["content"]
            if p.get("type") == "image_url"
        ]


@dataclass(frozen=True)
class EndpointReply:
    """What the endpoint answers: `status` with the JSON `body` and extra `headers`; `drop`: close the connection
    without answering (a network failure)."""

    status: int = 200
    body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False


def chat_completion(
    content: str | None = None,
    *,
    model: str = "loopback",
    finish_reason: str = "stop",
    tool_calls: list[dict[str, Any]] | None = None,
    prompt_tokens: int | None = 1,
    completion_tokens: int | None = 1,
) -> dict[str, Any]:
    """The body of a chat completion: `content`, or `tool_calls` ({"name", "arguments"} each) as the API writes
    them; usage is left out when both token counts are None."""
    message: dict[str, Any] = {"content": content}
    if tool_calls is not None:
        message["tool_calls"] = [
            {"type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
            for c in tool_calls
        ]
    body: dict[str, Any] = {"model": model, "choices": [{"message": message, "finish_reason": finish_reason}]}
    if prompt_tokens is not None or completion_tokens is not None:
        body["usage"] = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}
    return body


def error_body(message: str, code: int | None = None) -> dict[str, Any]:
    """An OpenAI-style error body."""
    return {"error": {"message": message} if code is None else {"message": message, "code": code}}


Responder = Callable[[EndpointRequest], EndpointReply]


class LoopbackEndpoint:
    """Serves GET and POST on 127.0.0.1 (a free port) with what `respond` answers; keeps every request in
    `requests`, in arrival order. `close()` (or leaving a `with` block) stops it."""

    def __init__(self, respond: Responder) -> None:
        self.requests: list[EndpointRequest] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, method: str) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                request = EndpointRequest(
                    method, self.path, {k.lower(): v for k, v in self.headers.items()}, json.loads(raw) if raw else {}
                )
                endpoint.requests.append(request)
                reply = respond(request)
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                data = json.dumps(reply.body).encode()
                self.send_response(reply.status)
                for k, v in {
                    **reply.headers,
                    "content-type": "application/json",
                    "content-length": str(len(data)),
                }.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                self._answer("GET")

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self._answer("POST")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        return self.server.server_port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """The requests' JSON bodies, in arrival order."""
        return [r.body for r in self.requests]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> "LoopbackEndpoint":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FixedReplyEndpoint(LoopbackEndpoint):
    """Answers every request with `content`, finish_reason 'stop' and the given token counts.
    `refuse_images_after`: after that many requests, a request with image parts is answered HTTP 400 in vLLM's
    words for a text-only model (a server that stops taking images part way through a run)."""

    def __init__(
        self,
        content: str,
        model: str = "fixed",
        prompt_tokens: int = 1,
        completion_tokens: int = 1,
        refuse_images_after: int | None = None,
    ) -> None:
        reply = EndpointReply(
            body=chat_completion(content, model=model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
        )
        refusal = EndpointReply(400, error_body(f"{model} is not a multimodal model", 400))

        def respond(request: EndpointRequest) -> EndpointReply:
            before = len(self.requests) - 1  # this request is already counted
            refuse = refuse_images_after is not None and before >= refuse_images_after and request.image_urls
            return refusal if refuse else reply

        super().__init__(respond)
