"""Liveness of a running graph's nodes, watched from the eval: a node that stops answering (a stopped process, a
deadlock, DDS holding the GIL) is treated as dead within about HUNG_AFTER_S, as a node that exits is at once.

Every node beats (nodes/runtime.py): a timer of its ROS executor touches HEARTBEAT_DIR/<pid> every HEARTBEAT_S
while the executor spins. The beat comes from the executor, not from a thread doing the node's work, so a brain
waiting minutes for its model (its model call runs on a thread of its own) keeps beating. A node is hung when
its last beat is older than `hung_after_s` and the process is stopped (SIGSTOP, state T) or has used under
IDLE_CPU_FRACTION of one core over that time: a process that computes without beating (an in-process model
holding the GIL, Genesis compiling its kernels) is not taken for hung until BUSY_GRACE_S.

ROS-free: reads /proc and the heartbeat files only."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

HEARTBEAT_ENV = "REACTHUMAN_HEARTBEAT_DIR"
HEARTBEAT_S = 2.0
HUNG_AFTER_S = 60.0
IDLE_CPU_FRACTION = 0.05
BUSY_GRACE_S = 600.0
_TICKS_PER_S = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class ProcessSample:
    state: str  # /proc/<pid>/stat's state letter: R, S, D, T (stopped), Z ...
    cpu_s: float  # user + system time so far


def sample(pid: int) -> ProcessSample | None:
    """The process's state and CPU time, or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()  # after the command name, which may hold spaces
    return ProcessSample(fields[0], (int(fields[11]) + int(fields[12])) / _TICKS_PER_S)


@dataclass
class _Watched:
    first_seen_s: float  # wall time (time.time), the heartbeat files' clock
    cpu: list[tuple[float, float]] = field(default_factory=list)  # (wall s, cpu s) samples, oldest first


class LivenessWatch:
    """check(nodes) once every few seconds: the reason a node is hung, or None."""

    def __init__(self, heartbeat_dir: Path, hung_after_s: float = HUNG_AFTER_S) -> None:
        self.heartbeat_dir, self.hung_after_s = Path(heartbeat_dir), hung_after_s
        self._watched: dict[int, _Watched] = {}

    def last_beat_s(self, pid: int) -> float | None:
        try:
            return (self.heartbeat_dir / str(pid)).stat().st_mtime
        except OSError:
            return None

    def check(self, nodes: dict[str, int], now_s: float | None = None) -> str | None:
        now = time.time() if now_s is None else now_s
        self._watched = {pid: w for pid, w in self._watched.items() if pid in nodes.values()}
        for name, pid in nodes.items():
            s = sample(pid)
            if s is None or s.state in "ZX":
                continue  # exited: the launcher reports that
            watched = self._watched.setdefault(pid, _Watched(now))
            watched.cpu.append((now, s.cpu_s))
            while len(watched.cpu) > 2 and watched.cpu[1][0] <= now - self.hung_after_s:
                watched.cpu.pop(0)
            beat = self.last_beat_s(pid)
            silent_s = now - (beat if beat is not None else watched.first_seen_s)
            if silent_s <= self.hung_after_s:
                continue
            if s.state == "T":
                return f"node '{name}' (pid {pid}) is stopped: no heartbeat for {silent_s:.0f} s"
            (t0, cpu0), (t1, cpu1) = watched.cpu[0], watched.cpu[-1]
            busy = t1 - t0 >= self.hung_after_s / 2 and (cpu1 - cpu0) / (t1 - t0) >= IDLE_CPU_FRACTION
            if not busy or silent_s > BUSY_GRACE_S:
                return (
                    f"node '{name}' (pid {pid}) stopped answering: no heartbeat for {silent_s:.0f} s "
                    f"({'computing without beating' if busy else 'idle'}, state {s.state})"
                )
        return None


def beat(heartbeat_dir: Path, pid: int) -> None:
    """One heartbeat of process `pid` (the node's side). A folder gone (its eval stopped) is no fault of the node."""
    try:
        (Path(heartbeat_dir) / str(pid)).touch()
    except OSError:
        pass
