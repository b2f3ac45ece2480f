"""The suite's one Ray executor: a pool of long-lived Ray workers (actors) running tasks whose inputs travel
with them, answering through Ray, while the driver alone writes. ReactHuman's eval (ray_executor),
PhysMent's and InteractiveWorld's runs (their ray_run modules) supply the actor class and a Sink; this
module does the scheduling and the faults (reacthuman.core.ray_cluster joins or starts the cluster).

A task is a frozen dataclass with an `attempt` field (counting from 1 across workers) and a `key` (what the
ledger holds once, whatever the cluster did); it may have a `label` for messages and an `affinity` (a
worker keeps taking tasks of the affinity it already has, so a ReactHuman graph is kept across episodes
of one model). The pool keeps the
task light while it waits and asks Sink.prepare for its inputs only as it leaves.

An actor class has where() -> {"node_id", ...} (its readiness; the rest goes to Sink.started),
run(task) -> {"ok", "error", ...} and close(). A worker that dies (its node removed, its process killed)
costs only its in-flight task, which goes back to the queue for another worker, up to `retries` times;
a reply with ok False is retried the same way, unless Sink.stop names a reason to end its affinity (a model
whose server turned images away: every later task of it would fail alike); a replacement worker is asked
for, a bounded number of times."""

from __future__ import annotations

import io
import shutil
import sys
import tarfile
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

from reacthuman.core.ray_cluster import connect, import_ray

WORKER_START_TIMEOUT_S = 600.0  # how long the driver waits for any worker when none is alive


@dataclass(frozen=True)
class PoolPlan:
    """How one invocation uses Ray."""

    workers: int = 1
    retries: int = 2
    address: str | None = None
    cpus_per_worker: float = 1.0

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers must be >= 1, got {self.workers}")
        if self.retries < 0:
            raise ValueError(f"retries must be >= 0, got {self.retries}")
        if not self.cpus_per_worker > 0:
            raise ValueError(f"cpus_per_worker must be > 0, got {self.cpus_per_worker}")


class Sink(Protocol):
    """What the driver does with the pool's events; it alone writes files."""

    def prepare(self, task: Any) -> Any:
        """The task with its inputs (a scene spec, a scene folder), as it leaves for a worker."""

    def started(self, info: dict) -> None:
        """A worker is up; `info` is its where()."""

    def returned(self, task: Any, out: dict) -> None:
        """Every reply, ok or not (logs, memory samples)."""

    def accept(self, task: Any, out: dict) -> None:
        """A successful reply for a key not recorded yet: write it."""

    def fail(self, task: Any, error: str, attempts: int) -> None:
        """The task is given up after `attempts` attempts."""

    def stop(self, task: Any, out: dict) -> str:
        """For a reply with ok False: a reason that ends the task and every pending task of its affinity, with
        no retry and no fail() ('' to retry it as usual)."""

    def note(self, line: str) -> None:
        """A line for the user."""

    def live(self, workers: int | None) -> None:
        """The number of live workers (None once the pool is done)."""


class QuietSink:
    """Defaults for a Sink whose driver keeps no progress line: nothing on a start, a reply or a worker count;
    notes to stderr after `prefix`; a task given up as one line in `self.failed` (the subclass's list)."""

    prefix = "ray"
    failed: list

    def started(self, info: dict) -> None:
        return None

    def returned(self, task: Any, out: dict) -> None:
        return None

    def live(self, workers: int | None) -> None:
        return None

    def stop(self, task: Any, out: dict) -> str:
        return ""

    def fail(self, task: Any, error: str, attempts: int) -> None:
        label = getattr(task, "label", str(task.key))
        self.failed.append(f"{label}: {error} ({attempts} attempts)")
        self.note(f"giving up on {label} after {attempts} attempt(s): {error}; a rerun retries it")

    def note(self, line: str) -> None:
        print(f"{self.prefix}: {line}", file=sys.stderr)


