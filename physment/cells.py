"""Each scene's taxonomy cell (problem type, Single/Multi, Easy/Hard, standard/Creation/Hidden, or Scene
Manipulation): from its metadata when it says, else inferred from its content, and a user map file overrides
both. The authors' published scenes get the authors' own cells by default (by scene number, as their code
assigns them; `category_source: authors`, their cell name in `authors_category`). Every scene records where
its cell came from (`category_source`: metadata | authors | inferred | map) and, when inferred, the evidence for each axis, so a heatmap over the authors' published scenes never silently mixes
declared and guessed cells.

Inference rules (the paper's construction rules, sec. 3.3, read off the files):
- Hidden: the MJCF holds an `object_N` body the object list omits (a body of ground planes only does not
  count), or a permission entry says hidden.
- Creation: the task asks to create/add/introduce a new body.
- Scene Manipulation: the task asks to move, reposition, attach, delete or remove a body.
- Multi: the task names at least two of the concept groups below.
- Hard: a reference solution with more than 3 interventions, else an answer with at least 3 parts, or a task
  that asks for an adaptive loop (a threshold, a critical or smallest value, a period, a first touch, a static
  friction coefficient, a repeat).
- Problem type: metadata, else the answer's form (list: computation; object id asked by `which`:
  comparison; words: observation; number: calculation)."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import yaml

from physment.scene import PROBLEM_TYPES, Scene, SceneError
from physment.scoring import as_list, as_number

DIFFICULTIES = ("Easy", "Hard")
CONCEPTS = ("Single", "Multi")
MODALITY_SUFFIX = {"standard": "", "object_creation": " + Creation", "hidden_objects": " + Hidden"}
SCENE_MANIPULATION = "Scene Manipulation"
# the paper's 13 cells, in its table order
CATEGORIES: tuple[str, ...] = tuple(
    f"{d} {c}{MODALITY_SUFFIX[m]}"
    for m in ("standard", "object_creation", "hidden_objects")
    for d in DIFFICULTIES
    for c in CONCEPTS
) + (SCENE_MANIPULATION,)
EASY_MAX_INTERVENTIONS = 3

# read from the task alone (reasoning texts name the means, e.g. a force to push with, not the concept asked);
# a plain "force" is the usual experimental means, so it does not count as Newton's laws
CONCEPT_WORDS: dict[str, tuple[str, ...]] = {
    "kinematics": (
        "projectile",
        "launch",
        "how far",
        "distance",
        "at what time",
        "how long",
        "acceleration",
        "trajectory",
        "range",
    ),
    "newton": ("newton", "net force", "tension", "normal force", "mass", "heavier", "lighter"),
    "rotation": ("torque", "angular", "rotat", "inertia", "spin", "roll"),
    "energy": ("energy", "work done", "potential", "kinetic", "power"),
    "momentum": ("momentum", "collision", "collide", "impulse", "elastic"),
    "oscillation": ("period", "oscillat", "pendulum", "spring", "frequency", "amplitude"),
    "friction": ("friction", "slide", "sliding", "slip", "rough"),
}
_CREATION_RE = re.compile(
    r"\b(creat\w*|add (?:a|an|another|one|two)\b|introduc\w*|spawn\w*|new (?:object|body|ball|"
    r"block|sphere|box|mass|cube))",
    re.IGNORECASE,
)
_MANIPULATION_RE = re.compile(
    r"\b(move (?:the |object|it)|reposition\w*|teleport\w*|attach\w*|delete\w*|"
    r"remove (?:the|object)|change (?:the )?position|relocat\w*|raise (?:the|it)|"
    r"lift (?:the|it))",
    re.IGNORECASE,
)
_ADAPTIVE_RE = re.compile(
    r"\b(threshold|critical|minimum|maximum|smallest|largest|least|until|repeat\w*|"
    r"binary search|again|iterat\w*|onset|begins? to|at what time|how many seconds|"
    r"first (?:touch|hit|reach)\w*|period|what constant|static friction)\b",
    re.IGNORECASE,
)
_WHICH_RE = re.compile(r"\b(which|identify|determine whether|compare)\b", re.IGNORECASE)
_OBJECT_BODY_RE = re.compile(r"^object_(\d+)$")


@dataclasses.dataclass(frozen=True)
class Cell:
    problem_type: str
    difficulty: str
    concepts: str
    modality: str  # standard | object_creation | hidden_objects | scene_manipulation

    def __post_init__(self) -> None:
        if self.problem_type not in PROBLEM_TYPES:
            raise ValueError(f"problem_type must be one of {PROBLEM_TYPES}, got {self.problem_type!r}")
        if self.difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {DIFFICULTIES}, got {self.difficulty!r}")
        if self.concepts not in CONCEPTS:
            raise ValueError(f"concepts must be one of {CONCEPTS}, got {self.concepts!r}")
        if self.modality not in (*MODALITY_SUFFIX, "scene_manipulation"):
            raise ValueError(
                f"modality must be one of {(*MODALITY_SUFFIX, 'scene_manipulation')}, got {self.modality!r}"
            )

    @property
    def category(self) -> str:
        if self.modality == "scene_manipulation":
            return SCENE_MANIPULATION
        return f"{self.difficulty} {self.concepts}{MODALITY_SUFFIX[self.modality]}"


def parse_category(category: str) -> tuple[str, str, str]:
    """'Hard Multi + Creation' -> (Hard, Multi, object_creation); raises ValueError naming the choices."""
    text = " ".join(str(category).split())
    if text.lower() == SCENE_MANIPULATION.lower():
        return "Easy", "Single", "scene_manipulation"
    for cat in CATEGORIES[:-1]:
        if cat.lower() == text.lower():
            d, c = cat.split(" + ")[0].split()
            suffix = cat[len(f"{d} {c}") :]
            return d, c, next(m for m, s in MODALITY_SUFFIX.items() if s == suffix)
    raise ValueError(f"category {category!r} is not one of: {', '.join(CATEGORIES)}")


def _xml_object_ids(xml_text: str) -> set[str]:
    """Ids of the `object_N` bodies that could matter to a task: a body holding only ground planes (which the
    published scenes often leave out of the object list) is not a hidden object."""
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError:
        return set()
    out = set()
    for b in root.iter("body"):
        m = _OBJECT_BODY_RE.match(b.get("name", ""))
        geoms = b.findall("geom")
        if m and not (geoms and all(g.get("type") == "plane" for g in geoms) and b.find("joint") is None):
            out.add(str(int(m.group(1))))
    return out


def infer_problem_type(scene: Scene, declared: bool) -> str:
    if declared:
        return scene.problem_type
    parts = as_list(scene.answer)
    if parts is not None:
        return "computation"
    number = as_number(scene.answer)
    if number is None:
        return "observation"
    if float(number).is_integer() and _WHICH_RE.search(scene.task):
        return "comparison"
    return "calculation"


def infer_cell(scene: Scene, declared_problem_type: bool = True) -> tuple[Cell, dict[str, str]]:
    """The scene's cell from its content, and the evidence behind each axis."""
    why: dict[str, str] = {}
    listed = {o.object_id for o in scene.objects}
    unlisted = sorted(_xml_object_ids(scene.xml_text) - listed, key=int)
    flagged = sorted(o.object_id for o in scene.objects if o.hidden)
    if unlisted or flagged:
        modality = "hidden_objects"
        why["modality"] = (
            f"MJCF bodies not in the object list: {unlisted}" if unlisted else f"objects marked hidden: {flagged}"
        )
    elif m := _CREATION_RE.search(scene.task):
        modality, why["modality"] = "object_creation", f"task says {m.group(0)!r}"
    elif m := _MANIPULATION_RE.search(scene.task):
        modality, why["modality"] = "scene_manipulation", f"task says {m.group(0)!r}"
    else:
        modality, why["modality"] = "standard", "no hidden body, no creation or manipulation asked"
    text = scene.task.lower()
    groups = sorted(g for g, words in CONCEPT_WORDS.items() if any(w in text for w in words))
    parts = as_list(scene.answer)
    concepts = "Multi" if len(groups) >= 2 else "Single"
    why["concepts"] = f"concept groups named in the task: {groups or ['none']}" + (
        f"; answer has {len(parts)} parts" if parts is not None else ""
    )
    ref = scene.extra.get("reference_solution")
    if isinstance(ref, dict) and isinstance(ref.get("interventions"), int):
        difficulty = "Hard" if ref["interventions"] > EASY_MAX_INTERVENTIONS else "Easy"
        why["difficulty"] = f"reference solution has {ref['interventions']} interventions"
    elif parts is not None and len(parts) >= 3:
        difficulty, why["difficulty"] = "Hard", f"answer has {len(parts)} parts"
    elif m := _ADAPTIVE_RE.search(scene.task):
        difficulty, why["difficulty"] = "Hard", f"task asks for an adaptive loop ({m.group(0)!r})"
    else:
        difficulty, why["difficulty"] = "Easy", "a short fixed measurement sequence suffices"
    problem_type = infer_problem_type(scene, declared_problem_type)
    why["problem_type"] = "metadata" if declared_problem_type else f"from the answer's form ({scene.answer!r})"
    return Cell(problem_type, difficulty, concepts, modality), why


