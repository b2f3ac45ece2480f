"""One episode: a bounded loop of I_max iterations in which the agent reasons and calls tools, results are
appended to its context, and `answer` ends the episode. Every failure (API error, unparseable reply, bad
call) is recorded as part of the episode; none ends the run."""

from __future__ import annotations

import dataclasses
import json
import logging
import time

from physment.agents import MAX_CALLS_PER_TURN, Agent, AgentTurn
from physment.authors.dialogue import DIALOGUES, run_dialogue
from physment.authors.matcher import authors_correct
from physment.authors.toolbox import AuthorsToolBox
from physment.authors.tools import SWITCHES
from physment.metrics import episode_metrics
from physment.prompt import build_prompt, system_prompt
from physment.protocol import DEFAULT_PROTOCOL, MATCHERS, PROTOCOLS, paper_correct
from physment.protocol import protocol as named_protocol
from physment.record import EpisodeRecord
from physment.scene import Scene
from physment.scoring import (
    ABS_TOL,
    REL_TOL,
    is_correct,
    normalisation_classes,
    regrade,
    score_answer,
)
from physment.tools import ToolBox, ToolResult
from physment.toolspec import TOOL_NAMES

LOG = logging.getLogger(__name__)
BUDGETS = (5, 10, 15, 20)
CONTEXT_CHARS_MAX = 24000  # keep the prompt plus the latest exchanges under this (small local context)


@dataclasses.dataclass
class EpisodeConfig:
    budget: int = 5
    prompting: str = "zero-shot"
    context_chars_max: int = CONTEXT_CHARS_MAX
    brief_api: bool = False  # tool signatures without descriptions (small local contexts)
    protocol: str = DEFAULT_PROTOCOL  # physment.protocol: whose matcher decides `correct`
    matcher: str | None = None  # strict | paper | authors: overrides the protocol's matcher for `correct`
    trim_context: bool = True  # False: the cumulative context with nothing dropped (the paper's)
    tools: tuple[str, ...] = TOOL_NAMES
    tool_semantics: frozenset[str] | None = None  # None: ours; else the authors' switches on (physment.authors)
    dialogue: str = (
        "ours"  # ours | authors | authors-early: whose prompt, call format and loop (physment.authors.dialogue)
    )

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {self.protocol!r}")
        if self.matcher is not None and self.matcher not in MATCHERS:
            raise ValueError(f"matcher must be one of {', '.join(MATCHERS)}, got {self.matcher!r}")
        unknown = sorted(set(self.tools) - set(TOOL_NAMES))
        if unknown:
            raise ValueError(f"tools: unknown tool(s) {unknown}")
        if int(self.budget) < 1:
            raise ValueError(f"budget must be >= 1, got {self.budget}")
        if self.prompting not in ("zero-shot", "one-shot", "few-shot"):
            raise ValueError(f"prompting must be zero-shot, one-shot or few-shot, got {self.prompting!r}")
        if self.dialogue not in DIALOGUES:
            raise ValueError(f"dialogue must be one of {', '.join(DIALOGUES)}, got {self.dialogue!r}")
        if self.dialogue != "ours" and self.tool_semantics is None:
            raise ValueError("the authors' dialogue lists their tools: it needs their tool semantics (--tools authors)")
        if self.dialogue != "ours" and self.prompting != "zero-shot":
            raise ValueError(
                f"the authors' dialogue is their zero-shot prompt; prompting {self.prompting!r} needs --dialogue ours"
            )
        if self.context_chars_max < 2000:
            raise ValueError(f"context_chars_max must be >= 2000, got {self.context_chars_max}")


def default_config(**overrides: object) -> EpisodeConfig:
    """The episode settings of the paper's smallest budget, zero-shot, with overrides."""
    return EpisodeConfig(**overrides)  # type: ignore[arg-type]


def protocol_config(protocol: str, **overrides: object) -> EpisodeConfig:
    """The episode settings a named protocol implies (context trimming, tool set), with overrides."""
    proto = named_protocol(protocol)
    fields = {"protocol": proto.name, "trim_context": proto.trim_context, "tools": proto.tools}
    fields.update(overrides)
    return EpisodeConfig(**fields)  # type: ignore[arg-type]


