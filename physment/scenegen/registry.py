"""Scene templates: a scene builder plus a reference solution written as turns of tool calls.

A reference solution is a generator: it yields one turn (a list of calls) at a time and receives that turn's
results; its last turn is a single `answer` call whose value is the scene's ground truth. The build runs it
in the lab to compute the answer; the oracle agent replays it through the ordinary episode loop."""

from __future__ import annotations

import dataclasses
import math
from typing import Callable, Generator

from physment.scene import Scene

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


def all_templates() -> list[Template]:
    from physment.scenegen import t_cells, t_creation, t_hard, t_hidden, t_measure, t_standard  # they register here

    # appended in this order so the scenes of older templates keep their numbers (and ledgers stay comparable)
    return (t_standard.TEMPLATES + t_hard.TEMPLATES + t_creation.TEMPLATES + t_hidden.TEMPLATES +
            t_measure.TEMPLATES + t_cells.TEMPLATES)


def template(name: str) -> Template:
    for t in all_templates():
        if t.name == name:
            return t
    raise KeyError(f"no scene template named {name!r}")


def paper_solvers() -> dict[str, Callable[[dict], Solver]]:
    """Template name -> a reference using only the paper's 26 tools, for templates whose own resets the lab."""
    from physment.scenegen import t_hard, t_hidden

    return {**t_hard.PAPER_SOLVERS, **t_hidden.PAPER_SOLVERS}


def reference_solver(scene: Scene, tools: tuple[str, ...] | None = None) -> Solver:
    """The reference solution of a generated scene (one within `tools` when the template has such a variant);
    KeyError if the scene has none."""
    ref = scene.extra.get("reference_solution")
    if not isinstance(ref, dict) or "template" not in ref:
        raise KeyError(f"{scene.scene_id} has no reference solution")
    params = dict(ref.get("params") or {})
    if tools is not None and "reset_sim" not in tools and ref["template"] in paper_solvers():
        return paper_solvers()[ref["template"]](params)
    return template(ref["template"]).solve(params)
