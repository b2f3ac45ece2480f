"""The planner's side of objects outside the library and of the dataset description stage: noun phrases,
synonyms, one-line errors, the material table's validation, and every drawn scene read back through the rule
parser. No simulator (fast layer)."""

from __future__ import annotations

import itertools

import pytest

from reacthuman.scenes.cli import main
from reacthuman.scenes.descriptions import scene_description
from reacthuman.scenes.families import FAMILY_DEFS
from reacthuman.scenes.material_table import default_table, load_material_table
from reacthuman.scenes.planner import plan, rule_parse
from reacthuman.scenes.sourcing import noun_phrase


def test_the_object_is_the_description_s_first_noun_phrase() -> None:
    assert noun_phrase("a cast-iron skillet slides off the counter").head == "skillet"
    assert noun_phrase("two wooden toy trains slide down a ramp").words == ("wooden", "toy", "trains")
    assert noun_phrase("someone throws a cricket ball at the robot") is None  # library and planner words only


def test_unknown_nouns_and_bad_tables_fail_in_one_line(tmp_path, capsys) -> None:
    out = tmp_path / "ds"
    assert main(["generate", "--describe", "a zorblax falls off the table", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "'zorblax'" in err
    assert len(err.splitlines()) == 1
    assert not out.exists()
    assert main(["generate", "--balanced", "1", "--model", "no-such-model", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "unknown model 'no-such-model'" in err
    assert len(err.splitlines()) == 1
    assert not out.exists()
    assert main(["plan", "a hammer swings like a pendulum"]) == 2
    assert "pendulum_swing scenes take only their own objects" in capsys.readouterr().err
    with pytest.raises(ValueError, match="min_extent_m"):
        default_table(min_extent_m=-1.0)
    with pytest.raises(ValueError, match="materials.unobtainium"):
        default_table(materials={"unobtainium": load_material_table().materials["steel"]})
    # a noun the library knows by another name is not sourced: a skillet is the library's cast-iron pan
    assert plan("a cast-iron skillet slides off the counter").object_id == "cast_iron_pan"


def test_every_drawn_scene_reads_back_to_itself_through_the_rule_planner() -> None:
    bad = []
    for family, fam in FAMILY_DEFS.items():
        keys = sorted(fam.hints)
        for obj, room, values in itertools.product(
            fam.objects, fam.rooms, itertools.product(*(fam.hints[k] for k in keys))
        ):
            hints = dict(zip(keys, values))
            sel = rule_parse(scene_description(family, obj, room, hints))
            if (sel.family, sel.object_id, sel.room, sel.hints) != (family, obj, room, hints):
                bad.append(scene_description(family, obj, room, hints))
    assert bad == []
