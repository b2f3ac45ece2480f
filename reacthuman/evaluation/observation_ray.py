"""`reacthuman scenes render DIR --executor ray [--workers W] [--ray-address HOST:PORT]`: an observation set
rendered on a Ray cluster, the same files as a local render, byte for byte.

Each Ray worker (`RenderActor`, 1 CPU) renders through the local render's own worker process
(`render_workers.RenderWorker`: a spawned process renewed by its memory), into a private folder of its node;
the scene spec travels with the task and the window's .npz comes back as bytes (written with a fixed zip date: equal windows, equal bytes). The
driver alone writes the set, each window atomically, so an interrupted render resumes where it stopped, and
shows the local progress line. Scheduling, retries and lost workers are the suite's Ray pool
(`reacthuman.core.ray_pool`)."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from reacthuman.core.atomic import atomic_write_bytes
from reacthuman.core.ray_cluster import node_info
from reacthuman.core.ray_pool import PoolPlan, QuietSink, run_tasks
from reacthuman.evaluation.observation_set import (
    RenderProgress,
    SetSettings,
    folder_of,
    missing,
    require_settings,
    window_path,
)
from reacthuman.evaluation.render_workers import RenderWorker


@dataclass(frozen=True)
class RenderTask:
    """One scene's window; `attempt` counts from 1 across workers."""

    scene_id: str
    spec_json: str = ""
    attempt: int = 1

    @property
    def key(self) -> str:
        return self.scene_id

    @property
    def label(self) -> str:
        return self.scene_id


class RenderActor:
    """A Ray worker: the local render's worker process, started at the first task and kept across tasks."""

    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.root = Path(tempfile.mkdtemp(prefix="reacthuman-render-"))
        folder_of(self.root).mkdir()
        self._worker = RenderWorker(engine)

    def where(self) -> dict:
        return node_info()

    def run(self, task: RenderTask) -> dict:
        """{"ok", "error", "npz" (the window file's bytes)}."""
        scene = self.root / task.scene_id
        scene.mkdir(exist_ok=True)
        (scene / "spec.json").write_text(task.spec_json)
        path = window_path(self.root, task.scene_id)
        try:
            self._worker.render(self.root, scene / "spec.json")
            return {"ok": True, "error": "", "npz": path.read_bytes()}
        except Exception as exc:  # noqa: BLE001 - any render fault is the task's, retried on another worker
            return {"ok": False, "error": f"{type(exc).__name__}: {exc}", "npz": b""}
        finally:
            shutil.rmtree(scene, ignore_errors=True)
            path.unlink(missing_ok=True)

    def close(self) -> None:
        self._worker.close()
        shutil.rmtree(self.root, ignore_errors=True)


@dataclass
class _RenderSink(QuietSink):
    scenes: Path
    progress: RenderProgress
    failed: list = field(default_factory=list)
    prefix = "reacthuman scenes render"

    def prepare(self, task: RenderTask) -> RenderTask:
        return replace(task, spec_json=(self.scenes / task.scene_id / "spec.json").read_text())

    def accept(self, task: RenderTask, out: dict) -> None:
        atomic_write_bytes(window_path(self.scenes, task.scene_id), out["npz"])
        self.progress.step(task.scene_id)


def render_set_on_ray(
    scenes: Path,
    scene_ids: list[str],
    workers: int = 1,
    engine: str = "genesis",
    address: str | None = None,
    retries: int = 2,
    stream=None,
) -> int:
    """`render_set` on Ray: the windows of `scene_ids` not yet in the set, `workers` Ray workers at once; returns
    how many were rendered now. RuntimeError (one line) when some could not be: a rerun renders the rest."""
    require_settings(scenes, SetSettings.graph(engine))
    todo = missing(scenes, scene_ids)
    if not todo:
        return 0
    sink = _RenderSink(Path(scenes), RenderProgress(len(todo), stream))
    run_tasks([RenderTask(s) for s in todo], RenderActor, (engine,), sink, PoolPlan(workers, retries, address))
    if sink.failed:
        raise RuntimeError(
            f"{len(sink.failed)} of {len(todo)} windows not rendered ({sink.failed[0]}); "
            f"run the same command again to render the rest"
        )
    return len(todo)