def _trim(messages: list[dict], limit: int) -> list[dict]:
    """System and task prompt always; then as many of the latest messages as fit."""
    head, tail = messages[:2], messages[2:]
    budget = limit - sum(len(str(m.get("content", ""))) for m in head)
    kept: list[dict] = []
    for m in reversed(tail):
        size = len(str(m.get("content", "")))
        if size > budget:
            break
        kept.append(m)
        budget -= size
    return head + list(reversed(kept))


def _results_message(results: list[ToolResult], note: str | None, k: int, budget: int) -> dict:
    body = json.dumps([{"tool": r.tool, "ok": r.ok, "result": r.result} for r in results], default=float)
    left = budget - k
    text = (f"Tool results: {body}" if results else "No tool was run.") + (f"\n{note}" if note else "")
    text += f"\nIterations left: {left}." + (" Call answer now." if left == 1 else "")
    return {"role": "user", "content": text}


def _assistant_message(turn: AgentTurn) -> dict:
    content = turn.text or json.dumps(
        {"tool_calls": [{"tool": c["name"], "arguments": c["arguments"]} for c in turn.calls]}, default=float
    )
    return {"role": "assistant", "content": content}


def _our_loop(
    scene: Scene, agent: Agent, toolbox: ToolBox, config: EpisodeConfig
) -> tuple[str, str, list[dict], int | None]:
    """Our prompt, native or JSON tool calls, our results message: (prompt, system prompt, turns, the
    iteration that answered)."""
    prompt = build_prompt(toolbox, config.budget, config.prompting, config.brief_api, tuple(config.tools))
    messages = [{"role": "system", "content": system_prompt()}, {"role": "user", "content": prompt}]
    agent.begin(scene, config.budget)
    turns: list[dict] = []
    last: list[ToolResult] = []
    answer_iteration = None
    for k in range(1, config.budget + 1):
        try:
            context = _trim(messages, config.context_chars_max) if config.trim_context else list(messages)
            turn = agent.act(context, last)
        except Exception as exc:  # an agent bug or a client failure is this turn's API error, not the run's end
            LOG.warning("%s on %s, iteration %d: %s: %s", agent.name, scene.scene_id, k, type(exc).__name__, exc)
            turn = AgentTurn(text="", calls=[], api_error=f"agent error: {type(exc).__name__}: {exc}")
        results: list[ToolResult] = []
        note = None
        if turn.api_error:
            note = f"The model API failed: {turn.api_error}"
        elif not turn.calls:
            note = f"Your reply could not be used ({turn.parse_error}). Reply with tool calls as JSON."
        for call in turn.calls[:MAX_CALLS_PER_TURN]:
            res = toolbox.call(call["name"], call["arguments"])
            results.append(res)
            if res.terminal:
                answer_iteration = k
                break
        if len(turn.calls) > MAX_CALLS_PER_TURN and answer_iteration is None:
            note = f"Only the first {MAX_CALLS_PER_TURN} tool calls of a reply are run."
        turns.append(
            {
                "iteration": k,
                "text": turn.text,
                "reasoning": turn.reasoning,
                "native": turn.native,
                "parse_error": turn.parse_error,
                "api_error": turn.api_error,
                "calls_proposed": len(turn.calls),
                "latency_s": turn.latency_s,
                "prompt_tokens": turn.prompt_tokens,
                "completion_tokens": turn.completion_tokens,
                "retries": turn.retries,
                "model_id": turn.model_id,
                "results": [r.as_dict() for r in results],
            }
        )
        if answer_iteration is not None:
            break
        messages += [_assistant_message(turn), _results_message(results, note, k, config.budget)]
        last = results
    return prompt, messages[0]["content"], turns, answer_iteration


