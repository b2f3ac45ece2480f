"""Rendering: milliseconds per frame-set (the three views at one instant) through the engine adapter, at
1280x720 and at the brain's resolution, against the raw Genesis camera call it wraps.

One Genesis scene (the scene and the G1) carries every view at both resolutions, so both sizes see the
same geometry; the world steps between frame-sets so no renderer can serve a cached image.

Where the time goes (`per_call`): the same frame-set at a thumbnail size, where nearly no pixel is shaded, is the
part of a render that does not depend on the frame size; on the software rasterizer it follows the triangles
every view draws (the G1's visual meshes are nearly all of them), which the section counts."""

from __future__ import annotations

import time

import numpy as np

from reacthuman.perf.common import Goal, Repeats
from reacthuman.perf.physics import build_engine
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim_bridge.engine import CameraSpec
import dataclasses
from reacthuman.scenes.builders import static_box
from reacthuman.scenes.rooms import furnishing_boxes
from reacthuman.scenes.randomize import sample_spec

FULL_RES = (1280, 720)
BRAIN_RES = (640, 360)  # the body node's frame_width_px x frame_height_px default
THUMB_RES = (64, 36)  # frame-size-independent cost: a frame-set with almost no pixels to shade
RENDER_GOAL_MS = Goal(150.0, "ms per frame-set", False, "3 views at 640x360 within 150 ms")
STEPS_BETWEEN_FRAME_SETS = 2
ADAPTER_GOAL = Goal(1.10, "x raw", False, "the adapter (uint8 RGB copy) should add at most 10% to the raw render")
MESH_GOAL = Goal(
    1.5,
    "x primitives",
    False,
    "drawing the scene with its models (objects, fixtures, floor, furniture) "
    "should cost at most 1.5x the same scene drawn with primitives",
)
MESH_SCENE = ("object_drop", 7, "chefs_knife")  # a scene whose hazard is drawn by a catalogue mesh


def _cameras(spec: SceneSpec, resolutions: tuple[tuple[int, int], ...]) -> tuple[CameraSpec, ...]:
    return tuple(
        CameraSpec(f"{c.name}@{w}x{h}", c.pos, c.lookat, c.fov_deg, w, h) for w, h in resolutions for c in spec.cameras
    )


def _frame_set_s(render_one, names: list[str]) -> float:
    t = time.perf_counter()
    for name in names:
        render_one(name)
    return time.perf_counter() - t


def render_section(
    spec: SceneSpec,
    repeats: int,
    resolutions: tuple[tuple[int, int], ...] = (FULL_RES, BRAIN_RES),
    frames_per_window: int = 5,
) -> dict:
    cams = _cameras(spec, resolutions + (THUMB_RES,))
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
            row = {
                "resolution": f"{w}x{h}",
                "views": len(names),
                "adapter_ms_per_frame_set": Repeats(a.median * 1e3, a.min * 1e3, a.max * 1e3, a.n).to_dict(2),
                "raw_ms_per_frame_set": Repeats(d.median * 1e3, d.min * 1e3, d.max * 1e3, d.n).to_dict(2),
                "ratio": round(ratio, 3),
                "goal": ADAPTER_GOAL.to_dict(ratio),
            }
            if (w, h) == BRAIN_RES:
                window_s = frames_per_window * a.median
                row["window_render_s"] = round(window_s, 3)  # no goal: sim time is frozen while rendering
                row["goal_ms"] = RENDER_GOAL_MS.to_dict(a.median * 1e3)
            rows.append(row)
        per_call = per_call_section(engine, cams, repeats, rows)
    finally:
        engine.close()
    return {
        "scene_id": spec.scene_id,
        "engine": "genesis",
        "build_s": round(build_s, 2),
        "resolutions": rows,
        "per_call": per_call,
        "meshes_vs_primitives": mesh_cost_section(repeats),
    }


