"""Agents: the model agent (native tool calls, else a JSON array/object in its text) and the scripted
oracle that replays a scene's reference solution turn by turn."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Generator, Protocol

from physment.scene import Scene
from physment.scenegen.templates import reference_solver
from physment.tools import ToolResult
from physment.toolspec import call_schema, openai_tools, tools_named
from reacthuman.core.reply_json import FENCE_RE, json_candidates, response_format

MAX_CALLS_PER_TURN = 48  # beyond this a reply is truncated (and the extra calls reported), not executed


@dataclasses.dataclass
class AgentTurn:
    text: str
    calls: list[dict]  # {"name": str, "arguments": object}
    native: bool = False
    parse_error: str | None = None
    api_error: str | None = None
    latency_s: float = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    retries: int = 0
    model_id: str = ""

    @property
    def reasoning(self) -> str:
        return reasoning_of(self.text)


class Agent(Protocol):
    name: str

    def begin(self, scene: Scene, budget: int) -> None: ...

    def act(self, messages: list[dict], last_results: list[ToolResult]) -> AgentTurn: ...


# ---- parsing replies ---------------------------------------------------------------------------------
def _call_of(entry: Any) -> dict | None:
    if not isinstance(entry, dict):
        return None
    fn = entry.get("function")
    if isinstance(fn, dict):  # an OpenAI-style tool call pasted as text
        entry = {"name": fn.get("name"), "arguments": fn.get("arguments")}
    name = entry.get("tool", entry.get("name", entry.get("action")))
    if not isinstance(name, str):
        return None
    args = entry.get("arguments", entry.get("args", entry.get("parameters", entry.get("input", {}))))
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError:
            pass  # kept as a string: the tool reports it as a bad argument
    return {"name": name.strip(), "arguments": args}


def _calls_of(value: Any) -> list[dict] | None:
    if isinstance(value, dict):
        for key in ("tool_calls", "actions", "calls", "tools"):
            if isinstance(value.get(key), list):
                return [c for c in (_call_of(e) for e in value[key]) if c]
        single = _call_of(value)
        return [single] if single else None
    if isinstance(value, list):
        calls = [c for c in (_call_of(e) for e in value) if c]
        return calls if calls or not value else None
    return None


def parse_tool_calls(text: str) -> tuple[list[dict], str | None]:
    """(calls, error): calls from the first JSON value in the reply that holds any; error when none does."""
    if not text or not text.strip():
        return [], "empty reply"
    for value in json_candidates(text):
        calls = _calls_of(value)
        if calls:
            return calls, None
    return [], 'no tool call found (expected a JSON array or {"tool_calls": [...]})'


def _strip_json(text: str) -> str:
    """The text with every fenced block and decodable JSON object/array removed."""
    text = FENCE_RE.sub(" ", text)
    decoder, out, i = json.JSONDecoder(), [], 0
    while i < len(text):
        if text[i] in "[{":
            try:
                _, end = decoder.raw_decode(text, i)
                i = end
                continue
            except json.JSONDecodeError:
                pass
        out.append(text[i])
        i += 1
    return "".join(out)


def reasoning_of(text: str) -> str:
    """The natural-language part of a reply: the `reasoning` field if the reply is JSON, else the text
    around any JSON (tool-call arguments are actions, not assertions)."""
    for value in json_candidates(text or ""):
        if isinstance(value, dict):
            for key in ("reasoning", "thought", "thoughts", "analysis"):
                if isinstance(value.get(key), str):
                    return value[key]
    return _strip_json(text or "").strip()


# ---- the model agent ---------------------------------------------------------------------------------
def reply_schema(max_calls: int = 4, names: tuple[str, ...] | None = None) -> dict:
    """JSON schema for models without native tools: every call typed per tool and every string bounded, so
    a grammar-constrained small model always produces a usable reply and cannot ramble to max_tokens."""
    return response_format(
        "physment_reply",
        {
            "type": "object",
            "required": ["reasoning", "tool_calls"],
            "additionalProperties": False,
            "properties": {
                "reasoning": {"type": "string", "maxLength": 300},
                "tool_calls": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": max_calls,
                    "items": {"anyOf": [call_schema(t) for t in tools_named(names)]},
                },
            },
        },
    )


_TOOLS_UNSUPPORTED = ("tool", "function")


class ModelAgent:
    """A chat model behind reacthuman.llm's client. tool_mode:
    - 'native': the API's tool calling (a reply without tool calls is parsed as text);
    - 'json': a JSON reply, grammar-constrained by a typed schema when the preset enforces schemas;
    - 'text': free text, parsed for a JSON array/object of calls;
    - 'auto' (default): 'json' for presets that enforce schemas (the embedded model), else 'native', falling
      back to 'json' for the rest of the run if the server rejects the tools parameter."""

    def __init__(
        self,
        client: Any,
        name: str,
        tool_mode: str = "auto",
        max_tokens: int | None = 512,
        tools: tuple[str, ...] | None = None,
    ) -> None:
        if tool_mode not in ("auto", "native", "json", "text"):
            raise ValueError(f"tool_mode must be auto, native, json or text, got {tool_mode!r}")
        if tool_mode == "auto":
            tool_mode = "json" if self._enforces_schema(client) else "native"
        self.client, self.name, self.tool_mode, self.max_tokens = client, name, tool_mode, max_tokens
        self.tools = tools  # None: every tool; else the protocol's set (what the API and schema offer)

    @staticmethod
    def _enforces_schema(client: Any) -> bool:
        return bool(getattr(getattr(client, "preset", None), "json_schema", False))

    def begin(self, scene: Scene, budget: int) -> None:
        return None

    def _request(self, messages: list[dict]) -> Any:
        # max_tokens None: the preset's own limit (the paper protocol; reasoning models need thousands)
        kwargs: dict[str, Any] = {"max_tokens": self.max_tokens}
        if self.tool_mode == "native":
            kwargs["tools"] = openai_tools(self.tools)
        elif self.tool_mode == "json" and self._enforces_schema(self.client):
            kwargs["response_format"] = reply_schema(names=self.tools)
        res = self.client.chat(messages, **kwargs)
        rejected = (
            res.api_error
            and res.http_status in (400, 404, 422, 500, 501)
            and any(w in res.api_error.lower() for w in _TOOLS_UNSUPPORTED)
        )
        if self.tool_mode == "native" and rejected:
            self.tool_mode = "json"  # this server has no tool calling: JSON in the text from now on
            return self._request(messages)
        return res

    def act(self, messages: list[dict], last_results: list[ToolResult]) -> AgentTurn:
        res = self._request(messages)
        turn = AgentTurn(
            text=res.text or "",
            calls=[],
            latency_s=res.latency_s,
            prompt_tokens=res.prompt_tokens,
            completion_tokens=res.completion_tokens,
            retries=res.retries,
            model_id=res.model_id,
            api_error=res.api_error,
        )
        if res.api_error:
            return turn
        if res.tool_calls:
            turn.native = True
            turn.calls = [
                {"name": c.get("name", ""), "arguments": c.get("arguments", c.get("raw_arguments"))}
                for c in res.tool_calls
            ]
        else:
            turn.calls, turn.parse_error = parse_tool_calls(turn.text)
        return turn


# ---- the oracle --------------------------------------------------------------------------------------
Solver = Generator[list[dict], list[dict], None]


class OracleAgent:
    """Replays a scene's reference solution (a generator yielding one turn of calls at a time)."""

    name = "oracle"

    def __init__(self, tools: tuple[str, ...] | None = None) -> None:
        self._solver: Solver | None = None
        self._error: str | None = None
        self.tools = tools  # the protocol's tool set: a template's variant without reset_sim when it has one

    def begin(self, scene: Scene, budget: int) -> None:
        self._error = None
        try:
            self._solver = reference_solver(scene, self.tools)
        except KeyError as exc:
            self._solver, self._error = None, str(exc)

    def act(self, messages: list[dict], last_results: list[ToolResult]) -> AgentTurn:
        if self._solver is None:
            return AgentTurn(text="", calls=[], parse_error=self._error or "no reference solution")
        try:
            if last_results:
                calls = self._solver.send(
                    [r.result if r.ok else {"error": r.result.get("error")} for r in last_results]
                )
            else:
                calls = next(self._solver)
        except StopIteration:
            return AgentTurn(text="", calls=[], parse_error="reference solution ended without an answer")
        text = json.dumps(
            {
                "reasoning": "reference solution",
                "tool_calls": [{"tool": c["name"], "arguments": c["arguments"]} for c in calls],
            },
            default=float,
        )
        return AgentTurn(text=text, calls=calls, model_id="oracle")