def run_episode(scene: Scene, agent: Agent, config: EpisodeConfig) -> tuple[EpisodeRecord, dict]:
    """(results row, transcript) for one scene, agent and budget."""
    allowed = None if config.tools == TOOL_NAMES else tuple(config.tools)
    toolbox = (
        ToolBox(scene, allowed=allowed)
        if config.tool_semantics is None
        else AuthorsToolBox(scene, config.tool_semantics, allowed=allowed)
    )
    start = time.monotonic()
    if config.dialogue != "ours":
        ep = run_dialogue(
            scene,
            agent,
            toolbox,
            config.budget,
            config.dialogue,  # type: ignore[arg-type]
            lambda m: _trim(m, config.context_chars_max) if config.trim_context else list(m),
        )
        prompt, system, turns, answer_iteration = ep.prompt, ep.system, ep.turns, ep.answer_iteration
    else:
        prompt, system, turns, answer_iteration = _our_loop(scene, agent, toolbox, config)
    row = score_episode(scene, toolbox, turns, config, answer_iteration)
    row.update(
        agent=agent.name,
        prompting=config.prompting,
        wall_s=round(time.monotonic() - start, 3),
        model_id=next((t["model_id"] for t in turns if t["model_id"]), ""),
    )
    transcript = {
        "scene": scene.scene_id,
        "agent": agent.name,
        "budget": config.budget,
        "prompting": config.prompting,
        "dialogue": config.dialogue,
        "prompt": prompt,
        "system": system,
        "turns": turns,
        "result": row,
    }
    return EpisodeRecord.from_dict(row), transcript


def tools_name(switches: frozenset[str]) -> str:
    off = sorted(set(SWITCHES) - set(switches))
    return "authors" + (":" + ",".join(f"-{s}" for s in off) if off else "")


def tolerances(scene: Scene) -> tuple[float, float]:
    tol = scene.extra.get("tolerance") or {}
    return float(tol.get("abs", ABS_TOL)), float(tol.get("rel", REL_TOL))


def score_episode(
    scene: Scene, toolbox: ToolBox, turns: list[dict], config: EpisodeConfig, answer_iteration: int | None
) -> dict:
    abs_tol, rel_tol = tolerances(scene)
    categorical = scene.problem_type in ("comparison", "observation")
    answered = answer_iteration is not None
    predicted = toolbox.submitted if answered else None
    strict = answered and is_correct(predicted, scene.answer, abs_tol, rel_tol, categorical)
    paper = answered and paper_correct(predicted, scene.answer, abs_tol, rel_tol)
    authors = answered and authors_correct(predicted, scene.answer)
    matcher = config.matcher or PROTOCOLS[config.protocol].matcher
    correct = {"strict": strict, "paper": paper, "authors": authors}[matcher]
    graded = score_answer(predicted, scene.answer, abs_tol, rel_tol, categorical) if answered else 0.0
    names = {o.object_id: o.name for o in scene.objects}
    synonyms = scene.extra.get("answer_synonyms")
    rule = None if strict or not answered else regrade(predicted, scene.answer, names, synonyms)
    classes = normalisation_classes(predicted, scene.answer, names, synonyms) if answered else {}
    row = {
        "scene": scene.scene_id,
        "scene_number": scene.number,
        "category": scene.category,
        "category_source": scene.extra.get("category_source", "metadata"),
        "authors_category": scene.extra.get("authors_category"),
        "timestep_s": toolbox.lab.timestep_s,
        "tools": "ours" if config.tool_semantics is None else tools_name(config.tool_semantics),
        "topic": scene.extra.get("topic", ""),
        "problem_type": scene.problem_type,
        "budget": config.budget,
        "protocol": config.protocol,
        "dialogue": config.dialogue,
        "answered": answered,
        "answer_iteration": answer_iteration,
        "iterations_used": len(turns),
        "predicted": predicted,
        "truth": scene.answer,
        "matcher": matcher,
        "correct": bool(correct),
        "correct_strict": bool(strict),
        "correct_paper": bool(paper),
        "correct_authors": bool(authors),
        "graded": graded,
        "regrade_rule": rule,
        "normalisation": classes,
        "correct_after_regrade": bool(strict or rule),
    }
    row.update(episode_metrics(scene, turns, config.budget, answer_iteration, graded))
    return row
