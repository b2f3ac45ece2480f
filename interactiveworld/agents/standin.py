"""A deterministic stand-in model behind a real OpenAI-compatible HTTP server (on loopback), to validate the
path a model human or a model assistant takes: its prompt, the client, the HTTP exchange, the reply schema and
the agent's parser. As the human (`human_turn` replies) it turns the assistant's words into commands the way the
scripted human does, but knowing nothing of the world: it splits the speech into clauses, keeps the clauses that
have the form of one of the 36 primitives' commands and puts a pronoun's referent back (the catalogue-free half
of the scripted human's parser). As the assistant (`assistant_turn` replies) it waits. It records what every
request carried (the reply format, the number of images, max_tokens) for tests."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from interactiveworld.actions.parser import _COMPILED, PRONOUNS, clean, split_clauses

SPEECH = re.compile(r'The assistant says: "(?P<s>.*)"\n', re.S)
_PRONOUN = re.compile(r"\b(?:" + "|".join(PRONOUNS) + r")\b")


def commands_of(speech: str) -> list[str]:
    """The clauses of `speech` that have a command's form, in order, pronouns replaced by the last thing named."""
    out, last = [], ""
    for clause in split_clauses(speech):
        text = clean(clause)
        if last:
            text = _PRONOUN.sub(last, text)
        match = next((m for _, rx in _COMPILED if (m := rx.match(text))), None)
        if match is None:
            continue  # a statement ("the milk is on the counter"), not a command
        if "t" in match.groupdict() and match.group("t"):
            last = match.group("t")
        out.append(text)
    return out


@dataclass
class Request:
    format_name: str
    n_images: int
    max_tokens: int | None


@dataclass
class StandIn:
    """The server's state: what it was asked."""

    requests: list[Request] = field(default_factory=list)
    vision: bool = True  # what the server says of image input

    def reply(self, body: dict) -> str:
        fmt = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
        messages = body.get("messages") or []
        images = sum(1 for m in messages if isinstance(m.get("content"), list)
                     for part in m["content"] if part.get("type") == "image_url")
        self.requests.append(Request(fmt, images, body.get("max_tokens")))
        if fmt == "human_turn":
            last = messages[-1]["content"]
            text = last if isinstance(last, str) else last[0]["text"]
            m = SPEECH.search(text)
            return json.dumps({"say": "", "commands": commands_of(m.group("s")) if m else []})
        return json.dumps({"mode": "wait", "text": ""})


def _handler(state: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # quiet: tests read the state, not a log
            pass

        def _send(self, payload: dict, status: int = 200) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.endswith("/props"):
                return self._send({"modalities": {"vision": state.vision}})
            if self.path.endswith("/models"):
                inputs = ["text", "image"] if state.vision else ["text"]
                return self._send({"data": [{"id": "standin", "architecture": {"input_modalities": inputs}}]})
            self._send({"error": {"message": f"no such path {self.path}"}}, 404)

        def do_POST(self) -> None:
            if not self.path.endswith("/chat/completions"):
                return self._send({"error": {"message": f"no such path {self.path}"}}, 404)
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            text = state.reply(body)
            self._send({"id": "standin", "object": "chat.completion", "model": "standin",
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                     "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}})

    return Handler


class StandInServer:
    """`with StandInServer() as s:` serves on 127.0.0.1 (a free port); `s.spec` names it in the model grammar."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, vision: bool = True) -> None:
        self.state = StandIn(vision=vision)
        self.httpd = ThreadingHTTPServer((host, port), _handler(self.state))
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def spec(self) -> str:
        return f"openai-compatible:standin@{self.base_url}"

    def __enter__(self) -> "StandInServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
