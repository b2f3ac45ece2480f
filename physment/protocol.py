"""The two evaluation protocols, by name.

`strict` (the default; this project's): the strict matcher (no substring matching), the context trimmed to
`CONTEXT_CHARS_MAX` for small local models, each budget runs the scenes assigned to it, all 27 tools (the
paper's 26 plus `reset_sim`), 512 output tokens unless asked otherwise.

`paper` (the paper's, sec. 3.2-3.4): Eq. 4 exactly (numeric tolerance OR normalised containment of the
prediction in the truth), the cumulative context with nothing trimmed, every scene at every budget (running
out of budget counts as incorrect), the preset's own output-token limit (reasoning models need thousands),
and exactly the paper's 26 tools (`reset_sim` off).

Whatever the protocol, every answer is scored by both matchers and the four normalisation classes, so one
run reports paper-compatible and strict accuracy side by side."""

from __future__ import annotations

import dataclasses

from physment.scoring import as_list, as_number, normalize_text, numbers_close
from physment.toolspec import TOOL_NAMES

EXTENSION_TOOLS = ("reset_sim",)  # tools this project adds to the paper's API
PAPER_TOOLS: tuple[str, ...] = tuple(t for t in TOOL_NAMES if t not in EXTENSION_TOOLS)
STRICT_MAX_TOKENS = 512
# which verdict a run's `correct` is: ours, the paper's Eq. 4, the authors' code (physment.authors.matcher)
MATCHERS = ("strict", "paper", "authors")
# the presets (config/models.yaml) of the paper's main-table models, in its table order
PAPER_MODELS = (
    "pm-gpt-5.5",
    "pm-claude-opus-4.7",
    "pm-gemini-3.1-pro",
    "pm-kimi-k2.5",
    "pm-glm-5",
    "pm-deepseek-r1",
    "pm-qwen3.5",
)


@dataclasses.dataclass(frozen=True)
class Protocol:
    name: str
    matcher: str  # strict | paper: which verdict is the run's `correct`
    trim_context: bool
    all_scenes: bool  # every scene at every budget
    tools: tuple[str, ...]
    max_tokens: int | None  # None: the model preset's own limit

    def __post_init__(self) -> None:
        if self.matcher not in ("strict", "paper"):
            raise ValueError(f"protocol {self.name}: matcher must be strict or paper, got {self.matcher!r}")
        unknown = sorted(set(self.tools) - set(TOOL_NAMES))
        if unknown or "answer" not in self.tools:
            raise ValueError(f"protocol {self.name}: tools must be known tools including answer (unknown: {unknown})")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise ValueError(f"protocol {self.name}: max_tokens must be >= 1 or None, got {self.max_tokens}")


PROTOCOLS: dict[str, Protocol] = {
    "strict": Protocol(
        "strict", "strict", trim_context=True, all_scenes=False, tools=TOOL_NAMES, max_tokens=STRICT_MAX_TOKENS
    ),
    "paper": Protocol("paper", "paper", trim_context=False, all_scenes=True, tools=PAPER_TOOLS, max_tokens=None),
}
DEFAULT_PROTOCOL = "strict"


def protocol(name: str) -> Protocol:
    if name not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {name!r}")
    return PROTOCOLS[name]


def _as_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return normalize_text(value)


def paper_correct(predicted: object, truth: object, abs_tol: float, rel_tol: float) -> bool:
    """Eq. 4: |p - t| <= abs + rel |t| when both are numbers; element by element when both are lists of the
    same length; otherwise the normalised prediction contained in the normalised truth (so, as in the paper,
    '1' passes against 10 and 'stop' against 'stops': the strict matcher is the one that refuses these)."""
    if predicted is None:
        return False
    p, t = as_number(predicted), as_number(truth)
    if p is not None and t is not None:
        return numbers_close(p, t, abs_tol, rel_tol)
    pl, tl = as_list(predicted), as_list(truth)
    if pl is not None and tl is not None and len(pl) == len(tl):
        return all(paper_correct(a, b, abs_tol, rel_tol) for a, b in zip(pl, tl))
    text = _as_text(predicted)
    return bool(text) and text in _as_text(truth)
