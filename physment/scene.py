"""Scene folders in the paper's format: Scene{N}/scene{N}.json (metadata) beside scene{N}.xml (MJCF).

Tolerated variants (seen in scenes written by hand): permission keys with or without the `object_N_`
prefix or `_permissions` suffix, attribute aliases (`body_mass`/`mass`, `geom_type`/`type`, ...), the
object registry as a dict or a list, ids and counts as strings or ints, answers as strings, ints, floats or
lists. Fields this project adds (category axes, reference solution, tolerance) are optional."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from physment.lab import LabError, normalize_object_id

# canonical attribute -> the spellings accepted in object_permissions
ATTRIBUTE_ALIASES: dict[str, tuple[str, ...]] = {
    "mass": ("mass", "body_mass"),
    "position": ("position", "pos", "body_pos"),
    "orientation": ("orientation", "quat", "body_quat"),
    "shape": ("shape", "type", "geom_type"),
    "size": ("size", "geom_size", "dimensions"),
    "density": ("density", "geom_density"),
    "friction": ("friction", "geom_friction"),
    "inertia": ("inertia", "body_inertia"),
    "velocity": ("velocity", "vel", "body_vel"),
    "color": ("color", "rgba", "geom_rgba"),
}
_ALIAS_TO_ATTR = {alias: attr for attr, aliases in ATTRIBUTE_ALIASES.items() for alias in aliases}
PROBLEM_TYPES = ("comparison", "calculation", "computation", "observation")
_SCENE_DIR_RE = re.compile(r"^scene\s*(\d+)$", re.IGNORECASE)


class SceneError(ValueError):
    """A scene folder that cannot be loaded; the message names the file and field."""


@dataclasses.dataclass
class SceneObject:
    object_id: str
    name: str
    permissions: dict[str, bool]
    hidden: bool = False

    def allowed(self, attribute: str) -> bool:
        return bool(self.permissions.get(attribute, False))


@dataclasses.dataclass
class Scene:
    number: int
    folder: Path
    name: str
    task: str
    problem_type: str
    description: str
    answer: object
    expected_behavior: str
    reasoning: str
    objects: list[SceneObject]
    xml_text: str
    extra: dict = dataclasses.field(default_factory=dict)

    @property
    def scene_id(self) -> str:
        return f"Scene{self.number}"

    @property
    def category(self) -> str:
        return str(self.extra.get("category") or "uncategorised")

    @property
    def budgets(self) -> list[int]:
        return [int(b) for b in self.extra.get("budgets") or (5, 10, 15, 20)]

    def object(self, object_id: object) -> SceneObject | None:
        oid = normalize_object_id(object_id)
        return next((o for o in self.objects if o.object_id == oid), None)


def _permissions_for(perms: dict, key: str, oid: str) -> dict:
    for candidate in (f"{key}_permissions", key, f"object_{oid}_permissions", f"object_{oid}", oid):
        if isinstance(perms.get(candidate), dict):
            return perms[candidate]
    return {}


def _canonical_permissions(raw: dict) -> tuple[dict[str, bool], bool]:
    out: dict[str, bool] = {}
    hidden = False
    for key, value in raw.items():
        k = str(key).strip().lower()
        if k == "hidden":
            hidden = bool(value)
        elif k == "visible":
            hidden = not bool(value)
        elif k in _ALIAS_TO_ATTR:
            out[_ALIAS_TO_ATTR[k]] = out.get(_ALIAS_TO_ATTR[k], False) or bool(value)
    return out, hidden


def _registry(meta: dict, path: Path) -> list[tuple[str, str, str]]:
    """(registry key, object id, name) for every listed object."""
    raw = meta.get("objects", {})
    entries = list(raw.items()) if isinstance(raw, dict) else [(None, e) for e in raw]
    out = []
    for key, entry in entries:
        if not isinstance(entry, dict):
            raise SceneError(f"{path}: objects entries must be objects with name and object_id")
        ident = entry.get("object_id", entry.get("id", key))
        try:
            oid = normalize_object_id(ident)
        except LabError as exc:
            raise SceneError(f"{path}: objects: {exc}") from exc
        out.append((str(key) if key else f"object_{oid}", oid, str(entry.get("name", f"object_{oid}"))))
    return out


def load_scene(folder: str | Path) -> Scene:
    folder = Path(folder)
    match = _SCENE_DIR_RE.match(folder.name)
    if not match:
        raise SceneError(f"{folder}: a scene folder is named Scene<N>")
    number = int(match.group(1))
    json_path, xml_path = folder / f"scene{number}.json", folder / f"scene{number}.xml"
    for p in (json_path, xml_path):
        if not p.is_file():
            raise SceneError(f"{p}: missing")
    try:
        meta = json.loads(json_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise SceneError(f"{json_path}: not valid JSON ({exc})") from exc
    return parse_scene(meta, xml_path.read_text(encoding="utf-8"), number, folder, json_path)


def parse_scene(meta: dict, xml_text: str, number: int, folder: Path, json_path: Path | str = "<scene>") -> Scene:
    """A Scene from its metadata dict and MJCF text (what load_scene reads from the two files)."""
    if not isinstance(meta, dict):
        raise SceneError(f"{json_path}: top level must be an object")
    md = meta.get("metadata") or {}
    if "answer" not in meta:
        raise SceneError(f"{json_path}: missing field 'answer'")
    task = md.get("task") or meta.get("task")
    if not task:
        raise SceneError(f"{json_path}: missing field 'metadata.task'")
    problem_type = str(md.get("problem_type", meta.get("problem_type", "calculation"))).strip().lower()
    perms = meta.get("object_permissions") or {}
    objects = []
    for key, oid, name in _registry(meta, json_path):
        canon, hidden = _canonical_permissions(_permissions_for(perms, key, oid))
        objects.append(SceneObject(oid, name, canon, hidden))
    known = {"metadata", "answer", "expected_behavior", "reasoning", "number_of_objects", "objects",
             "object_permissions"}
    extra = {k: v for k, v in meta.items() if k not in known}
    extra.update({k: v for k, v in md.items() if k not in ("scene_name", "task", "problem_type", "description")})
    return Scene(number=number, folder=folder, name=str(md.get("scene_name", folder.name)), task=str(task),
                 problem_type=problem_type, description=str(md.get("description", "")),
                 answer=meta["answer"], expected_behavior=str(meta.get("expected_behavior", "")),
                 reasoning=str(meta.get("reasoning", "")), objects=objects,
                 xml_text=xml_text, extra=extra)


def scene_folders(root: str | Path) -> list[Path]:
    """Scene<N> folders under root (root itself if it is one), in scene-number order."""
    root = Path(root)
    if not root.is_dir():
        raise SceneError(f"{root}: not a folder")
    if _SCENE_DIR_RE.match(root.name) and (root / f"scene{int(_SCENE_DIR_RE.match(root.name).group(1))}.json").exists():
        return [root]
    found = [p for p in root.iterdir() if p.is_dir() and _SCENE_DIR_RE.match(p.name)]
    return sorted(found, key=lambda p: int(_SCENE_DIR_RE.match(p.name).group(1)))


def load_scenes(root: str | Path) -> list[Scene]:
    scenes = [load_scene(p) for p in scene_folders(root)]
    if not scenes:
        raise SceneError(f"{root}: no Scene<N> folders")
    return scenes
