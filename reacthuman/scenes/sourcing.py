"""Objects outside the library, sourced offline from the installed furniture catalogues.

The paper fetches an object its library lacks from a 3D asset store; here the store is the installed
`sweethome3d-furniture` catalogues (furniture.py reads them). When a description's object noun names no
library object (nor one through a synonym), `resolve_object` looks the noun up among the catalogue models
by name, then by category, keeps models of a hazard object's size, and builds an object entry:

- size: the model's real catalogue size; the collision proxy is a primitive of that size (a cylinder when
  the model is round in plan, width and depth within ROUND_TOLERANCE, else a box), so physics stays fast
  and exact; the model's mesh is drawn over it (a VisualMeshSpec on the body, as for library objects);
- material: a material word in the description's noun phrase, else in the model's name, else the noun's
  usual material, else the default (config/materials.yaml);
- mass: density x min(proxy volume, proxy surface x the material's wall thickness) (hollow or solid);
- hazard flags: shattering from the material, sharp from a sharp word in the phrase or the model's name, hot
  from a hot word in the description, heavy from the mass (the library's rule). Never a per-object answer.

The spec records the whole entry (`SceneSpec.sourced_object`, with `sourced: <package>/<archive>/<member>`),
so `spec.json` alone labels and validates the scene: the record travels with the selection and the spec, and
`catalog.get_object(object_id, record)` / `catalog.spec_object(spec)` read the object from it. Nothing here keeps
state between calls.
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from reacthuman.scenes.catalog import OBJECTS, physical_extent_m, sourced_entry
from reacthuman.scenes.families import get_family
from reacthuman.scenes.furniture import PACKAGE, FurnitureError, FurnitureModel, catalogue
from reacthuman.scenes.material_table import MaterialTable, load_material_table
from reacthuman.scenes.phrases import FAMILY_PHRASES, HINT_PHRASES, ROOM_PHRASES, match_object
from reacthuman.scenes.spec import SceneSpec, SourcedObjectSpec, VisualMeshSpec


class _Choice(Protocol):
    """Stage 1's selection as sourcing reads it (randomize.Selection)."""

    family: str
    object_id: str | None


Choice = TypeVar("Choice", bound=_Choice)

PREFIX = "sourced_"
ROUND_TOLERANCE = 0.05  # width and depth within 5 %: the model is round in plan (pans, pots, vases)


class SourcingError(ValueError):
    """The description's object can be found neither in the library nor in the catalogues (one line)."""


@dataclass(frozen=True)
class NounPhrase:
    words: tuple[str, ...]  # as written, e.g. ("cast", "iron", "skillet")
    head: str  # the noun, e.g. "skillet"


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("-", " "))


