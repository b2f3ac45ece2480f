"""`reacthuman eval` on a fresh install: one graph compiles Genesis' renderer while the others wait, and only
while numba's cache lacks it."""

from __future__ import annotations

import threading
import time

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
    assert passed == []
    assert not gate.is_open
    if how == "failure":
        gate.open()  # the leader's episode failed or its graph died: nobody waits for it
    else:
        gate.on_phase(how)
    for t in threads:
        t.join(5)
    assert passed == [False, False, False]
    assert gate.is_open
    assert gate.wait_turn(stop) is False  # a graph started later (a restart) does not lead again


def test_a_stop_request_releases_the_waiting_workers():
    gate, stop = FirstRenderGate(closed=True), threading.Event()
    assert gate.wait_turn(stop)
    threads, passed = _waiters(gate, stop, 2)
    stop.set()
    for t in threads:
        t.join(5)
    assert passed == [False, False]
    assert not gate.is_open


def _gate_for(monkeypatch, compiled: bool, argv: list[str], todo: dict[str, list[str]]) -> tuple[bool, str]:
    import io

    from reacthuman.evaluation import cli as eval_cli
    from reacthuman.evaluation.progress import Progress
    from reacthuman.evaluation.worker_counts import parse_worker_counts

    monkeypatch.setattr(eval_cli, "renderer_compiled", lambda: compiled)
    args = eval_cli.build_parser().parse_args(["--scenes", "s", "--out", "o", *argv])
    args.workers = parse_worker_counts(args.workers, list(todo))
    stream = io.StringIO()
    gate = eval_cli._first_render_gate(args, todo, Progress(1, stream=stream))
    return gate.is_open, stream.getvalue()


def test_eval_closes_the_gate_only_when_graphs_would_compile_the_renderer_together(monkeypatch):
    todo = {"local": ["a", "b", "c"], "oracle": ["a", "b", "c"], "heuristic": ["a", "b", "c"]}
    side_by_side = ["--models", "local,oracle,heuristic", "--models-side-by-side", "--workers", "1,local=2"]
    is_open, said = _gate_for(monkeypatch, False, side_by_side, todo)
    assert not is_open
    assert "the other 3 wait" in said  # four graphs start together, one compiles
    assert _gate_for(monkeypatch, True, side_by_side, todo) == (True, "")  # compiled before: nobody waits
    one_after_another = ["--models", "local,oracle,heuristic", "--workers", "1,local=2"]
    assert "the other 1 wait" in _gate_for(monkeypatch, False, one_after_another, todo)[1]
    assert _gate_for(monkeypatch, False, ["--models", "oracle"], {"oracle": ["a", "b"]})[0]  # one graph alone
    assert _gate_for(
        monkeypatch, False, ["--models", "oracle", "--workers", "2", "--engine", "mujoco"], {"oracle": ["a", "b"]}
    )[0]  # MuJoCo draws its own frames
    assert _gate_for(monkeypatch, False, ["--models", "oracle", "--workers", "2"], {"oracle": ["a"]})[
        0
    ]  # one scene: one graph
