"""Speed-only changes to the labelling renders change no pixel: the visibility masks drawn with a 1 px shadow
map, no multisampling and no textures, in a GL context kept across scenes, equal those mujoco.Renderer draws
with MuJoCo's defaults from the textured model, and a camera placement asked twice is drawn once with the same count. MuJoCo only (real EGL renders of a sampled kitchen scene with a catalogue mesh)."""

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


def _reference_masks(spec, r: MaskRenderer, cams) -> list:
    """The masks as mujoco.Renderer draws them with MuJoCo's default quality settings (a 4096 px shadow map,
    4x multisampling) and a GL context of its own: how every mask was drawn before the speed changes."""
    import mujoco

    from reacthuman.scenes.mjcf import scene_mjcf

    model = mujoco.MjModel.from_xml_string(scene_mjcf(spec))
    assert model.ntex > 0  # the knife and the room's surfaces are textured
    model.vis.global_.offwidth, model.vis.global_.offheight = (
        r.model.vis.global_.offwidth,
        r.model.vis.global_.offheight,
    )
    model.vis.map.znear = r.model.vis.map.znear
    assert (model.vis.quality.shadowsize, model.vis.quality.offsamples) == (4096, 4)
    data = mujoco.MjData(model)
    data.qpos[:] = r.data.qpos
    mujoco.mj_forward(model, data)
    drawn = []
    with mujoco.Renderer(model, r.cfg.height_px, r.cfg.width_px) as renderer:
        renderer.enable_segmentation_rendering()
        for flag in (
            mujoco.mjtRndFlag.mjRND_SHADOW,
            mujoco.mjtRndFlag.mjRND_REFLECTION,
            mujoco.mjtRndFlag.mjRND_SKYBOX,
        ):
            renderer.scene.flags[flag] = False
        for cam in cams:
            model.vis.global_.fovy = cam.fov_deg
            renderer.update_scene(data, camera=visibility._free_camera(mujoco, cam))
            drawn.append(renderer.render().copy())
    return drawn


def test_masks_from_the_kept_context_equal_mujoco_renderers_default_ones(knife_scene) -> None:
    import mujoco

    spec, track = knife_scene
    cfg = VisibilityConfig()
    assert (visibility.MASK_SHADOW_MAP_PX, visibility.MASK_MULTISAMPLES) == (1, 0)
    cams = _cameras(spec)
    with MaskRenderer(spec, track, cfg) as r:
        q = r.model.vis.quality
        assert (q.shadowsize, q.offsamples) == (1, 0)
        assert r.model.ntex == 0
        assert r._scene.maxgeom == visibility.MASK_MAX_GEOMS  # drawn without textures
        ours = [r.mask(cam) for cam in cams]
        reference = _reference_masks(spec, r, cams)  # from the textured model, as every mask was drawn before
    for before, after in zip(reference, ours):
        assert before.shape == after.shape
        assert np.array_equal(before, after)
    with MaskRenderer(spec, track, cfg) as r:  # each count is the hazard's geoms' pixels in the mask
        counts = [
            int(
                np.count_nonzero(
                    (m[..., 1] == int(mujoco.mjtObj.mjOBJ_GEOM)) & np.isin(m[..., 0], sorted(r.hazard_geoms))
                )
            )
            for m in ours
        ]
        assert [r.pixels(cam) for cam in cams] == counts
        assert max(counts) > 0
    # the scene is seen: the masks hold geoms, so equal masks are not two blank frames
    assert any(np.count_nonzero(m[..., 1] == int(mujoco.mjtObj.mjOBJ_GEOM)) for m in ours)
    # the GL context is kept for the next scene: another scene drawn in it, then this one again, the same masks
    other = sample_spec("shelf_slide", 4)
    with MaskRenderer(other, _initial_track(other), cfg) as r:
        for cam in other.cameras:
            r.mask(cam)
    with MaskRenderer(spec, track, cfg) as r:
        assert all(np.array_equal(a, r.mask(cam)) for a, cam in zip(ours, cams))


def test_a_placement_asked_twice_is_drawn_once_with_the_same_count(knife_scene) -> None:
    spec, track = knife_scene
    with MaskRenderer(spec, track, VisibilityConfig()) as r:
        calls = []
        draw = r._render_pixels
        r._render_pixels = lambda cam: calls.append(cam) or draw(cam)
        cams = _cameras(spec)
        first = [r.pixels(c) for c in cams]
        again = [r.pixels(dataclasses.replace(c)) for c in cams]  # equal placements, new objects
        assert first == again
        assert len(calls) == len(set(cams))
        fresh = [draw(c) for c in cams]  # drawn again from scratch: the remembered counts are the drawn ones
        assert fresh == first
        assert sum(first) > 0


def test_a_mask_with_more_geoms_than_its_scene_holds_is_refused_not_cut(knife_scene, monkeypatch) -> None:
    """A full MjvScene drops the geoms past its size from the drawing, which would change a count silently."""
    spec, track = knife_scene
    monkeypatch.setattr(visibility, "MASK_MAX_GEOMS", 8)
    with MaskRenderer(spec, track, VisibilityConfig()) as r:
        with pytest.raises(RuntimeError, match="MASK_MAX_GEOMS"):
            r.pixels(spec.cameras[0])


def test_the_views_after_enough_visible_ones_are_not_drawn() -> None:
    """_best_variant keeps the cameras as soon as min_views of them show the hazard: the same answer as counting
    every view first, one render less per scene whose first two views suffice."""
    from types import SimpleNamespace

    cfg = VisibilityConfig()
    cams = tuple(SimpleNamespace(name=n) for n in ("egocentric", "closeup", "overhead"))
    for shown, drawn in (
        ((900, 700, 0), ["egocentric", "closeup"]),
        ((900, 10, 300), ["egocentric", "closeup", "overhead"]),
    ):
        asked = []
        counts = dict(zip(("egocentric", "closeup", "overhead"), shown))
        r = SimpleNamespace(pixels=lambda c: asked.append(c.name) or counts[c.name])
        assert visibility._best_variant(r, cams, [], cfg) is cams
        assert asked == drawn