def declared_cell(scene: Scene) -> Cell | None:
    """The cell the metadata states (a `category`, or all three axes), else None."""
    ex = scene.extra
    try:
        if ex.get("category") and str(ex["category"]).lower() != "uncategorised":
            d, c, m = parse_category(str(ex["category"]))
            return Cell(scene.problem_type, d, c, m)
        if ex.get("difficulty") and ex.get("concepts") and ex.get("modality"):
            return Cell(scene.problem_type, str(ex["difficulty"]), str(ex["concepts"]), str(ex["modality"]))
    except ValueError:
        return None  # an unreadable declaration is treated as missing and the cell is inferred
    return None


@dataclasses.dataclass(frozen=True)
class MapEntry:
    """One line of a cell map: the axes, and the problem type when the map gives one."""

    difficulty: str
    concepts: str
    modality: str
    problem_type: str | None = None

    def cell(self, scene: Scene) -> Cell:
        return Cell(
            self.problem_type or infer_problem_type(scene, scene.problem_type_declared),
            self.difficulty,
            self.concepts,
            self.modality,
        )


def cell_options(cell_map: str | Path | None) -> tuple[dict[int, MapEntry] | None, str]:
    """`--cell-map` as (the map of a file, the authors mode): a file path, `authors` (their ranges for every
    undeclared scene numbered in them) or `inferred` (inference for every undeclared scene)."""
    if cell_map is None:
        return None, "auto"
    if str(cell_map) in CELL_MAP_WORDS:
        return None, "always" if str(cell_map) == "authors" else "never"
    return load_cell_map(cell_map), "auto"


