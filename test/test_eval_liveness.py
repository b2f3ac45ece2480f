"""The eval's liveness watch on real processes: one stopped with SIGSTOP, one that waits without beating (a
deadlock) and one that computes without beating (a model holding the GIL, Genesis compiling), against one that
beats. Small hung-after times stand in for the eval's minute."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reacthuman.evaluation import liveness
from reacthuman.evaluation.liveness import LivenessWatch

HUNG_AFTER_S = 0.6
BEATING = "import pathlib, os, sys, time\nwhile True:\n    pathlib.Path(sys.argv[1], str(os.getpid())).touch(); time.sleep(0.05)"
IDLE = "import time\ntime.sleep(60)"
BUSY = "while True:\n    pass"


@pytest.fixture
def spawn():
    procs = []

    def start(code: str, folder: Path) -> int:
        procs.append(subprocess.Popen([sys.executable, "-c", code, str(folder)]))
        return procs[-1].pid

    yield start
    for p in procs:
        p.kill()
        p.wait()


def _watch_for(watch: LivenessWatch, nodes: dict[str, int], seconds: float) -> str | None:
    """Check every 0.1 s for `seconds`; the first reason given, if any."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        reason = watch.check(nodes)
        if reason:
            return reason
        time.sleep(0.1)
    return None


def test_a_beating_node_lives_and_the_same_node_stopped_is_hung(spawn, tmp_path):
    pid = spawn(BEATING, tmp_path)
    watch = LivenessWatch(tmp_path, hung_after_s=HUNG_AFTER_S)
    assert _watch_for(watch, {"spine": pid}, 3 * HUNG_AFTER_S) is None
    os.kill(pid, signal.SIGSTOP)
    reason = _watch_for(watch, {"spine": pid}, 5 * HUNG_AFTER_S)
    assert reason, reason
    assert reason.startswith(f"node 'spine' (pid {pid}) is stopped: no heartbeat for"), reason


def test_a_node_that_waits_without_beating_is_hung(spawn, tmp_path):
    pid = spawn(IDLE, tmp_path)
    reason = _watch_for(LivenessWatch(tmp_path, hung_after_s=HUNG_AFTER_S), {"brain": pid}, 5 * HUNG_AFTER_S)
    assert reason, reason
    assert f"node 'brain' (pid {pid}) stopped answering" in reason, reason
    assert "(idle, state S)" in reason, reason


def test_a_node_that_computes_without_beating_is_given_its_grace(spawn, tmp_path, monkeypatch):
    monkeypatch.setattr(liveness, "BUSY_GRACE_S", 4 * HUNG_AFTER_S)
    pid = spawn(BUSY, tmp_path)
    watch = LivenessWatch(tmp_path, hung_after_s=HUNG_AFTER_S)
    assert _watch_for(watch, {"body": pid}, 3 * HUNG_AFTER_S) is None
    reason = _watch_for(watch, {"body": pid}, 4 * HUNG_AFTER_S)
    assert reason, reason
    assert "computing without beating" in reason, reason


def test_a_node_that_is_gone_is_left_to_the_launcher(tmp_path):
    done = subprocess.run([sys.executable, "-c", "pass"])
    assert done.returncode == 0
    assert LivenessWatch(tmp_path, hung_after_s=0.0).check({"scorer": 2**22 + 7}) is None
