"""`--dialogue authors`: a model meets the authors' zero-shot dialogue, as their experiment ran it.

- The system prompt of their agents and the first prompt their Scene class assembles (the texts live in
  `dialogue.yaml`): the scene's description (else its name) and task, each followed by a period; one line per
  listed, not hidden object with the attributes its permissions allow, read from the MJCF body and its
  geom/joint/site/inertial children, numbers shown as a list of floats; their notes, their tool list as JSON,
  the answer instruction, the problem-type rule ("0 if all objects satisfy" for comparisons, "rounded to the
  nearest thousandths place" for computations, 0/1 for booleans) and their final guidelines.
- The reply is text; its tool calls are the first JSON value found in it (a fenced block that parses first,
  then the first balanced object or array), an object standing for a one-call array; each call is
  `{"tool": name, "parameters": {...}}`.
- An `answer` call with a value ends the episode at once: the other calls of that reply are not run. Else
  every call runs in order and the next message lists each as `tool(k=v, ...) -> result`, then the clock
  and their remaining-iterations line (their count: one below the iterations actually left). A reply without
  usable JSON costs its iteration and gets their invalid-JSON message.

Where theirs raised instead (a JSON value that is not a list of call objects: their loop indexed `tool`
or `parameters`, the exception ended the run and the log broke off), ours sends the invalid-JSON message, as
their prompt promises ("the environment will tell you")."""

from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from physment.agents import Agent, AgentTurn
from physment.authors.toolbox import AuthorsToolBox
from physment.scene import Scene
from physment.tools import ToolResult
from reacthuman.core.reply_json import FENCE_RE

DIALOGUE_FILE = Path(__file__).resolve().parent / "dialogue.yaml"
# `authors`: the prompt of their published code and of their runs from late February 2026 on (GPT-5.5, Claude
# Opus 4.7, DeepSeek-R1); `authors-early`: their runs before (GLM-5, Kimi K2.5, Qwen 3.5), whose `answer`
# tool read "submits an answer back to the system for checking or logging"
DIALOGUES = ("ours", "authors", "authors-early")
_EARLY_ANSWER_DESCRIPTION = "submits an answer back to the system for checking or logging"
_NUMBER_RE = re.compile(r"[-+]?\d*\.\d+|\d+")  # their display rule: a minus sign before an integer is lost
_CHILD_TAGS = ("geom", "joint", "site", "inertial")


@lru_cache(maxsize=1)
def texts() -> dict:
    return yaml.safe_load(DIALOGUE_FILE.read_text(encoding="utf-8"))


def system_prompt() -> str:
    return texts()["system"]


def _body_attributes(body: ET.Element) -> dict[str, str]:
    """`body_<attr>` for the body's own attributes, then `<tag>_<attr>` for its direct children (a later child
    of the same tag overwrites an earlier one's value in place)."""
    out = {f"body_{k}": v for k, v in body.attrib.items()}
    for tag in _CHILD_TAGS:
        for child in body.findall(tag):
            out.update({f"{tag}_{k}": v for k, v in child.attrib.items()})
    return out


def _display(value: str) -> str:
    numbers = _NUMBER_RE.findall(value)
    return str([float(n) for n in numbers]) if numbers else value


def _permissions(meta: dict) -> dict[str, dict]:
    """Their permission table: keys with `object_` and `_permissions` removed (`object_1_permissions` -> `1`)."""
    raw = meta.get("object_permissions") or {}
    return (
        {str(k).replace("object_", "").replace("_permissions", ""): v for k, v in raw.items()}
        if isinstance(raw, dict)
        else {}
    )


def _object_lines(meta: dict, xml_text: str) -> str:
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise ValueError(f"the scene's MJCF does not parse: {exc}") from exc
    bodies = root.findall(".//body")
    perms = _permissions(meta)
    objects = meta.get("objects") or {}
    lines = []
    for entry in objects.values() if isinstance(objects, dict) else objects:
        if not isinstance(entry, dict):
            continue
        oid = entry.get("object_id")
        # their lookup uses the id as written: an integer id never finds the table's string keys
        allowed = perms.get(oid, {}) if isinstance(oid, str) else {}
        allowed = allowed if isinstance(allowed, dict) else {}
        if allowed.get("hidden", False):
            continue
        body = next((b for b in bodies if b.get("name") == f"object_{oid}"), None)
        if body is None or len(body) == 0:  # a body without children was skipped too (an empty element is falsy)
            continue
        shown = [
            f"{k}: {_display(v)}"
            for k, v in _body_attributes(body).items()
            if not k.endswith("_name") and allowed.get(k, False)
        ]
        lines.append(
            ", ".join([f"Object id: object_{oid}, Object name: {entry.get('name', 'unknown')}"] + shown) + "\n"
        )
    return "".join(lines)


