"""The config files (config/*.yaml) and their one loader (reacthuman.core.config): every registered config
loads from its file, its module's default_config() is that file's config, and a bad value is refused with a
message naming the field."""

from __future__ import annotations

import dataclasses
import importlib
import math
from pathlib import Path

import pytest

from reacthuman.core import config as core_config
from reacthuman.core.config import config_path, load_config, registered_configs

CONFIGS = registered_configs()


def _yaml_keys(data: dict, prefix: str = "") -> set[str]:
    keys = set()
    for key, value in data.items():
        keys.add(f"{prefix}{key}")
        if isinstance(value, dict):
            keys |= _yaml_keys(value, f"{prefix}{key}.")
    return keys


def _field_paths(config: object, prefix: str = "") -> set[str]:
    paths = set()
    for f in dataclasses.fields(config):
        paths.add(f"{prefix}{f.name}")
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value):
            paths |= _field_paths(value, f"{prefix}{f.name}.")
    return paths


@pytest.mark.parametrize("cls", CONFIGS, ids=lambda c: c.__name__)
def test_every_config_loads_from_its_file_and_default_config_is_that_config(cls):
    import yaml

    loaded = load_config(cls)
    assert isinstance(loaded, cls)
    assert _yaml_keys(yaml.safe_load(config_path(cls).read_text())) <= _field_paths(loaded)
    default_config = importlib.import_module(cls.__module__).default_config
    assert default_config() == loaded


@pytest.mark.parametrize("cls", CONFIGS, ids=lambda c: c.__name__)
def test_every_numeric_field_refuses_a_bad_override_naming_the_field(cls):
    """A float field refuses NaN and an integer field refuses -1 (each config's __post_init__), so a value
    mistyped in a file or passed as a node parameter stops the run with the field's name."""
    default_config = importlib.import_module(cls.__module__).default_config
    loaded = load_config(cls)
    checked = 0
    for f in dataclasses.fields(cls):
        value = getattr(loaded, f.name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue  # flags, names, tuples and nested configs have checks of their own shape
        bad = math.nan if isinstance(value, float) else -1
        with pytest.raises(ValueError, match=f.name):
            default_config(**{f.name: bad})
        checked += 1
    assert checked, f"{cls.__name__} has no numeric field"


def test_an_unknown_override_is_refused_naming_it():
    from reacthuman.plan.classifier import default_config

    with pytest.raises(ValueError, match="no field 'walk_min'"):
        default_config(walk_min=0.2)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "classifier.yaml"
    path.write_text(text)
    return path


def test_the_loader_refuses_unknown_keys_and_invalid_yaml_naming_the_file(tmp_path):
    from reacthuman.plan.classifier import ClassifierConfig
    from reacthuman.spine.spine import SpineConfig

    path = _write(tmp_path, "walk_min_m: 0.2\nwalk_min: 0.3\nhand_reach: 1\n")
    with pytest.raises(ValueError, match=r"classifier\.yaml: unknown field\(s\) hand_reach, walk_min$"):
        load_config(ClassifierConfig, path)
    nested = tmp_path / "spine.yaml"
    nested.write_text("arm_ik:\n  dampnig: 0.1\n")
    with pytest.raises(ValueError, match=r"unknown field\(s\) arm_ik\.dampnig"):
        load_config(SpineConfig, nested)
    broken = _write(tmp_path, "walk_min_m: [0.2\n")
    with pytest.raises(ValueError, match="classifier.yaml") as err:
        load_config(ClassifierConfig, broken)
    assert "\n" not in str(err.value)
    bad = _write(tmp_path, "walk_min_m: -1\n")
    with pytest.raises(ValueError, match="classifier.yaml: ClassifierConfig.walk_min_m must be"):
        load_config(ClassifierConfig, bad)


def test_a_field_absent_from_the_file_keeps_its_default_and_a_nested_one_is_set(tmp_path):
    from reacthuman.plan.classifier import ClassifierConfig
    from reacthuman.spine.spine import SpineConfig

    only = load_config(ClassifierConfig, _write(tmp_path, "walk_min_m: 0.25\n"))
    assert only == dataclasses.replace(ClassifierConfig(), walk_min_m=0.25)
    nested = tmp_path / "spine.yaml"
    nested.write_text("arm_ik:\n  damping: 0.07\n")
    spine = load_config(SpineConfig, nested)
    assert spine.arm_ik == dataclasses.replace(SpineConfig().arm_ik, damping=0.07)
    assert spine.base_tracking == SpineConfig().base_tracking


def test_the_classifier_reads_its_thresholds_from_config_classifier_yaml(tmp_path, monkeypatch):
    """A 0.2 m walk straight at the hazard is a catch; with walk_min_m raised above 0.2 in the file the plan
    no longer walks, and with its hands at rest it is no action."""
    from reacthuman.plan.classifier import classify_plan
    from reacthuman.plan.plan import Action, Plan

    walk_02 = Plan("thing", "react", 0.5, (0.2, 0.0, 0.0), 1.0, 0.5, ())
    assert classify_plan(walk_02, (1.0, 0.0)) is Action.CATCH
    _write(tmp_path, "walk_min_m: 0.25\n")
    monkeypatch.setattr(core_config, "CONFIG_DIR", tmp_path)
    assert classify_plan(walk_02, (1.0, 0.0)) is Action.NO_ACTION
