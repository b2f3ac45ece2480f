"""InteractiveBench's task templates: the rows are data (`templates.yaml`, checked against
`templates.schema.json`), built by `bench.template`. What a pattern cannot say (draws beyond colours, rooms chosen
by the layout) is a `derive` function here, named by a row and registered in `DERIVE`."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

import jsonschema
import yaml

from interactiveworld.bench.points import colors
from interactiveworld.bench.taskpack import FAMILIES
from interactiveworld.bench.template import Obj, Template, Variant
from interactiveworld.world.scene import SpillSpec

HERE = Path(__file__).resolve().parent
TEMPLATES_YAML = HERE / "templates.yaml"
SCHEMA_JSON = HERE / "templates.schema.json"


# --- what a pattern cannot say: draws beyond colours, and rooms chosen by the layout ---------------------
def _either_way(t: Variant, first: str, second: str) -> tuple[str, str]:
    return (first, second) if t.rng.random() < 0.5 else (second, first)


def _table_or_counter(t: Variant) -> Mapping[str, object]:
    """Two things on the kitchen table and counter, which on which only the assistant can see."""
    first, second = _either_way(t, t.names["kitchen_table"], t.names["counter"])
    return {"first": first, "second": second}


def _burners(t: Variant) -> Mapping[str, object]:
    """Which burner cooks the egg and which is left on by mistake; the pot stands on the cooking one."""
    cooking, stray = _either_way(t, "left_burner", "right_burner")
    return {"cooking": cooking, "stray": stray, "pot_slot": 0 if cooking == "left_burner" else 1}


def _surfaces(t: Variant, kinds: tuple[str, ...]) -> list[str]:
    found = [f.name for f in t.ap.fixtures if f.kind in kinds]
    t.rng.shuffle(found)
    return found


def _numbered(prefix: str, values: list[str]) -> dict[str, str]:
    return {f"{prefix}{i}": x for i, x in enumerate(values)}


def _route(t: Variant) -> Mapping[str, object]:
    """Three objects from three surfaces to three others, anywhere in the home."""
    surfaces = _surfaces(t, ("table", "desk", "shelf", "counter", "bed"))
    cats = t.rng.sample(["book", "remote", "phone", "wallet", "glasses", "keys"], 3)
    return {
        **_numbered("s", surfaces[:3]),
        **_numbered("e", surfaces[3:6]),
        **_numbered("cat", cats),
        **_numbered("c", colors(t.rng, 3)),
        "room": t.ap.rooms[t.v % len(t.ap.rooms)].name,
    }


def _phone(t: Variant) -> Mapping[str, object]:
    start, hide, dest = _surfaces(t, ("table", "desk", "shelf", "counter"))[:3]
    return {
        "start": start,
        "hide": hide,
        "dest": dest,
        "first_room": t.ap.rooms[0].name,
        "start_room": t.ap.fixture(start).room,
    }


def _first_room_but(avoid: str, *rooms: str) -> str:
    return next(r for r in rooms if r != avoid)


def _away_from_kitchen(t: Variant) -> Mapping[str, object]:
    """Where the human goes after putting something away in the kitchen: the first other room."""
    return {"away": _first_room_but("kitchen", *(r.name for r in t.ap.rooms))}


def _last_room(t: Variant) -> Mapping[str, object]:
    """The human starts in the last room of the row, the far end of the home."""
    return {"last_room": t.ap.rooms[-1].name}


def _timer_room(t: Variant) -> Mapping[str, object]:
    """The human leaves the egg for the far end of the home (the first room where the kitchen is last)."""
    return {"away": _first_room_but("kitchen", t.ap.rooms[-1].name, t.ap.rooms[0].name)}


def _folder_room(t: Variant) -> Mapping[str, object]:
    """The human starts outside the office it is about to walk to."""
    return {"room": _first_room_but("office", t.ap.rooms[0].name, "kitchen")}


def _pot_color(t: Variant) -> Mapping[str, object]:
    return {"pot_color": t.rng.choice(["gray", "black"])}


DERIVE: dict[str, Callable[[Variant], Mapping[str, object]]] = {
    "table_or_counter": _table_or_counter,
    "burners": _burners,
    "route": _route,
    "phone": _phone,
    "away_from_kitchen": _away_from_kitchen,
    "last_room": _last_room,
    "timer_room": _timer_room,
    "folder_room": _folder_room,
    "pot_color": _pot_color,
}
SEQUENCES = ("layouts", "opening", "plan", "powered", "filled", "foods", "open_fixtures", "late")


class TemplateError(ValueError):
    pass


def _row(d: dict) -> Template:
    """One row of templates.yaml (already checked against the schema) as a Template."""
    kw = dict(d)
    kw["objects"] = [Obj(**o) for o in d["objects"]]
    kw["goals"] = [tuple(g) for g in d["goals"]]
    # a point's target and destination are "" when it names none (the said/said_by checks compare them)
    kw["points"] = [
        {**({"target": "", "dest": ""} if p["check"] in ("said", "said_by") else {}), **p} for p in d["points"]
    ]
    kw["points"] = [{k: p[k] for k in _POINT_ORDER if k in p} for p in kw["points"]]
    if "derive" in d:
        kw["derive"] = DERIVE[d["derive"]]
    for key in ("exclude", "deadlines"):
        if key in d:
            kw[key] = tuple(d[key])
    if "spills" in d:
        kw["spills"] = tuple(SpillSpec(**s) for s in d["spills"])
    if "events" in d:
        kw["events"] = [tuple(e) for e in d["events"]]
    for key in SEQUENCES:
        if key in d:
            kw[key] = tuple(d[key]) if key == "layouts" else list(d[key])
    return Template(**kw)


_POINT_ORDER = ("cap", "check", "turn", "verb", "target", "dest")


def load_templates(path: Path = TEMPLATES_YAML) -> tuple[Template, ...]:
    """The rows of a templates file, each checked against the schema (a bad row: an error naming it)."""
    rows = yaml.safe_load(Path(path).read_text())
    schema = json.loads(SCHEMA_JSON.read_text())
    schema["items"]["properties"]["derive"]["enum"] = sorted(DERIVE)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(rows), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = list(e.absolute_path)
        row = rows[where[0]] if where and isinstance(rows, list) and isinstance(rows[where[0]], dict) else {}
        name = f"{row.get('family', '?')}-{row.get('name', '?')}" if row else "the file"
        raise TemplateError(f"{path}: template {name}: {'/'.join(map(str, where[1:])) or 'row'}: {e.message}")
    out = tuple(_row(d) for d in rows)
    seen = [(t.family, t.name) for t in out]
    if len(set(seen)) != len(seen):
        raise TemplateError(f"{path}: a family's template names must be unique")
    return out


ROWS = load_templates()
TEMPLATES: dict[str, tuple[Template, ...]] = {f: tuple(t for t in ROWS if t.family == f) for f in FAMILIES}
