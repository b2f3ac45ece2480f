"""`reacthuman eval --executor ray`: the same (model, scene) pairs as the local executor, on a Ray cluster.

The driver (this process) alone writes the ledger, the manifest and the episode folders; the workers
(reacthuman.evaluation.ray_actor.EpisodeActor, one graph each) get the scene spec with each task and send
each episode's files back as bytes, so the run folder is the same as after a local run.

Faults: a worker that dies (its node removed, its process killed) costs only its in-flight episode,
which goes back to the queue for another worker, up to --retries times; a replacement worker is asked
for. A pair is recorded at most once. A driver killed mid-run resumes from the ledger like a local run."""

from __future__ import annotations

import io
import shutil
import socket
import tarfile
import time
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from reacthuman.evaluation.episode_files import EpisodeFolder, safe_name
from reacthuman.evaluation.ray_actor import ActorSettings, EpisodeActor, EpisodeTask, log_name

LOCAL_NUM_CPUS = 2
LOCAL_OBJECT_STORE_BYTES = 256 * 1024 * 1024
WORKER_START_TIMEOUT_S = 600.0  # how long the driver waits for any worker when none is alive


@dataclass(frozen=True)
class RayPlan:
    """How one eval invocation uses Ray."""

    settings: ActorSettings
    workers: int = 1
    retries: int = 2
    address: str | None = None
    cpus_per_worker: float = 1.0

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers must be >= 1, got {self.workers}")
        if self.retries < 0:
            raise ValueError(f"retries must be >= 0, got {self.retries}")


@dataclass
class _Worker:
    handle: object
    ready_ref: object
    node_id: str | None = None
    busy: bool = False
    model: str | None = None


@dataclass
class _State:
    scenes_dir: Path
    pending: deque = field(default_factory=deque)
    inflight: dict = field(default_factory=dict)  # result ref -> (worker, task)
    workers: list = field(default_factory=list)
    spawned: int = 0
    recorded: set = field(default_factory=set)


