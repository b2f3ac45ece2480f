"""An OpenAI-compatible chat endpoint on loopback that answers every request with one fixed reply: the
instant model of the bench's study section and the deterministic stand-in of tests (no paid API runs here)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FixedReplyEndpoint:
    """Serves POST /v1/chat/completions on 127.0.0.1 (a free port) with `content`, finish_reason 'stop' and the
    given token counts; keeps every request body in `bodies`. `close()` stops it."""

    def __init__(self, content: str, model: str = "fixed", prompt_tokens: int = 1, completion_tokens: int = 1,
                 refuse_images_after: int | None = None) -> None:
        """`refuse_images_after`: after that many requests, a request with image parts is answered HTTP 400 in
        vLLM's words for a text-only model (a server that stops taking images part way through a run)."""
        self.bodies: list[dict] = []
        raw = json.dumps({"model": model, "choices": [{"message": {"content": content}, "finish_reason": "stop"}],
                          "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}}).encode()
        refusal = json.dumps({"error": {"message": f"{model} is not a multimodal model", "code": 400}}).encode()
        bodies = self.bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                refuse = refuse_images_after is not None and len(bodies) >= refuse_images_after and _has_image(body)
                bodies.append(body)
                self.send_response(400 if refuse else 200)
                self.send_header("content-type", "application/json")
                answer = refusal if refuse else raw
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _has_image(body: dict) -> bool:
    return any(isinstance(m.get("content"), list) and any(p.get("type") == "image_url" for p in m["content"])
               for m in body.get("messages", []))