def pack_folders(root: Path, names: tuple[str, ...]) -> bytes:
    """The listed folders under root as one uncompressed tar (PNGs, MCAP and mp4 are compressed already),
    members in sorted order so the same files give the same bytes."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name in names:
            top = Path(root) / name
            if not top.exists():
                continue
            for path in [top, *sorted(top.rglob("*"))]:
                tar.add(path, arcname=str(path.relative_to(root)), recursive=False)
    return buf.getvalue()


def extract_folder(archive: bytes, name: str, dest: Path) -> None:
    """Folder `name` of a pack_folders archive as `dest`, written under dest's .partial name and renamed
    when whole, so a half-written folder never looks complete; an existing dest is replaced."""
    dest = Path(dest)
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r") as tar:
        for m in tar.getmembers():
            if m.name.startswith(name + "/"):
                m.name = m.name[len(name) + 1 :]
                tar.extract(m, partial, filter="data")
    shutil.rmtree(dest, ignore_errors=True)
    partial.rename(dest)


@dataclass
class _Worker:
    handle: object
    ready_ref: object
    node_id: str | None = None
    busy: bool = False
    affinity: object = None


@dataclass
class _Pool:
    actor_cls: object
    actor_args: tuple
    sink: Sink
    plan: PoolPlan
    on_dispatch: Callable[[Any, str], None] | None
    pending: deque = field(default_factory=deque)
    inflight: dict = field(default_factory=dict)  # result ref -> (worker, task)
    workers: list = field(default_factory=list)
    spawned: int = 0
    recorded: set = field(default_factory=set)


def run_tasks(
    tasks: Iterable,
    actor_class: type,
    actor_args: tuple,
    sink: Sink,
    plan: PoolPlan,
    on_dispatch: Callable[[Any, str], None] | None = None,
) -> None:
    """Run every task on Ray workers of `actor_class(*actor_args)`, handing each reply to `sink`.
    on_dispatch(task, node_id) is called as each task leaves (tests use it to remove a node mid-task)."""
    ray = import_ray()
    owned = connect(plan.address)
    cls = ray.remote(num_cpus=plan.cpus_per_worker, max_restarts=0, max_task_retries=0)(actor_class)
    pool = _Pool(cls, actor_args, sink, plan, on_dispatch, pending=deque(tasks))
    try:
        for _ in range(min(plan.workers, max(len(pool.pending), 1))):
            _spawn(pool)
        _loop(pool)
    finally:
        _close_workers(pool)
        sink.live(None)
        if owned and plan.address is None:
            ray.shutdown()


def _close_workers(pool: _Pool) -> None:
    ray = import_ray()
    for w in pool.workers:
        if w.node_id is not None:  # one that never came up has nothing to close
            try:
                ray.get(w.handle.close.remote(), timeout=60)
            except Exception:  # noqa: BLE001 - a dead or stuck worker: Ray kills it below either way
                pass
        ray.kill(w.handle)


def _spawn(pool: _Pool) -> None:
    handle = pool.actor_cls.remote(*pool.actor_args)
    pool.workers.append(_Worker(handle, handle.where.remote()))
    pool.spawned += 1


def _live(pool: _Pool) -> list[_Worker]:
    return [w for w in pool.workers if w.node_id is not None]


def _dispatch(pool: _Pool) -> None:
    for w in _live(pool):
        if w.busy or not pool.pending:
            continue
        task = next((t for t in pool.pending if getattr(t, "affinity", None) == w.affinity), pool.pending[0])
        pool.pending.remove(task)
        w.busy, w.affinity = True, getattr(task, "affinity", None)
        if pool.on_dispatch is not None:
            pool.on_dispatch(task, w.node_id)
        pool.inflight[w.handle.run.remote(pool.sink.prepare(task))] = (w, task)


def _loop(pool: _Pool) -> None:
    ray = import_ray()
    while pool.pending or pool.inflight:
        _dispatch(pool)
        pool.sink.live(len(_live(pool)))
        starting = {w.ready_ref: w for w in pool.workers if w.node_id is None}
        refs = list(pool.inflight) + list(starting)
        if not refs:
            raise RuntimeError(
                "no Ray workers left to run the remaining tasks (see the lines above for why); "
                "run the same command again to resume"
            )
        done, _ = ray.wait(refs, num_returns=1, timeout=None if pool.inflight else WORKER_START_TIMEOUT_S)
        if not done:
            for t in pool.pending:
                pool.sink.fail(t, f"no Ray worker came up within {WORKER_START_TIMEOUT_S:.0f} s", t.attempt - 1)
            pool.pending.clear()
            return
        if done[0] in starting:
            _on_started(pool, starting[done[0]])
        else:
            _on_finished(pool, done[0])


def _on_started(pool: _Pool, w: _Worker) -> None:
    ray = import_ray()
    try:
        info = ray.get(w.ready_ref)
    except ray.exceptions.RayError as exc:
        pool.workers.remove(w)
        pool.sink.note(f"a Ray worker failed to start: {type(exc).__name__}: {_last_line(exc)}")
        _replace(pool)
        return
    w.node_id = info["node_id"]
    pool.sink.started(info)


def _last_line(exc: BaseException) -> str:
    """The last line of Ray's message: for an actor whose constructor raised, the constructor's error."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def _replace(pool: _Pool) -> None:
    # a bounded number of replacements, so a cluster that kills every worker cannot loop forever
    if pool.spawned < pool.plan.workers * (pool.plan.retries + 2) and pool.pending:
        _spawn(pool)


def _on_finished(pool: _Pool, ref) -> None:
    ray = import_ray()
    w, task = pool.inflight.pop(ref)
    w.busy = False
    try:
        out = ray.get(ref)
    except ray.exceptions.RayError as exc:  # the worker or its node died mid-task
        pool.workers.remove(w)
        _retry(pool, task, f"Ray worker on node {(w.node_id or '?')[:12]} lost ({type(exc).__name__})")
        _replace(pool)
        return
    pool.sink.returned(task, out)
    if not out["ok"]:
        if pool.sink.stop(task, out):
            affinity = getattr(task, "affinity", None)
            pool.pending = deque(t for t in pool.pending if getattr(t, "affinity", None) != affinity)
            return
        _retry(pool, task, out["error"])
        return
    if task.key in pool.recorded:  # never twice, whatever the cluster did
        return
    pool.recorded.add(task.key)
    pool.sink.accept(task, out)


def _retry(pool: _Pool, task, error: str) -> None:
    if task.attempt > pool.plan.retries:
        pool.sink.fail(task, error, task.attempt)
        return
    label = getattr(task, "label", str(task.key))
    pool.sink.note(f"{label}: attempt {task.attempt} failed ({error}); retrying on another worker")
    pool.pending.appendleft(replace(task, attempt=task.attempt + 1))
