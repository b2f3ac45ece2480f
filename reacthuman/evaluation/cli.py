"""`reacthuman eval --scenes DIR --models m1,m2 --out RUN_DIR [--limit N] [--workers W[,MODEL=N]]`

Every (scene, model) pair runs as one episode through the real graph. Resumable: pairs already in
RUN_DIR/ledger.jsonl are skipped, a half-done episode is redone, nothing is written twice.

`reacthuman eval --plans RUN` executes the plans a `reacthuman decide` run stored, through the same graph, and
appends their executed rows to RUN's ledger (`reacthuman.evaluation.plans`)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import queue
import sys
import threading
from pathlib import Path

from reacthuman.brain.base import reads_truth
from reacthuman.brain.llm_brain import ModalityChoice, model_modalities
from reacthuman.brain.prompt import DEFAULT_MODALITY, MODALITIES
from reacthuman.evaluation.first_render import FirstRenderGate, renderer_compiled
from reacthuman.evaluation.graph_worker import GraphWorker, WorkerConfig
from reacthuman.evaluation.liveness import HUNG_AFTER_S
from reacthuman.evaluation.manifest import finish_manifest, start_manifest
from reacthuman.evaluation.memory_log import Restart, RestartPolicy, append_sample, graph_rss_mib
from reacthuman.evaluation.plans import PlansRun, decide_record, load_plans, scenes_of
from reacthuman.evaluation.progress import Progress
from reacthuman.core.ray_cluster import executor_info
from reacthuman.evaluation.run_lock import RunLock, RunLockError
from reacthuman.evaluation.scene_set import load_scene_set
from reacthuman.evaluation.worker_counts import parse_worker_counts
from reacthuman.llm.vision import images_refused_in
from reacthuman.scoring.ledger import DecisionRecord, LedgerWriter, ledger_path, read_ledger
from reacthuman.evaluation.ray_actor import ActorSettings
from reacthuman.evaluation.ray_executor import RayPlan, run_pairs
from reacthuman.evaluation.ray_executor import check_address
from reacthuman.policy.graph_contract import policy_launch_args
from reacthuman.policy.loading import is_policy_entry, models_option


def done_pairs(run_dir: Path) -> set[tuple[str, str]]:
    if not ledger_path(run_dir).is_file() or ledger_path(run_dir).stat().st_size == 0:
        return set()
    return {(r.scene_id, r.model) for r in read_ledger(run_dir)}


class Run:
    """Shared state of one eval invocation: the ledger (one writer), failures, progress."""

    def __init__(self, run_dir: Path, progress: Progress, first_render: FirstRenderGate | None = None) -> None:
        self.run_dir, self.progress = run_dir, progress
        self.first_render = first_render or FirstRenderGate(closed=False)
        self.ledger = LedgerWriter(run_dir)
        self.lock = threading.Lock()
        self.failed: list[dict] = []
        self.graph_failures = 0
        self.stopping = threading.Event()  # Ctrl-C: workers stop their graphs; the episode in flight is redone
        self.plans: PlansRun | None = None  # eval --plans: the decide run whose plans the graphs execute
        self.refused: dict[str, str] = {}  # model -> the one-line refusal its server's image refusal stopped it with

    def record(self, model: str, record: DecisionRecord) -> None:
        if self.plans is not None:
            record = self.plans.executed_row(record)
        with self.lock:
            self.ledger.append(record)
        self.progress.add(model, record.to_dict())

    def fail(self, model: str, scene_id: str, error: str, attempts: int) -> None:
        entry = {"scene_id": scene_id, "model": model, "error": error, "attempts": attempts}
        with self.lock:
            self.failed.append(entry)
            self._append_failure(entry)
        self.progress.note(f"infrastructure failure, giving up on {scene_id} x {model}: {error}")

    def refuse(self, model: str, line: str, todo: "queue.Queue[str] | None" = None) -> None:
        """Stop `model` (a server that turns images away mid-run): no retry, no further scene of it (the Ray
        pool drops its pending tasks itself)."""
        with self.lock:
            first = model not in self.refused
            self.refused.setdefault(model, line)
        while todo is not None:
            try:
                todo.get_nowait()
            except queue.Empty:
                break
        if first:
            self.progress.note(f"stopping {model}: {line}")

    def attempt_failed(self, model: str, scene_id: str, error: str, attempt: int, wall_s: float) -> None:
        """One failed attempt that is retried: in the failures ledger with its reason and wall time, so that a
        run's faults and what each cost stay on record though the pair is scored in the end."""
        with self.lock:
            self._append_failure(
                {
                    "scene_id": scene_id,
                    "model": model,
                    "error": error,
                    "attempt": attempt,
                    "retried": True,
                    "wall_s": round(wall_s, 1),
                }
            )

    def _append_failure(self, entry: dict) -> None:
        with (self.run_dir / "failures.jsonl").open("a") as fh:
            fh.write(json.dumps(entry) + "\n")