def _singular(word: str) -> str:
    for suffix, repl in (("ves", "fe"), ("ies", "y"), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + repl
    return word


def _word_forms(text: str) -> set[str]:
    """The words of a text as written and in the singular ("Knives" -> knives, knife)."""
    words = _tokens(text)
    return set(words) | {_singular(w) for w in words}


def _known_words(table: MaterialTable) -> tuple[frozenset[str], frozenset[str]]:
    """Words that end a noun phrase (the planner's family, room and hint phrases, the table's ignore list),
    and words of the library's names, which may stand in one ("toy trains") but are never its noun."""
    phrases = [p for d in FAMILY_PHRASES.values() for p in d] + [p for ps in ROOM_PHRASES.values() for p in ps]
    phrases += [p for h in HINT_PHRASES.values() for ps in h.values() for p in ps] + list(table.ignore_words)
    ends = frozenset(w for p in phrases for w in _tokens(p))
    return ends, frozenset(w for o in OBJECTS.values() for w in _tokens(o.name)) - ends


def noun_phrase(description: str, table: MaterialTable | None = None) -> NounPhrase | None:
    """The first run of object words (unknown words; material, hot and library words) holding an unknown
    word; its last unknown word is the noun. None: the description names no object outside the planner's words."""
    table = table or load_material_table()
    ends, library = _known_words(table)
    modifiers = {w for phrase in table.material_words for w in _tokens(phrase)} | set(table.hot_words) | library
    run: list[str] = []
    for tok in _tokens(description) + [""]:
        content = tok and tok not in ends and tok not in modifiers and not tok.endswith("ly") and not tok.isdigit()
        if tok in modifiers or content:
            run.append(tok)
            continue
        heads = [w for w in run if w not in modifiers]
        if heads:
            return NounPhrase(tuple(run), heads[-1])
        run = []
    return None


def _material(phrase: NounPhrase, model: FurnitureModel, table: MaterialTable) -> str:
    for text in (" ".join(phrase.words), " ".join(_tokens(model.name))):
        for word in sorted(table.material_words, key=len, reverse=True):  # "cast iron" before "iron"
            if re.search(r"(?<![a-z])" + re.escape(word) + r"(?![a-z])", text):
                return table.material_words[word]
    usual = table.noun_materials
    return usual.get(phrase.head) or usual.get(_singular(phrase.head)) or table.default_material


def _proxy(size_m: tuple[float, float, float]) -> tuple[str, tuple[float, ...]]:
    w, d, h = size_m
    if abs(w - d) <= ROUND_TOLERANCE * max(w, d):
        return "cylinder", (round(max(w, d) / 2, 4), round(h / 2, 4))
    return "box", (round(w / 2, 4), round(d / 2, 4), round(h / 2, 4))


def estimated_mass_kg(shape: str, size: tuple[float, ...], material: str, table: MaterialTable) -> float:
    """density x min(volume, surface x wall thickness) of the proxy primitive."""
    if shape == "cylinder":
        r, hh = size
        volume, surface = math.pi * r * r * 2 * hh, 2 * math.pi * r * r + 2 * math.pi * r * 2 * hh
    else:
        a, b, c = size
        volume, surface = 8 * a * b * c, 8 * (a * b + a * c + b * c)
    m = table.materials[material]
    return max(round(m.density_kg_m3 * min(volume, surface * m.wall_thickness_m), 3), 0.001)


def _size_m(model: FurnitureModel) -> tuple[float, float, float]:
    return tuple(round(v / 100.0, 6) for v in model.size_cm)  # type: ignore[return-value]


def find_model(head: str, table: MaterialTable | None = None) -> FurnitureModel:
    """The installed catalogue model for a noun: name words first, then category words; a hazard object's
    size; the exact name, then the shortest, then the key, so the choice is stable. SourcingError if none."""
    table = table or load_material_table()
    try:
        models = [m for m in catalogue().values() if m.category not in table.excluded_categories]
    except FurnitureError as exc:
        raise SourcingError(f"cannot source {head!r}: {exc}") from None
    nouns = {head, _singular(head)}
    for field in ("name", "category"):
        hits = [m for m in models if nouns & _word_forms(getattr(m, field))]
        if hits:
            break
    if not hits:
        raise SourcingError(f"no object called {head!r} in the library or in the installed catalogues ({PACKAGE})")
    fits = [m for m in hits if table.min_extent_m <= max(_size_m(m)) <= table.max_extent_m]
    if not fits:
        m = min(hits, key=lambda m: (len(m.name), m.key))
        raise SourcingError(
            f"{head!r}: the catalogues' {m.name!r} measures {max(_size_m(m)):.2f} m, outside the "
            f"{table.min_extent_m}-{table.max_extent_m} m a hazard object may measure"
        )
    return min(fits, key=lambda m: (_singular(m.name.lower()) != _singular(head), len(m.name), m.key))


def source_object(phrase: NounPhrase, description: str, table: MaterialTable | None = None) -> SourcedObjectSpec:
    """The record of a catalogue object for the noun phrase (the spec that uses it carries it)."""
    table = table or load_material_table()
    model = find_model(phrase.head, table)
    material = _material(phrase, model, table)
    shape, size = _proxy(_size_m(model))
    name_words = set(phrase.words) | set(_tokens(model.name))
    text_words = set(_tokens(description))
    hot = bool(text_words & set(table.hot_words))
    words = list(phrase.words) if not hot or set(phrase.words) & set(table.hot_words) else ["hot", *phrase.words]
    record = SourcedObjectSpec(
        object_id=PREFIX + "_".join(words),
        name=" ".join(words),
        noun=phrase.head,
        shape=shape,
        size=size,
        mass_kg=estimated_mass_kg(shape, size, material, table),
        material=material,
        sourced=f"{PACKAGE}/{model.archive}/{model.member}",
        catalog_id=model.catalog_id,
        graspable=max(_size_m(model)) <= table.graspable_max_extent_m,
        sharp=bool({_singular(w) for w in name_words} & {_singular(w) for w in table.sharp_words}),
        hot=hot,
        shattering=table.materials[material].shattering,
    )
    return record


def _model_of(record: SourcedObjectSpec) -> FurnitureModel:
    for m in catalogue().values():
        if f"{PACKAGE}/{m.archive}/{m.member}" == record.sourced and m.catalog_id == record.catalog_id:
            return m
    raise SourcingError(f"{record.sourced} is not in the installed catalogues")


def visual_for_sourced(record: SourcedObjectSpec) -> VisualMeshSpec:
    """The model drawn over the proxy: real size, no turn, scaled by the median ratio (1 for a fitted box)."""
    model = _model_of(record)
    size_m = _size_m(model)
    physical = physical_extent_m(sourced_entry(record))
    scale = statistics.median(physical[i] / size_m[i] for i in range(3))
    return VisualMeshSpec(
        package=PACKAGE,
        archive=model.archive,
        member=model.member,
        catalog_id=model.catalog_id,
        name=model.name,
        licence=model.licence,
        creator=model.creator,
        size_m=size_m,
        model_rotation=model.model_rotation,
        scale=round(scale, 6),
    )


def dress(spec: SceneSpec, record: SourcedObjectSpec) -> SceneSpec:
    """A freshly sampled spec of a sourced object: records the object and draws its mesh on its bodies."""
    visual = visual_for_sourced(record)
    bodies = tuple(replace(b, visual=visual) if b.object_id == record.object_id else b for b in spec.bodies)
    return replace(spec, bodies=bodies, sourced_object=record)


def resolve_object(selection: Choice, description: str, table: MaterialTable | None = None) -> Choice:
    """Stage 1's object when the description's noun names none in the library: the library object a synonym
    names (in the selection's family), else one sourced from the catalogues. Otherwise the selection as is."""
    table = table or load_material_table()
    phrase = noun_phrase(description, table)
    text = " ".join(_tokens(description))
    if phrase is None or match_object(text, tuple(OBJECTS)):
        return selection
    for noun in (phrase.head, _singular(phrase.head)):
        if noun in table.synonyms:
            renamed = re.sub(r"(?<![a-z])" + re.escape(phrase.head) + r"(?![a-z])", table.synonyms[noun], text)
            oid = match_object(renamed, get_family(selection.family).objects)
            return replace(selection, object_id=oid) if oid else selection
    if selection.family not in table.sourcing_families:
        raise SourcingError(
            f"{phrase.head!r} is not in the library, and {selection.family} scenes take only their "
            f"own objects (sourced objects go into: {', '.join(table.sourcing_families)})"
        )
    record = source_object(phrase, description, table)
    return replace(selection, object_id=record.object_id, sourced=record)
