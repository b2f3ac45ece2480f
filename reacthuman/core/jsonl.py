"""Append-only JSON-lines files (the run ledgers of all three systems): one JSON object per line, each written
by one `write`, then flushed and fsynced, so a crash can tear at most the last line.

On opening a file whose last line is torn (no final newline and not a JSON object) the appender moves the
fragment into `<name>.torn` (appended, kept for inspection), truncates the file back to its last complete
line and logs a warning naming the byte count: the repair is loud, never silent, and no complete row is ever
rewritten. A last line that is complete JSON but lacks its newline just gets the newline.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

LOG = logging.getLogger(__name__)
TORN_SUFFIX = ".torn"


def _append_synced(path: Path, data: bytes) -> None:
    with path.open("ab") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def repair_torn_tail(path: Path) -> None:
    """Close or move out a torn last line (see the module docstring) before appending."""
    if not path.exists() or path.stat().st_size == 0:
        return
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return
    cut = data.rfind(b"\n") + 1
    fragment = data[cut:]
    try:
        complete = isinstance(json.loads(fragment.decode("utf-8")), dict)
    except (UnicodeDecodeError, json.JSONDecodeError):
        complete = False
    if complete:
        _append_synced(path, b"\n")
        return
    torn = path.with_name(path.name + TORN_SUFFIX)
    _append_synced(torn, fragment + b"\n")
    with path.open("r+b") as fh:
        fh.truncate(cut)
        fh.flush()
        os.fsync(fh.fileno())
    LOG.warning("%s: moved a torn last line (%d bytes) to %s", path, len(fragment), torn)


class JsonlAppender:
    """Appends rows (JSON objects) to one file, one fsynced line each. Use as a context manager."""

    def __init__(self, path: str | os.PathLike[str], **dumps_kwargs: Any) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        repair_torn_tail(self.path)
        self._dumps = dict({"ensure_ascii": False, "allow_nan": False}, **dumps_kwargs)
        self._fh = self.path.open("ab")

    def append(self, row: dict) -> None:
        self._fh.write((json.dumps(row, **self._dumps) + "\n").encode("utf-8"))
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> "JsonlAppender":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def append_jsonl(path: str | os.PathLike[str], row: dict, **dumps_kwargs: Any) -> None:
    """Append one row to `path` (opened, repaired if torn, appended, closed)."""
    with JsonlAppender(path, **dumps_kwargs) as out:
        out.append(row)