GRAPH_START_TRIES = 3


class Domains:
    """ROS domains for graph starts: each start takes the next one, from an offset that differs between
    invocations, so a graph never shares its domain with one still shutting down (a killed earlier run)."""

    SPAN = 100

    def __init__(self, base: int) -> None:
        self.base, self._next = base, os.getpid() % self.SPAN
        self._lock = threading.Lock()

    def take(self) -> int:
        with self._lock:
            self._next += 1
            return self.base + self._next % self.SPAN


def _work(
    run: Run, config: WorkerConfig, domains: Domains, todo: "queue.Queue[str]", retries: int, policy: RestartPolicy
) -> None:
    log = run.run_dir / "logs" / f"{config.model.replace('/', '_')}.log"
    worker = GraphWorker(config, domains, log, stop=run.stopping)
    rss: dict[str, float] = {}
    leading = False  # this worker's first episode compiles the renderer while the other graphs wait
    try:
        _start_graph(run, worker)
        leading = run.first_render.wait_turn(run.stopping)
        while not run.stopping.is_set():
            try:
                scene_id = todo.get_nowait()
            except queue.Empty:
                return
            restart = policy.due(worker.episodes, rss)
            if restart:
                _restart(run, worker, restart)
            for attempt in range(1, retries + 2):
                result = worker.run_episode(scene_id, run.first_render.on_phase if leading else None)
                if leading:
                    run.first_render.open()
                    leading = False
                rss = _sample_memory(run, worker, scene_id)
                if result.ok:
                    run.record(config.model, result.record)
                    break
                if run.stopping.is_set():
                    return
                refusal = images_refused_in(result.error)
                if refusal:
                    run.refuse(config.model, refusal, todo)
                    return
                run.progress.note(
                    f"{scene_id} x {config.model}: attempt {attempt} failed ({result.error}); restarting the graph"
                )
                if attempt <= retries:
                    run.attempt_failed(config.model, scene_id, result.error, attempt, result.wall_s)
                _start_graph(run, worker)
            else:
                run.fail(config.model, scene_id, result.error, retries + 1)
    except (TimeoutError, RuntimeError) as exc:
        if run.stopping.is_set():
            return
        run.progress.note(f"graph for {config.model} (domain {worker.domain_id}) failed: {exc}")
        with run.lock:
            run.graph_failures += 1
    finally:
        if leading:
            run.first_render.open()
        worker.stop()


def _restart(run: Run, worker: GraphWorker, restart: Restart) -> None:
    """Between two episodes: the nodes that grew alone when the launcher respawns them (Genesis does not free
    a built scene: a fresh body gives its memory back), else, or when that fails, a fresh graph."""
    model = worker.config.model
    if restart.nodes:
        run.progress.note(f"restarting {', '.join(restart.nodes)} of {model}'s graph: {restart.reason}")
        try:
            for name in restart.nodes:
                worker.restart_node(name)
            return
        except (TimeoutError, RuntimeError) as exc:
            if run.stopping.is_set():
                raise
            restart = Restart(str(exc))
    run.progress.note(f"starting a fresh graph for {model}: {restart.reason}")
    _start_graph(run, worker)


