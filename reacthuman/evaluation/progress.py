"""A one-line progress display: done/total, ETA, and running SAA and safety per model."""

from __future__ import annotations

import sys
import threading
import time
from collections import defaultdict


class Progress:
    def __init__(self, total: int, already_done: int = 0, stream=None) -> None:
        # sys.stderr read now, not at import (a caller that redirects it, or a test's capture, replaces it)
        self.total, self.done, self.stream = total, already_done, stream or sys.stderr
        self._new, self._started = 0, time.monotonic()
        self._scores: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self._lock = threading.Lock()
        self._tty = self.stream.isatty()
        self.workers: int | None = None  # live workers of a distributed executor, shown when set
        self._tags: dict[str, str] = {}

    def tag(self, model: str, text: str) -> None:
        """Show `text` beside the model on the line (e.g. `state_text`: a text-only model's modality)."""
        self._tags[model] = text

    def add(self, model: str, record: dict | None) -> None:
        with self._lock:
            self.done += 1
            self._new += 1
            if record is not None and not record.get("api_error"):
                self._scores[model].append((int(record["saa"]), int(record["safe"])))
            self._show()

    def note(self, text: str) -> None:
        with self._lock:
            self.stream.write(("\n" if self._tty else "") + text + "\n")
            self.stream.flush()

    def _show(self) -> None:
        elapsed = time.monotonic() - self._started
        left = self.total - self.done
        eta = f"{elapsed / self._new * left / 60:.1f} min" if self._new else "?"
        per_model = "  ".join(
            f"{m}{' [' + self._tags[m] + ']' if m in self._tags else ''}: SAA {sum(s for s, _ in v) / len(v):.2f} safe {sum(s for _, s in v) / len(v):.2f}"
            for m, v in sorted(self._scores.items())
        )
        width = 24
        filled = int(width * self.done / max(self.total, 1))
        line = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}  ETA {eta}  {per_model}"
        if self.workers is not None:
            line += f"  workers {self.workers}"
        self.stream.write(("\r" + line) if self._tty else (line + "\n"))
        self.stream.flush()

    def close(self) -> None:
        if self._tty:
            self.stream.write("\n")
