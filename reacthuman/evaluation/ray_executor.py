"""`reacthuman eval --executor ray`: the same (model, scene) pairs as the local executor, on a Ray cluster.

The driver (this process) alone writes the ledger, the manifest and the episode folders; the workers
(reacthuman.evaluation.ray_actor.EpisodeActor, one graph each) get the scene spec with each task and send
each episode's files back as bytes, so the run folder is the same as after a local run. Scheduling and
faults are the suite's one Ray pool (reacthuman.core.ray_pool): a worker that dies costs only its
in-flight episode, retried on another worker up to --retries times; a pair is recorded at most once; a
driver killed mid-run resumes from the ledger like a local run."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from reacthuman.recording.episode_files import EpisodeFolder, safe_name
from reacthuman.evaluation.memory_log import append_sample
from reacthuman.evaluation.ray_actor import ActorSettings, EpisodeActor, EpisodeTask, log_name
from reacthuman.core.ray_cluster import LOCAL_NUM_CPUS, LOCAL_OBJECT_STORE_BYTES, check_address, connect
from reacthuman.core.ray_pool import WORKER_START_TIMEOUT_S, PoolPlan, run_tasks
from reacthuman.llm.vision import images_refused_in
from reacthuman.scoring.ledger import DecisionRecord

__all__ = [
    "LOCAL_NUM_CPUS",
    "LOCAL_OBJECT_STORE_BYTES",
    "WORKER_START_TIMEOUT_S",
    "RayPlan",
    "check_address",
    "connect",
    "run_pairs",
    "unpack_episode",
]


@dataclass(frozen=True)
class RayPlan:
    """How one eval invocation uses Ray."""

    settings: ActorSettings
    workers: int = 1
    retries: int = 2
    address: str | None = None
    cpus_per_worker: float = 1.0

    def __post_init__(self) -> None:
        self.pool()  # validates workers and retries

    def pool(self) -> PoolPlan:
        return PoolPlan(self.workers, self.retries, self.address, self.cpus_per_worker)


def unpack_episode(run_dir: Path, model: str, scene_id: str, archive: bytes) -> None:
    """Write a worker's archive into the run folder: the episode folder via its .partial name (so it never
    looks complete half-written), anything else (videos) in place."""
    folder = EpisodeFolder(run_dir, model, scene_id)
    prefix = f"episodes/{safe_name(model)}/{safe_name(scene_id)}"
    folder.begin()
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r") as tar:
        members = tar.getmembers()
        for m in members:
            if m.name.startswith(prefix + "/"):
                m.name = m.name[len(prefix) + 1 :]
                tar.extract(m, folder.partial, filter="data")
            elif m.isfile() and not m.name.startswith("episodes/"):
                tar.extract(m, run_dir, filter="data")
    if not any(folder.partial.iterdir()):
        folder.discard()
        raise RuntimeError(f"the worker sent no episode folder for {scene_id} x {model}")
    shutil.rmtree(folder.final, ignore_errors=True)
    folder.partial.rename(folder.final)


def run_pairs(
    run,
    todo: dict[str, list[str]],
    scenes_dir: Path,
    plan: RayPlan,
    on_dispatch: Callable[[EpisodeTask, str], None] | None = None,
) -> None:
    """Run every (model, scene_id) in `todo` on Ray, recording each into `run` (evaluation.cli.Run).
    on_dispatch(task, node_id) is called as each task leaves (tests use it to remove a node mid-episode)."""
    # model-major, so a worker keeps its graph for many episodes; the spec is read as the task leaves
    tasks = [EpisodeTask(model, sid, "") for model, scene_ids in todo.items() for sid in scene_ids]
    run_tasks(tasks, EpisodeActor, (plan.settings,), _EvalSink(run, scenes_dir), plan.pool(), on_dispatch)


@dataclass
class _EvalSink:
    run: object  # evaluation.cli.Run
    scenes_dir: Path

    def prepare(self, task: EpisodeTask) -> EpisodeTask:
        spec_json = (self.scenes_dir / task.scene_id / "spec.json").read_text()
        plans = self.run.plans  # eval --plans: the decision to execute travels with its episode
        row = json.dumps(plans.decisions[task.key].to_dict()) if plans is not None else ""
        return replace(task, spec_json=spec_json, plan_row=row)

    def stop(self, task: EpisodeTask, out: dict) -> str:
        """A server that turned images away mid-run stops its model in one line, as under the local executor:
        no retry, no infrastructure failure, none of its scenes left (the other models run on)."""
        refusal = images_refused_in(out.get("error"))
        if refusal:
            self.run.refuse(task.model, refusal)
        return refusal or ""

    def started(self, info: dict) -> None:
        return None

    def returned(self, task: EpisodeTask, out: dict) -> None:
        if out.get("log"):
            _append_log(self.run.run_dir, task.model, out["log"])
        if out.get("memory"):  # as the local executor samples each graph after each episode
            append_sample(self.run.run_dir, dict(out["memory"], model=task.model, scene_id=task.scene_id))
        for line in out.get("notes", ()):
            self.run.progress.note(line)

    def accept(self, task: EpisodeTask, out: dict) -> None:
        unpack_episode(self.run.run_dir, task.model, task.scene_id, out["archive"])
        self.run.record(task.model, DecisionRecord.from_dict(out["record"]))

    def fail(self, task: EpisodeTask, error: str, attempts: int) -> None:
        self.run.fail(task.model, task.scene_id, error, attempts)

    def note(self, line: str) -> None:
        self.run.progress.note(line)

    def live(self, workers: int | None) -> None:
        self.run.progress.workers = workers


def _append_log(run_dir: Path, model: str, data: bytes) -> None:
    path = run_dir / "logs" / log_name(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as fh:
        fh.write(data)
