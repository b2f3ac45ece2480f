"""The families' own fixtures (shelf board, ramp, stairs) are drawn by modelled textured boxes stretched onto
their static boxes: the model covers exactly the box, and the drawing changes no physics (MuJoCo)."""

from __future__ import annotations

import dataclasses

import mujoco
import numpy as np
import pytest

from reacthuman.scenes import sample_spec
from reacthuman.scenes.meshes import prepared_parts
from reacthuman.scenes.mjcf import scene_mjcf

FIXTURED = {
    "stair_tumble": ("landing", "step_1"),
    "sliding_object": ("ramp", "ramp_post"),
    "shelf_slide": ("shelf", "shelf_bracket"),
}
STEPS = 480


def _without_fixture_looks(spec):
    bodies = tuple(b if b.joint is not None else dataclasses.replace(b, visual=None) for b in spec.bodies)
    return dataclasses.replace(spec, bodies=bodies)


def _track(spec) -> np.ndarray:
    model = mujoco.MjModel.from_xml_string(scene_mjcf(spec, with_furnishings=False))
    data = mujoco.MjData(model)
    out = []
    for _ in range(STEPS):
        mujoco.mj_step(model, data)
        out.append(data.qpos.copy())
    return np.array(out)


@pytest.mark.parametrize("family", sorted(FIXTURED))
def test_fixture_models_cover_their_boxes_and_change_no_physics(family: str) -> None:
    spec = sample_spec(family, 3)
    bodies = {b.name: b for b in spec.bodies}
    for name in FIXTURED[family]:
        body = bodies[name]
        assert body.visual is not None, name
        assert body.visual.package == "reacthuman", name
        verts = np.concatenate(
            [
                np.loadtxt([ln[2:] for ln in open(p.obj_path) if ln.startswith("v ")])
                for p in prepared_parts(body.visual)
            ]
        )
        drawn = (verts.max(axis=0) - verts.min(axis=0)) * np.asarray(body.visual.stretch)
        assert drawn == pytest.approx(2 * np.asarray(body.geoms[0].size), abs=1e-5), name
    assert np.array_equal(_track(spec), _track(_without_fixture_looks(spec)))


def test_the_benchmarks_primitive_twin_draws_the_same_content_without_models():
    """The render bench's meshes-vs-primitives ratio compares like with like: the twin keeps every body and
    draws each piece of furniture as its bounding box; unfurnished, it is the bare room."""
    from reacthuman.perf.render import MESH_SCENE, primitive_twin
    from reacthuman.scenes.randomize import sample_spec
    from reacthuman.scenes.rooms import furnishing_boxes

    family, seed, object_id = MESH_SCENE
    spec = sample_spec(family, seed, object_id=object_id)
    assert spec.furnishings
    assert any(b.visual is not None for b in spec.bodies)
    twin, bare = primitive_twin(spec), primitive_twin(spec, furnished=False)
    for t in (twin, bare):
        assert not t.furnishings
        assert not t.dressed_bodies
        assert all(b.visual is None for b in t.bodies)
    assert [b.name for b in bare.bodies] == [b.name for b in spec.bodies]
    added = twin.bodies[len(spec.bodies) :]
    assert len(added) == len(spec.furnishings)
    for body, (x0, x1, y0, y1, z0, z1) in zip(added, furnishing_boxes(spec.furnishings)):
        assert body.pos == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2), abs=1e-4)
        assert body.geoms[0].size == pytest.approx(((x1 - x0) / 2, (y1 - y0) / 2, (z1 - z0) / 2), abs=1e-4)
