"""One row of a PhysMent run's RUN_DIR/results.jsonl: one episode (a scene, an agent, a budget, a prompting),
its verdicts under both matchers, the paper's five scoring dimensions and the failure modes.

Written by `physment.runner` through the suite's appender and read back through the suite's typed reader
(`reacthuman.core.records`), as ReactHuman's and InteractiveWorld's ledgers are. Rows of older ledgers
(before protocols) are upgraded on read: they ran under the strict protocol, their `correct` is the strict
verdict, and the paper's Eq. 4 verdict is recomputed from `predicted` and `truth` (with the default
tolerances: older rows did not record a scene's own).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from physment.prompt import PROMPTING
from physment.protocol import DEFAULT_PROTOCOL, PROTOCOLS, paper_correct
from physment.scoring import ABS_TOL, REL_TOL
from reacthuman.core.records import record_from_dict, record_to_dict

REQUIRED = ("scene", "agent", "budget", "prompting", "correct")
_UNIT_INTERVAL = ("correctness", "efficiency", "groundedness", "validity", "diversity")


@dataclass(frozen=True)
class EpisodeRecord:
    """Field order is the column order of the file (the order the episode's scorer produces them)."""

    scene: str
    scene_number: int | None = None
    category: str | None = None
    category_source: str = "metadata"  # metadata, authors, a --cell-map file, or inferred (physment.cells)
    authors_category: str | None = None  # the authors' own cell name (their published scenes)
    timestep_s: float | None = None  # the scene's MJCF timestep (MuJoCo's 0.002 s when it sets none)
    tools: str | None = None  # ours | authors[:-switch,...]: whose tool semantics ran (physment.authors.tools)
    topic: str | None = None
    problem_type: str | None = None
    budget: int = 0  # iterations allowed, I_max
    protocol: str = DEFAULT_PROTOCOL
    dialogue: str | None = None  # ours | authors | authors-early: whose prompt and call format (None: ours)
    answered: bool = False
    answer_iteration: int | None = None
    iterations_used: int | None = None
    predicted: Any = None
    truth: Any = None
    matcher: str | None = None  # which verdict `correct` is (strict | paper | authors); None: the protocol's
    correct: bool = False  # the run's matcher's verdict
    correct_strict: bool | None = None
    correct_paper: bool | None = None  # the paper's Eq. 4 matcher
    correct_authors: bool | None = None  # the authors' code's matcher (physment.authors.matcher)
    graded: float | None = None
    regrade_rule: str | None = None
    normalisation: dict[str, bool] = field(default_factory=dict)
    correct_after_regrade: bool | None = None
    correctness: float | None = None
    efficiency: float | None = None
    groundedness: float | None = None
    validity: float | None = None
    diversity: float | None = None
    tool_calls: int | None = None
    invalid_calls: int | None = None
    parse_failures: int | None = None
    api_errors: int | None = None
    stepped_time_s: float | None = None  # simulated time the agent stepped
    failure_modes: list[str] = field(default_factory=list)
    agent: str = ""
    prompting: str = ""
    wall_s: float | None = None
    model_id: str | None = None  # what the server said it ran
    transcript: str | None = None  # path under the run folder
    extras: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("scene", "agent"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise ValueError(f"{name} must be a non-empty string, got {getattr(self, name)!r}")
        if not isinstance(self.budget, int) or isinstance(self.budget, bool) or self.budget < 1:
            raise ValueError(f"budget must be a positive integer, got {self.budget!r}")
        if self.prompting not in PROMPTING:
            raise ValueError(f"prompting must be one of {', '.join(PROMPTING)}, got {self.prompting!r}")
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {self.protocol!r}")
        for name in ("correct", "answered"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")
        for name in _UNIT_INTERVAL:
            value = getattr(self, name)
            if value is not None and not 0.0 <= float(value) <= 1.0:
                raise ValueError(f"{name} must lie in [0, 1], got {value!r}")

    @property
    def key(self) -> tuple[str, str, int, str, str, str, str, str]:
        """What makes an episode: a rerun of the same command skips the keys already in the file. Whose tool
        semantics, which matcher decides `correct` and whose dialogue are part of it (a rerun with another
        --tools, --matcher or --dialogue runs its own episodes); rows written before these were recorded ran
        ours, under the protocol's matcher."""
        return (
            self.scene,
            self.agent,
            self.budget,
            self.prompting,
            self.protocol,
            self.tools or "ours",
            self.matcher or PROTOCOLS[self.protocol].matcher,
            self.dialogue or "ours",
        )

    def to_dict(self) -> dict[str, Any]:
        return record_to_dict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "EpisodeRecord":
        return record_from_dict(EpisodeRecord, _upgraded(data), REQUIRED)


def _upgraded(row: dict[str, Any]) -> dict[str, Any]:
    """A row with the fields rows before protocols lacked (see the module docstring)."""
    if "correct_strict" in row and "correct_paper" in row:
        return row
    out = dict(row)
    out.setdefault("correct_strict", bool(out.get("correct")))
    if "correct_paper" not in out:
        out["correct_paper"] = bool(out.get("answered")) and paper_correct(
            out.get("predicted"), out.get("truth"), ABS_TOL, REL_TOL
        )
    return out
