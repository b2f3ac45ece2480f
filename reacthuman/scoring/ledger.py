"""The run ledger: RUN_DIR/ledger.jsonl, one JSON object per line, one line per decision, append-only.

Every table and plot of a report is recomputed from these rows alone.

Writing (one writer per ledger at a time, the scorer): through `reacthuman.core.jsonl`, as every system's
ledger: each record is one fsynced line, so a crash can tear at most the last line, and a torn last line is
moved into `ledger.jsonl.torn` (with a warning) before the next record is appended.

Reading: a torn last line is ignored with a warning; any other line that is not a JSON object with the
required fields is an error (LedgerError, one line naming the line number). Unknown fields are kept in
`DecisionRecord.extras` so newer ledgers stay readable.

Secrets: string fields that could echo a server's words (api_error, parse_error, raw_text, intent) are
scrubbed of bearer tokens and key-shaped strings before writing, as a second line of defence behind the
model client's own redaction.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from reacthuman.core.jsonl import JsonlAppender
from reacthuman.core.records import LedgerError, parse_lines, record_from_dict, record_to_dict
from reacthuman.plan.plan import Action
from reacthuman.scoring.metrics import RULES

LEDGER_NAME = "ledger.jsonl"
RECORD_VERSION = 1
RAW_TEXT_MAX_CHARS = 4000
_SECRET_PATTERNS = (
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=\-]{8,}"),
    re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"),
    re.compile(r"(?i)\b(api[_-]?key|authorization|x-api-key)(\"?\s*[:=]\s*\"?)[^\s\",}]{8,}"),
)
_SCRUBBED_FIELDS = ("api_error", "parse_error", "raw_text", "intent")


def scrub_secrets(text: str | None) -> str | None:
    if text is None:
        return None
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(lambda m: (m.group(1) + m.group(2) if m.lastindex else "") + "[REDACTED]", text)
    return text


# The columns only an executed episode fills (the body's outcome, and `deflected` in the row's extras); a
# decision-only row (`reacthuman decide`) leaves them empty, and an executed row adds them to the same scoring.
EXECUTION_FIELDS = (
    "caught",
    "struck",
    "fell",
    "strike_impulse_ns",
    "min_hand_object_m",
    "d_end_executed",
    "deflected",
)


@dataclass
class DecisionRecord:
    """One ledger row. Metrics are None when undefined (no impact point, unparseable plan, API error)."""

    scene_id: str
    family: str
    model: str
    object: str
    room: str | None = None
    speed_band: str | None = None
    speed_group: str | None = None
    adversarial: bool = False
    looks_like: str | None = None
    correct_action: str | None = None
    dangerous: bool | None = None
    action: str | None = None  # derived from the plan by reacthuman.plan.classifier
    hazard_source: str | None = None
    plan_parse_ok: bool | None = None
    parse_error: str | None = None
    saa: int | None = None
    safe: int | None = None
    rule: str | None = None
    rules_broken: list[str] = field(default_factory=list)
    d_end: float | None = None
    d_end_hand: str | None = None
    d_first: float | None = None
    d_min: float | None = None
    closing: float | None = None
    aia: float | None = None
    impact_range_m: float | None = None
    hand_shortfall_m: float | None = None
    body_to_impact_m: float | None = None
    intent: str | None = None
    raw_text: str | None = None  # kept only for unparseable replies, capped at RAW_TEXT_MAX_CHARS
    caught: bool | None = None
    struck: bool | None = None
    fell: bool | None = None
    strike_impulse_ns: float | None = None
    min_hand_object_m: float | None = None
    d_end_executed: float | None = None
    latency_s: float | None = None
    tokens: int | None = None
    prompt_tokens: int | None = None  # tokens in (as the server counted them)
    completion_tokens: int | None = None  # tokens out
    truncated: bool | None = None  # the reply was cut at the model's token limit (finish_reason: length)
    api_error: str | None = None
    modality: str | None = (
        None  # what the brain was shown (images, state_text, both; ground_truth/track/none: reference brains)
    )
    record_version: int = RECORD_VERSION
    extras: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("scene_id", "family", "model", "object"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise ValueError(f"{name} must be a non-empty string, got {getattr(self, name)!r}")
        actions = {a.value for a in Action}
        for name in ("action", "correct_action"):
            if getattr(self, name) not in actions | {None}:
                raise ValueError(f"{name} must be one of {sorted(actions)} or null, got {getattr(self, name)!r}")
        for name in ("saa", "safe"):
            if getattr(self, name) not in (0, 1, None) or isinstance(getattr(self, name), float):
                raise ValueError(f"{name} must be 0, 1 or null, got {getattr(self, name)!r}")
        if self.rule not in RULES + (None,):
            raise ValueError(f"rule must be one of {RULES} or null, got {self.rule!r}")
        if self.aia not in (0.0, 0.5, 1.0, None):
            raise ValueError(f"aia must be 0, 0.5, 1 or null, got {self.aia!r}")
        if self.api_error is None and self.correct_action is None:
            raise ValueError("a scored decision needs correct_action")

    @property
    def scored(self) -> bool:
        """A decision, as opposed to a call that failed (API errors are counted, not scored)."""
        return self.api_error is None

    @property
    def key(self) -> tuple[str, str]:
        return (self.scene_id, self.model)

    def to_dict(self) -> dict[str, Any]:
        out = record_to_dict(self)
        for name in _SCRUBBED_FIELDS:
            out[name] = scrub_secrets(out[name])
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "DecisionRecord":
        return record_from_dict(DecisionRecord, data, ("scene_id", "family", "model", "object"))


def ledger_path(run_dir: str | os.PathLike[str]) -> Path:
    return Path(run_dir) / LEDGER_NAME


class LedgerWriter:
    """Appends DecisionRecords to RUN_DIR/ledger.jsonl (see the module docstring). Use as a context manager."""

    def __init__(self, run_dir: str | os.PathLike[str]) -> None:
        self.path = ledger_path(run_dir)
        self._out = JsonlAppender(self.path)

    def append(self, record: DecisionRecord) -> None:
        self._out.append(record.to_dict())

    def close(self) -> None:
        self._out.close()

    def __enter__(self) -> "LedgerWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _parse_lines(path: Path, lines: list[bytes]) -> Iterable[DecisionRecord]:
    return parse_lines(path, lines, DecisionRecord.from_dict)


def read_ledger(run_dir: str | os.PathLike[str]) -> list[DecisionRecord]:
    """Every row of RUN_DIR/ledger.jsonl, in file order. Raises LedgerError if missing, empty or malformed."""
    path = ledger_path(run_dir)
    if not Path(run_dir).is_dir():
        raise LedgerError(f"run folder {run_dir} does not exist")
    if not path.is_file():
        raise LedgerError(f"no ledger at {path}")
    lines = path.read_bytes().splitlines(keepends=True)
    records = list(_parse_lines(path, lines))
    if not records:
        raise LedgerError(f"ledger {path} has no decisions")
    return records


def decided_keys(run_dir: str | os.PathLike[str]) -> set[tuple[str, str]]:
    """(scene_id, model) pairs that already have a scored decision, for resuming a run: an empty set when
    there is no ledger yet; keys with only API-error rows are not decided (they are to be retried)."""
    path = ledger_path(run_dir)
    if not path.is_file() or path.stat().st_size == 0:
        return set()
    return {r.key for r in _parse_lines(path, path.read_bytes().splitlines(keepends=True)) if r.scored}
