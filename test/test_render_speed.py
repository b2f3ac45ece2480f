"""Speed-only changes to the labelling renders change no pixel: the visibility masks drawn with a 1 px shadow
map and no multisampling equal those drawn with MuJoCo's defaults, and a camera placement asked twice is drawn
once with the same count. MuJoCo only (real EGL renders of a sampled kitchen scene with a catalogue mesh)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import reacthuman.scenes.visibility as visibility
from reacthuman.scenes import sample_spec
from reacthuman.scenes.genesis_sim import Track
from reacthuman.scenes.visibility import MaskRenderer, VisibilityConfig, _zoomed


def _initial_track(spec) -> Track:
    """One sample: every dynamic body at its spec pose (the masks are drawn at that sample)."""
    dyn = [b for b in spec.bodies if b.dynamic]
    pos = np.array([[b.pos for b in dyn]], np.float32)
    quat = np.array([[b.quat for b in dyn]], np.float32)
    zeros = np.zeros_like(pos)
    return Track(tuple(b.name for b in dyn), np.zeros(1, np.float32), pos, quat, zeros, zeros)


@pytest.fixture(scope="module")
def knife_scene():
    spec = sample_spec("object_drop", 3, object_id="chefs_knife")
    return spec, _initial_track(spec)


def _cameras(spec) -> list:
    return [c for cam in spec.cameras for c in (cam, _zoomed(cam, 0.7), _zoomed(cam, 0.45))]


def test_masks_with_the_speed_settings_equal_mujocos_default_ones(knife_scene, monkeypatch) -> None:
    import mujoco

    spec, track = knife_scene
    cfg = VisibilityConfig()
    assert (visibility.MASK_SHADOW_MAP_PX, visibility.MASK_MULTISAMPLES) == (1, 0)
    masks = {}
    for shadow_px, samples in ((4096, 4), (1, 0)):  # MuJoCo's defaults (as before the change), then ours
        monkeypatch.setattr(visibility, "MASK_SHADOW_MAP_PX", shadow_px)
        monkeypatch.setattr(visibility, "MASK_MULTISAMPLES", samples)
        with MaskRenderer(spec, track, cfg) as r:
            q = r.model.vis.quality
            assert (q.shadowsize, q.offsamples) == (shadow_px, samples)
            drawn = []
            for cam in _cameras(spec):
                r.model.vis.global_.fovy = cam.fov_deg
                r.renderer.update_scene(r.data, camera=visibility._free_camera(r.mujoco, cam))
                drawn.append(r.renderer.render().copy())
            masks[samples] = drawn
    for before, after in zip(masks[4], masks[0]):
        assert np.array_equal(before, after)
    # the scene is seen: the masks hold geoms, so equal masks are not two blank frames
    assert any(np.count_nonzero(m[..., 1] == int(mujoco.mjtObj.mjOBJ_GEOM)) for m in masks[0])


def test_a_placement_asked_twice_is_drawn_once_with_the_same_count(knife_scene) -> None:
    spec, track = knife_scene
    with MaskRenderer(spec, track, VisibilityConfig()) as r:
        calls = []
        draw = r._render_pixels
        r._render_pixels = lambda cam: calls.append(cam) or draw(cam)
        cams = _cameras(spec)
        first = [r.pixels(c) for c in cams]
        again = [r.pixels(dataclasses.replace(c)) for c in cams]  # equal placements, new objects
        assert first == again and len(calls) == len(set(cams))
        fresh = [draw(c) for c in cams]  # drawn again from scratch: the remembered counts are the drawn ones
        assert fresh == first and sum(first) > 0