def _problem_rule(problem_type: str, dialogue: str) -> str:
    rules = dict(texts()["problem_type_rules"])
    if dialogue == "authors-early":
        rules.update(texts()["problem_type_rules_early"])
    if problem_type == "comparison":
        return "\n\n" + rules["comparison"]
    if problem_type == "computation" or "calculation" in problem_type:
        return "\n\n" + rules["computation"]
    if problem_type == "boolean":
        return "\n\n" + rules["boolean"]
    return ""


def _tools_json(dialogue: str) -> str:
    tools = [dict(t) for t in texts()["tools"]]
    if dialogue == "authors-early":
        tools = [dict(t, description=_EARLY_ANSWER_DESCRIPTION) if t["name"] == "answer" else t for t in tools]
    return json.dumps(tools, indent=2)


def build_prompt(scene: Scene, dialogue: str = "authors") -> str:
    """Their first prompt for a scene, from its metadata as written (`scene.source`) and its MJCF."""
    if dialogue not in DIALOGUES[1:]:
        raise ValueError(f"dialogue must be one of {', '.join(DIALOGUES[1:])}, got {dialogue!r}")
    t, meta = texts(), scene.source
    md = meta.get("metadata") if isinstance(meta.get("metadata"), dict) else {}
    description = md.get("description") or md.get("scene_name", "")
    problem_type = md.get("problem_type", "")
    return (
        f"{t['intro']}\n\nScene Description: {description}.\nTask: {md.get('task', '')}.\n"
        f"Available Objects and Parameters:\n{_object_lines(meta, scene.xml_text)}{t['object_notes']}\n"
        f"\n\n{t['tools_header']}\n{_tools_json(dialogue)}\n\n{t['result_example']}\n\n"
        f"{t['answer_instruction']}\n\n{_problem_rule(str(problem_type), dialogue)}\n\n{t['guidelines']}\n"
    )


# ---- replies -----------------------------------------------------------------------------------------------
def _balanced_values(text: str):
    """Each decodable JSON object or array, from the left (a fenced block first if one parses)."""
    for block in FENCE_RE.finditer(text):
        inner = block.group(0).strip("`").strip()
        head, _, rest = inner.partition("\n")
        inner = rest if head.strip().isalpha() else inner  # a language tag (json, python) on the fence's line
        try:
            yield json.loads(inner.strip())
        except json.JSONDecodeError:
            continue
    decoder = json.JSONDecoder()
    for i, ch in enumerate(text):
        if ch in "[{":
            try:
                yield decoder.raw_decode(text, i)[0]
            except json.JSONDecodeError:
                continue


def parse_reply(text: str) -> list[dict] | None:
    """The calls of a reply ([{"tool": str, "parameters": dict|...}, ...]), or None: no usable JSON."""
    value = next(_balanced_values(text or ""), None)
    if value is None:
        return None
    calls = value if isinstance(value, list) else [value]
    if not all(isinstance(c, dict) and isinstance(c.get("tool"), str) and "parameters" in c for c in calls):
        return None
    return calls


def _result_text(result: Any) -> str:
    if result is None:
        return "ok"
    if isinstance(result, dict) and "error" in result:
        return f"ERROR: {result['error']}"
    return result if isinstance(result, str) else json.dumps(result, default=_plain)


def _plain(value: Any) -> Any:
    return value.tolist() if hasattr(value, "tolist") else str(value)


def results_message(executed: list[tuple[str, Any, Any, float]], remaining: int) -> str:
    """Their message after a reply: (tool, parameters, result, sim_time) per executed call."""
    lines = []
    for tool, params, result, _ in executed:
        args = (
            ", ".join(f"{k}={json.dumps(v, default=_plain)}" for k, v in params.items())
            if isinstance(params, dict)
            else ""
        )
        lines.append(f"{tool}({args}) -> {_result_text(result)}")
    if executed:
        lines.append(f"[sim_time={executed[-1][3]}]")
    return texts()["results_message"].format(results="\n".join(lines), remaining=remaining)


