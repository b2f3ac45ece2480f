"""The run lock of `reacthuman eval` and what it does about graphs left by a dead run (real processes).
(An eval whose graph fails to start is tested in test_eval_graph.py, which has labelled scenes.)"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from reacthuman.evaluation.memory_log import Restart, RestartPolicy
from reacthuman.evaluation.run_lock import RUN_ENV, RunLock, RunLockError, run_processes


def test_a_second_lock_on_a_run_folder_names_the_owner(tmp_path):
    first = RunLock(tmp_path)
    first.acquire(stale_wait_s=0.1)
    try:
        with pytest.raises(RunLockError, match=f"in use by a running reacthuman eval \\(pid {os.getpid()}\\)"):
            RunLock(tmp_path).acquire(stale_wait_s=0.1)
    finally:
        first.release()
    again = RunLock(tmp_path)
    again.acquire(stale_wait_s=0.1)
    again.release()


def test_a_process_left_by_a_dead_run_is_found_and_refused(tmp_path):
    (tmp_path / "eval.lock").write_text('{"pid": 999999}\n')  # the dead owner
    env = dict(os.environ, **{RUN_ENV: str(tmp_path.resolve())})
    left = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], env=env)
    try:
        deadline = time.monotonic() + 30
        while not run_processes(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [p.pid for p in run_processes(tmp_path)] == [left.pid]
        with pytest.raises(RunLockError) as err:
            RunLock(tmp_path).acquire(stale_wait_s=0.5)
        assert "a dead run (pid 999999) left 1 graph process(es)" in str(err.value)
        assert f"pid {left.pid}: " in str(err.value)
    finally:
        left.kill()
        left.wait()
    lock = RunLock(tmp_path)
    lock.acquire(stale_wait_s=5)  # once it is gone the run may continue
    lock.release()


def test_restart_policy_restarts_the_body_alone_unless_another_node_grew():
    every = RestartPolicy(every_episodes=3, above_warmup_pct=0)
    assert [every.due(n, {"body": 2000.0}) for n in (1, 2)] == [None, None]
    assert every.due(3, {"body": 2000.0}) == Restart("3 episodes on this body", ("body",))
    grows = RestartPolicy(above_warmup_pct=10.0, warmup_episodes=2)
    assert grows.due(1, {"body": 1800.0}) is None
    assert grows.due(2, {"body": 1900.0, "spine": 520.0}) is None  # the warm-up level; limit 2090
    assert grows.due(3, {"body": 1950.0, "spine": 521.0}) is None  # +50 MiB in one episode: 2000 < 2090
    assert grows.due(4, {"body": 2010.0, "spine": 521.0}) is None  # +60, the largest rise: 2070 < 2090
    assert grows.max_rise_mib["body"] == 60.0
    # +30: at +7.4% the body restarts, since one more episode like the largest could take it past +10%
    assert grows.due(5, {"body": 2040.0, "spine": 521.0}) == Restart(
        "memory within one episode's rise of 10% over its warm-up level (body 2040 MiB, +60)", ("body",)
    )
    assert grows.due(1, {"body": 1850.0, "spine": 521.0}) is None  # a fresh body: no rise against the old one
    assert grows.max_rise_mib["body"] == 60.0
    whole = grows.due(2, {"body": 2020.0, "spine": 600.0})  # a node the launcher does not respawn grew too
    assert whole == Restart(
        "memory within one episode's rise of 10% over its warm-up level (body 2020 MiB, +170, spine 600 MiB, +79)", ()
    )
    small = RestartPolicy(above_warmup_pct=10.0, reference_mib={"body": 1900.0, "brain": 108.0})
    assert small.due(3, {"body": 1900.0, "brain": 119.0}) is None  # +10.2% but 11 MiB: an allocator plateau
    with pytest.raises(ValueError, match="every_episodes must be >= 0"):
        RestartPolicy(every_episodes=-1)
