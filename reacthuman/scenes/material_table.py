"""The material table for objects sourced from the installed catalogues (config/materials.yaml).

`load_material_table()` reads the file shipped with the repository; `default_table(**overrides)` replaces
single fields (tests, experiments). Every field is validated in `__post_init__` with a message naming it.
Units are in the names (kg/m^3, m). The physics rules that use the table live in sourcing.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from reacthuman.core.validate import require_positive
from reacthuman.scenes.catalog import MATERIALS
from reacthuman.scenes.families import FAMILY_DEFS

CONFIG_PATH = Path(__file__).resolve().parents[2] / "config" / "materials.yaml"


@dataclass(frozen=True)
class MaterialPhysics:
    density_kg_m3: float
    wall_thickness_m: float
    shattering: bool = False


@dataclass(frozen=True)
class MaterialTable:
    materials: dict[str, MaterialPhysics]
    material_words: dict[str, str]
    noun_materials: dict[str, str]
    default_material: str
    sharp_words: tuple[str, ...]
    hot_words: tuple[str, ...]
    synonyms: dict[str, str] = field(default_factory=dict)
    ignore_words: tuple[str, ...] = ()
    excluded_categories: tuple[str, ...] = ()
    min_extent_m: float = 0.03
    max_extent_m: float = 0.8
    graspable_max_extent_m: float = 0.5
    sourcing_families: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.materials:
            raise ValueError("material table materials is empty")
        for name, m in self.materials.items():
            if name not in MATERIALS:
                raise ValueError(f"material table materials.{name} is not a library material ({', '.join(MATERIALS)})")
            require_positive(m, ("density_kg_m3", "wall_thickness_m"), f"material table materials.{name}.")
        for where, table in (("material_words", self.material_words), ("noun_materials", self.noun_materials)):
            for word, material in table.items():
                if material not in self.materials:
                    raise ValueError(f"material table {where}.{word} names unknown material {material!r}")
        if self.default_material not in self.materials:
            raise ValueError(f"material table default_material {self.default_material!r} is not in materials")
        require_positive(self, ("min_extent_m", "max_extent_m", "graspable_max_extent_m"), "material table")
        if self.min_extent_m >= self.max_extent_m:
            raise ValueError(
                f"material table min_extent_m ({self.min_extent_m}) must be below max_extent_m ({self.max_extent_m})"
            )
        for fam in self.sourcing_families:
            if fam not in FAMILY_DEFS:
                raise ValueError(f"material table sourcing_families names unknown family {fam!r}")


def default_table(**overrides: Any) -> MaterialTable:
    return replace(load_material_table(), **overrides)


def _table_from(data: dict[str, Any], path: Path) -> MaterialTable:
    known = {f.name for f in fields(MaterialTable)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"material table {path}: unknown field(s) {', '.join(unknown)}")
    kw = dict(data)
    mats = {}
    for name, m in (kw.get("materials") or {}).items():
        if not isinstance(m, dict):
            raise ValueError(f"material table {path}: materials.{name} must be a mapping")
        bad = sorted(set(m) - {f.name for f in fields(MaterialPhysics)})
        if bad:
            raise ValueError(f"material table {path}: materials.{name} has unknown field(s) {', '.join(bad)}")
        try:
            mats[name] = MaterialPhysics(**m)
        except TypeError as exc:
            raise ValueError(f"material table {path}: materials.{name}: {exc}") from None
    kw["materials"] = mats
    for key in ("sharp_words", "hot_words", "ignore_words", "excluded_categories", "sourcing_families"):
        if key in kw:
            kw[key] = tuple(str(v) for v in kw[key] or ())
    try:
        return MaterialTable(**kw)
    except TypeError as exc:
        raise ValueError(f"material table {path}: {exc}") from None


@lru_cache(maxsize=4)
def load_material_table(path: Path = CONFIG_PATH) -> MaterialTable:
    """The config file's values; unknown keys are an error naming them."""
    try:
        data = yaml.safe_load(Path(path).read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"material table {path}: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"material table {path}: expected a mapping of field: value")
    return _table_from(data, Path(path))
