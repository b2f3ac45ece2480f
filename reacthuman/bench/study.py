"""Study: the paper's study shape (306 scenes x 7 models) on this machine through observation sets and
`reacthuman decide`, against the graph path, both extrapolated from measured figures of the same run.

Measured here: one observation window rendered as `reacthuman scenes render` renders it (the G1 standing,
three views at the brain's size; after an untimed warm-up render), and the 7 decisions of one scene through
`decide`'s own `decide_one`, each model an OpenAI-compatible endpoint on loopback that answers at once (so the
figure is the suite's own cost: prompt, image encoding, HTTP, parsing, scoring), with the encoded-frame cache
cleared before each repeat. The graph path's figure is the episode section's median graph episode (same run).
Machine time is CPU seconds of this process (rendering and deciding are single-threaded per process, so N
processes on N cores divide the wall time)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from reacthuman.bench.common import Goal, Repeats
from reacthuman.llm.loopback import FixedReplyEndpoint
from reacthuman.scenes.spec import SceneSpec
from reacthuman.brain import make_brain
from reacthuman.control.spine import Spine, default_config as spine_config
from reacthuman.evaluation.observation_set import render_window
from reacthuman.llm.images import clear_encoded_cache
from reacthuman.core.presets import MODELS_YAML_ENV
from reacthuman.scoring.decide import decide_one
from reacthuman.sim_bridge.body import Body, graph_config

STUDY_SCENES, STUDY_MODELS, CORES = 306, 7, 2
WALL_GOAL = Goal(25 * 60.0, "s", False, "the whole study (306 renders + 2,142 decisions) in 25 min on 2 cores")
SPEEDUP_GOAL = Goal(8.0, "x", True, "at least 8x less machine time than the graph path")
_REPLY = json.dumps({"object_identified": "object", "intent": "step back", "confidence": 0.5, "walking_cmd": [-0.4, 0.0, 0.0],
                     "walking_duration": 1.0, "catch_duration": 0.5, "keyframes": [
                         {"t": 0.3, "left_hand": [0.1, 0.1, 0.0], "right_hand": [0.1, -0.1, 0.0], "knee_bend": 0.1}]})


def _cpu_and_wall(fn) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - cpu, time.perf_counter() - wall


def study_section(spec: SceneSpec, work: Path, graph_episode_s: float | None, repeats: int) -> dict:
    if graph_episode_s is None:
        raise ValueError("the study section compares against the episode section's graph episode: run both")
    body, spine = Body(graph_config(engine="genesis")), Spine(spine_config())
    try:
        window = render_window(spec, body, spine)  # warm-up: Genesis compiles its kernels on the first scene
        renders = [_cpu_and_wall(lambda: render_window(spec, body, spine)) for _ in range(repeats)]
    finally:
        body.close()
    server, previous = FixedReplyEndpoint(_REPLY, model="instant"), os.environ.get(MODELS_YAML_ENV)
    models = [f"instant_{i}" for i in range(STUDY_MODELS)]
    (work / "study-models.yaml").write_text(json.dumps({"defaults": {}, "presets": {m: {
        "provider": "openai-compatible", "model_id": m, "vision": True, "key_required": False, "timeout_s": 30.0,
        "base_url": server.base_url} for m in models}}))
    os.environ[MODELS_YAML_ENV] = str(work / "study-models.yaml")
    try:
        brains = [make_brain(m) for m in models]

        def decide_scene() -> None:
            clear_encoded_cache()
            for brain in brains:
                decide_one(spec, window, brain)

        decisions = [_cpu_and_wall(decide_scene) for _ in range(repeats)]
        for brain in brains:
            brain.close()
    finally:
        server.close()
        if previous is None:
            os.environ.pop(MODELS_YAML_ENV, None)
        else:
            os.environ[MODELS_YAML_ENV] = previous
    render_cpu = Repeats.of([c for c, _ in renders])
    decide_cpu = Repeats.of([c for c, _ in decisions])
    study_cpu_s = STUDY_SCENES * (render_cpu.median + decide_cpu.median)
    graph_machine_s = STUDY_SCENES * STUDY_MODELS * graph_episode_s * CORES  # a graph episode keeps both cores busy
    speedup = graph_machine_s / study_cpu_s
    return {"render_cpu_s": render_cpu.to_dict(3), "render_wall_s": Repeats.of([w for _, w in renders]).to_dict(3),
            "decide_7_models_cpu_s": decide_cpu.to_dict(3),
            "decide_7_models_wall_s": Repeats.of([w for _, w in decisions]).to_dict(3),
            "graph_episode_s": graph_episode_s, "study_cpu_s": round(study_cpu_s, 1),
            "study_wall_s_on_2_cores": round(study_cpu_s / CORES, 1), "graph_machine_s": round(graph_machine_s, 1),
            "speedup": round(speedup, 2), "goal": WALL_GOAL.to_dict(study_cpu_s / CORES),
            "speedup_goal": SPEEDUP_GOAL.to_dict(speedup)}
