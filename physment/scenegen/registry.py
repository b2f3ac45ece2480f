"""Scene templates: a scene builder plus a reference solution written as turns of tool calls.

A reference solution is a generator: it yields one turn (a list of calls) at a time and receives that turn's
results; its last turn is a single `answer` call whose value is the scene's ground truth. The build runs it
in the lab to compute the answer; the oracle agent replays it through the ordinary episode loop."""

from __future__ import annotations

import dataclasses
import math
from typing import Callable, Generator

Solver = Generator[list[dict], list[dict], None]

DIFFICULTIES = ("Easy", "Hard")
CONCEPTS = ("Single", "Multi")
MODALITIES = ("standard", "object_creation", "hidden_objects", "scene_manipulation")
TOPICS = ("kinematics", "newton", "rotation", "energy", "momentum", "oscillation", "friction")


def call(name: str, /, **arguments: object) -> dict:
    return {"name": name, "arguments": arguments}


def sig(x: float, digits: int = 4) -> float:
    """Round to significant digits: the precision answers are stored and submitted with."""
    if x == 0 or not math.isfinite(x):
        return 0.0 if x == 0 else x
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))


@dataclasses.dataclass
class Draft:
    """What a template writes for one parameter set (the answer comes from running the solver)."""

    name: str
    task: str
    xml: str
    objects: list[tuple[int, str, dict]]  # (id, name, permissions incl. optional "hidden")
    expected_behavior: str
    reasoning: str
    description: str = ""
    answer_synonyms: dict | None = None


@dataclasses.dataclass
class Template:
    name: str
    difficulty: str
    concepts: str
    modality: str
    topic: str
    problem_type: str
    params: list[dict]
    build: Callable[[dict], Draft]
    solve: Callable[[dict], Solver]

    def __post_init__(self) -> None:
        if self.difficulty not in DIFFICULTIES:
            raise ValueError(f"template {self.name}: difficulty must be one of {DIFFICULTIES}")
        if self.concepts not in CONCEPTS:
            raise ValueError(f"template {self.name}: concepts must be one of {CONCEPTS}")
        if self.modality not in MODALITIES:
            raise ValueError(f"template {self.name}: modality must be one of {MODALITIES}")
        if self.topic not in TOPICS:
            raise ValueError(f"template {self.name}: topic must be one of {TOPICS}")
        if self.problem_type not in ("comparison", "calculation", "computation", "observation"):
            raise ValueError(f"template {self.name}: problem_type {self.problem_type!r} unknown")
        if not self.params:
            raise ValueError(f"template {self.name}: params is empty")

    @property
    def category(self) -> str:
        if self.modality == "scene_manipulation":
            return "Scene Manipulation"
        suffix = {"standard": "", "object_creation": " + Creation", "hidden_objects": " + Hidden"}[self.modality]
        return f"{self.difficulty} {self.concepts}{suffix}"


Build = Callable[[dict], Draft]
Solve = Callable[[dict], Solver]
# Every registered template by name, with the module that registered it (templates.py orders them).
_TEMPLATES: dict[str, tuple[str, Template]] = {}
_PAPER_SOLVERS: dict[str, Solve] = {}


def scene_template(
    name: str,
    difficulty: str,
    concepts: str,
    modality: str,
    topic: str,
    problem_type: str,
    *,
    params: list[dict],
    build: Build,
) -> Callable[[Solve], Solve]:
    """Register the decorated reference solution, with its scene builder and parameter sets, as a template."""

    def register(solve: Solve) -> Solve:
        if name in _TEMPLATES:
            raise ValueError(f"scene template {name!r} registered twice")
        module = solve.__module__.rsplit(".", 1)[-1]
        _TEMPLATES[name] = (
            module,
            Template(name, difficulty, concepts, modality, topic, problem_type, params, build, solve),
        )
        return solve

    return register


def paper_solver(name: str) -> Callable[[Solve], Solve]:
    """Register the decorated function as template `name`'s reference with the paper's 26 tools only (for
    templates whose own reference resets the lab)."""

    def register(solve: Solve) -> Solve:
        if name in _PAPER_SOLVERS:
            raise ValueError(f"paper solver for {name!r} registered twice")
        _PAPER_SOLVERS[name] = solve
        return solve

    return register


def registered_templates() -> list[tuple[str, Template]]:
    """(module, template) in registration order."""
    return list(_TEMPLATES.values())


def registered_paper_solvers() -> dict[str, Solve]:
    return dict(_PAPER_SOLVERS)
