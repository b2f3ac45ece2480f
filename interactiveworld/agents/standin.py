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
from dataclasses import dataclass, field

from interactiveworld.actions.parser import _COMPILED, PRONOUNS, clean, split_clauses
from reacthuman.llm.loopback import EndpointReply, EndpointRequest, LoopbackEndpoint, error_body

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
        images = sum(
            1
            for m in messages
            if isinstance(m.get("content"), list)
            for part in m["content"]
            if part.get("type") == "image_url"
        )
        self.requests.append(Request(fmt, images, body.get("max_tokens")))
        if fmt == "human_turn":
            last = messages[-1]["content"]
            text = last if isinstance(last, str) else last[0]["text"]
            m = SPEECH.search(text)
            return json.dumps({"say": "", "commands": commands_of(m.group("s")) if m else []})
        return json.dumps({"mode": "wait", "text": ""})


class StandInServer(LoopbackEndpoint):
    """`with StandInServer() as s:` serves on 127.0.0.1 (a free port); `s.spec` names it in the model grammar."""

    def __init__(self, vision: bool = True) -> None:
        self.state = StandIn(vision=vision)
        super().__init__(self._respond)

    def _respond(self, request: EndpointRequest) -> EndpointReply:
        if request.method == "GET":
            if request.path.endswith("/props"):
                return EndpointReply(body={"modalities": {"vision": self.state.vision}})
            if request.path.endswith("/models"):
                inputs = ["text", "image"] if self.state.vision else ["text"]
                return EndpointReply(body={"data": [{"id": "standin", "architecture": {"input_modalities": inputs}}]})
            return EndpointReply(404, error_body(f"no such path {request.path}"))
        if not request.path.endswith("/chat/completions"):
            return EndpointReply(404, error_body(f"no such path {request.path}"))
        text = self.state.reply(request.body)
        return EndpointReply(
            body={
                "id": "standin",
                "object": "chat.completion",
                "model": "standin",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            }
        )

    @property
    def spec(self) -> str:
        return f"openai-compatible:standin@{self.base_url}"
