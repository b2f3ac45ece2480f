"""One running ReactHuman graph (its own ROS domain) plus an action client that drives episodes through it.

The graph is started with `reacthuman launch` as a child process; its log goes to RUN_DIR/logs/. An episode
that fails (the action aborts, times out, or the graph dies) is an infrastructure failure: the caller
restarts the worker and retries. The action client is a ROS 2 node (`reacthuman.nodes.eval_client`),
imported only when a graph starts: this module, like the rest of the core, imports without rclpy.

While it waits for an episode the worker also watches every node's heartbeat (reacthuman.evaluation.liveness):
a node that stops answering fails the episode like one that exits, within about two minutes at most.

Between episodes the worker can restart the body alone (`restart_node`): the launch file marks it
`respawn: true`, so the launcher starts it again once it is stopped."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from reacthuman.core.processes import children, process_name
from reacthuman.evaluation.episode import EpisodeResult
from reacthuman.evaluation.liveness import HEARTBEAT_ENV, HUNG_AFTER_S, LivenessWatch
from reacthuman.evaluation.memory_log import RESPAWNED_NODES
from reacthuman.evaluation.run_lock import RUN_ENV
from reacthuman.launching.launcher import die_with_parent
from reacthuman.policy.graph_contract import POLICY_LAUNCH_FILE, policy_launch_args
from reacthuman.policy.loading import is_policy_entry
from reacthuman.scoring.ledger import DecisionRecord

LAUNCH_FILE = Path(__file__).resolve().parents[2] / "launch" / "eval.launch.yaml"
NODE_STOP_GRACE_S = 15.0
DISCOVERY_WAIT_S = 1.0  # discovery on loopback takes 5-90 ms
DOMAIN_TRIES = 10
BODY_CHECK_S = 1.0
LIVENESS_CHECK_S = 5.0
BODY_GONE_GRACE_S = 10.0
_DIED = re.compile(r"\[launch\] node '(\w+)' died with exit code (-?\d+)")


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
    hung_after_s: float = HUNG_AFTER_S  # a node silent this long, stopped or idle, is taken for dead (liveness)
    keep_bags: str = "all"
    trace_memory: bool = False
    model_options: str = ""  # the model's ?options (no key: variable names), for the brain node alone
    plans: str = ""  # a decide run folder: the brain node replays its stored plans (eval --plans)
    loop: str = "open"  # closed: the body re-plans (docs/closed-loop.md)
    replan_images: bool = True  # closed loop: the body renders each re-plan's window (a model shown frames)
    replan_truth: bool = False  # closed loop: each re-plan's observation carries its moment's truth (the oracle)


class GraphWorker:
    def __init__(self, config: WorkerConfig, domains, log_path: Path, stop: threading.Event | None = None) -> None:
        self.config, self.domains, self.log_path = config, domains, log_path
        self.stop_requested = stop or threading.Event()
        self.domain_id = -1
        self.proc: subprocess.Popen | None = None
        self.episodes = 0  # episodes run by the current graph (or body, after a body restart)
        self.client = None  # a reacthuman.nodes.eval_client.EpisodeClient while a graph runs
        self._body_pid: int | None = None  # the body of the episode in flight
        self._body_checked = 0.0
        self._liveness: LivenessWatch | None = None  # while a graph runs
        self._liveness_checked = 0.0
        self._log_start = 0  # where the current graph's lines begin in the log
        self._body_gone_s: float | None = None  # when the body of the episode in flight went without a successor

    def start(self) -> None:
        c = self.config
        self._join_free_domain()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("a")
        self._log_start = log.tell()
        launch_file, extra = LAUNCH_FILE, ()
        if is_policy_entry(c.model):  # a policy's graph: the policy node in the brain's place
            launch_file, extra = LAUNCH_FILE.with_name(POLICY_LAUNCH_FILE), policy_launch_args(c.model)
        elif c.loop == "closed":  # an open loop's command line stays as it was
            extra = (
                "loop:=closed",
                f"replan_images:={str(c.replan_images).lower()}",
                f"replan_truth:={str(c.replan_truth).lower()}",
            )
        cmd = [
            sys.executable,
            "-m",
            "reacthuman.cli",
            "launch",
            str(launch_file),
            "--domain-id",
            str(self.domain_id),
            f"model:={c.model}",
            f"scenes_dir:={c.scenes_dir}",
            f"run_dir:={c.run_dir}",
            f"engine:={c.engine}",
            f"modality:={c.modality}",
            f"model_options:={c.model_options}",
            f"plans:={c.plans}",
            f"keep_bags:={c.keep_bags}",
            f"trace_memory:={str(c.trace_memory).lower()}",
            f"video_dir:={c.run_dir / 'videos' / c.model.replace('/', '_') if c.videos else ''}",
            *extra,
        ]
        self._liveness = LivenessWatch(Path(tempfile.mkdtemp(prefix="reacthuman-heartbeat-")), c.hung_after_s)
        env = dict(
            os.environ,
            **{
                RUN_ENV: str(Path(c.run_dir).resolve()),  # inherited by every node
                HEARTBEAT_ENV: str(self._liveness.heartbeat_dir),
            },
        )
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, preexec_fn=die_with_parent)
        self.episodes = 0
        log.close()
        self.client.wait_ready(c.startup_timeout_s, f"log: {self.log_path}", followers=RESPAWNED_NODES)

    def _join_free_domain(self) -> None:
        """Join the next ROS domain where no other node is seen: another eval on this machine (other run
        folders pick their domains independently) could otherwise serve this run's goals (seen once)."""
        from reacthuman.nodes.eval_client import EpisodeClient  # the ROS side, only once a graph runs

        tried: list[int] = []
        for _ in range(DOMAIN_TRIES):
            self.domain_id = self.domains.take()
            if self.domain_id in tried:  # a fixed domain (the bench's): use it as it is
                break
            tried.append(self.domain_id)
            self.client = EpisodeClient(self.domain_id, self._check_alive)
            if not self.client.other_nodes(DISCOVERY_WAIT_S):
                return
            self.client.close()
            self.client = None
        if len(tried) == DOMAIN_TRIES:
            raise RuntimeError(
                f"no free ROS domain among {', '.join(map(str, tried))} (other graphs run on this machine)"
            )
        self.client = EpisodeClient(self.domain_id, self._check_alive)

    def node_pid(self, name: str) -> int | None:
        if self.proc is None:
            return None
        return next((pid for pid in children(self.proc.pid) if process_name(pid) == name), None)

    def restart_node(self, name: str) -> None:
        """Stop one `respawn: true` node between episodes and wait until its successor has joined the graph
        (it subscribes to the scene announcement again), so the next episode runs as on a fresh graph."""
        if name not in RESPAWNED_NODES:
            raise ValueError(
                f"node '{name}' is not respawned by the launch file (those are: {', '.join(RESPAWNED_NODES)})"
            )
        old = self.node_pid(name)
        if old is None:
            raise RuntimeError(f"node '{name}' is not running (log: {self.log_path})")
        readers = self.client.scene_readers()
        for sig in (signal.SIGINT, signal.SIGKILL):  # a node's own shutdown ends it within EXIT_GRACE_S
            try:
                os.killpg(old, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + NODE_STOP_GRACE_S
            while _alive(old) and time.monotonic() < deadline:
                self.client.spin(0.1)
            if not _alive(old):
                break
        # the old reader leaves the graph first (at once after a clean exit, after its DDS lease when killed),
        # so that counting readers again below means the successor's own subscription
        deadline = time.monotonic() + NODE_STOP_GRACE_S
        while self.client.scene_readers() >= readers and time.monotonic() < deadline:
            self.client.spin(0.1)
        deadline = time.monotonic() + self.config.startup_timeout_s
        while self.node_pid(name) in (None, old) or self.client.scene_readers() < readers:
            self._check_alive()
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"'{name}' did not come back within {self.config.startup_timeout_s:.0f} s (log: {self.log_path})"
                )
            self.client.spin(0.2)
        self.episodes = 0

    def _check_alive(self) -> None:
        if self.stop_requested.is_set():
            raise RuntimeError("interrupted")
        if self.proc is not None and self.proc.poll() is not None:
            raise RuntimeError(
                f"the graph exited with status {self.proc.returncode}{self._first_death()} (log: {self.log_path})"
            )
        if (
            self._liveness is not None
            and self.proc is not None
            and time.monotonic() - self._liveness_checked > LIVENESS_CHECK_S
        ):
            self._liveness_checked = time.monotonic()
            hung = self._liveness.check({process_name(pid): pid for pid in children(self.proc.pid)})
            if hung:
                raise RuntimeError(f"{hung} (log: {self.log_path})")
        if self._body_pid is not None and time.monotonic() - self._body_checked > BODY_CHECK_S:
            self._body_checked = time.monotonic()
            body = self.node_pid("body")
            if body is None and self._body_gone_s is None:
                self._body_gone_s = time.monotonic()
            # gone without a successor: the graph is stopping because some node died, which its exit names
            stopping = body is None and time.monotonic() - self._body_gone_s < BODY_GONE_GRACE_S
            if body != self._body_pid and not stopping:  # respawned mid-episode: this episode cannot finish
                raise RuntimeError(f"the body exited during the episode (log: {self.log_path})")

    def _first_death(self) -> str:
        """' (node X died with exit code N)' from the launcher's log of the current graph, or ''."""
        try:
            with self.log_path.open() as fh:
                fh.seek(self._log_start)
                found = _DIED.search(fh.read())
        except OSError:
            return ""
        return f": node '{found[1]}' died with exit code {found[2]}" if found else ""

    def run_episode(self, scene_id: str, on_phase=None) -> EpisodeResult:
        started = time.monotonic()
        deadline = started + self.config.episode_timeout_s
        self._body_pid, self._body_checked, self._body_gone_s = self.node_pid("body"), started, None
        try:
            answer = self.client.run(
                scene_id,
                str(self.config.scenes_dir),
                self.config.model,
                min(deadline, started + self.config.accept_timeout_s),
                deadline,
                on_phase,
            )
        except (TimeoutError, RuntimeError) as exc:
            return EpisodeResult(False, error=str(exc), wall_s=time.monotonic() - started)
        finally:
            self._body_pid = None
        if answer is None:
            return EpisodeResult(False, error="goal rejected", wall_s=time.monotonic() - started)
        self.episodes += 1
        ok, row, error = answer
        return EpisodeResult(
            ok, DecisionRecord.from_dict(row) if ok else None, error, wall_s=time.monotonic() - started
        )

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
        if self._liveness is not None:
            shutil.rmtree(self._liveness.heartbeat_dir, ignore_errors=True)
            self._liveness = None


def _alive(pid: int) -> bool:
    """Running (a zombie, exited but not yet reaped by the launcher, counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False
