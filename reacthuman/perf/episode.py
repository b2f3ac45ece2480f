"""Episode: wall time of one episode through the ROS graph (six node processes, a reference brain) against
the same episode in one process with direct calls (reacthuman.evaluation.episode.run_episode), the graph's
overhead ratio, and where the time goes by stage.

Both sides run one untimed warm-up episode first (Genesis loads its compiled kernels on the first scene),
then `repeats` timed episodes of the same scene, interleaved (one in process, then one through the graph, with
the graph up throughout) so that a change in the machine's load falls on both sides alike; the medians are
compared. The graph's episode also writes
the bag and the episode folder; the in-process one does not, so its `recording` stage is measured apart by
rewriting the graph's bag of that episode with the same writer. Both pay the scene's teardown: the body node
frees the Genesis scene and hands freed memory back to the OS before it publishes the outcome (0.8-0.9 s on
this machine, inside the graph's `execute` phase), so the in-process side times the same two calls as its
`teardown` stage (before 2026-12-02 it did them untimed, and the ratio charged them to the graph)."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

from reacthuman.perf.common import Goal, Repeats
from reacthuman.core.processes import tree_peak_rss
from reacthuman.scenes.spec import SceneSpec
from reacthuman.brain import make_brain
from reacthuman.spine.spine import Spine, default_config as spine_config
from reacthuman.evaluation.episode import run_episode
from reacthuman.evaluation.memory_log import release_memory
from reacthuman.sim_bridge.body import Body, graph_config
from reacthuman.core.bag import BagWriter, read_bag
from reacthuman.evaluation.graph_worker import GraphWorker, WorkerConfig
from reacthuman.sim_bridge.body import GRAPH_BODY_DEFAULTS

OVERHEAD_GOAL = Goal(1.10, "x in-process", False, "the graph may cost at most 10% over direct calls, the same episode")
BENCH_MODEL = "oracle"  # a reference brain: the plan stage is the scaffolding's, not a model's


class _Domains:
    def __init__(self, base: int) -> None:
        self._ids = itertools.count(base)

    def take(self) -> int:
        return next(self._ids)


def _in_process_once(spec: SceneSpec) -> dict[str, float]:
    body = Body(graph_config(engine="genesis"))  # the body node's defaults: both sides do the same work
    render_s = 0.0
    render_frameset = body._render_frameset

    def timed_render(s):  # the body's own render of one frame-set, timed inside the window stage
        nonlocal render_s
        t = time.perf_counter()
        try:
            return render_frameset(s)
        finally:
            render_s += time.perf_counter() - t

    body._render_frameset = timed_render
    brain = make_brain(BENCH_MODEL)
    t = time.perf_counter()
    try:
        result = run_episode(spec, brain, body, Spine(spine_config()))
        teardown_started = time.perf_counter()
        body.close()  # what the body node does after each episode, before it publishes the outcome
        release_memory()
        teardown_s = time.perf_counter() - teardown_started
        total_s = time.perf_counter() - t
    finally:
        brain.close()
        body.close()
    stages = dict(result.timings_s)
    stages["render"] = render_s
    stages["window"] = stages.get("window", 0.0) - render_s  # window simulation without its renders
    stages["teardown"] = teardown_s
    stages["total"] = total_s
    return stages


def _stages(runs: list[dict[str, float]]) -> dict:
    return {"episodes": len(runs), "stages_s": {k: Repeats.of([r[k] for r in runs]).to_dict(3) for k in runs[0]}}


def recording_cost_s(bag: Path, scratch: Path) -> float:
    """Seconds to write the messages of `bag` into a new bag (the graph recorder's writing work)."""

    messages = list(read_bag(bag))
    out = scratch / f"bag_copy_{time.monotonic_ns()}"
    t = time.perf_counter()
    writer = BagWriter(out)
    for m in messages:
        writer.write(m.topic, m.msgtype, m.stamp_ns, m.raw)
    writer.close()
    return time.perf_counter() - t


def interleaved(
    spec: SceneSpec, scenes_dir: Path, run_dir: Path, repeats: int, warmup: bool, domain_base: int
) -> tuple[dict, dict]:
    """(in-process stages, graph figures): warm-ups first, then the timed episodes in alternation."""

    worker = GraphWorker(
        WorkerConfig(model=BENCH_MODEL, scenes_dir=scenes_dir, run_dir=run_dir),
        _Domains(domain_base),
        run_dir / "logs" / "graph.log",
    )
    t = time.perf_counter()
    worker.start()
    startup_s = time.perf_counter() - t
    local, walls, phases, warmup_s = [], [], [], None
    try:
        if warmup:
            _in_process_once(spec)
            warmup_s = _graph_once(worker, spec.scene_id)[0]
        for _ in range(repeats):
            local.append(_in_process_once(spec))
            wall_s, marks = _graph_once(worker, spec.scene_id)
            walls.append(wall_s)
            phases.append(_phase_durations(marks, wall_s))
        memory = tree_peak_rss(worker.proc.pid)
    finally:
        worker.stop()
    names = sorted({p for d in phases for p in d})
    return _stages(local), {
        "episodes": repeats,
        "action_server_ready_s": round(startup_s, 2),
        "warmup_episode_s": None if warmup_s is None else round(warmup_s, 2),
        "startup_note": "action_server_ready_s: launch until the episode manager answers; the body's Genesis "
        "import and first kernel load fall into the untimed warm-up episode",
        "wall_s": Repeats.of(walls).to_dict(3),
        "phases_s": {p: Repeats.of([d.get(p, 0.0) for d in phases]).to_dict(3) for p in names},
        "phase_note": "from the episode manager's feedback (polled every 0.2 s): 'window' covers the scene "
        "announcement, scene build, window simulation and rendering",
        "nodes_peak_mib": memory,
    }


def _graph_once(worker, scene_id: str) -> tuple[float, list[tuple[str, float]]]:
    marks: list[tuple[str, float]] = []
    started = time.perf_counter()
    result = worker.run_episode(scene_id, on_phase=lambda p: marks.append((p, time.perf_counter() - started)))
    if not result.ok:
        log = "" if str(worker.log_path) in (result.error or "") else f" (log: {worker.log_path})"
        raise RuntimeError(f"graph episode {scene_id} failed: {result.error}{log}")
    return result.wall_s, marks


def _phase_durations(marks: list[tuple[str, float]], wall_s: float) -> dict[str, float]:
    points = [("window", 0.0)] + marks
    out: dict[str, float] = {}
    for (name, t0), (_, t1) in zip(points, points[1:] + [("end", wall_s)]):
        out[name] = out.get(name, 0.0) + max(0.0, t1 - t0)
    return out


def episode_section(
    spec: SceneSpec, scenes_dir: Path, work_dir: Path, repeats: int, warmup: bool, domain_base: int
) -> dict:

    run_dir = work_dir / "graph_run"
    local, graph = interleaved(spec, scenes_dir, run_dir, repeats, warmup, domain_base)
    bag = run_dir / "episodes" / BENCH_MODEL / spec.scene_id / "bag"
    recording = Repeats.of([recording_cost_s(bag, work_dir) for _ in range(max(repeats, 1))])
    local["stages_s"]["recording"] = recording.to_dict(3)
    ratio = graph["wall_s"]["median"] / local["stages_s"]["total"]["median"]
    memory = graph.pop("nodes_peak_mib")
    return {
        "scene_id": spec.scene_id,
        "model": BENCH_MODEL,
        "body": dict(GRAPH_BODY_DEFAULTS),
        "in_process": local,
        "graph": graph,
        "overhead_ratio": round(ratio, 3),
        "goal": OVERHEAD_GOAL.to_dict(ratio),
        "recording_note": "in_process.stages_s.recording: rewriting the graph episode's bag (not part of "
        "in_process total, which records nothing)",
        "_nodes_peak_mib": memory,
    }
