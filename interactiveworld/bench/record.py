"""One row of an InteractiveWorld run's RUN_DIR/results.jsonl: one task, one assistant and one simulated human,
scored from the simulator's final state.

Written by `interactiveworld.bench.runner` through the suite's appender and read back through the suite's
typed reader (`reacthuman.core.records`), as ReactHuman's and PhysMent's ledgers are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interactiveworld.bench.capabilities import evaluate_points, first_error
from reacthuman.core.records import record_from_dict, record_to_dict

if TYPE_CHECKING:
    from interactiveworld.bench.taskpack import TaskPack
    from interactiveworld.episode import EpisodeResult

REQUIRED = ("task_id", "family", "assistant", "human", "passed", "voided")


@dataclass(frozen=True)
class TaskRecord:
    task_id: str
    family: str
    assistant: str
    human: str
    memory: bool = False  # the memory-augmentation ablation (a factual ledger) was on
    passed: bool = False  # every goal not already met at handoff is met at the end
    completion: float = 0.0  # share of those goals met
    n_actions: int = 0
    oracle_actions: int | None = None  # the reference solution's action count
    efficiency: float | None = None  # n_actions / oracle_actions, passed tasks only
    turns: int = 0
    voided: bool = False  # a simulator or backend failure: the task counts for nothing and reruns on resume
    void_reason: str = ""
    points: list[dict[str, Any]] = field(default_factory=list)  # capability checkpoints (bench.capabilities)
    first_error: str | None = None
    goals_final: list[bool] = field(default_factory=list)
    goals_at_handoff: list[bool] = field(default_factory=list)
    digest: str = ""  # the world's final state, hashed
    pack_hash: str = ""
    wall_s: float = 0.0
    extras: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("task_id", "family", "assistant", "human"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise ValueError(f"{name} must be a non-empty string, got {getattr(self, name)!r}")
        for name in ("passed", "voided", "memory"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")
        if not 0.0 <= float(self.completion) <= 1.0:
            raise ValueError(f"completion must lie in [0, 1], got {self.completion!r}")

    def to_dict(self) -> dict[str, Any]:
        return record_to_dict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "TaskRecord":
        return record_from_dict(TaskRecord, data, REQUIRED)

    @staticmethod
    def of_episode(pack: "TaskPack", res: "EpisodeResult", memory: bool) -> "TaskRecord":
        """The row of one episode: its verdict, with the capability points and the first error read from its
        trace (none for a voided episode)."""
        points = [] if res.voided else evaluate_points(pack, res.trace, res.goals_final)
        eff = res.n_actions / pack.oracle_actions if res.passed and pack.oracle_actions else None
        return TaskRecord(
            task_id=pack.task_id,
            family=pack.family,
            assistant=res.assistant,
            human=res.human,
            memory=memory,
            passed=res.passed,
            completion=round(res.completion, 6),
            n_actions=res.n_actions,
            oracle_actions=pack.oracle_actions,
            efficiency=eff,
            turns=res.turns,
            voided=res.voided,
            void_reason=res.void_reason,
            points=points,
            first_error=None if res.voided else first_error(points, res.trace, res.passed),
            goals_final=res.goals_final,
            goals_at_handoff=res.goals_at_handoff,
            digest=res.digest,
            pack_hash=pack.content_hash,
            wall_s=res.wall_s,
        )
