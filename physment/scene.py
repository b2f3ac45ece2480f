"""Scene folders in the paper's format: Scene{N}/scene{N}.json (metadata) beside scene{N}.xml (MJCF).

Tolerated variants (seen in scenes written by hand): permission keys with or without the `object_N_`
prefix or `_permissions` suffix, attribute aliases (`body_mass`/`mass`, `geom_type`/`type`, ...), the
object registry as a dict or a list, ids and counts as strings or ints, answers as strings, ints, floats or
lists. Fields this project adds (category axes, reference solution, tolerance) are optional."""

from __future__ import annotations

import ast
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
ALIAS_TO_ATTR = {alias: attr for attr, aliases in ATTRIBUTE_ALIASES.items() for alias in aliases}
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
    raw_permissions: dict = dataclasses.field(default_factory=dict)  # as written (for `physment check`)

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
    problem_type_declared: bool = True  # False: the metadata names none (physment.cells infers it)
    # the metadata as written (string-encoded fields parsed): what the authors' prompt is built from
    source: dict = dataclasses.field(default_factory=dict, repr=False)

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


def _permissions_for(perms: dict, key: str, oid: str, path: Path | str) -> dict:
    for candidate in (f"{key}_permissions", key, f"object_{oid}_permissions", f"object_{oid}", oid):
        value = literal_field(perms.get(candidate), f"object_permissions.{candidate}", path)
        if isinstance(value, dict):
            return value
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
        elif k in ALIAS_TO_ATTR:
            out[ALIAS_TO_ATTR[k]] = out.get(ALIAS_TO_ATTR[k], False) or bool(value)
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
    except UnicodeDecodeError as exc:
        raise SceneError(f"{json_path}: not UTF-8 text ({exc.reason})") from exc
    return parse_scene(meta, xml_path.read_text(encoding="utf-8", errors="replace"), number, folder, json_path)


def literal_field(value: object, field: str, path: Path | str) -> object:
    """A field that the published scenes sometimes store as a string holding a JSON or Python literal
    (`"{'scene_name': ...}"`): parsed with json, else ast.literal_eval (a literal parser, never eval)."""
    if not isinstance(value, str) or not value.strip().startswith(("{", "[")):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        pass
    try:
        return ast.literal_eval(value.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise SceneError(
            f"{path}: field '{field}' is a string that is neither JSON nor a Python literal "
            f"({type(exc).__name__}: {exc})"
        ) from exc


def parse_scene(meta: dict, xml_text: str, number: int, folder: Path, json_path: Path | str = "<scene>") -> Scene:
    """A Scene from its metadata dict and MJCF text (what load_scene reads from the two files)."""
    if not isinstance(meta, dict):
        raise SceneError(f"{json_path}: top level must be an object")
    meta = dict(meta)
    for field in ("metadata", "objects", "object_permissions"):
        if field in meta:
            meta[field] = literal_field(meta[field], field, json_path)
    md = meta.get("metadata") or {}
    if not isinstance(md, dict):
        raise SceneError(f"{json_path}: field 'metadata' must be an object, got {type(md).__name__}")
    if "answer" not in meta:
        raise SceneError(f"{json_path}: missing field 'answer'")
    task = md.get("task") or meta.get("task")
    if not task:
        raise SceneError(f"{json_path}: missing field 'metadata.task'")
    problem_type = str(md.get("problem_type", meta.get("problem_type", "calculation"))).strip().lower()
    declared_type = bool(md.get("problem_type") or meta.get("problem_type")) and problem_type in PROBLEM_TYPES
    perms = meta.get("object_permissions") or {}
    if not isinstance(perms, dict):
        raise SceneError(f"{json_path}: field 'object_permissions' must be an object, got {type(perms).__name__}")
    objects = []
    for key, oid, name in _registry(meta, json_path):
        raw = _permissions_for(perms, key, oid, json_path)
        canon, hidden = _canonical_permissions(raw)
        objects.append(SceneObject(oid, name, canon, hidden, dict(raw)))
    known = {
        "metadata",
        "answer",
        "expected_behavior",
        "reasoning",
        "number_of_objects",
        "objects",
        "object_permissions",
    }
    extra = {k: v for k, v in meta.items() if k not in known}
    extra.update({k: v for k, v in md.items() if k not in ("scene_name", "task", "problem_type", "description")})
    return Scene(
        number=number,
        folder=folder,
        name=str(md.get("scene_name", folder.name)),
        task=str(task),
        problem_type=problem_type,
        description=str(md.get("description", "")),
        answer=meta["answer"],
        expected_behavior=str(meta.get("expected_behavior", "")),
        reasoning=str(meta.get("reasoning", "")),
        objects=objects,
        xml_text=xml_text,
        extra=extra,
        problem_type_declared=declared_type,
        source=meta,
    )


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


def problem_line(folder: Path, message: object) -> str:
    """'Scene<N>: <reason>' on one line, paths inside the folder shortened to the file name."""
    text = " ".join(str(message).replace(f"{folder}/", "").replace(str(folder), folder.name).split())
    return f"{folder.name}: {text}"


def load_scenes_lenient(root: str | Path) -> tuple[list[Scene], list[str]]:
    """(scenes that load, one line per folder that does not: 'Scene<N>: <the parser's reason>').
    A broken scene in a published set is reported and skipped; it never stops the others."""
    scenes, problems = [], []
    for folder in scene_folders(root):
        try:
            scenes.append(load_scene(folder))
        except SceneError as exc:
            problems.append(problem_line(folder, exc))
    if not scenes and not problems:
        raise SceneError(f"{root}: no Scene<N> folders")
    return scenes, problems
