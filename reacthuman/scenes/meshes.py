"""Visual meshes ready for MJCF: one OBJ per material (plus its PNG texture), in a cache outside the repo.

`prepared_parts(visual)` extracts the model's folder from its installed archive into
`<cache>/meshes/src/`, applies the placement the spec records (VisualMeshSpec) to the vertices, simplifies
untextured parts above a triangle budget (quadric decimation, deterministic) and writes each material as
an OBJ (with texture coordinates when textured) and its texture as PNG under
`<cache>/meshes/<digest of the visual spec and PIPELINE_VERSION>/`. Written once, atomically (a folder is
complete only once its parts.json exists); later calls read parts.json. MuJoCo and Genesis (through its
MJCF loader, which compiles with MuJoCo) read the same files.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import zipfile
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType

import numpy as np

from reacthuman.core.atomic import atomic_write_text
from reacthuman.scenes.furniture import FURNITURE_DIR, PACKAGE, FurnitureError, pypi_model_path
from reacthuman.scenes.modelled.registry import MODELLED_PACKAGE, modelled_parts, source_digest
from reacthuman.scenes.spec import VisualMeshSpec
import importlib.util

PIPELINE_VERSION = 2  # bump when the processing below changes, so stale cached files are not reused
MAX_FACES_PER_PART = 3000  # untextured parts above this are decimated (rendering is the costliest stage)


@dataclass(frozen=True)
class MeshPart:
    obj_path: str
    rgba: tuple[float, float, float, float]
    texture_png: str | None = None


def cache_root() -> Path:
    base = os.environ.get("REACTHUMAN_CACHE") or str(
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "reacthuman"
    )
    return Path(base) / "meshes"


def _digest(visual: VisualMeshSpec) -> str:
    fields = asdict(visual)
    fields.pop("stretch")  # applied by the MJCF mesh scale, not baked into the files
    if visual.package == MODELLED_PACKAGE:  # a modelled object: its files change with the code that builds them
        fields["source"] = source_digest()
    text = json.dumps({"pipeline": PIPELINE_VERSION, **fields}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _extract(visual: VisualMeshSpec) -> Path:
    """The model's folder from its archive, extracted once (members of that folder only); a PyPI asset
    model is read where it is installed."""
    if visual.package != PACKAGE:
        return pypi_model_path(visual.package, visual.archive, visual.member)
    archive = FURNITURE_DIR / visual.archive
    if not archive.is_file():
        raise FurnitureError(f"{archive} is missing: install the Debian package {visual.package}")
    folder = os.path.dirname(visual.member)
    root = cache_root() / "src" / Path(visual.archive).stem
    if (root / visual.member).is_file():
        return root / visual.member
    cache_root().mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=cache_root()))  # same filesystem as the destination: os.replace works
    try:
        with zipfile.ZipFile(archive) as z:
            names = [n for n in z.namelist() if n.startswith(folder + "/") and not n.endswith("/")]
            if visual.member not in names:
                raise FurnitureError(f"{visual.member} is not in {archive}")
            for n in names:
                z.extract(n, tmp)
        for n in names:  # move file by file: another process may be extracting the same folder
            dest = root / n
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp / n, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return root / visual.member


def _placement(visual: VisualMeshSpec, vertices: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """File coordinates -> body frame (see VisualMeshSpec). lo/hi: the whole model's Z-up bounds."""
    from reacthuman.scenes.builders import rotate

    v = _zup(visual, vertices)
    extent = np.maximum(hi - lo, 1e-9)
    v = (v - (lo + hi) / 2) * (np.asarray(visual.size_m) / extent)
    w, x, y, z = visual.quat
    r = np.array([rotate((w, x, y, z), tuple(e)) for e in np.eye(3)]).T
    return (v @ r.T) * visual.scale + np.asarray(visual.pos)


def _zup(visual: VisualMeshSpec, vertices: np.ndarray) -> np.ndarray:
    v = vertices.astype(np.float64)
    if visual.package != PACKAGE:  # PyPI asset models and modelled objects: already Z-up
        return v
    if visual.model_rotation:
        v = v @ np.asarray(visual.model_rotation).reshape(3, 3).T
    # Sweet Home 3D: width along the file's x, depth along z, height along y.
    return np.stack([v[:, 0], -v[:, 2], v[:, 1]], axis=1)