def _start_graph(run: Run, worker: GraphWorker) -> None:
    """Stop the worker's graph if it runs and start a fresh one, up to GRAPH_START_TRIES times: a node that dies
    while its graph starts (killed, or its machine short of memory) costs a start, not the rest of the run.
    A graph that never comes up raises the last start's error."""
    for attempt in range(1, GRAPH_START_TRIES + 1):
        worker.stop()
        try:
            worker.start()
            return
        except (TimeoutError, RuntimeError) as exc:
            if run.stopping.is_set() or attempt == GRAPH_START_TRIES:
                raise
            run.progress.note(f"graph for {worker.config.model} failed to start ({exc}); starting another")


def _model_threads(
    run: Run, model: str, scene_ids: list[str], args: argparse.Namespace, domains: Domains
) -> list[threading.Thread]:
    """The graph workers of one model (--workers of them, at most one per scene), sharing its queue of scenes;
    none for a model with no scene left (a resumed run starts no graph for a finished model)."""
    q: "queue.Queue[str]" = queue.Queue()
    for scene_id in scene_ids:
        q.put(scene_id)
    choice, options = args.shown.get(model, ModalityChoice(args.modality)), args.options.get(model, "")
    config = WorkerConfig(
        model,
        args.scenes.resolve(),
        args.out.resolve(),
        args.engine,
        choice.modality,
        model_options=options,
        videos=args.videos,
        episode_timeout_s=args.episode_timeout,
        hung_after_s=args.hung_after,
        startup_timeout_s=args.startup_timeout,
        keep_bags=args.keep_bags,
        trace_memory=args.trace_memory,
        plans=str(args.plans.resolve()) if args.plans else "",
        loop=args.loop,
        # as the in-process loop (closed_loop.sees_images): only a model shown frames gets a re-plan's frames
        replan_images=model in args.shown and choice.modality in ("images", "both"),
        replan_truth=reads_truth(model),
    )
    return [
        threading.Thread(
            target=_work,
            args=(run, config, domains, q, args.retries, RestartPolicy(args.restart_every, args.restart_above_pct)),
        )
        for _ in range(min(args.workers.for_model(model), q.qsize()))
    ]


def _first_render_gate(args: argparse.Namespace, todo: dict[str, list[str]], progress: Progress) -> FirstRenderGate:
    graphs = sum(min(args.workers.for_model(m), len(ids)) for m, ids in todo.items())
    together = (
        graphs
        if args.models_side_by_side
        else max((min(args.workers.for_model(m), len(ids)) for m, ids in todo.items()), default=0)
    )
    closed = args.executor == "local" and args.engine == "genesis" and together > 1 and not renderer_compiled()
    if closed:
        progress.note(
            f"Genesis' renderer is not compiled in this environment yet: one graph compiles it "
            f"(about a minute) while the other {together - 1} wait for their first episode"
        )
    return FirstRenderGate(closed)


def _run_on_ray(run: Run, todo: dict[str, list[str]], args: argparse.Namespace) -> None:
    per_model = tuple(
        (m, args.shown.get(m, ModalityChoice(args.modality)).modality, args.options.get(m, "")) for m in todo
    )
    settings = ActorSettings(
        args.engine,
        args.modality,
        args.videos,
        args.episode_timeout,
        args.domain_base,
        keep_bags=args.keep_bags,
        restart_every=args.restart_every,
        restart_above_pct=args.restart_above_pct,
        startup_timeout_s=args.startup_timeout,
        per_model=per_model,
        plans=run.plans is not None,
    )
    try:
        run_pairs(
            run, todo, args.scenes.resolve(), RayPlan(settings, args.workers.default, args.retries, args.ray_address)
        )
    except (RuntimeError, ConnectionError) as exc:  # episodes not run stay out of the ledger: a rerun resumes
        run.progress.note(f"ray executor stopped: {exc}")


