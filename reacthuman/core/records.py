"""Typed ledger records, read the same way by all three systems: ReactHuman's decisions
(`reacthuman.scoring.ledger.DecisionRecord`), PhysMent's episodes (`physment.record.EpisodeRecord`) and
InteractiveWorld's tasks (`interactiveworld.bench.record.TaskRecord`).

A record is a dataclass with an `extras` dict: fields the class does not know (a newer writer's) travel in
`extras` and are written back unchanged, so an older reader keeps a newer ledger readable. Rows are appended
through `reacthuman.core.jsonl` (one fsynced line each) and read back here: a torn last line (a run killed
mid-write) is skipped with a warning, any other line that is not a valid record is an error naming the file,
the line and the reason, never a silently dropped row.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any, TypeVar

LOG = logging.getLogger(__name__)
RecordT = TypeVar("RecordT")


class LedgerError(ValueError):
    """A ledger is missing, empty or malformed; the message is one line naming the file (and line)."""


def record_from_dict(cls: type[RecordT], data: dict[str, Any], required: Iterable[str]) -> RecordT:
    """`cls` built from a row: known fields as arguments, the rest in `extras`; a required field that is
    absent is a ValueError naming it (the class's `__post_init__` checks the values)."""
    known = {f.name for f in fields(cls)} - {"extras"}
    absent = [name for name in required if name not in data]
    if absent:
        raise ValueError(f"missing field(s): {', '.join(absent)}")
    return cls(
        **{k: v for k, v in data.items() if k in known}, extras={k: v for k, v in data.items() if k not in known}
    )


def record_to_dict(record: Any) -> dict[str, Any]:
    """The row of a record: unknown fields first (as read), then the fields in declaration order, so a row
    read and written back keeps its keys and the ledger's column order stays the writer's."""
    out = {f.name: getattr(record, f.name) for f in fields(record) if f.name != "extras"}
    return {**record.extras, **out}


def parse_lines(path: Path, lines: list[bytes], parse: Callable[[dict[str, Any]], RecordT]) -> Iterator[RecordT]:
    """Each line of a ledger as a record (see the module docstring for torn and malformed lines)."""
    for number, raw in enumerate(lines, start=1):
        torn = number == len(lines) and not raw.endswith(b"\n")
        if not raw.strip():
            continue
        try:
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            yield parse(data)
        except (UnicodeDecodeError, json.JSONDecodeError, ValueError, TypeError) as exc:
            if torn:
                LOG.warning("%s: ignoring a torn last line (%d bytes)", path, len(raw))
                continue
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise LedgerError(f"{path} line {number}: {reason}") from None


def read_records(path: str | os.PathLike[str], parse: Callable[[dict[str, Any]], RecordT]) -> list[RecordT]:
    """Every record of the ledger at `path`, in file order; no file (a run not started yet) is no records."""
    path = Path(path)
    if not path.is_file():
        return []
    return list(parse_lines(path, path.read_bytes().splitlines(keepends=True), parse))
