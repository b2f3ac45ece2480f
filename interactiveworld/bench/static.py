"""The static variant: the same episodes as a fixed image sequence (recorded by replaying the oracle up to
the decision point) and one question; no acting, no feedback. Judged by key facts: the answer must contain
the reference instructions of that turn and no contradicting instruction; with `--judge <model>` also by
the frozen semantic judge (`bench.judge`), reported beside it."""

from __future__ import annotations

import json
from pathlib import Path

from interactiveworld.actions.parser import Command, parse_speech
from interactiveworld.agents.assistants import REFERENCE_ASSISTANTS, make_assistant, recorded_name
from interactiveworld.agents.base import AssistantBrief, AssistantObservation, select_frames
from interactiveworld.agents.scripted_human import ScriptedHuman
from interactiveworld.bench.taskpack import TaskPack, load_packs, write_atomic
from interactiveworld.episode import Episode, HumanView
from interactiveworld.agents.base import AssistantReply
from interactiveworld.bench.judge import make_judge

STATIC_VERBS_IGNORED = ("wait",)


def static_item(pack: TaskPack, render: bool) -> tuple[Episode, AssistantObservation, list[Command]]:
    """Replay the opening and the oracle's turns before `static_turn`; return the frozen observation."""
    ep = Episode(pack, render)
    ep.run_opening()
    human = ScriptedHuman()
    human.reset(pack.private_plan, pack.blind, ep.catalog)
    frames = []
    speech = pack.handoff
    for turn in range(pack.static_turn):
        frames += ep.pending
        ep.pending = []
        say = pack.oracle[turn]
        decision = human.decide(say, HumanView(pack.blind, (), (), ()))
        results = [ep.execute(t) for t in decision.commands]
        speech = " ".join(r.message for r in results) or "(waits)"
    frames += ep.pending
    question = f"{speech}\n\nQuestion: {pack.static_question}"
    key = [c for c in parse_speech(pack.oracle[pack.static_turn] or "", ep.catalog) if isinstance(c, Command)]
    return ep, AssistantObservation(pack.static_turn, select_frames(frames), question), key


def judge(answer: str, key: list[Command], ep: Episode) -> bool:
    said = [c for c in parse_speech(answer, ep.catalog) if isinstance(c, Command)]
    sig = {(c.verb, c.target, c.dest) for c in said}
    if not all((k.verb, k.target, k.dest) in sig for k in key if k.verb not in STATIC_VERBS_IGNORED):
        return False
    cat = {n: e.sub for n, e in ep.catalog.entities.items()}
    for c in said:  # a harmful contradiction: the same act on a look-alike, or to another destination
        for k in key:
            if c.verb == k.verb and (c.target, c.dest) != (k.target, k.dest) and cat.get(c.target) == cat.get(k.target):
                return False
    return bool(key)


class _StaticScripted:
    """The oracle (or wrong) assistant's answer at the static decision point."""

    def __init__(self, name: str, answer: str | None) -> None:
        self.name = name
        self.answer = answer or ""

    def reset(self, brief) -> None:
        pass

    def act(self, obs):
        return AssistantReply("speak", self.answer) if self.answer else AssistantReply("wait")


def run_static(tasks_dir: Path, assistant: str, out_dir: Path, judge_model: str = "") -> list[dict]:
    """judge_model: also grade each answer with the frozen LLM judge (`bench.judge`), beside the key facts."""
    packs = load_packs(tasks_dir)
    out_dir = Path(out_dir)
    rows = []
    shared = None if assistant in REFERENCE_ASSISTANTS else make_assistant(assistant, None)
    if shared is not None:
        shared.check_view()  # the static items are image sequences: a text-only model is refused, not scored blind
    llm_judge = None
    if judge_model:
        llm_judge = make_judge(judge_model)
    try:
        for pack in packs:
            if shared is not None:
                a = shared
            elif assistant in ("oracle", "wrong"):
                turns = pack.oracle if assistant == "oracle" else pack.wrong
                a = _StaticScripted(assistant, turns[pack.static_turn] if pack.static_turn < len(turns) else None)
            else:
                a = make_assistant(assistant, pack)
            ep, obs, key = static_item(pack, render=shared is not None)
            try:
                a.reset(AssistantBrief(pack.family, pack.task_id, 1))
                reply = a.act(obs)
                answer = reply.text if reply.mode == "speak" else ""
                correct = reply.mode == "speak" and judge(answer, key, ep)
            finally:
                ep.close()
            row = {
                "task_id": pack.task_id,
                "family": pack.family,
                "assistant": recorded_name(assistant),
                "correct": correct,
                "answer": answer,
            }
            if llm_judge is not None:
                v = llm_judge.grade(pack.static_question, pack.oracle[pack.static_turn] or "", answer)
                row.update(
                    judge=llm_judge.name,
                    judge_verdict=v.verdict,
                    judge_correct=v.correct,
                    judge_reason=v.reason,
                    judge_prompt_sha256=v.prompt_sha256,
                )
            rows.append(row)
    finally:
        for agent in (shared, llm_judge):
            if agent is not None and hasattr(agent, "close"):
                agent.close()
    write_atomic(out_dir / "static.jsonl", "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    return rows
