"""What runs on a Ray worker for `reacthuman eval --executor ray`: a long-lived graph per worker.

Each worker (a Ray actor) keeps one ReactHuman graph (reacthuman.evaluation.graph_worker.GraphWorker) in a
private folder of its node and runs one episode per task. The scene spec travels with the task (and, for
`eval --plans`, the decide row whose plan the graph's replay brain publishes) and the episode's artefacts go
back as one tar archive, so the nodes share no file system. API keys are read by
the graph from the worker's own environment: nothing secret is in a task or its result.

No import of ray here: the actor class is wrapped with `ray.remote` by the driver, so this module stays
usable (and testable) without a cluster."""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path

from reacthuman.brain.prompt import DEFAULT_MODALITY
from reacthuman.evaluation.graph_worker import GraphWorker, WorkerConfig
from reacthuman.evaluation.memory_log import RestartPolicy, graph_rss_mib
from reacthuman.core.ray_cluster import node_info
from reacthuman.core.ray_pool import pack_folders

DOMAIN_SPAN = 100
DOMAIN_LOCK_DIR = Path(tempfile.gettempdir()) / "reacthuman-ros-domains"
SHIPPED_FOLDERS = ("episodes", "videos")  # what the graph writes under its run_dir for one episode


@dataclass(frozen=True)
class EpisodeTask:
    """One (model, scene) pair; `attempt` counts from 1 across workers."""

    model: str
    scene_id: str
    spec_json: str
    attempt: int = 1
    plan_row: str = ""  # eval --plans: the decide row (JSON) whose stored plan this episode executes

    @property
    def key(self) -> tuple[str, str]:
        return (self.scene_id, self.model)

    @property
    def affinity(self) -> str:
        return self.model

    @property
    def label(self) -> str:
        return f"{self.scene_id} x {self.model}"


@dataclass(frozen=True)
class ActorSettings:
    engine: str = "genesis"
    modality: str = DEFAULT_MODALITY
    videos: bool = False
    episode_timeout_s: float = 900.0
    domain_base: int = 100
    keep_bags: str = "all"  # the graph applies it, as in a local run, so a dropped bag never travels
    restart_every: int = 0  # RestartPolicy.every_episodes
    restart_above_pct: float = 10.0  # RestartPolicy.above_warmup_pct
    startup_timeout_s: float = 300.0
    # (model, modality, options) of models shown another modality or given ?options (eval's choose_modality)
    per_model: tuple[tuple[str, str, str], ...] = ()
    plans: bool = False  # eval --plans: the graphs replay the decide rows their tasks carry (no model is asked)

    def model_setup(self, model: str) -> tuple[str, str]:
        """(modality, options) of `model`'s graph."""
        return next(((m, o) for name, m, o in self.per_model if name == model), (self.modality, ""))

    def __post_init__(self) -> None:
        if not 0 <= self.domain_base <= 132:
            raise ValueError(f"domain_base must be in 0..132, got {self.domain_base}")
        if self.episode_timeout_s <= 0 or self.startup_timeout_s <= 0:
            raise ValueError(
                f"episode_timeout_s and startup_timeout_s must be > 0, got "
                f"{self.episode_timeout_s} and {self.startup_timeout_s}"
            )
        if self.keep_bags not in ("all", "failures"):
            raise ValueError(f"keep_bags must be all or failures, got {self.keep_bags!r}")
        self.policy()  # validates the restart settings

    def policy(self) -> RestartPolicy:
        """A fresh restart policy, as a local worker has one per model."""
        return RestartPolicy(self.restart_every, self.restart_above_pct)


