"""One `reacthuman eval` per run folder, and no graph of a dead run left running beside a new one.

The eval holds an advisory lock (flock) on RUN_DIR/eval.lock for its whole life; the kernel drops it when
the process dies, however it dies, so a held lock always means a live owner. The file names the owner's pid.
Every process of the run's graphs carries RUN_ENV=<run folder> in its environment (the launcher and its
nodes inherit it), so a new eval finds what a dead one left by that tag alone.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

RUN_ENV = "REACTHUMAN_RUN_DIR"
LOCK_NAME = "eval.lock"
# Nodes of a dead run end themselves within the node runtime's orphan grace (10 s): wait a little longer.
STALE_WAIT_S = 15.0


class RunLockError(RuntimeError):
    pass


@dataclass(frozen=True)
class RunProcess:
    pid: int
    command: str


def run_processes(run_dir: Path) -> list[RunProcess]:
    """Processes other than this one tagged with this run folder."""
    tag = f"{RUN_ENV}={Path(run_dir).resolve()}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if tag not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        found.append(RunProcess(int(entry.name), command[:160]))
    return found


class RunLock:
    def __init__(self, run_dir: Path) -> None:
        self.path = Path(run_dir) / LOCK_NAME
        self._fh = None

    def acquire(self, stale_wait_s: float = STALE_WAIT_S) -> None:
        fh = self.path.open("a+")
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            raise RunLockError(
                f"{self.path.parent} is in use by a running reacthuman eval ({_owner(self.path)})"
            ) from None
        self._fh = fh
        leftovers = _wait_gone(self.path.parent, stale_wait_s)
        if leftovers:
            self.release()
            listed = "; ".join(f"pid {p.pid}: {p.command}" for p in leftovers)
            raise RunLockError(
                f"a dead run ({_owner(self.path)}) left {len(leftovers)} graph process(es) on "
                f"{self.path.parent}, still running after {stale_wait_s:.0f} s: {listed}"
            )
        fh.seek(0)
        fh.truncate()
        fh.write(json.dumps({"pid": os.getpid(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}) + "\n")
        fh.flush()

    def release(self) -> None:
        if self._fh is not None:
            fcntl.flock(self._fh, fcntl.LOCK_UN)
            self._fh.close()
            self._fh = None


def _owner(path: Path) -> str:
    try:
        return f"pid {json.loads(path.read_text())['pid']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "owner unknown"


def _wait_gone(run_dir: Path, wait_s: float) -> list[RunProcess]:
    deadline = time.monotonic() + wait_s
    while (left := run_processes(run_dir)) and time.monotonic() < deadline:
        time.sleep(0.5)
    return left
