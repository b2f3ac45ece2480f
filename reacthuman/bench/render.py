"""Rendering: milliseconds per frame-set (the three views at one instant) through the engine adapter, at
1280x720 and at the brain's resolution, against the raw Genesis camera call it wraps.

One Genesis scene (the scene and the G1) carries every view at both resolutions, so both sizes see the
same geometry; the world steps between frame-sets so no renderer can serve a cached image."""

from __future__ import annotations

import time

import numpy as np

from reacthuman.bench.common import Goal, Repeats
from reacthuman.bench.physics import build_engine
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim_bridge.engine import CameraSpec

FULL_RES = (1280, 720)
BRAIN_RES = (320, 180)  # the body node's frame_width_px x frame_height_px default
STEPS_BETWEEN_FRAME_SETS = 2
ADAPTER_GOAL = Goal(1.10, "x raw", False, "the adapter (uint8 RGB copy) should add at most 10% to the raw render")


def _cameras(spec: SceneSpec, resolutions: tuple[tuple[int, int], ...]) -> tuple[CameraSpec, ...]:
    return tuple(CameraSpec(f"{c.name}@{w}x{h}", c.pos, c.lookat, c.fov_deg, w, h)
                 for w, h in resolutions for c in spec.cameras)


def _frame_set_s(render_one, names: list[str]) -> float:
    t = time.perf_counter()
    for name in names:
        render_one(name)
    return time.perf_counter() - t


def render_section(spec: SceneSpec, repeats: int, resolutions: tuple[tuple[int, int], ...] = (FULL_RES, BRAIN_RES),
                   frames_per_window: int = 5) -> dict:
    cams = _cameras(spec, resolutions)
    engine, build_s = build_engine("genesis", spec, True, cams)
    try:
        raw_camera = engine._camera  # the Genesis camera object the adapter's render() wraps

        def raw(name: str) -> np.ndarray:
            return raw_camera(name).render(rgb=True)[0]

        rows = []
        for w, h in resolutions:
            names = [c.name for c in cams if c.name.endswith(f"@{w}x{h}")]
            _frame_set_s(engine.render, names)  # first render at a size allocates its buffers
            adapter, direct = [], []
            for _ in range(repeats):  # interleaved, so both see the same load
                engine.step(STEPS_BETWEEN_FRAME_SETS)
                adapter.append(_frame_set_s(engine.render, names))
                engine.step(STEPS_BETWEEN_FRAME_SETS)
                direct.append(_frame_set_s(raw, names))
            a, d = Repeats.of(adapter), Repeats.of(direct)
            ratio = a.median / d.median
            row = {"resolution": f"{w}x{h}", "views": len(names),
                   "adapter_ms_per_frame_set": Repeats(a.median * 1e3, a.min * 1e3, a.max * 1e3, a.n).to_dict(2),
                   "raw_ms_per_frame_set": Repeats(d.median * 1e3, d.min * 1e3, d.max * 1e3, d.n).to_dict(2),
                   "ratio": round(ratio, 3), "goal": ADAPTER_GOAL.to_dict(ratio)}
            if (w, h) == BRAIN_RES:
                window_s = frames_per_window * a.median
                row["window_render_s"] = round(window_s, 3)  # no goal: sim time is frozen while rendering
            rows.append(row)
    finally:
        engine.close()
    return {"scene_id": spec.scene_id, "engine": "genesis", "build_s": round(build_s, 2), "resolutions": rows}
