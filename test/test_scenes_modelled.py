"""Every modelled object (reacthuman.scenes.modelled) is a faithful drawing of its library object: it fills
exactly the object's physical box, stays within the render budget, is the same on every build, and its
provenance names this project; the gallery draws the library with them."""

from __future__ import annotations

import numpy as np
import pytest

from reacthuman.scenes.catalog import OBJECTS
from reacthuman.scenes.modelled import modelled_models, modelled_parts
from reacthuman.scenes.modelled.registry import extents_m
from reacthuman.scenes.object_meshes import visual_for

MAX_TRIANGLES = 2000
MAX_TEXTURE_PX = 512 * 512


@pytest.mark.parametrize("name", sorted(modelled_models()))
def test_a_modelled_object_fills_its_box_within_budget(name: str) -> None:
    model = modelled_models()[name]
    parts = modelled_parts(model.member)
    verts = np.concatenate([p.vertices for p in parts])
    assert verts.max(axis=0) - verts.min(axis=0) == pytest.approx(np.asarray(extents_m(name)), rel=1e-6, abs=1e-9)
    assert np.allclose((verts.max(axis=0) + verts.min(axis=0)) / 2, 0.0, atol=1e-9), "the model is centred on its body"
    assert sum(len(p.faces) for p in parts) <= MAX_TRIANGLES
    for p in parts:
        assert p.faces.min() >= 0
        assert p.faces.max() < len(p.vertices)
        if p.image is not None:
            assert p.uv is not None
            assert len(p.uv) == len(p.vertices)
            assert p.image.width * p.image.height <= MAX_TEXTURE_PX * 2
    again = modelled_parts(model.member)  # deterministic: the same vertices and pixels on every build
    for a, b in zip(parts, again):
        assert np.array_equal(a.vertices, b.vertices)
        assert (a.image is None) == (b.image is None)
        if a.image is not None:
            assert np.array_equal(np.asarray(a.image), np.asarray(b.image))


def test_library_objects_drawn_by_modelled_models_name_their_source() -> None:
    for name, model in modelled_models().items():
        if model.size_m is not None:
            continue  # a fixture, not a library object
        assert name in OBJECTS
        v = visual_for(OBJECTS[name])
        assert v is not None
        assert v.package == "reacthuman"
        assert v.member == model.member
        assert v.licence == "Apache-2.0"
        assert v.scale == pytest.approx(1.0)
