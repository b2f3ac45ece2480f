"""Objects outside the library, sourced from the installed furniture catalogues, and the description stage of
dataset generation, through Genesis: one simulator for the module; three small scene builds. (The planner's
side, without a simulator, is test_scenes_sourcing_plan.py.)"""

from __future__ import annotations

import json
import os

import pytest

from reacthuman.scenes import label_spec, sample_spec
from reacthuman.scenes import sourcing
from reacthuman.scenes.catalog import OBJECTS, get_object, spec_object
from reacthuman.scenes.cli import describe
from reacthuman.scenes.dataset import GenerateConfig, generate_dataset, planned, read_spec, validate_scene
from reacthuman.scenes.furniture import catalogue
from reacthuman.scenes.material_table import load_material_table
from reacthuman.scenes.planner import plan, rule_parse

TEAPOT = "a ceramic teapot falls off the table in the kitchen"


@pytest.fixture(scope="module")
def teapot_scene(sim, tmp_path_factory):
    sel = plan(TEAPOT)
    spec = label_spec(
        sample_spec(
            sel.family,
            3,
            object_id=sel.object_id,
            room=sel.room,
            hints=sel.hints,
            planner=sel.planner,
            description=sel.description,
            width=320,
            height=180,
            sourced=sel.sourced,
        ),
        sim,
    )
    path = tmp_path_factory.mktemp("sourced") / "spec.json"
    path.write_text(spec.to_json())
    return sel, spec, path


def test_a_described_object_the_library_lacks_is_sourced_from_the_catalogue(teapot_scene) -> None:
    sel, spec, _ = teapot_scene
    assert not any("teapot" in o.name for o in OBJECTS.values())  # the library has none
    record = spec.sourced_object
    assert sel.object_id == spec.object_id == record.object_id
    assert sel.planner == "rule"
    model = next(m for m in catalogue().values() if m.catalog_id == record.catalog_id)
    assert "teapot" in model.name.lower()
    assert record.sourced == f"sweethome3d-furniture/{model.archive}/{model.member}"
    # size: the model's real size; physics: the material table's rule, not a per-object answer
    real_m = sorted(v / 100.0 for v in model.size_cm)
    assert record.shape == "box"
    proxy_m = sorted(2 * s for s in record.size)
    assert proxy_m == pytest.approx(real_m, abs=2e-4)
    table = load_material_table()
    assert record.material == "ceramic"
    assert record.shattering == table.materials["ceramic"].shattering
    assert record.mass_kg == sourcing.estimated_mass_kg(record.shape, record.size, "ceramic", table)
    hazard = spec.hazard
    assert hazard.mass_kg == record.mass_kg
    assert hazard.visual.member == model.member
    assert "sourced_object" not in json.loads(sample_spec("object_drop", 3).to_json())  # library specs unchanged


def test_the_sourced_scene_is_labelled_and_its_spec_alone_validates_bit_for_bit(teapot_scene, sim) -> None:
    _, spec, path = teapot_scene
    gt = spec.ground_truth
    assert gt.dangerous
    assert "shattering" in gt.reasons  # the labeller read the sourced object's flags
    with pytest.raises(KeyError):  # the library does not know it: only the spec that records it does
        get_object(spec.object_id)
    stored = read_spec(str(path))
    assert spec.object_id not in OBJECTS  # reading a spec changes no catalogue
    assert spec_object(stored).mass_kg == spec.sourced_object.mass_kg
    assert stored.to_json() == spec.to_json()
    assert f"sourced  {spec.sourced_object.sourced}" in describe(stored)
    assert validate_scene(stored, sim) == []


def test_dataset_scenes_go_through_the_description_stage(sim, tmp_path) -> None:
    cfg = GenerateConfig(out=str(tmp_path / "ds"), count=2, seed=4, families=("hanging_fall", "furniture_tip"))
    rows = generate_dataset(cfg, simulator=sim)
    for row in rows:
        spec = read_spec(os.path.join(cfg.out, row["scene_id"], "spec.json"))
        assert spec.planner == "rule"
        assert spec.description
        assert rule_parse(spec.description).object_id == spec.object_id
        direct = sample_spec(spec.family, spec.seed, speed_band=spec.speed_band).to_dict()
        unlabelled = planned(cfg, spec.family, spec.seed, spec.speed_band).to_dict()
        assert {k: v for k, v in unlabelled.items() if k not in ("planner", "description")} == {
            k: v for k, v in direct.items() if k not in ("planner", "description")
        }