def load_cell_map(path: str | Path) -> dict[int, MapEntry]:
    """A user map file (YAML or JSON): scene id (14, 'Scene14') -> a category string ('Easy Single + Hidden')
    or a mapping with `category` and optionally `problem_type`. Raises SceneError naming the bad entry."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SceneError(f"{path}: cannot read the cell map ({exc})") from exc
    if not isinstance(data, dict):
        raise SceneError(f"{path}: the cell map must map scene ids to categories")
    out: dict[int, MapEntry] = {}
    for key, value in data.items():
        m = re.match(r"^(?:scene\s*)?(\d+)$", str(key).strip(), re.IGNORECASE)
        if not m:
            raise SceneError(f"{path}: key {key!r} is not a scene id (14 or Scene14)")
        entry = value if isinstance(value, dict) else {"category": value}
        try:
            d, c, mod = parse_category(str(entry.get("category", "")))
            pt = str(entry["problem_type"]).strip().lower() if entry.get("problem_type") else None
            if pt is not None and pt not in PROBLEM_TYPES:
                raise ValueError(f"problem_type must be one of {PROBLEM_TYPES}, got {pt!r}")
            out[int(m.group(1))] = MapEntry(d, c, mod, pt)
        except ValueError as exc:
            raise SceneError(f"{path}: Scene{m.group(1)}: {exc}") from exc
    return out


AUTHORS_CELLS_FILE = Path(__file__).resolve().parent / "authors" / "cells.yaml"
# `--cell-map` words besides a file: the authors' ranges for every undeclared scene, or inference for all
CELL_MAP_WORDS = ("authors", "inferred")


@dataclasses.dataclass(frozen=True)
class AuthorsRange:
    """One of the authors' cells: scene numbers first..last, their name for it, and our 13-cell equivalent."""

    first: int
    last: int
    name: str
    category: str


