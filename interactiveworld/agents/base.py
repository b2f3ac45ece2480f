"""What the two agents see and say. The assistant's view carries no simulator ids, private state, answer
keys or score: only first-person frames and the human's speech."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

MAX_FRAMES_PER_TURN = 32
HUMAN_COMMANDS_PER_TURN = 8  # commands a human (scripted or model) carries out in one turn
ASSISTANT_MODES = ("speak", "wait", "done")


@dataclass(frozen=True)
class Frame:
    image: np.ndarray | None  # HxWx3 uint8, None when the run does not render
    label: str  # what the human was doing ("walking", "reaching") - visible behaviour, not state


@dataclass(frozen=True)
class AssistantObservation:
    turn: int
    frames: tuple[Frame, ...]  # chronological, at most MAX_FRAMES_PER_TURN
    human_speech: str


@dataclass(frozen=True)
class AssistantReply:
    mode: str  # speak | wait | done
    text: str = ""
    facts: tuple[str, ...] = ()  # memory ledger entries (memory-augmented runs)
    error: str = ""  # the model backend failed (infrastructure): the episode is voided, not scored

    def __post_init__(self) -> None:
        if self.mode not in ASSISTANT_MODES:
            raise ValueError(f"assistant reply mode {self.mode!r} is not one of {ASSISTANT_MODES}")


@dataclass(frozen=True)
class AssistantBrief:
    """The public context an assistant starts with (same for every assistant)."""

    family: str
    task_id: str
    max_turns: int


@dataclass(frozen=True)
class HumanView:
    """What the human perceives now: its own frames (none when blind) and names of what it can see."""

    blind: bool
    frames: tuple[Frame, ...]
    visible: tuple[str, ...]
    last_results: tuple[str, ...]


@dataclass
class HumanDecision:
    commands: list[str] = field(default_factory=list)  # exact command texts, executed in order
    speech: str = ""  # said before acting (a clarifying question)
    from_assistant: bool = True
    error: str | None = None  # an executor failure (model API down): the episode is voided


class Assistant(Protocol):
    name: str

    def reset(self, brief: AssistantBrief) -> None: ...

    def act(self, obs: AssistantObservation) -> AssistantReply: ...


class Human(Protocol):
    name: str

    def reset(self, private_plan: tuple[str, ...], blind: bool, catalog) -> None: ...

    def decide(self, assistant_speech: str | None, view: HumanView) -> HumanDecision: ...


def select_frames(frames: list[Frame], limit: int = MAX_FRAMES_PER_TURN) -> tuple[Frame, ...]:
    """At most `limit` frames, evenly spread, always keeping the first and the latest (result frame)."""
    if len(frames) <= limit:
        return tuple(frames)
    idx = [round(i * (len(frames) - 1) / (limit - 1)) for i in range(limit)]
    return tuple(frames[i] for i in idx)
