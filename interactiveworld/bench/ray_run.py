"""`interactiveworld run --executor ray`: the episodes of a local `interactiveworld run`, on Ray workers.

Each worker (InteractiveActor) holds the run's human and, for a model assistant, the assistant (model
clients read any API key from the worker's own environment), and runs one episode per task. The frozen task
pack travels with its task (its JSON, checked against its content hash on the worker); the row, the trace
and, with --bags, the episode's rosbag2 folder come back through Ray. The driver alone writes, through the
local run's own writer and in the same files, so resume and the one-row-per-task rule are those of a local
run. Scheduling and faults: reacthuman.core.ray_pool."""

from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
from pathlib import Path

from interactiveworld.agents.assistants import REFERENCE_ASSISTANTS, make_assistant, make_human
from interactiveworld.bench.record import TaskRecord
from interactiveworld.bench.runner import log_invocation, prepare_run, record_result
from interactiveworld.bench.taskpack import TaskPack
from interactiveworld.episode import run_episode
from reacthuman.core.ray_cluster import check_model, executor_info, node_info
from reacthuman.core.ray_pool import PoolPlan, QuietSink, extract_folder, pack_folders, run_tasks

BAGS = "bags"  # as in RUN_DIR: the bag folder's name (the task id) names its MCAP file too


@dataclasses.dataclass(frozen=True)
class PackTask:
    task_id: str
    pack_json: str = ""  # the frozen pack, attached as the task leaves
    attempt: int = 1

    @property
    def key(self) -> str:
        return self.task_id

    @property
    def label(self) -> str:
        return self.task_id


@dataclasses.dataclass(frozen=True)
class RunSettings:
    """What a local `interactiveworld run` is told besides its task folder."""

    assistant: str
    human: str = "scripted"
    memory: bool = False
    render: bool = False
    bags: bool = False
    body: str = "capsule"


class InteractiveActor:
    """A Ray worker: the run's human (and model assistant), kept across episodes."""

    def __init__(self, settings: RunSettings) -> None:
        s = self.settings = settings
        self.shared_assistant = (
            None if s.assistant in REFERENCE_ASSISTANTS else make_assistant(s.assistant, None, s.memory)
        )
        self.human = make_human(s.human)
        self.root = Path(tempfile.mkdtemp(prefix="interactiveworld-ray-"))

    def where(self) -> dict:
        return node_info()

    def run(self, task: PackTask) -> dict:
        """{"ok", "error", "row", "trace" (JSON text), "bag" (tar of the rosbag2 folder, or b"")}."""
        s = self.settings
        pack = TaskPack.from_json(json.loads(task.pack_json))
        if pack.content_hash != pack.compute_hash():  # the driver loaded it checked: this guards the transfer
            return {"ok": False, "error": f"{task.task_id}: the pack's content hash does not match after transfer"}
        bags = self.root / BAGS
        shutil.rmtree(bags, ignore_errors=True)
        a = self.shared_assistant or make_assistant(s.assistant, pack, s.memory)
        res = run_episode(
            pack, a, self.human, render=s.render, bag_path=bags / pack.task_id if s.bags else None, body=s.body
        )
        archive = pack_folders(self.root, (f"{BAGS}/{pack.task_id}",)) if s.bags else b""
        shutil.rmtree(bags, ignore_errors=True)
        return {
            "ok": True,
            "error": "",
            "row": TaskRecord.of_episode(pack, res, s.memory),
            "trace": json.dumps(res.trace, indent=1, default=str),
            "bag": archive,
        }

    def close(self) -> None:
        for agent in (self.shared_assistant, self.human):
            getattr(agent, "close", lambda: None)()
        shutil.rmtree(self.root, ignore_errors=True)


@dataclasses.dataclass
class _Sink(QuietSink):
    prefix = "interactiveworld"
    run_dir: Path
    packs: dict  # task id -> TaskPack
    settings: RunSettings
    written: list = dataclasses.field(default_factory=list)
    failed: list = dataclasses.field(default_factory=list)

    def prepare(self, task: PackTask) -> PackTask:
        return dataclasses.replace(task, pack_json=json.dumps(self.packs[task.task_id].to_json(), sort_keys=True))

    def accept(self, task: PackTask, out: dict) -> None:
        if self.settings.bags:  # the bag before the row, as a local run has it when the row is written
            extract_folder(out["bag"], f"{BAGS}/{task.task_id}", self.run_dir / BAGS / task.task_id)
        record_result(self.run_dir, out["row"], out["trace"])
        self.written.append(out["row"])


def run_tasks_on_ray(
    tasks_dir: Path, settings: RunSettings, run_dir: Path, plan: PoolPlan, only: str = "", limit: int | None = None
) -> tuple[list[TaskRecord], list[str]]:
    """The missing episodes of a run folder on Ray: (the rows written by this call, one line per task given up)."""
    s = settings
    for name in (s.assistant, s.human):
        if name.startswith("llm:"):
            check_model(name[4:])
    packs, done = prepare_run(tasks_dir, s.assistant, s.human, run_dir, s.memory, only, limit, s.body)
    todo = [p for p in packs if p.task_id not in done]
    log_invocation(run_dir, executor_info("ray", plan.workers, plan.address), len(todo))
    if not todo:
        return [], []
    sink = _Sink(Path(run_dir), {p.task_id: p for p in todo}, s)
    run_tasks([PackTask(p.task_id) for p in todo], InteractiveActor, (s,), sink, plan)
    return sink.written, sink.failed
