"""One running ReactHuman graph (its own ROS domain) plus an action client that drives episodes through it.

The graph is started with `reacthuman launch` as a child process; its log goes to RUN_DIR/logs/. An episode
that fails (the action aborts, times out, or the graph dies) is an infrastructure failure: the caller
restarts the worker and retries. The action client is a ROS 2 node (`reacthuman.nodes.eval_client`),
imported only when a graph starts: this module, like the rest of the core, imports without rclpy."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from reacthuman.evaluation.run_lock import RUN_ENV
from reacthuman.launcher import die_with_parent

LAUNCH_FILE = Path(__file__).resolve().parents[2] / "launch" / "eval.launch.yaml"


@dataclass(frozen=True)
class WorkerConfig:
    model: str
    scenes_dir: Path
    run_dir: Path
    engine: str = "genesis"
    modality: str = "images"
    videos: bool = False
    startup_timeout_s: float = 300.0
    accept_timeout_s: float = 60.0
    episode_timeout_s: float = 900.0
    keep_bags: str = "all"


@dataclass(frozen=True)
class EpisodeResult:
    ok: bool
    record: dict | None
    error: str = ""
    wall_s: float = 0.0


class GraphWorker:
    def __init__(self, config: WorkerConfig, domains, log_path: Path) -> None:
        self.config, self.domains, self.log_path = config, domains, log_path
        self.domain_id = -1
        self.proc: subprocess.Popen | None = None
        self.episodes = 0  # episodes run by the current graph
        self.client = None  # a reacthuman.nodes.eval_client.EpisodeClient while a graph runs

    def start(self) -> None:
        c = self.config
        self.domain_id = self.domains.take()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("a")
        cmd = [sys.executable, "-m", "reacthuman.cli", "launch", str(LAUNCH_FILE), "--domain-id", str(self.domain_id),
               f"model:={c.model}", f"scenes_dir:={c.scenes_dir}", f"run_dir:={c.run_dir}", f"engine:={c.engine}",
               f"modality:={c.modality}", f"keep_bags:={c.keep_bags}", f"video_dir:={c.run_dir / 'videos' / c.model.replace('/', '_') if c.videos else ''}"]
        env = dict(os.environ, **{RUN_ENV: str(Path(c.run_dir).resolve())})  # inherited by every node
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, preexec_fn=die_with_parent)
        self.episodes = 0
        log.close()
        from reacthuman.nodes.eval_client import EpisodeClient  # the ROS side, only once a graph runs

        self.client = EpisodeClient(self.domain_id, self._check_alive)
        self.client.wait_ready(c.startup_timeout_s, f"log: {self.log_path}")

    def _check_alive(self) -> None:
        if self.proc is not None and self.proc.poll() is not None:
            raise RuntimeError(f"the graph exited with status {self.proc.returncode} (log: {self.log_path})")

    def run_episode(self, scene_id: str, on_phase=None) -> EpisodeResult:
        started = time.monotonic()
        deadline = started + self.config.episode_timeout_s
        try:
            answer = self.client.run(scene_id, str(self.config.scenes_dir), self.config.model,
                                     min(deadline, started + self.config.accept_timeout_s), deadline, on_phase)
        except (TimeoutError, RuntimeError) as exc:
            return EpisodeResult(False, None, str(exc), time.monotonic() - started)
        if answer is None:
            return EpisodeResult(False, None, "goal rejected", time.monotonic() - started)
        self.episodes += 1
        ok, record, error = answer
        return EpisodeResult(ok, record, error, time.monotonic() - started)

    def stop(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
