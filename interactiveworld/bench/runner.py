"""`interactiveworld run`: every task of a folder, one episode each, appended to RUN_DIR/results.jsonl.
Resumable: tasks with a valid (not voided) row are skipped; the ledger is append-only."""

from __future__ import annotations

import datetime
import json
import logging
import re
from pathlib import Path

from interactiveworld.agents.assistants import REFERENCE_ASSISTANTS, REFERENCE_HUMANS, make_assistant, make_human
from interactiveworld.bench.record import TaskRecord
from interactiveworld.bench.taskpack import TaskPack, load_packs, write_atomic
from interactiveworld.episode import run_episode
from reacthuman.core.jsonl import append_jsonl
from reacthuman.core.records import read_records
import shutil

LOG = logging.getLogger(__name__)


def folder_name(name: str) -> str:
    """A folder name for an agent name (model names may hold ':', '/' or '@')."""
    return re.sub(r"[^A-Za-z0-9._+-]", "_", name)


def _append(path: Path, row: dict) -> None:
    append_jsonl(path, row, sort_keys=True, ensure_ascii=True, allow_nan=True)


def _done(path: Path) -> set[str]:
    """Tasks with a valid row: a resumed run skips them (a voided task reruns)."""
    return {r.task_id for r in read_records(path, TaskRecord.from_dict) if not r.voided}


def prepare_run(
    tasks_dir: Path,
    assistant: str,
    human: str,
    run_dir: Path,
    memory: bool = False,
    only: str = "",
    limit: int | None = None,
    body: str = "capsule",
) -> tuple[list[TaskPack], set[str]]:
    """Check the agents, write or check RUN_DIR/run.json; (the selected packs, the task ids already done)."""
    for name, kinds in ((assistant, REFERENCE_ASSISTANTS), (human, REFERENCE_HUMANS)):
        if name not in kinds and not name.startswith("llm:"):
            raise ValueError(f"unknown agent {name!r} (one of {', '.join(kinds)} or llm:<model>)")
    packs = [p for p in load_packs(tasks_dir) if p.task_id.startswith(only)]
    if limit is not None:
        packs = packs[:limit]
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    manifest = {"assistant": assistant, "human": human, "memory": memory, "tasks_dir": str(tasks_dir), "body": body}
    mpath = run_dir / "run.json"
    if mpath.exists():
        old = json.loads(mpath.read_text())
        if {k: old.get(k) for k in ("assistant", "human", "memory")} != {
            k: manifest[k] for k in ("assistant", "human", "memory")
        }:
            raise ValueError(
                f"{run_dir}: holds a run of assistant={old.get('assistant')} human={old.get('human')} "
                f"memory={old.get('memory')}; use another RUN_DIR"
            )
    else:
        write_atomic(
            mpath, json.dumps({**manifest, "task_hashes": {p.task_id: p.content_hash for p in packs}}, indent=1)
        )
    return packs, _done(run_dir / "results.jsonl")


def log_invocation(run_dir: Path, executor: dict, episodes: int) -> None:
    """RUN_DIR/invocations.jsonl: one line per `interactiveworld run` on the folder, saying how it ran."""
    with open(Path(run_dir) / "invocations.jsonl", "a") as f:
        f.write(
            json.dumps(
                {
                    "utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                    "executor": executor,
                    "episodes_to_run": episodes,
                },
                sort_keys=True,
            )
            + "\n"
        )


def default_render(assistant: str, human: str, render: bool | None) -> bool:
    sees = assistant.startswith("llm:") and "+noview" not in assistant
    is_llm = sees or human.startswith("llm:")
    return is_llm if render is None else render  # a model human sees its own frames too


def record_result(run_dir: Path, record: TaskRecord, trace_json: str) -> None:
    """The trace first, then the row (append-only, fsynced): a row always has its trace."""
    write_atomic(Path(run_dir) / "traces" / f"{record.task_id}.json", trace_json)
    _append(Path(run_dir) / "results.jsonl", record.to_dict())
    LOG.info("%s passed=%s completion=%.2f voided=%s", record.task_id, record.passed, record.completion, record.voided)


def run_tasks(
    tasks_dir: Path,
    assistant: str,
    human: str,
    run_dir: Path,
    memory: bool = False,
    render: bool | None = None,
    only: str = "",
    limit: int | None = None,
    bags: bool = False,
    body: str = "capsule",
) -> list[TaskRecord]:
    packs, done = prepare_run(tasks_dir, assistant, human, run_dir, memory, only, limit, body)
    run_dir = Path(run_dir)
    log_invocation(run_dir, {"name": "local", "workers": 1}, sum(p.task_id not in done for p in packs))
    render = default_render(assistant, human, render)
    shared_assistant = None if assistant in REFERENCE_ASSISTANTS else make_assistant(assistant, None, memory)
    if shared_assistant is not None and render:
        shared_assistant.check_view()  # a text-only model with frames: refused before any episode
    h = make_human(human)
    rows = []
    try:
        for pack in packs:
            if pack.task_id in done:
                continue
            a = shared_assistant or make_assistant(assistant, pack, memory)
            bag = None
            if bags:
                bag = run_dir / "bags" / pack.task_id
                if bag.exists():  # a resumed run redoes the episode, and its bag with it
                    shutil.rmtree(bag)
            res = run_episode(pack, a, h, render=render, bag_path=bag, body=body)
            record = TaskRecord.of_episode(pack, res, memory)
            record_result(run_dir, record, json.dumps(res.trace, indent=1, default=str))
            rows.append(record)
    finally:
        for agent in (shared_assistant, h):
            close = getattr(agent, "close", None)
            if close:
                close()
    return rows
