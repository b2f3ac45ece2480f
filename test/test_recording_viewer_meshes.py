"""Scene markers drawn from the catalogue's prepared meshes (no simulation, no rclpy): a sampled hazard's markers
are the files the simulators load, at its physical size, and a textured part takes its texture's mean colour."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest


def test_a_sampled_knife_is_drawn_by_its_prepared_mesh_files_at_its_physical_size():
    """The real mesh pipeline on a sampled scene (no simulation): the hazard's markers are the files the
    simulators load, in its body frame, and their vertices span the knife's physical size there."""
    from reacthuman.recording.markers import MESH_RESOURCE, scene_markers
    from reacthuman.scenes import sample_spec
    from reacthuman.scenes.catalog import get_object
    from reacthuman.scenes.object_meshes import physical_extent_m

    spec = sample_spec("object_drop", 3, object_id="chefs_knife", width=64, height=36).to_dict()
    hazard = next(b for b in spec["bodies"] if b["name"] == spec["hazard_bodies"][0])
    assert hazard["visual"]
    assert hazard["object_id"] == "chefs_knife"
    knife = [m for m in scene_markers(spec).markers if m.header.frame_id == "scene/" + hazard["name"]]
    assert knife
    assert all(m.type == MESH_RESOURCE and m.ns == "hazard" and m.frame_locked for m in knife)
    vertices = []
    for m in knife:
        assert m.mesh_resource.startswith("file:///")
        assert m.mesh_resource.endswith(".obj")
        assert (m.scale.x, m.scale.y, m.scale.z, m.pose.orientation.w) == (1.0, 1.0, 1.0, 1.0)
        assert (m.pose.position.x, m.pose.position.y, m.pose.position.z) == (0.0, 0.0, 0.0)
        path = Path(m.mesh_resource.removeprefix("file://"))
        vertices += [
            [float(c) for c in line.split()[1:4]] for line in path.read_text().splitlines() if line.startswith("v ")
        ]
    v = np.asarray(vertices)
    extent, physical = v.max(axis=0) - v.min(axis=0), np.asarray(physical_extent_m(get_object("chefs_knife")))
    assert np.abs((v.max(axis=0) + v.min(axis=0)) / 2).max() < 0.01  # centred on the body origin
    assert np.argmax(extent) == np.argmax(physical)  # the blade runs along the body's long axis
    assert abs(extent.max() / physical.max() - 1.0) < 0.05, (extent, physical)


def test_a_textured_part_is_drawn_in_its_textures_mean_colour():
    """A marker has one colour and no material: a textured part (white under its texture) takes its mean."""
    import dataclasses

    from PIL import Image

    from reacthuman.recording.markers import catalogue_mesh_parts
    from reacthuman.scenes.catalog import get_object
    from reacthuman.scenes.meshes import prepared_parts
    from reacthuman.scenes.object_meshes import visual_for

    visual = visual_for(get_object("smartphone"))
    prepared = prepared_parts(visual)
    drawn = catalogue_mesh_parts(dataclasses.asdict(visual))
    assert [path for path, _ in drawn] == [p.obj_path for p in prepared]
    textured = [(p, rgba) for p, (_, rgba) in zip(prepared, drawn) if p.texture_png]
    assert textured
    for part, rgba in textured:
        mean = np.asarray(Image.open(part.texture_png).convert("RGB"), float).reshape(-1, 3).mean(axis=0) / 255
        assert part.rgba[:3] == (1.0, 1.0, 1.0)
        assert rgba == pytest.approx((*mean, part.rgba[3]))