def drawn_triangles(engine) -> int:
    """Triangles one view of the engine's Genesis scene submits (its rasterizer's index counts / 3)."""
    jit = engine._scene.visualizer.context.jit
    return int(np.asarray(jit.n_indices).sum() // 3)


def per_call_section(engine, cams: tuple[CameraSpec, ...], repeats: int, rows: list[dict]) -> dict:
    """The thumbnail frame-set (the frame-size-independent part) against each measured size."""
    w, h = THUMB_RES
    names = [c.name for c in cams if c.name.endswith(f"@{w}x{h}")]
    _frame_set_s(engine.render, names)
    times = []
    for _ in range(repeats):
        engine.step(STEPS_BETWEEN_FRAME_SETS)
        times.append(_frame_set_s(engine.render, names))
    t = Repeats.of(times)
    thumb_ms = t.median * 1e3
    share = {r["resolution"]: round(thumb_ms / r["adapter_ms_per_frame_set"]["median"], 3) for r in rows}
    return {
        "resolution": f"{w}x{h}",
        "ms_per_frame_set": Repeats(thumb_ms, t.min * 1e3, t.max * 1e3, t.n).to_dict(2),
        "share_of_frame_set": share,
        "triangles_per_view": drawn_triangles(engine),
    }


def _frame_set_ms(spec: SceneSpec, res: tuple[int, int], repeats: int) -> tuple[Repeats, float]:
    cams = _cameras(spec, (res,))
    engine, build_s = build_engine("genesis", spec, True, cams)
    try:
        names = [c.name for c in cams]
        _frame_set_s(engine.render, names)
        times = []
        for _ in range(repeats):
            engine.step(STEPS_BETWEEN_FRAME_SETS)
            times.append(_frame_set_s(engine.render, names))
        return Repeats.of(times), build_s
    finally:
        engine.close()


def primitive_twin(spec: SceneSpec, furnished: bool = True) -> SceneSpec:
    """The same scene drawn with primitives: every body by its own geoms (no model, no fixture look), the floor
    by its plane, and (when `furnished`) each piece of furniture by its bounding box, so both sides shade the
    same content; unfurnished, the room is bare (what furniture itself costs)."""

    boxes = (
        tuple(
            static_box(
                f"furniture_box_{k}",
                ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2),
                ((x1 - x0) / 2, (y1 - y0) / 2, (z1 - z0) / 2),
                FURNITURE_BOX_RGBA,
            )
            for k, (x0, x1, y0, y1, z0, z1) in enumerate(furnishing_boxes(spec.furnishings))
        )
        if furnished
        else ()
    )
    plain = tuple(dataclasses.replace(b, visual=None) for b in spec.bodies)
    return dataclasses.replace(spec, bodies=plain + boxes, furnishings=(), dressed_bodies=())


FURNITURE_BOX_RGBA = (0.6, 0.5, 0.4, 1.0)


def _timing(r: Repeats) -> dict:
    return Repeats(r.median * 1e3, r.min * 1e3, r.max * 1e3, r.n).to_dict(2)


def mesh_cost_section(repeats: int, res: tuple[int, int] = BRAIN_RES) -> dict:
    """The same scene (with the G1) drawn with its models (objects, fixtures, floor covering, furniture) and with
    primitives (`primitive_twin`): the goal's ratio. The bare room without furniture is measured beside it,
    so what the furniture costs (drawn at all) is visible too."""

    family, seed, object_id = MESH_SCENE
    meshed = sample_spec(family, seed, object_id=object_id)
    (m, m_build), (p, p_build), (b, _) = (
        _frame_set_ms(s, res, repeats)
        for s in (meshed, primitive_twin(meshed), primitive_twin(meshed, furnished=False))
    )
    ratio = m.median / p.median
    return {
        "scene_id": meshed.scene_id,
        "object_id": object_id,
        "furnishings": len(meshed.furnishings),
        "resolution": f"{res[0]}x{res[1]}",
        "meshes_ms_per_frame_set": _timing(m),
        "primitives_ms_per_frame_set": _timing(p),
        "bare_room_ms_per_frame_set": _timing(b),
        "meshes_vs_bare_room": round(m.median / b.median, 3),
        "build_s": {"meshes": round(m_build, 2), "primitives": round(p_build, 2)},
        "ratio": round(ratio, 3),
        "goal": MESH_GOAL.to_dict(ratio),
    }