def _decimate(vertices: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    import fast_simplification

    reduction = 1.0 - MAX_FACES_PER_PART / len(faces)
    v, f = fast_simplification.simplify(vertices.astype(np.float32), faces.astype(np.int64), target_reduction=reduction)
    return np.asarray(v, np.float64), np.asarray(f)


def _write_obj(path: Path, v: np.ndarray, f: np.ndarray, uv: np.ndarray | None) -> None:
    lines = [f"v {a:.6f} {b:.6f} {c:.6f}" for a, b, c in v]
    if uv is not None:
        lines += [f"vt {a:.6f} {b:.6f}" for a, b in uv]
        lines += [f"f {a + 1}/{a + 1} {b + 1}/{b + 1} {c + 1}/{c + 1}" for a, b, c in f]
    else:
        lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in f]
    path.write_text("\n".join(lines) + "\n")


def _trimesh() -> ModuleType:
    """trimesh, with its loaders (about a second to import): only a model not yet in the cache needs it."""
    import trimesh

    return trimesh


@lru_cache(maxsize=1)
def _trimesh_obj_loader():
    """trimesh's own OBJ loader. Importing Genesis replaces it process-wide with a variant that rejects some
    catalogue files and may read others differently; the cached parts must not depend on whether Genesis
    was imported first, so they are always read with trimesh's own, loaded afresh from its module file."""
    own = _trimesh().exchange.obj.__file__
    spec = importlib.util.spec_from_file_location("trimesh.exchange.reacthuman_own_obj", own)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.load_obj


def _parts_of(obj: Path):
    trimesh = _trimesh()
    loaders = trimesh.exchange.load.mesh_loaders
    current = loaders["obj"]
    loaders["obj"] = _trimesh_obj_loader()
    try:
        scene = trimesh.load(str(obj), force="scene", process=False)
    finally:
        loaders["obj"] = current
    return [(name, scene.geometry[name]) for name in sorted(scene.geometry)]


@dataclass
class _SourcePart:
    vertices: np.ndarray
    faces: np.ndarray
    uv: np.ndarray | None
    image: object  # PIL image or None
    diffuse: np.ndarray  # rgba in 0-255


def _source_parts(visual: VisualMeshSpec) -> list[_SourcePart]:
    """The model's materials as meshes: read from the catalogue's OBJ, or built by reacthuman.scenes.modelled."""
    if visual.package == MODELLED_PACKAGE:
        return [
            _SourcePart(p.vertices, p.faces, p.uv, p.image, np.asarray(p.rgba, np.float64))
            for p in modelled_parts(visual.member)
        ]
    out = []
    for _, g in _parts_of(_extract(visual)):
        mat = getattr(g.visual, "material", None)
        out.append(
            _SourcePart(
                np.asarray(g.vertices),
                np.asarray(g.faces),
                getattr(g.visual, "uv", None),
                getattr(mat, "image", None),
                np.asarray(getattr(mat, "diffuse", (178, 178, 178, 255)), np.float64).ravel()[:4],
            )
        )
    return out


def _write_parts(visual: VisualMeshSpec, out: Path) -> list[MeshPart]:
    geoms = [g for g in _source_parts(visual) if len(g.faces)]
    allv = np.concatenate([_zup(visual, g.vertices) for g in geoms])
    lo, hi = allv.min(axis=0), allv.max(axis=0)
    parts = []
    for i, g in enumerate(geoms):
        v, f = _placement(visual, g.vertices, lo, hi), g.faces
        image, uv = g.image, g.uv
        diffuse = g.diffuse / 255.0
        textured = image is not None and uv is not None and len(uv) == len(v)
        if not textured and len(f) > MAX_FACES_PER_PART:
            v, f = _decimate(v, f)
        obj = out / f"part{i}.obj"
        _write_obj(obj, v, f, np.asarray(uv) if textured else None)
        png = None
        if textured:
            png = out / f"part{i}.png"
            image.convert("RGBA" if image.mode in ("RGBA", "LA", "P") else "RGB").save(png)
        rgba = (1.0, 1.0, 1.0, float(diffuse[3])) if textured else tuple(float(c) for c in diffuse)
        parts.append(MeshPart(str(obj), rgba, str(png) if png else None))  # type: ignore[arg-type]
    return parts


@lru_cache(maxsize=256)
def prepared_parts(visual: VisualMeshSpec) -> tuple[MeshPart, ...]:
    """The model's parts as files in the cache (written on first use)."""
    out = cache_root() / _digest(visual)
    index = out / "parts.json"
    if not index.is_file():
        out.mkdir(parents=True, exist_ok=True)
        parts = _write_parts(visual, out)
        atomic_write_text(index, json.dumps([asdict(p) for p in parts]))
    return tuple(MeshPart(p["obj_path"], tuple(p["rgba"]), p["texture_png"]) for p in json.loads(index.read_text()))
