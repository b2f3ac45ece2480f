"""`reacthuman eval` on a fresh install: one graph compiles Genesis' renderer while the others wait, and only
while numba's cache lacks it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from reacthuman.evaluation import first_render
from reacthuman.evaluation.first_render import FirstRenderGate, installed_genesis_dir, renderer_compiled


def test_the_renderer_counts_as_compiled_once_numba_has_its_index(tmp_path):
    env = {"NUMBA_CACHE_DIR": str(tmp_path)}
    assert not renderer_compiled(env)
    folder = tmp_path / "pyrender_0a511d2ccc6fd7dfa39882adced8aead423fec12"
    folder.mkdir()
    (folder / "primitive._compute_bounds-16.py311.nbi").write_bytes(b"")  # another module's index: not enough
    assert not renderer_compiled(env)
    (folder / "jit_render.set_uniform_1i-96.py311.nbi").write_bytes(b"")
    assert renderer_compiled(env)


def test_without_numba_cache_dir_the_index_is_read_beside_genesis_sources(tmp_path):
    cache = tmp_path / "genesis" / "ext" / "pyrender" / "__pycache__"
    cache.mkdir(parents=True)
    assert not renderer_compiled({}, tmp_path / "genesis")
    (cache / "jit_render.bind_lighting-141.py311.nbi").write_bytes(b"")
    assert renderer_compiled({}, tmp_path / "genesis")
    jit_render = installed_genesis_dir() / "ext" / "pyrender" / "jit_render.py"  # what the check is about
    assert "cache=True" in jit_render.read_text()


def test_an_open_gate_lets_every_worker_start_at_once():
    gate = FirstRenderGate(closed=False)
    stop = threading.Event()
    assert [gate.wait_turn(stop) for _ in range(3)] == [False, False, False]


def _waiters(gate: FirstRenderGate, stop: threading.Event, n: int) -> tuple[list[threading.Thread], list[bool]]:
    passed: list[bool] = []
    threads = [threading.Thread(target=lambda: passed.append(gate.wait_turn(stop))) for _ in range(n)]
    for t in threads:
        t.start()
    return threads, passed


@pytest.mark.parametrize("how", ["frozen", "execute", "failure"])
def test_a_closed_gate_lets_one_worker_lead_and_the_rest_follow_once_it_has_rendered(how):
    gate, stop = FirstRenderGate(closed=True), threading.Event()
    assert gate.wait_turn(stop) is True  # the first worker up leads
    threads, passed = _waiters(gate, stop, 3)
    gate.on_phase("window")  # the scene is being built: not yet drawn
    time.sleep(2 * first_render.WAIT_POLL_S)
    assert passed == [] and not gate.is_open
    if how == "failure":
        gate.open()  # the leader's episode failed or its graph died: nobody waits for it
    else:
        gate.on_phase(how)
    for t in threads:
        t.join(5)
    assert passed == [False, False, False] and gate.is_open
    assert gate.wait_turn(stop) is False  # a graph started later (a restart) does not lead again


def test_a_stop_request_releases_the_waiting_workers():
    gate, stop = FirstRenderGate(closed=True), threading.Event()
    assert gate.wait_turn(stop)
    threads, passed = _waiters(gate, stop, 2)
    stop.set()
    for t in threads:
        t.join(5)
    assert passed == [False, False] and not gate.is_open
