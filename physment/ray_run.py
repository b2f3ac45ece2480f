"""`physment run --executor ray`: the episodes of a local `physment run`, on Ray workers.

Each worker (PhysMentActor) holds one agent (its model client reads any API key from the worker's own
environment) and runs one episode per task. The scene travels with its task: the driver's loaded Scene
(cells already assigned over the whole set, as a local run assigns them) and its folder's files, since the
MJCF may name assets beside it. The row and transcript come back through Ray and the driver alone writes
them, through the local run's own writer, so the run folder, resume and the one-row-per-episode rule are
those of a local run. Scheduling and faults: reacthuman.core.ray_pool."""

from __future__ import annotations

import dataclasses
import logging
import shutil
import tempfile
from pathlib import Path

from physment.lab import LabError
from physment.runner import (
    RunConfig,
    RunError,
    episode_config,
    episode_row,
    make_agent,
    pending_scenes,
    record_episode,
    write_invocation,
)
from physment.scene import Scene, problem_line
from reacthuman.core.ray_cluster import check_model, executor_info, node_info
from reacthuman.core.ray_pool import PoolPlan, QuietSink, extract_folder, pack_folders, run_tasks

LOG = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class SceneTask:
    scene: Scene
    files: bytes = b""  # the scene folder as a tar, attached as the task leaves
    attempt: int = 1

    @property
    def key(self) -> str:
        return self.scene.scene_id

    @property
    def label(self) -> str:
        return self.scene.scene_id


class PhysMentActor:
    """A Ray worker: one agent of the run's configuration, kept across episodes."""

    def __init__(self, cfg: RunConfig) -> None:
        self.cfg, self.ep_cfg = cfg, episode_config(cfg)
        self._agent_context = make_agent(cfg)
        self.agent = self._agent_context.__enter__()
        self.root = Path(tempfile.mkdtemp(prefix="physment-ray-"))

    def where(self) -> dict:
        return {**node_info(), "tool_mode": getattr(self.agent, "tool_mode", None)}

    def run(self, task: SceneTask) -> dict:
        """{"ok", "error", and "row", "transcript_path", "transcript"; or "skipped" ('Scene<N>: why')}."""
        folder = self.root / task.scene.folder.name
        extract_folder(task.files, task.scene.folder.name, folder)
        try:
            row, rel, transcript = episode_row(
                self.cfg, dataclasses.replace(task.scene, folder=folder), self.agent, self.ep_cfg
            )
        except LabError as exc:  # the scene's MJCF does not compile: reported by name, as a local run does
            return {"ok": True, "error": "", "skipped": problem_line(folder, exc)}
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return {"ok": True, "error": "", "row": row, "transcript_path": str(rel), "transcript": transcript}

    def close(self) -> None:
        self._agent_context.__exit__(None, None, None)
        shutil.rmtree(self.root, ignore_errors=True)


@dataclasses.dataclass
class _Sink(QuietSink):
    prefix = "physment"
    cfg: RunConfig
    plan: PoolPlan
    todo: int
    written: list = dataclasses.field(default_factory=list)
    failed: list = dataclasses.field(default_factory=list)
    invoked: bool = False

    def prepare(self, task: SceneTask) -> SceneTask:
        folder = task.scene.folder
        return dataclasses.replace(task, files=pack_folders(folder.parent, (folder.name,)))

    def started(self, info: dict) -> None:
        if not self.invoked:  # the tool mode is the worker agent's (a local run writes its own agent's)
            write_invocation(
                self.cfg, info.get("tool_mode"), self.todo, executor_info("ray", self.plan.workers, self.plan.address)
            )
            self.invoked = True

    def accept(self, task: SceneTask, out: dict) -> None:
        if "skipped" in out:
            LOG.info("skipped %s", out["skipped"])
            self.cfg.skipped.append(out["skipped"])
            return
        record_episode(self.cfg, out["row"], Path(out["transcript_path"]), out["transcript"])
        self.written.append(out["row"])


def run_on_ray(cfg: RunConfig, plan: PoolPlan) -> tuple[list[dict], list[str]]:
    """Run the missing episodes of `cfg` on Ray: (the rows written by this call, one line per episode given up)."""
    if cfg.agent != "oracle":
        try:
            check_model(cfg.agent_entry)
        except ValueError as exc:
            raise RunError(f"agent {cfg.agent!r}: {exc}") from None
    todo, _ = pending_scenes(cfg)
    if not todo:
        return [], []
    sink = _Sink(cfg, plan, len(todo))
    run_tasks([SceneTask(s) for s in todo], PhysMentActor, (cfg,), sink, plan)
    return sink.written, sink.failed
