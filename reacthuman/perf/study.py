"""Study: the paper's study shape (306 scenes x 7 models) on this machine through observation sets and
`reacthuman decide`, against the graph path, both measured in the same run on the same sample of (scene, model)
pairs and the same model, then extrapolated to 306 x 7.

The model is an OpenAI-compatible endpoint on loopback that answers at once (`llm.loopback.FixedReplyEndpoint`),
given as 7 presets, so every figure is the suite's own cost: prompt, image encoding, HTTP, parsing, scoring,
and for the graph path the six node processes, physics, rendering and recording.

- Decide path: each sample scene's observation window rendered as `reacthuman scenes render` renders it (the G1
  standing, three views at the brain's size; after an untimed warm-up render), and the 7 decisions of each
  scene through `decide`'s own `decide_one` (the encoded-frame cache cleared per scene). Machine time: CPU
  seconds of this process (rendering and deciding are single-threaded, so N processes on N cores divide it).
- Graph path: one graph (`reacthuman launch`, as `reacthuman eval` starts it) for the first model, an untimed
  warm-up episode, then one episode per sample scene. Machine time: CPU seconds of every process of the graph
  plus this process (the action client), read from /proc around each episode; wall seconds beside it.

The sample is spread over the families (`sample_across_families`): one family's scenes cost less or more than the
set's mix, in both paths. The sample's graph rows are checked against the decide rows of the same pairs (every
scoring field equal), so the two paths are known to measure the same decisions."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from reacthuman.perf.common import Goal, Repeats
from reacthuman.core.processes import children
from reacthuman.llm.loopback import FixedReplyEndpoint
from reacthuman.scoring.ledger import EXECUTION_FIELDS
from reacthuman.core.presets import MODELS_YAML_ENV
from reacthuman.brain import make_brain
from reacthuman.spine.spine import Spine
from reacthuman.spine.spine import default_config as spine_config
from reacthuman.evaluation.observation_set import render_window
from reacthuman.llm.images import clear_encoded_cache
from reacthuman.evaluation.decide import decide_one
from reacthuman.sim_bridge.body import Body, graph_config
from reacthuman.perf.episode import _Domains, _graph_once
from reacthuman.evaluation.graph_worker import GraphWorker, WorkerConfig
from reacthuman.scenes.spec import SceneSpec
from reacthuman.perf.study_full import FAMILIES, full_decide_path, generate_study_set

STUDY_SCENES, STUDY_MODELS, CORES = 306, 7, 2
WALL_GOAL = Goal(25 * 60.0, "s", False, "the whole study (306 renders + 2,142 decisions) in 25 min on 2 cores")
SPEEDUP_GOAL = Goal(8.0, "x", True, "at least 8x less machine time than the graph path")
_REPLY = json.dumps(
    {
        "object_identified": "object",
        "intent": "step back",
        "confidence": 0.5,
        "walking_cmd": [-0.4, 0.0, 0.0],
        "walking_duration": 1.0,
        "catch_duration": 0.5,
        "keyframes": [{"t": 0.3, "left_hand": [0.1, 0.1, 0.0], "right_hand": [0.1, -0.1, 0.0], "knee_bend": 0.1}],
    }
)
_NOT_COMPARED = (*EXECUTION_FIELDS, "executed", "plan", "latency_s")


def _cpu_and_wall(fn) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - cpu, time.perf_counter() - wall


def tree_cpu_s(root_pid: int) -> float:
    """CPU seconds (user + system, with reaped children's) of `root_pid` and every process under it."""
    tick, total, todo = os.sysconf("SC_CLK_TCK"), 0, [root_pid]
    while todo:
        pid = todo.pop()
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()  # fields 3.. of proc(5): utime is field 14
        total += sum(int(v) for v in fields[11:15])
        todo.extend(children(pid))
    return total / tick


class _InstantModels:
    """STUDY_MODELS presets on one instant loopback endpoint, in a models.yaml the graph's nodes read too."""

    def __init__(self, work: Path) -> None:

        self.server, self.env, self.previous = (
            FixedReplyEndpoint(_REPLY, model="instant"),
            MODELS_YAML_ENV,
            os.environ.get(MODELS_YAML_ENV),
        )
        self.names = [f"instant_{i}" for i in range(STUDY_MODELS)]
        (work / "study-models.yaml").write_text(
            json.dumps(
                {
                    "defaults": {},
                    "presets": {
                        m: {
                            "provider": "openai-compatible",
                            "model_id": m,
                            "vision": True,
                            "key_required": False,
                            "timeout_s": 30.0,
                            "base_url": self.server.base_url,
                        }
                        for m in self.names
                    },
                }
            )
        )
        os.environ[self.env] = str(work / "study-models.yaml")

    def close(self) -> None:
        self.server.close()
        if self.previous is None:
            os.environ.pop(self.env, None)
        else:
            os.environ[self.env] = self.previous


SAMPLE_SEED = 7  # the sample's balanced draw: one scene per family


def sample_across_families(out: Path, count: int) -> list:
    """`count` scenes spread over the families (the balanced draw of one scene a family, every 17/count-th): the
    set's mix of scene costs, which one family's scenes would not give."""
    generate_study_set(out, FAMILIES, seed=SAMPLE_SEED)
    specs = [SceneSpec.from_json(p.read_text()) for p in sorted(out.glob("*/spec.json"))]
    if not 1 <= count <= len(specs):
        raise ValueError(f"the study's sample takes 1 to {len(specs)} scenes, got {count}")
    return [specs[len(specs) * i // count] for i in range(count)]


def _decide_path(specs: list, models: list[str]) -> tuple[list, list, dict]:
    """(render (cpu, wall) per scene, decide-7 (cpu, wall) per scene, first model's row per scene)."""

    body, spine = Body(graph_config(engine="genesis")), Spine(spine_config())
    windows: dict[str, object] = {}
    try:
        render_window(specs[0], body, spine)  # warm-up: Genesis compiles its kernels on the first scene
        renders = []
        for spec in specs:
            renders.append(_cpu_and_wall(lambda s=spec: windows.__setitem__(s.scene_id, render_window(s, body, spine))))
    finally:
        body.close()
    brains, rows = [make_brain(m) for m in models], {}
    try:

        def decide_scene(spec) -> None:
            clear_encoded_cache()
            for brain in brains:
                record = decide_one(spec, windows[spec.scene_id], brain)
                if brain is brains[0]:
                    rows[spec.scene_id] = record.to_dict()

        decisions = [_cpu_and_wall(lambda s=spec: decide_scene(s)) for spec in specs]
    finally:
        for brain in brains:
            brain.close()
    return renders, decisions, rows


def _graph_path(specs: list, scenes_dir: Path, work: Path, model: str, domain_base: int) -> tuple[list, dict, float]:
    """((cpu, wall) per timed episode, the row per scene, graph start-up wall s): one graph for `model`."""

    run_dir = work / "study_graph_run"
    worker = GraphWorker(
        WorkerConfig(model=model, scenes_dir=scenes_dir, run_dir=run_dir),
        _Domains(domain_base),
        run_dir / "logs" / "graph.log",
    )
    started = time.perf_counter()
    worker.start()
    startup_s = time.perf_counter() - started
    episodes, rows = [], {}
    try:
        _graph_once(worker, specs[0].scene_id)  # warm-up: the body's Genesis import and first kernel load
        for spec in specs:
            cpu = tree_cpu_s(worker.proc.pid) + time.process_time()
            wall = time.perf_counter()
            result = worker.run_episode(spec.scene_id)
            if not result.ok:
                raise RuntimeError(f"graph episode {spec.scene_id} failed: {result.error} (log: {worker.log_path})")
            episodes.append((tree_cpu_s(worker.proc.pid) + time.process_time() - cpu, time.perf_counter() - wall))
            rows[spec.scene_id] = result.record.to_dict()
    finally:
        worker.stop()
    return episodes, rows, startup_s


def _differences(decided: dict, executed: dict) -> dict:
    """scene -> {field: (decide, graph)} for every scoring field that differs between the two rows."""
    out = {}
    for scene_id, row in decided.items():
        graph_row = executed[scene_id]
        differ = {k: (v, graph_row.get(k)) for k, v in row.items() if k not in _NOT_COMPARED and graph_row.get(k) != v}
        if differ:
            out[scene_id] = differ
    return out


def study_section(
    work: Path, domain_base: int, sample_scenes: int, full_scenes: int = 0, full_concurrency: int = 8
) -> dict:
    """The sample of both paths, extrapolated; with `full_scenes`, also the decide path run in full on that
    many scenes through `scenes render` and `decide` (perf.study_full), under "full"."""
    scenes_dir = work / "study_scenes"
    specs = sample_across_families(scenes_dir, sample_scenes)
    models = _InstantModels(work)
    try:
        renders, decisions, decided = _decide_path(specs, models.names)
        episodes, executed, startup_s = _graph_path(specs, scenes_dir, work, models.names[0], domain_base)
        full = full_decide_path(work, full_scenes, models.names, full_concurrency) if full_scenes else None
    finally:
        models.close()
    differ = _differences(decided, executed)
    if differ:
        raise RuntimeError(f"the graph's rows differ from decide's for the same pairs: {differ}")
    render_cpu, decide_cpu = Repeats.of([c for c, _ in renders]), Repeats.of([c for c, _ in decisions])
    graph_cpu, graph_wall = Repeats.of([c for c, _ in episodes]), Repeats.of([w for _, w in episodes])
    if full:
        # the commands' measured cost a decision against the sample's graph episode (scenes of several families)
        full["speedup_vs_graph"] = round(graph_cpu.median / full["cpu_s_per_decision"], 2)
        full["speedup_goal"] = SPEEDUP_GOAL.to_dict(full["speedup_vs_graph"]) if full["goal"] else None
    study_cpu_s = STUDY_SCENES * (render_cpu.median + decide_cpu.median)
    graph_machine_s = STUDY_SCENES * STUDY_MODELS * graph_cpu.median
    per_decision_decide_s = (render_cpu.median + decide_cpu.median) / STUDY_MODELS
    speedup = graph_machine_s / study_cpu_s
    return {
        "sample": {
            "scenes": [s.scene_id for s in specs],
            "models": STUDY_MODELS,
            "graph_model": models.names[0],
            "graph_rows_equal_decide_rows": True,
        },
        "render_cpu_s": render_cpu.to_dict(3),
        "render_wall_s": Repeats.of([w for _, w in renders]).to_dict(3),
        "decide_7_models_cpu_s": decide_cpu.to_dict(3),
        "decide_7_models_wall_s": Repeats.of([w for _, w in decisions]).to_dict(3),
        "decide_per_decision_cpu_s": round(per_decision_decide_s, 3),
        "graph_episode_cpu_s": graph_cpu.to_dict(3),
        "graph_episode_wall_s": graph_wall.to_dict(3),
        "graph_startup_wall_s": round(startup_s, 1),
        "measured_ratio_per_decision": round(graph_cpu.median / per_decision_decide_s, 2),
        "study_cpu_s": round(study_cpu_s, 1),
        "study_wall_s_on_2_cores": round(study_cpu_s / CORES, 1),
        "graph_machine_s": round(graph_machine_s, 1),
        "graph_wall_s_on_2_cores": round(STUDY_SCENES * STUDY_MODELS * graph_cpu.median / CORES, 1),
        "speedup": round(speedup, 2),
        "goal": WALL_GOAL.to_dict(study_cpu_s / CORES),
        "speedup_goal": SPEEDUP_GOAL.to_dict(speedup),
    } | ({"full": full} if full else {})
