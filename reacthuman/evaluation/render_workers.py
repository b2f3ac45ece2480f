"""The processes that render observation sets (`reacthuman scenes render`, `decide` for the windows a set lacks,
and each Ray render worker): one spawned process per worker, kept across scenes and renewed by its memory.

A worker builds the graph's body and spine once, then renders scene after scene (`observation_set.render_window`).
Its first scene costs the most by far: Genesis compiles its kernels (about 55 s of CPU on a cold kernel cache,
about 8 s on a warm one, against about 6 s for each later window here), so a worker is renewed only when its
resident memory passes RENEW_RSS_MB, not after a fixed count of scenes. Measured on the balanced set, a worker
holds about 1.8-2.3 GB after its first window and grows by about 20 MB a window for the first scenes, then
less (Genesis keeps a little of every scene it built).
"""

from __future__ import annotations

import multiprocessing
import resource
import threading
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from pathlib import Path
from queue import Queue

from reacthuman.evaluation.observation_set import (
    RenderProgress,
    SetSettings,
    missing,
    render_window,
    require_settings,
    save_window,
    window_path,
)
from reacthuman.scenes.dataset import read_spec

# A worker past this resident size is renewed after the window it just wrote (a 2-worker render of the 306-scene
# set stays under it; 4 GB a worker keeps 4 workers within a 16 GB machine's reach)
RENEW_RSS_MB = 4096
STOP_TIMEOUT_S = 30.0

_WORKER: dict = {}  # the worker process's body and spine, built once per process


def _start_worker(engine: str) -> None:
    from reacthuman.sim_bridge.body import Body, graph_config
    from reacthuman.spine.spine import Spine
    from reacthuman.spine.spine import default_config as spine_config

    _WORKER.update(body=Body(graph_config(engine=engine)), spine=Spine(spine_config()))


def _render_one(scenes: str, spec_path: str) -> str:
    spec = read_spec(spec_path)
    save_window(window_path(Path(scenes), spec.scene_id), render_window(spec, _WORKER["body"], _WORKER["spine"]))
    return spec.scene_id


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def _serve(conn, engine: str) -> None:
    """The worker process: (scenes, spec path) in, (ok, scene id or error, peak MB) out; None ends it."""
    _start_worker(engine)
    while True:
        task = conn.recv()
        if task is None:
            return
        try:
            conn.send((True, _render_one(*task), _peak_rss_mb()))
        except Exception as exc:  # noqa: BLE001 - the caller raises it with the scene's name
            conn.send((False, f"{type(exc).__name__}: {exc}", _peak_rss_mb()))


class RenderWorker:
    """One render process, started at its first scene (spawned: Genesis and EGL do not survive a fork) and
    renewed after a window that left it past `renew_rss_mb`."""

    def __init__(self, engine: str = "genesis", renew_rss_mb: float = RENEW_RSS_MB) -> None:
        self.engine, self.renew_rss_mb = engine, renew_rss_mb
        self._proc = self._conn = None
        self.started = 0  # processes started, renewals included

    def render(self, scenes: Path, spec_path: Path) -> str:
        """Render one scene's window into `scenes`' set; returns its scene id. RuntimeError naming the scene when
        it fails or the process dies."""
        if self._proc is None:
            ctx = multiprocessing.get_context("spawn")
            self._conn, child = ctx.Pipe()
            self._proc = ctx.Process(target=_serve, args=(child, self.engine), daemon=True)
            self._proc.start()
            child.close()
            self.started += 1
        try:
            self._conn.send((str(scenes), str(spec_path)))
            ok, value, rss_mb = self._conn.recv()
        except (EOFError, OSError):
            self._proc.join(STOP_TIMEOUT_S)
            code = self._proc.exitcode
            self._proc = self._conn = None
            raise RuntimeError(f"{spec_path}: the render process died (exit status {code})") from None
        if rss_mb > self.renew_rss_mb:
            self.close()
        if not ok:
            raise RuntimeError(f"{spec_path}: {value}")
        return value

    def close(self) -> None:
        if self._proc is None:
            return
        try:
            self._conn.send(None)
        except OSError:
            pass
        self._proc.join(STOP_TIMEOUT_S)
        if self._proc.is_alive():
            self._proc.kill()
            self._proc.join()
        self._conn.close()
        self._proc = self._conn = None


def render_set(
    scenes: Path,
    scene_ids: list[str],
    workers: int = 1,
    engine: str = "genesis",
    stream=None,
    renew_rss_mb: float = RENEW_RSS_MB,
) -> int:
    """Render the windows of `scene_ids` not yet in the set (resumable: each window is written atomically),
    `workers` processes at once, with a progress line; returns how many were rendered now. The first failure
    stops the render (RuntimeError naming the scene); the windows written so far stay."""
    require_settings(scenes, SetSettings.graph(engine))
    todo = missing(scenes, scene_ids)
    if not todo:
        return 0
    progress = RenderProgress(len(todo), stream)
    idle: Queue[RenderWorker] = Queue()
    stepping = threading.Lock()
    pool = [RenderWorker(engine, renew_rss_mb) for _ in range(max(1, min(workers, len(todo))))]
    for worker in pool:
        idle.put(worker)

    def one(scene_id: str) -> None:
        worker = idle.get()
        try:
            scene = worker.render(scenes, Path(scenes) / scene_id / "spec.json")
            with stepping:
                progress.step(scene)
        finally:
            idle.put(worker)

    try:
        with ThreadPoolExecutor(len(pool), thread_name_prefix="render") as threads:
            futures = [threads.submit(one, s) for s in todo]
            done, _ = wait(futures, return_when=FIRST_EXCEPTION)
            failed = [f for f in done if f.exception() is not None]
            if failed:
                for future in futures:
                    future.cancel()
                raise failed[0].exception()
    finally:
        for worker in pool:
            worker.close()
    return len(todo)