def _sample_memory(run: Run, worker: GraphWorker, scene_id: str) -> dict[str, float]:
    if worker.proc is None:
        return {}
    rss = graph_rss_mib(worker.proc.pid)
    append_sample(
        run.run_dir,
        {
            "model": worker.config.model,
            "scene_id": scene_id,
            "domain": worker.domain_id,
            "graph_episode": worker.episodes,
            "rss_mib": rss,
        },
    )
    return rss


def _plans_arguments(args: argparse.Namespace) -> list[str]:
    """--plans RUN: the run folder is RUN, the scenes its decide run's unless --scenes is given; returns the
    models it decided."""
    if args.out is not None and args.out.resolve() != args.plans.resolve():
        raise ValueError(f"--plans appends to {args.plans}'s own ledger: leave --out out (or give the same folder)")
    record = decide_record(args.plans)
    args.out = args.plans
    args.scenes = args.scenes or scenes_of(args.plans, record)
    return list(record.get("models") or [])


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="reacthuman eval", description=__doc__.splitlines()[0])
    p.add_argument("--scenes", type=Path, help="folder of generated scenes (required unless --plans gives them)")
    dataclasses.replace(models_option(), required=False).add_to(p)  # --plans takes its run's models
    p.add_argument("--out", type=Path, help="run folder (created; an existing one is resumed); --plans: RUN itself")
    p.add_argument(
        "--plans",
        type=Path,
        metavar="RUN",
        help="execute the plans a `reacthuman decide` run stored (its scenes and models unless --scenes or "
        "--models say otherwise; rows appended to RUN's ledger with executed: true; no model is asked)",
    )
    p.add_argument("--limit", type=int, default=None, help="only the first N scenes")
    (
        p.add_argument(
            "--workers",
            default="1",
            metavar="W[,MODEL=N,...]",
            help="independent graphs per model, run side by side; MODEL=N gives one model its own count "
            "(e.g. 1,local=2: a slow-thinking model's second graph runs a scene while the first waits "
            "for its answer)",
        ),
    )
    p.add_argument(
        "--models-side-by-side",
        action="store_true",
        help="local executor: run every model's graphs at the same time instead of one model after "
        "another (same rows; a slow model's thinking leaves cores the others use; each graph "
        "needs about 3 GiB)",
    )
    p.add_argument("--engine", default="genesis", choices=("genesis", "mujoco"))
    p.add_argument(
        "--loop",
        default="open",
        choices=("open", "closed"),
        help="open: one frozen observation, one plan (the paper's protocol); closed: re-plans every "
        "replan_interval_s of simulated time through the graph (config/closed_loop.yaml, docs/closed-loop.md)",
    )
    p.add_argument(
        "--modality",
        default=DEFAULT_MODALITY,
        choices=MODALITIES,
        help="what LLM brains see (default: images, the paper's protocol; a model known to be text-only "
        "runs on state_text, the privileged-state ablation, and the progress line and its ledger rows "
        "say so; a model whose server refuses images stops the run before it starts: docs/models.md)",
    )
    p.add_argument("--videos", action="store_true", help="record execution videos: RUN_DIR/videos/<model>/<scene>/")
    p.add_argument("--retries", type=int, default=2, help="retries of an episode after an infrastructure failure")
    p.add_argument("--episode-timeout", type=float, default=900.0, help="wall seconds one episode may take")
    p.add_argument(
        "--hung-after",
        type=float,
        default=HUNG_AFTER_S,
        help="local executor: a node without a heartbeat this many seconds, stopped or idle, is taken for "
        "dead and its episode retried on a fresh graph (a model thinking for longer keeps beating)",
    )
    p.add_argument("--startup-timeout", type=float, default=300.0, help="wall seconds a graph may take to come up")
    p.add_argument("--domain-base", type=int, default=100, help="graphs use ROS domains base .. base+99")
    p.add_argument(
        "--executor",
        default="local",
        choices=("local", "ray"),
        help="local: graphs on this machine; ray: one graph per Ray worker (--workers of them)",
    )
    p.add_argument("--ray-address", default=None, help="Ray cluster to join (default: a local Ray instance)")
    p.add_argument(
        "--keep-bags",
        default="all",
        choices=("all", "failures"),
        help="failures: keep an episode's bag only when the decision was unsafe or wrong",
    )
    p.add_argument(
        "--restart-every",
        type=int,
        default=0,
        help="restart the body after this many episodes (0: only when memory grows, see below)",
    )
    p.add_argument(
        "--restart-above-pct",
        type=float,
        default=10.0,
        help="once a node's memory exceeds its level after warm-up by this much, restart it between episodes: "
        "the body alone, or the whole graph when another node grew (0: never)",
    )
    p.add_argument(
        "--trace-memory",
        action="store_true",
        help="the episode manager logs tracemalloc snapshots diffed across episodes (logs/episode_manager_memory.jsonl)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.plans is not None:
            specs, decided = models_option().parse(args) if args.models else [], _plans_arguments(args)
            models = [spec.name for spec in specs] or decided
        else:
            if args.scenes is None or args.out is None:
                raise ValueError("--scenes and --out are required (or --plans RUN: execute a decide run's plans)")
            specs = models_option().parse(args)
            models = [spec.name for spec in specs]
        # the model's ?options travel to its graph's brain alone: ledgers, folders and logs name the model
        args.options = {s.name: s.entry.partition("?")[2] for s in specs if s.is_llm and args.plans is None}
        if args.limit is not None and args.limit < 1:
            raise ValueError("--limit must be >= 1")
        args.workers = parse_worker_counts(args.workers, models)
        policies = [m for m in models if is_policy_entry(m)]
        for entry in policies:  # a policy that cannot be loaded stops the run here, in one line
            policy_launch_args(entry)
        if policies and args.loop == "closed":
            raise ValueError(f"--loop closed is for brains: policies ({', '.join(policies)}) act without a freeze")
        if args.loop == "closed" and args.plans is not None:
            raise ValueError("--loop closed asks the brain again at every re-plan: --plans has one stored plan a scene")
        if args.loop == "closed" and args.executor == "ray":
            raise ValueError("--loop closed runs on the local executor (--executor local)")
        if policies and args.executor == "ray":
            raise ValueError(f"policies ({', '.join(policies)}) run on the local executor (--executor local)")
        if args.executor == "ray" and not args.workers.uniform:
            raise ValueError("--workers MODEL=N is for the local executor (ray gives every pair the next free worker)")
        if args.models_side_by_side and args.executor != "local":
            raise ValueError("--models-side-by-side is for the local executor (ray already spreads every pair)")
        if args.startup_timeout <= 0 or args.episode_timeout <= 0 or args.hung_after <= 0:
            raise ValueError("--startup-timeout, --episode-timeout and --hung-after must be > 0")
        if args.restart_every < 0 or not args.restart_above_pct >= 0:
            raise ValueError("--restart-every and --restart-above-pct must be >= 0")
        if not 0 <= args.domain_base <= 132:
            raise ValueError("--domain-base must be in 0..132 (graphs use base..base+99 of ROS's 0..232)")
        if args.executor == "ray" and args.ray_address:
            check_address(args.ray_address)
        # before anything is written: a model whose server refuses images stops the run here, in one line
        # (--plans asks no model: its brains replay the stored plans)
        args.shown = model_modalities(
            {s.name: s.entry for s in specs if s.is_llm and args.plans is None}, args.modality
        )
        scenes, scene_hash = load_scene_set(args.scenes, args.limit)
        plans = load_plans(args.plans, models, scenes) if args.plans is not None else None
        pairs = plans.pairs if plans is not None else {(s.scene_id, m) for s in scenes for m in models}
        args.out.mkdir(parents=True, exist_ok=True)
        lock = RunLock(args.out)
        lock.acquire()
        done = plans.executed() if plans is not None else done_pairs(args.out)
        config = {
            "engine": args.engine,
            "modality": args.modality,
            "limit": args.limit,
            "retries": args.retries,
            "videos": args.videos,
            "keep_bags": args.keep_bags,
        }
        if args.loop == "closed":  # an open-loop run's manifest stays as it was
            config["loop"] = "closed"
        executor = executor_info(args.executor, args.workers.default, args.ray_address)
        if args.executor == "local":
            executor["models"] = "side by side" if args.models_side_by_side else "one after another"
            if not args.workers.uniform:
                executor["workers_per_model"] = dict(sorted(args.workers.per_model.items()))
        shown = {m: {"modality": c.modality, "why": c.note} for m, c in args.shown.items() if c.note}
        if shown:
            config["shown_otherwise"] = shown
        if plans is not None:
            config["plans"] = str(args.plans.resolve())
        if any(args.options.values()):  # what the ledger's model names leave out (variable names, never keys)
            config["model_options"] = {m: o for m, o in args.options.items() if o}
        manifest = start_manifest(args.out, config, scene_hash, models, len(pairs), executor)
    except (ValueError, OSError, RunLockError) as exc:
        print(f"reacthuman eval: {exc}", file=sys.stderr)
        return 2
    todo = {m: [s.scene_id for s in scenes if (s.scene_id, m) in pairs and (s.scene_id, m) not in done] for m in models}
    total = len(pairs)
    progress = Progress(total, already_done=total - sum(len(v) for v in todo.values()))
    if progress.done:
        progress.note(f"resuming: {progress.done} of {total} episodes already in the ledger")
    for model, choice in args.shown.items():
        if choice.note:
            progress.note(f"model '{model}' {choice.note}")
            progress.tag(model, choice.modality)
    if plans is not None and plans.no_plan:
        progress.note(plans.no_plan_line())
    run = Run(args.out, progress, _first_render_gate(args, todo, progress))
    run.plans = plans
    status, domains = "complete", Domains(args.domain_base)
    threads: list[threading.Thread] = []
    try:
        if args.executor == "ray":
            _run_on_ray(run, todo, args)
        per_model = [
            _model_threads(run, model, todo[model], args, domains)
            for model in (models if args.executor == "local" else ())
        ]
        batches = [[t for ts in per_model for t in ts]] if args.models_side_by_side else per_model
        for threads in batches:
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    except KeyboardInterrupt:
        status = "interrupted"
        run.stopping.set()
        progress.note("interrupted: stopping the graphs; run the same command again to continue")
        for t in threads:
            if t.is_alive():
                t.join()
    finally:
        progress.close()
        run.ledger.close()
    finished = len(pairs & (plans.executed() if plans is not None else done_pairs(args.out)))
    if status == "complete" and finished < total:
        status = "refused images" if run.refused else "incomplete"
    counts = {"decisions": finished, "infrastructure_failures": len(run.failed), "graph_failures": run.graph_failures}
    if plans is not None:
        counts["no_plan_api_errors"] = len(plans.no_plan)
    finish_manifest(args.out, manifest, counts, status)
    lock.release()  # a kill releases it too: the kernel drops the lock with the process
    what = "executed plans" if plans is not None else "decisions"
    print(f"{finished}/{total} {what} in {ledger_path(args.out)} ({status}); report: reacthuman report {args.out}")
    if plans is not None and plans.no_plan:
        print(plans.no_plan_line())
    for line in run.refused.values():
        print(f"reacthuman eval: {line}", file=sys.stderr)
    return 0 if status == "complete" else 2 if run.refused else 1