def invalid_message(remaining: int) -> str:
    return texts()["invalid_message"].format(remaining=remaining)


# ---- the loop ----------------------------------------------------------------------------------------------
@dataclasses.dataclass
class DialogueEpisode:
    prompt: str
    system: str
    turns: list[dict]
    answer_iteration: int | None


def _run_call(toolbox: AuthorsToolBox, tool: str, params: Any) -> tuple[ToolResult, Any, float]:
    if tool == "answer":  # a null answer only reaches here; their `answer` tool acknowledged it
        ok = isinstance(params, dict) and set(params) == {"answer"}
        raw = {"acknowledged": True} if ok else {"error": "<lambda>() got unexpected or missing arguments"}
        return ToolResult(tool, params, ok, raw), raw, toolbox.sim.time
    if not isinstance(params, dict):
        raw = {"error": f"Simulator.{tool}() argument after ** must be a mapping, not {type(params).__name__}"}
        return ToolResult(tool, params, False, raw), raw, toolbox.sim.time
    return toolbox.run(tool, params)


def run_dialogue(
    scene: Scene,
    agent: Agent,
    toolbox: AuthorsToolBox,
    budget: int,
    dialogue: str,
    context: Callable[[list[dict]], list[dict]],
) -> DialogueEpisode:
    """Their loop for one episode; `context` picks what of the message list the agent sees."""
    prompt = build_prompt(scene, dialogue)
    messages = [{"role": "system", "content": system_prompt()}, {"role": "user", "content": prompt}]
    agent.begin(scene, budget)
    mode = getattr(agent, "tool_mode", None)
    if mode is not None:
        agent.tool_mode = "text"  # their models had no tool API: calls come as JSON in the reply text
    turns: list[dict] = []
    answer_iteration = None
    try:
        for k in range(1, budget + 1):
            remaining = budget - k - 1
            turn = _act(agent, context(messages))
            calls = parse_reply(turn.text) if not turn.api_error else None
            executed: list[tuple[str, Any, Any, float]] = []
            results: list[ToolResult] = []
            first_answer = next((c for c in calls or [] if c["tool"] == "answer"), None)
            value = (
                first_answer["parameters"].get("answer")
                if first_answer and isinstance(first_answer["parameters"], dict)
                else None
            )
            if value is not None:
                results.append(toolbox.call("answer", {"answer": value}))
                answer_iteration = k
            else:
                for c in calls or []:
                    res, raw, sim_time = _run_call(toolbox, c["tool"], c["parameters"])
                    results.append(res)
                    executed.append((c["tool"], c["parameters"], raw, sim_time))
            turns.append(_turn_record(k, turn, calls, results))
            if answer_iteration is not None:
                break
            reply = calls is not None
            messages += [
                {"role": "assistant", "content": turn.text},
                {
                    "role": "user",
                    "content": results_message(executed, remaining) if reply else invalid_message(remaining),
                },
            ]
    finally:
        if mode is not None:
            agent.tool_mode = mode
    return DialogueEpisode(prompt, messages[0]["content"], turns, answer_iteration)


def _act(agent: Agent, messages: list[dict]) -> AgentTurn:
    try:
        return agent.act(messages, [])
    except Exception as exc:  # an agent bug or a client failure is this turn's API error, not the run's end
        return AgentTurn(text="", calls=[], api_error=f"agent error: {type(exc).__name__}: {exc}")


def _turn_record(k: int, turn: AgentTurn, calls: list[dict] | None, results: list[ToolResult]) -> dict:
    parse_error = (
        None
        if calls is not None or turn.api_error
        else 'no JSON array of {"tool": ..., "parameters": {...}} calls found (their invalid-JSON message)'
    )
    return {
        "iteration": k,
        "text": turn.text,
        "reasoning": turn.reasoning,
        "native": False,
        "parse_error": parse_error,
        "api_error": turn.api_error,
        "calls_proposed": len(calls or []),
        "latency_s": turn.latency_s,
        "prompt_tokens": turn.prompt_tokens,
        "completion_tokens": turn.completion_tokens,
        "retries": turn.retries,
        "model_id": turn.model_id,
        "results": [r.as_dict() for r in results],
    }