@functools.lru_cache(maxsize=1)
def authors_cells() -> tuple[tuple[AuthorsRange, ...], dict[int, str]]:
    """(the authors' cell ranges, their published scenes' name fingerprints) from physment/authors/cells.yaml."""
    data = yaml.safe_load(AUTHORS_CELLS_FILE.read_text(encoding="utf-8"))
    ranges = tuple(
        AuthorsRange(int(r["first"]), int(r["last"]), str(r["name"]), str(r["category"])) for r in data["ranges"]
    )
    for r in ranges:
        parse_category(r.category)  # a typo in the shipped file fails loudly here
    return ranges, {int(k): str(v) for k, v in data["scenes"].items()}


def authors_range(number: int) -> AuthorsRange | None:
    """The authors' cell of a scene number (their Data.py ranges), None outside them."""
    return next((r for r in authors_cells()[0] if r.first <= number <= r.last), None)


def name_fingerprint(scene_name: str) -> str:
    return hashlib.sha256(" ".join(str(scene_name).split()).lower().encode("utf-8")).hexdigest()[:10]


def is_authors_scene(scene: Scene) -> bool:
    """One of the authors' published scenes: its number and scene name match their published set."""
    return authors_cells()[1].get(scene.number) == name_fingerprint(scene.name)


def assign_cells(
    scenes: list[Scene], cell_map: dict[int, MapEntry] | None = None, authors: str = "auto"
) -> list[Scene]:
    """Set each scene's category, problem type and `category_source` (map > metadata > authors > inferred).

    `authors`: "auto" gives the authors' published scenes their own cells (by number, as their code does),
    "always" gives every undeclared scene in their ranges those cells, "never" infers instead."""
    if authors not in ("auto", "always", "never"):
        raise ValueError(f"authors must be auto, always or never, got {authors!r}")
    for scene in scenes:
        entry = (cell_map or {}).get(scene.number)
        theirs = authors_range(scene.number) if authors != "never" else None
        if theirs is not None and authors == "auto" and not is_authors_scene(scene):
            theirs = None
        if theirs is not None:
            scene.extra["authors_category"] = theirs.name
        if entry is not None:
            cell, source, why = entry.cell(scene), "map", {}
        elif (cell := declared_cell(scene)) is not None:
            source, why = "metadata", {}
        elif theirs is not None:
            d, c, m = parse_category(theirs.category)
            cell = Cell(infer_problem_type(scene, scene.problem_type_declared), d, c, m)
            source, why = "authors", {}
        else:
            cell, why = infer_cell(scene, scene.problem_type_declared)
            source = "inferred"
        scene.problem_type = cell.problem_type
        scene.extra["category_source"] = source
        if source != "metadata":  # declared axes stay as written (Scene Manipulation keeps its Easy/Hard)
            scene.extra.update(
                category=cell.category, difficulty=cell.difficulty, concepts=cell.concepts, modality=cell.modality
            )
        if why:
            scene.extra["category_evidence"] = why
    return scenes
