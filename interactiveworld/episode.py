"""One closed-loop episode: opening, handoff, then turns of assistant speech and human action, scored
from the final simulator state only."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from interactiveworld.actions.entities import Catalog
from interactiveworld.actions.executor import Executor
from interactiveworld.actions.knowledge import HumanKnowledge
from interactiveworld.actions.parser import ParseFailure, parse_command, parse_speech
from interactiveworld.actions.primitives import FAILURE_CODES
from interactiveworld.actions.result import ActionResult
from interactiveworld.agents.base import (
    HUMAN_COMMANDS_PER_TURN,
    AssistantBrief,
    AssistantObservation,
    Frame,
    HumanView,
    select_frames,
)
from interactiveworld.bench.taskpack import TaskPack
from interactiveworld.world.predicates import evaluate
from interactiveworld.world.cache import build_world
from interactiveworld.world.sim import World
from interactiveworld.world.render import EyeCamera
from interactiveworld.recording import EpisodeBag

LOG = logging.getLogger(__name__)
MAX_COMMANDS_PER_TURN = HUMAN_COMMANDS_PER_TURN


@dataclass
class EpisodeResult:
    task_id: str
    family: str
    assistant: str
    human: str
    passed: bool = False
    completion: float = 0.0
    n_actions: int = 0
    turns: int = 0
    voided: bool = False
    void_reason: str = ""
    goals_final: list[bool] = field(default_factory=list)
    goals_at_handoff: list[bool] = field(default_factory=list)
    trace: list[dict] = field(default_factory=list)
    digest: str = ""
    wall_s: float = 0.0


def visible_names(world: World, catalog: Catalog, knowledge: HumanKnowledge) -> tuple[str, ...]:
    """The furniture and doors of the human's room (it knows its home) and the objects its eyes see now
    (simulator visibility from the head camera, see `world.visibility`)."""
    if world.blind:
        return ()
    room = world.apartment.room_at(world.pose.x, world.pose.y)
    out = set(knowledge.visible)
    for name, e in catalog.entities.items():
        if e.kind in ("fixture", "person") and world.fixtures[name].room == room:
            out.add(name)
        elif e.kind == "door" and room in world.doors[name].rooms:
            out.add(name)
    return tuple(sorted(out))


class Episode:
    def __init__(self, pack: TaskPack, render: bool = False, body: str = "capsule") -> None:
        self.pack = pack
        self.world = build_world(pack.scene, body, meshes=render)  # meshes only matter to a camera
        self.world.blind = pack.blind
        self.catalog = Catalog(self.world)
        self.pending: list[Frame] = []
        self.camera = None
        self.bag = None
        if render:
            self.camera = EyeCamera(self.world)
        self.knowledge = HumanKnowledge()
        self.executor = Executor(self.world, self.catalog, frozenset(pack.actions), self._on_frame, self.knowledge)
        self.know_own_things()

    def know_own_things(self) -> None:
        """The human knows where the things of its own private plan are."""
        for text in self.pack.private_plan:
            c = parse_command(text, self.catalog)
            if isinstance(c, ParseFailure):
                continue
            for name in (c.target, c.dest):
                if name and self.catalog.kind(name) == "object" and not self.knowledge.knows(name):
                    r = self.world.region_of(name)
                    self.knowledge.felt(name, r.owner if r is not None else "")

    def hear(self, speech: str) -> None:
        """The human hears the assistant: where things are, when it says so."""
        self.knowledge.hear(speech, self.catalog)

    def begin_turn(self, turn: int) -> list[str]:
        """The scene's events of this turn happen (someone else acts in the home); the human's eyes take in the
        result (one frame, what it now sees). Returns what the human noticed (heard) of them."""
        events = [e for e in self.pack.scene.events if e.turn == turn]
        for e in events:
            self.world.happen(e)
        if events:
            self.knowledge.observe(self.world)
            self._on_frame("meanwhile")
        return [e.notice for e in events if e.notice]

    def _on_frame(self, label: str) -> None:
        image = self.camera.frame() if self.camera else None
        self.pending.append(Frame(image, label))
        if self.bag is not None and image is not None:
            self.bag.frame(self.world.machine.clock_s, image)

    def close(self) -> None:
        if self.camera is not None:
            self.camera.close()
            self.camera = None

    def execute(self, text: str) -> ActionResult:
        parsed = parse_command(text, self.catalog)
        if isinstance(parsed, ParseFailure):
            return ActionResult(
                "?", ok=False, code=parsed.code, message=f"cannot do '{text}': {FAILURE_CODES[parsed.code]}"
            )
        return self.executor.run(parsed)

    def run_opening(self) -> list[dict]:
        """The scripted history before handoff. The human does not carry it over: at handoff it knows only
        what it sees then and the things of its own private plan (recalling the rest is the assistant's job)."""
        out = []
        self.executor.knowledge = None
        try:
            for text in self.pack.opening:
                r = self.execute(text)
                if not r.ok:
                    raise RuntimeError(f"task {self.pack.task_id}: opening step '{text}' failed: {r.message}")
                out.append({"phase": "opening", "command": text, **r.to_json()})
        finally:
            self.executor.knowledge = self.knowledge
        self.knowledge.place_of.clear()
        self.knowledge.observe(self.world)
        self.know_own_things()
        return out


def _said(text: str, catalog: Catalog) -> list[dict]:
    """The commands an utterance contains, as the scorer reads them (unclear names kept as failures)."""
    out = []
    for p in parse_speech(text, catalog):
        if isinstance(p, ParseFailure):
            out.append({"verb": "?", "code": p.code, "text": p.text})
        else:
            sub = catalog.entities[p.target].sub if p.target else ""
            out.append({"verb": p.verb, "target": p.target, "dest": p.dest, "target_sub": sub})
    return out


def _human_report(results: list[ActionResult], events: list[str]) -> str:
    parts = [r.said_aloud() for r in results]
    if events:
        parts.append("I noticed: " + ", ".join(sorted(set(events))))
    return ". ".join(p[0].upper() + p[1:] for p in parts if p) + ("." if parts else "")


def _with_notices(speech: str, noticed: list[str]) -> str:
    """The human's words of its last turn, with what it heard happen since."""
    heard = " ".join(n[0].upper() + n[1:] + ("" if n.endswith((".", "!", "?")) else ".") for n in noticed)
    return heard if speech == "(waits)" else f"{speech} {heard}"


def run_episode(
    pack: TaskPack, assistant, human, render: bool = False, bag_path=None, body: str = "capsule"
) -> EpisodeResult:
    """bag_path: also record the episode as a rosbag2 folder there (speech, frames when rendering, verdict).
    body: the human's body, "capsule" (primitives) or "cmu" (dm_control's CMU humanoid)."""
    start = time.monotonic()
    res = EpisodeResult(pack.task_id, pack.family, assistant.name, human.name)
    ep = None
    try:
        ep = Episode(pack, render, body)
        if bag_path is not None:
            ep.bag = EpisodeBag(bag_path)
        res.trace += ep.run_opening()
        res.goals_at_handoff = [evaluate(g, ep.world) for g in pack.goals]
        ep._on_frame("handoff")  # the view at handoff opens the assistant's first turn
        assistant.reset(AssistantBrief(pack.family, pack.task_id, pack.max_turns))
        human.reset(pack.private_plan, pack.blind, ep.catalog)
        speech = pack.handoff
        if ep.bag:
            ep.bag.speech(ep.world.machine.clock_s, "human", speech)
        human_frames: list[Frame] = []
        last_results: tuple[str, ...] = ()
        for turn in range(pack.max_turns):
            res.turns = turn + 1
            noticed = ep.begin_turn(turn)
            if noticed:
                speech = _with_notices(speech, noticed)
                res.trace.append({"turn": turn, "role": "world", "events": noticed})
            obs = AssistantObservation(turn, select_frames(ep.pending), speech)
            human_frames = [] if pack.blind else list(ep.pending)
            ep.pending = []
            reply = assistant.act(obs)
            res.trace.append(
                {
                    "turn": turn,
                    "role": "assistant",
                    "mode": reply.mode,
                    "text": reply.text,
                    "frames": len(obs.frames),
                    "commands": _said(reply.text, ep.catalog) if reply.mode == "speak" else [],
                }
            )
            if reply.error:
                res.voided, res.void_reason = True, f"backend: {reply.error}"
                break
            if ep.bag and reply.mode == "speak":
                ep.bag.speech(ep.world.machine.clock_s, "assistant", reply.text)
            if reply.mode == "done":
                break
            if reply.mode == "speak":
                ep.hear(reply.text)
            view = HumanView(
                pack.blind, select_frames(human_frames), visible_names(ep.world, ep.catalog, ep.knowledge), last_results
            )
            decision = human.decide(reply.text if reply.mode == "speak" else None, view)
            if decision.error:
                res.voided, res.void_reason = True, f"executor: {decision.error}"
                break
            results = [ep.execute(t) for t in decision.commands[:MAX_COMMANDS_PER_TURN]]
            res.n_actions += len(results)
            events = [e for r in results for e in r.events]
            speech = " ".join(s for s in (decision.speech, _human_report(results, events)) if s) or "(waits)"
            last_results = tuple(r.message for r in results)
            if ep.bag:
                ep.bag.speech(ep.world.machine.clock_s, "human", speech)
            res.trace.append(
                {
                    "turn": turn,
                    "role": "human",
                    "speech": speech,
                    "from_assistant": decision.from_assistant,
                    "actions": [{"command": t, **r.to_json()} for t, r in zip(decision.commands, results)],
                }
            )
        if not res.voided:
            res.goals_final = [evaluate(g, ep.world) for g in pack.goals]
            scored = [ok for ok, before in zip(res.goals_final, res.goals_at_handoff) if not before]
            res.completion = sum(scored) / len(scored) if scored else 0.0
            res.passed = bool(scored) and all(scored)
            res.digest = ep.world.digest()
            if ep.bag:
                ep.bag.judge(
                    ep.world.machine.clock_s,
                    {
                        "task_id": pack.task_id,
                        "passed": res.passed,
                        "completion": res.completion,
                        "goals": res.goals_final,
                    },
                )
                ep.bag.close()
                ep.bag = None
    except Exception as exc:  # a simulator or wiring failure voids the run; it is never the assistant's fault
        LOG.exception("task %s: episode failed", pack.task_id)
        res.voided, res.void_reason = True, f"simulator: {type(exc).__name__}: {exc}"
    finally:
        if ep is not None:
            if ep.bag is not None:
                ep.bag.abort()
            ep.close()
    res.wall_s = round(time.monotonic() - start, 3)
    return res
