"""Frozen task packs: one JSON file per task, versioned, with a content hash over everything that
defines the task (the hash field itself and the admission record excluded)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from interactiveworld.actions.primitives import BY_NAME
from interactiveworld.world.predicates import Predicate
from interactiveworld.world.scene import SceneSpec
from reacthuman.core.atomic import atomic_write_text as write_atomic  # noqa: F401 (the bench imports it from here)

FAMILIES = ("guidance", "planning", "accessibility", "decision", "prevention", "finding")
PACK_VERSION = "1.0"
CAPABILITIES = (
    "perception",
    "memory",
    "reasoning",
    "planning",
    "communication",
    "state_tracking",
    "intervention_correctness",
    "intervention_timing",
    "task_completion",
)


@dataclass(frozen=True)
class TaskPack:
    task_id: str
    family: str
    title: str
    scene: SceneSpec
    handoff: str  # the human's opening words to the assistant
    goals: tuple[Predicate, ...]
    oracle: tuple[str | None, ...]  # reference assistant turns: speech, or None to stay quiet
    wrong: tuple[str | None, ...]  # plausible but incorrect help
    opening: tuple[str, ...] = ()  # commands the human executes before handoff
    private_plan: tuple[str, ...] = ()  # the human's own plan (Prevention)
    deadlines: tuple[int, ...] = ()  # turn by which each consequential error must be intervened on
    blind: bool = False
    actions: tuple[str, ...] = tuple(BY_NAME)
    max_turns: int = 12
    points: tuple[dict, ...] = ()  # capability evaluation points (see bench.capabilities)
    static_question: str = ""
    static_turn: int = 0  # the static variant stops before this assistant turn
    version: str = PACK_VERSION
    oracle_actions: int = 0  # shortest legal action count (from the oracle run; set by the generator)
    content_hash: str = ""
    admission: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"task {self.task_id}: family {self.family!r} is not one of {FAMILIES}")
        if not self.goals:
            raise ValueError(f"task {self.task_id}: goals must not be empty")
        bad = [a for a in self.actions if a not in BY_NAME]
        if bad:
            raise ValueError(f"task {self.task_id}: unknown actions {bad}")
        for p in self.points:
            if p.get("cap") not in CAPABILITIES:
                raise ValueError(f"task {self.task_id}: point capability {p.get('cap')!r} unknown")
        if self.max_turns < 1:
            raise ValueError(f"task {self.task_id}: max_turns must be >= 1")

    def body(self) -> dict:
        """Everything that defines the task (what the hash covers)."""
        return {
            "task_id": self.task_id,
            "family": self.family,
            "title": self.title,
            "version": self.version,
            "scene": self.scene.to_json(),
            "handoff": self.handoff,
            "goals": [g.to_json() for g in self.goals],
            "oracle": list(self.oracle),
            "wrong": list(self.wrong),
            "opening": list(self.opening),
            "private_plan": list(self.private_plan),
            "deadlines": list(self.deadlines),
            "blind": self.blind,
            "actions": list(self.actions),
            "max_turns": self.max_turns,
            "points": list(self.points),
            "static_question": self.static_question,
            "static_turn": self.static_turn,
            "oracle_actions": self.oracle_actions,
        }

    def compute_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.body(), sort_keys=True).encode()).hexdigest()

    def to_json(self) -> dict:
        return {**self.body(), "content_hash": self.content_hash, "admission": self.admission}

    @staticmethod
    def from_json(d: dict) -> "TaskPack":
        return TaskPack(
            task_id=d["task_id"],
            family=d["family"],
            title=d["title"],
            scene=SceneSpec.from_json(d["scene"]),
            handoff=d["handoff"],
            goals=tuple(Predicate.from_json(g) for g in d["goals"]),
            oracle=tuple(d["oracle"]),
            wrong=tuple(d["wrong"]),
            opening=tuple(d.get("opening", [])),
            private_plan=tuple(d.get("private_plan", [])),
            deadlines=tuple(d.get("deadlines", [])),
            blind=bool(d.get("blind", False)),
            actions=tuple(d.get("actions", BY_NAME)),
            max_turns=int(d.get("max_turns", 12)),
            points=tuple(d.get("points", [])),
            static_question=d.get("static_question", ""),
            static_turn=int(d.get("static_turn", 0)),
            version=d.get("version", PACK_VERSION),
            oracle_actions=int(d.get("oracle_actions", 0)),
            content_hash=d.get("content_hash", ""),
            admission=d.get("admission", {}),
        )


def save_pack(pack: TaskPack, folder: Path) -> Path:
    path = folder / f"{pack.task_id}.json"
    write_atomic(path, json.dumps(pack.to_json(), indent=1, sort_keys=True) + "\n")
    return path


class TaskPackError(ValueError):
    pass


def load_pack(path: Path) -> TaskPack:
    try:
        d = json.loads(Path(path).read_text())
        pack = TaskPack.from_json(d)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise TaskPackError(f"{path}: not a valid task pack ({type(exc).__name__}: {exc})") from None
    if pack.content_hash != pack.compute_hash():
        raise TaskPackError(f"{path}: content hash mismatch (the pack was edited after it was frozen)")
    return pack


def load_packs(folder: Path) -> list[TaskPack]:
    folder = Path(folder)
    if not folder.is_dir():
        raise TaskPackError(f"{folder}: no such task folder")
    files = sorted(folder.glob("*.json"))
    if not files:
        raise TaskPackError(f"{folder}: holds no task packs (*.json)")
    return [load_pack(p) for p in files]


def default_tasks_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "tasks"