def check_address(address: str, timeout_s: float = 10.0) -> None:
    """Fail in seconds, with one line, where Ray itself would retry an unreachable head for minutes."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if address == "auto":
        return
    if not sep or not host or not port.isdigit():
        raise ValueError(f"--ray-address must be HOST:PORT (the head's `ray start --head --port`), got {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise ValueError(f"no Ray cluster answers at {address} ({exc.strerror or exc}); "
                         "start one with `ray start --head --port PORT`") from None


def connect(address: str | None) -> None:
    """Join the cluster at `address`, or start a small local Ray instance (no dashboard) on this machine."""
    import ray

    if ray.is_initialized():
        return
    if address:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    else:
        ray.init(num_cpus=LOCAL_NUM_CPUS, include_dashboard=False, object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                 log_to_driver=False, configure_logging=False)


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
                m.name = m.name[len(prefix) + 1:]
                tar.extract(m, folder.partial, filter="data")
            elif m.isfile() and not m.name.startswith("episodes/"):
                tar.extract(m, run_dir, filter="data")
    if not any(folder.partial.iterdir()):
        folder.discard()
        raise RuntimeError(f"the worker sent no episode folder for {scene_id} x {model}")
    shutil.rmtree(folder.final, ignore_errors=True)
    folder.partial.rename(folder.final)


def run_pairs(run, todo: dict[str, list[str]], scenes_dir: Path, plan: RayPlan,
              on_dispatch: Callable[[EpisodeTask, str], None] | None = None) -> None:
    """Run every (model, scene_id) in `todo` on Ray, recording each into `run` (evaluation.cli.Run).
    on_dispatch(task, node_id) is called as each task leaves (tests use it to remove a node mid-episode)."""
    import ray

    connect(plan.address)
    actor_cls = ray.remote(num_cpus=plan.cpus_per_worker, max_restarts=0, max_task_retries=0)(EpisodeActor)
    st = _State(scenes_dir=scenes_dir)
    for model, scene_ids in todo.items():  # model-major, so a worker keeps its graph for many episodes
        for sid in scene_ids:
            st.pending.append(EpisodeTask(model, sid, ""))  # the spec is read as the task leaves
    total_workers = min(plan.workers, max(len(st.pending), 1))
    try:
        for _ in range(total_workers):
            _spawn(st, actor_cls, plan)
        _loop(run, st, actor_cls, plan, on_dispatch)
    finally:
        for w in st.workers:
            if w.node_id is None:  # never came up: nothing to close
                ray.kill(w.handle)
                continue
            try:
                ray.get(w.handle.close.remote(), timeout=60)
            except Exception:  # noqa: BLE001 - a dead or stuck worker: Ray kills it below either way
                pass
            ray.kill(w.handle)
        run.progress.workers = None
        if plan.address is None:
            ray.shutdown()


def _spawn(st: _State, actor_cls, plan: RayPlan) -> None:
    handle = actor_cls.remote(plan.settings)
    st.workers.append(_Worker(handle, handle.where.remote()))
    st.spawned += 1


def _live(st: _State) -> list[_Worker]:
    return [w for w in st.workers if w.node_id is not None]


def _dispatch(st: _State, on_dispatch) -> None:
    for w in _live(st):
        if w.busy or not st.pending:
            continue
        # keep the worker's graph: prefer a task of the model it already runs
        task = next((t for t in st.pending if t.model == w.model), st.pending[0])
        st.pending.remove(task)
        task = replace(task, spec_json=(st.scenes_dir / task.scene_id / "spec.json").read_text())
        w.busy, w.model = True, task.model
        if on_dispatch is not None:
            on_dispatch(task, w.node_id)
        st.inflight[w.handle.run.remote(task)] = (w, task)


def _loop(run, st: _State, actor_cls, plan: RayPlan, on_dispatch) -> None:
    import ray

    while st.pending or st.inflight:
        _dispatch(st, on_dispatch)
        run.progress.workers = len(_live(st))
        starting = {w.ready_ref: w for w in st.workers if w.node_id is None}
        refs = list(st.inflight) + list(starting)
        if not refs:
            raise RuntimeError("no Ray workers left to run the remaining episodes")
        done, _ = ray.wait(refs, num_returns=1, timeout=None if st.inflight else WORKER_START_TIMEOUT_S)
        if not done:
            for t in st.pending:
                run.fail(t.model, t.scene_id, f"no Ray worker came up within {WORKER_START_TIMEOUT_S:.0f} s", t.attempt - 1)
            st.pending.clear()
            return
        ref = done[0]
        if ref in starting:
            _on_started(run, st, starting[ref], actor_cls, plan)
        else:
            _on_finished(run, st, ref, actor_cls, plan)


def _on_started(run, st: _State, w: _Worker, actor_cls, plan: RayPlan) -> None:
    import ray

    try:
        w.node_id = ray.get(w.ready_ref)["node_id"]
    except ray.exceptions.RayError as exc:
        st.workers.remove(w)
        run.progress.note(f"a Ray worker failed to start: {type(exc).__name__}")
        _replace(st, actor_cls, plan)


def _replace(st: _State, actor_cls, plan: RayPlan) -> None:
    # a bounded number of replacements, so a cluster that kills every worker cannot loop forever
    if st.spawned < plan.workers * (plan.retries + 2) and st.pending:
        _spawn(st, actor_cls, plan)


def _on_finished(run, st: _State, ref, actor_cls, plan: RayPlan) -> None:
    import ray

    w, task = st.inflight.pop(ref)
    w.busy = False
    try:
        out = ray.get(ref)
    except ray.exceptions.RayError as exc:  # the worker or its node died mid-episode
        st.workers.remove(w)
        error = f"Ray worker on node {(w.node_id or '?')[:12]} lost ({type(exc).__name__})"
        _retry(run, st, task, error, plan)
        _replace(st, actor_cls, plan)
        return
    if out.get("log"):
        _append_log(run.run_dir, task.model, out["log"])
    if not out["ok"]:
        _retry(run, st, task, out["error"], plan)
        return
    key = (task.scene_id, task.model)
    if key in st.recorded:  # never twice, whatever the cluster did
        return
    unpack_episode(run.run_dir, task.model, task.scene_id, out["archive"])
    st.recorded.add(key)
    run.record(task.model, out["record"])


def _append_log(run_dir: Path, model: str, data: bytes) -> None:
    path = run_dir / "logs" / log_name(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as fh:
        fh.write(data)


def _retry(run, st: _State, task: EpisodeTask, error: str, plan: RayPlan) -> None:
    if task.attempt > plan.retries:
        run.fail(task.model, task.scene_id, error, task.attempt)
        return
    run.progress.note(f"{task.scene_id} x {task.model}: attempt {task.attempt} failed ({error}); retrying on another worker")
    st.pending.appendleft(replace(task, attempt=task.attempt + 1, spec_json=""))
