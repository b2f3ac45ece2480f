"""Tunables in `config/*.yaml`: the one loader of every config dataclass, and the table of which class reads
which file.

A config file is a mapping `field: value` (docs/architecture.md, "Configuration"). A field the file leaves out keeps the
dataclass default; a key that is no field is an error naming it and the file, so a typo cannot silently
leave a value at its default. Each config module's `default_config(**overrides)` is
`config_with(TheConfig, overrides)`: the file's values with the overrides applied by `dataclasses.replace`,
so `__post_init__` validates the result and its message names the field.

The files are read once per process (cached): a run sees the values it started with, and the hot paths (the
classifier, the reference brains' predictions) ask for their config on every call without reading a file.
"""

from __future__ import annotations

import importlib
from dataclasses import MISSING, fields, is_dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, TypeVar
import yaml

CONFIG_DIR = Path(__file__).resolve().parents[2] / "config"

# "module:Class" -> its file in CONFIG_DIR. One table, so a test can load every config and every file has
# one reader. Other files in config/ (materials, models, viewer layouts) have readers of their own shape.
CONFIG_FILES: dict[str, str] = {
    "reacthuman.scenes.label_config:LabelConfig": "ground_truth.yaml",
    "reacthuman.plan.classifier:ClassifierConfig": "classifier.yaml",
    "reacthuman.brain.reference_config:ReferenceBrainConfig": "reference_brains.yaml",
    "reacthuman.brain.arc:ArcConfig": "arc.yaml",
    "reacthuman.spine.spine:SpineConfig": "spine.yaml",
    "reacthuman.spine.watchdog:WatchdogConfig": "watchdog.yaml",
    "reacthuman.scenes.envelope:BodyEnvelope": "envelope.yaml",
    "reacthuman.sim_bridge.body:BodyConfig": "body.yaml",
    "reacthuman.sim_bridge.engine:EngineConfig": "engine.yaml",
    "reacthuman.sim_bridge.outcome:OutcomeConfig": "outcome.yaml",
    "reacthuman.sim_bridge.unitree_bridge:UnitreeBridgeConfig": "unitree_bridge.yaml",
    "reacthuman.scenes.visibility:VisibilityConfig": "visibility.yaml",
    "reacthuman.scenes.cameras:CloseupConfig": "closeup.yaml",
    "reacthuman.scenes.render:RenderConfig": "render.yaml",
    "reacthuman.recording.viewer_config:ViewerConfig": "viewer.yaml",
    "reacthuman.reporting.analyses:AnalysisConfig": "analyses.yaml",
    "reacthuman.evaluation.closed_loop:LoopConfig": "closed_loop.yaml",
}

C = TypeVar("C")


def config_path(cls: type) -> Path:
    """The file in config/ that `cls` is read from."""
    name = CONFIG_FILES.get(f"{cls.__module__}:{cls.__qualname__}")
    if name is None:
        raise KeyError(f"{cls.__qualname__} has no file in config/ (reacthuman.core.config.CONFIG_FILES)")
    return CONFIG_DIR / name


def read_fields(cls: type, path: Path) -> dict[str, Any]:
    """The file's `field: value` pairs, checked against the fields of `cls`."""

    try:
        data = yaml.safe_load(Path(path).read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        # yaml's message spans lines (the offending line quoted, a caret under it): one line names the file
        raise ValueError(f"{cls.__qualname__} {path}: " + " ".join(str(exc).split())) from None
    if not isinstance(data, dict):
        raise ValueError(f"{cls.__qualname__} {path}: expected a mapping of field: value")
    unknown: list[str] = []
    values = _values(cls, data, "", unknown)
    if unknown:
        raise ValueError(f"{cls.__qualname__} {path}: unknown field(s) {', '.join(sorted(unknown))}")
    return values


def _values(cls: type, data: dict, prefix: str, unknown: list[str]) -> dict[str, Any]:
    """`data` as constructor arguments of `cls`: a mapping under a field that holds a config of its own (the
    spine's `arm_ik`) sets fields of that config, starting from its default; a yaml sequence becomes the tuple
    the frozen dataclass holds. Keys that are no field go to `unknown`, with their path (`arm_ik.dampnig`)."""
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        f = known.get(str(key))
        if f is None:
            unknown.append(f"{prefix}{key}")
            continue
        nested = f.default_factory() if f.default_factory is not MISSING else None
        if isinstance(value, dict) and is_dataclass(nested):
            values[f.name] = replace(nested, **_values(type(nested), value, f"{prefix}{key}.", unknown))
        else:
            values[f.name] = tuple(value) if isinstance(value, list) else value
    return values


def load_config(cls: type[C], path: Path | None = None) -> C:
    """`cls` built from its file (`config_path(cls)` unless `path` is given); validated by its __post_init__."""
    return _load(cls, config_path(cls) if path is None else Path(path))


@lru_cache(maxsize=None)
def _load(cls: type[C], path: Path) -> C:
    data = read_fields(cls, path)
    try:
        return cls(**data)
    except ValueError as exc:  # a value __post_init__ refuses: say which file holds it
        raise ValueError(f"{path}: {exc}") from None


def config_with(cls: type[C], overrides: Mapping[str, Any]) -> C:
    """The file's config with `overrides` applied (validated again); an unknown name is an error naming it."""
    base = load_config(cls)
    if not overrides:
        return base  # frozen: the cached instance can be shared
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"{cls.__qualname__} has no field {unknown[0]!r} (fields: {', '.join(sorted(known))})")
    return replace(base, **overrides)


def registered_configs() -> list[type]:
    """Every config class of CONFIG_FILES, imported (the simulator adapters import no simulator at load)."""
    classes = []
    for key in CONFIG_FILES:
        module, _, name = key.partition(":")
        classes.append(getattr(importlib.import_module(module), name))
    return classes
