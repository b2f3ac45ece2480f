"""The modelled objects by name: their builders, versions and catalogue-style provenance."""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reacthuman.scenes.catalog import OBJECTS, physical_extent_m
from reacthuman.scenes.modelled.geometry import Part

MODELLED_PACKAGE = "reacthuman"  # this project: the models are built by its code, not read from an archive
MODELLED_ARCHIVE = "modelled"
LICENCE = "Apache-2.0"
CREATOR = "ReactHuman (modelled from textured primitives, reacthuman/scenes/modelled)"
# Modules holding the builders, imported on first use (each registers its models with @modelled).
MODULES = ("balls", "containers", "blocks", "soft", "flat", "tall", "fixtures", "surfaces")

Builder = Callable[[tuple[float, float, float]], list[Part]]


@dataclass(frozen=True)
class ModelledModel:
    name: str  # the library object it draws (its catalogue id)
    title: str  # what it is, as a catalogue would name it
    category: str
    version: int  # bump when the builder's output changes: the version is part of the cached files' key
    module: str
    builder: Builder
    # Fixtures (a shelf board, a stair block) are not library objects: they are built at this nominal size and
    # stretched onto each scene's box by the MJCF mesh scale (VisualMeshSpec.stretch), so one cached copy serves
    # every scene. None: built at the library object's physical extents.
    size_m: tuple[float, float, float] | None = None

    @property
    def member(self) -> str:
        return f"reacthuman/scenes/modelled/{self.module}.py:{self.name}@{self.version}"


_REGISTRY: dict[str, ModelledModel] = {}


def modelled(
    name: str, title: str, category: str, version: int = 1, size_m: tuple[float, float, float] | None = None
) -> Callable[[Builder], Builder]:
    """Register a builder: fn(extents_m) -> parts, for the library object `name` (or a fixture of size_m)."""

    def wrap(fn: Builder) -> Builder:
        module = fn.__module__.rsplit(".", 1)[-1]
        if name in _REGISTRY and _REGISTRY[name].builder is not fn:
            raise ValueError(f"modelled object {name!r} registered twice")
        _REGISTRY[name] = ModelledModel(name, title, category, version, module, fn, size_m)
        return fn

    return wrap


def modelled_models() -> dict[str, ModelledModel]:
    for m in MODULES:
        importlib.import_module(f"reacthuman.scenes.modelled.{m}")
    return dict(sorted(_REGISTRY.items()))


def modelled_model(name: str) -> ModelledModel:
    models = modelled_models()
    if name not in models:
        raise LookupError(f"no modelled object {name!r}; modelled: {', '.join(models)}")
    return models[name]


def name_of_member(member: str) -> str:
    """`reacthuman/scenes/modelled/balls.py:tennis_ball@1` -> `tennis_ball` (checked against the version)."""
    try:
        name, version = member.rsplit(":", 1)[1].split("@")
    except ValueError:
        raise LookupError(f"not a modelled object member: {member!r}") from None
    model = modelled_model(name)
    if model.member != member:
        raise LookupError(f"{member!r} names version {version} of {name!r}; this revision builds {model.member!r}")
    return name


def extents_m(name: str) -> tuple[float, float, float]:
    fixed = modelled_model(name).size_m
    if fixed is not None:
        return fixed
    return physical_extent_m(OBJECTS[name])


def modelled_parts(member: str) -> list[Part]:
    """The parts of a modelled object named by its spec member, built at its physical extents."""
    name = name_of_member(member)
    parts = modelled_model(name).builder(extents_m(name))
    if not parts:
        raise ValueError(f"modelled object {name!r} built no parts")
    return parts


@lru_cache(maxsize=1)
def source_digest() -> str:
    """A digest of this package's code: the mesh cache keys modelled objects by it, so an edited builder is
    never served from files an earlier revision wrote (the member's @version is the provenance, not the key)."""
    h = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]