class NodeDomains:
    """ROS domains unique on this node across every worker on it: a domain is held through an flock on
    DOMAIN_LOCK_DIR/<id>.lock, which the kernel releases when the worker dies, however it dies. A restart
    takes the next free domain before releasing the old one, so a graph never reuses a domain whose
    previous graph may still be shutting down."""

    def __init__(self, base: int, lock_dir: Path = DOMAIN_LOCK_DIR) -> None:
        self.base, self.lock_dir = base, lock_dir
        self._next = os.getpid() % DOMAIN_SPAN
        self._held: tuple[int, int] | None = None  # (domain, fd)

    def take(self) -> int:
        self.lock_dir.mkdir(parents=True, exist_ok=True)
        for _ in range(DOMAIN_SPAN):
            self._next = (self._next + 1) % DOMAIN_SPAN
            domain = self.base + self._next
            fd = os.open(self.lock_dir / f"{domain}.lock", os.O_CREAT | os.O_RDWR, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self.release()
            self._held = (domain, fd)
            return domain
        raise RuntimeError(
            f"all ROS domains {self.base}..{self.base + DOMAIN_SPAN - 1} are taken on {socket.gethostname()}"
        )

    def release(self) -> None:
        if self._held is not None:
            os.close(self._held[1])
            self._held = None


def log_name(model: str) -> str:
    """The graph log's file name under RUN_DIR/logs/, as the local executor names it."""
    return f"{model.replace('/', '_')}.log"


class EpisodeActor:
    """A Ray worker: one graph, kept across episodes of the same model, restarted after a failure and when the
    local executor's restart policy says so."""

    def __init__(self, settings: ActorSettings) -> None:
        self.settings = settings
        self.root = Path(tempfile.mkdtemp(prefix="reacthuman-ray-"))
        self.scenes_dir, self.run_dir = self.root / "scenes", self.root / "run"
        self.plans_dir = self.root / "plans"  # the decide rows received so far, as the replay brain reads a run
        self.scenes_dir.mkdir()
        self.run_dir.mkdir()
        self.domains = NodeDomains(settings.domain_base)
        self.worker: GraphWorker | None = None
        self.model: str | None = None
        self.policy, self._policy_model = settings.policy(), None
        self._rss: dict[str, float] = {}  # each node's memory after the last episode
        self._log_sent: dict[str, int] = {}  # bytes of each model's graph log already sent to the driver

    def where(self) -> dict:
        """Which node and process this worker runs in (the driver schedules and reports by it)."""
        return node_info()

    def _graph_for(self, model: str) -> GraphWorker:
        if self.worker is not None and self.model == model:
            return self.worker
        self._stop_graph()
        if self._policy_model != model:  # a local worker, too, has one policy per model
            self.policy, self._policy_model, self._rss = self.settings.policy(), model, {}
        s = self.settings
        modality, options = s.model_setup(model)
        config = WorkerConfig(
            model,
            self.scenes_dir,
            self.run_dir,
            s.engine,
            modality,
            videos=s.videos,
            episode_timeout_s=s.episode_timeout_s,
            startup_timeout_s=s.startup_timeout_s,
            keep_bags=s.keep_bags,
            model_options=options,
            plans=str(self.plans_dir) if s.plans else "",
        )
        worker = GraphWorker(config, self.domains, self._log_path(model))
        try:
            worker.start()
        except BaseException:
            worker.stop()
            raise
        self.worker, self.model = worker, model
        return worker

    def _log_path(self, model: str) -> Path:
        return self.root / "logs" / log_name(model)

    def _new_log(self, model: str) -> bytes:
        """The graph log written since the last task: the driver appends it to RUN_DIR/logs/ as a local run has it."""
        path = self._log_path(model)
        if not path.is_file():
            return b""
        with path.open("rb") as fh:
            fh.seek(self._log_sent.get(model, 0))
            data = fh.read()
        self._log_sent[model] = self._log_sent.get(model, 0) + len(data)
        return data

    def _stop_graph(self) -> None:
        if self.worker is not None:
            self.worker.stop()
        self.worker, self.model = None, None

    def run(self, task: EpisodeTask) -> dict:
        """One episode: {"ok", "record", "archive" (tar bytes of episodes/ and videos/), "error", "wall_s",
        "log" (the graph log since the last task), "memory" (a memory_log sample), "notes" (lines for the user)}."""
        notes = self._restart_if_due(task.model)
        out = self._run(task)
        out["log"], out["notes"] = self._new_log(task.model), notes
        out["memory"] = self._sample_memory()
        return out

    def _restart_if_due(self, model: str) -> list[str]:
        """The local executor's restart policy (--restart-every, --restart-above-pct), applied by this worker."""
        if self.worker is None or self.model != model:
            return []
        reason = self.policy.due(self.worker.episodes, self._rss)
        if not reason:
            return []
        self._stop_graph()  # Genesis does not free a built scene: a fresh graph brings every node's memory back
        return [f"a Ray worker on {socket.gethostname()} starts a fresh graph for {model}: {reason}"]

    def _sample_memory(self) -> dict | None:
        if self.worker is None or self.worker.proc is None:
            self._rss = {}
            return None
        self._rss = graph_rss_mib(self.worker.proc.pid)
        return {"domain": self.worker.domain_id, "graph_episode": self.worker.episodes, "rss_mib": self._rss}

    def _run(self, task: EpisodeTask) -> dict:
        for name in SHIPPED_FOLDERS:  # a failed earlier attempt may have left files behind
            shutil.rmtree(self.run_dir / name, ignore_errors=True)
        scene = self.scenes_dir / task.scene_id
        scene.mkdir(exist_ok=True)
        (scene / "spec.json").write_text(task.spec_json)
        if task.plan_row:  # before the graph starts: its replay brain reads the folder (again on a new scene)
            self.plans_dir.mkdir(exist_ok=True)
            with (self.plans_dir / "ledger.jsonl").open("a") as fh:
                fh.write(task.plan_row.strip() + "\n")
        try:
            result = self._graph_for(task.model).run_episode(task.scene_id)
        except (TimeoutError, RuntimeError) as exc:
            self._stop_graph()
            return {"ok": False, "record": None, "archive": b"", "error": f"graph start failed: {exc}", "wall_s": 0.0}
        finally:
            shutil.rmtree(scene, ignore_errors=True)
        if not result.ok:
            self._stop_graph()  # the next task starts a fresh graph
            return {"ok": False, "record": None, "archive": b"", "error": result.error, "wall_s": result.wall_s}
        archive = pack_folders(self.run_dir, SHIPPED_FOLDERS)
        for name in SHIPPED_FOLDERS:
            shutil.rmtree(self.run_dir / name, ignore_errors=True)
        return {"ok": True, "record": result.record.to_dict(), "archive": archive, "error": "", "wall_s": result.wall_s}

    def close(self) -> None:
        self._stop_graph()
        self.domains.release()
        shutil.rmtree(self.root, ignore_errors=True)
