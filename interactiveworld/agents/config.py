"""InteractiveWorld's agent settings (`config/interactiveworld.yaml`), read by the suite's config loader."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reacthuman.core.config import CONFIG_DIR, load_config

CONFIG_FILE = CONFIG_DIR / "interactiveworld.yaml"
ASSISTANT_VIEWS = ("frames", "none")  # --assistant-view: frames as images, or none (the perception ablation)


@dataclass(frozen=True)
class AgentConfig:
    assistant_frames_per_turn: int = 32
    human_frames_per_turn: int = 4

    def __post_init__(self) -> None:
        for name in ("assistant_frames_per_turn", "human_frames_per_turn"):
            if not 1 <= getattr(self, name) <= 64:
                raise ValueError(f"{name} must be in 1..64, got {getattr(self, name)}")


def agent_config(path: Path | None = None) -> AgentConfig:
    return load_config(AgentConfig, path or CONFIG_FILE)
