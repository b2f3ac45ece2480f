"""Builders of capability evaluation points and task-pack drafts (used by the task templates)."""

from __future__ import annotations

import random
import re

from interactiveworld.bench.clutter import add_clutter
from interactiveworld.bench.taskpack import TaskPack
from interactiveworld.world.layout import ApartmentSpec, generate_apartment
from interactiveworld.world.objects import ObjectSpec
from interactiveworld.world.predicates import Predicate
from interactiveworld.world.scene import SceneSpec

PALETTE = ("red", "blue", "green", "yellow", "orange", "purple", "black", "white")


def said(cap: str, verb: str, target: str = "", dest: str = "") -> dict:
    """Passes when the assistant's first command of this kind names exactly this target (and destination)."""
    return {"cap": cap, "check": "said", "verb": verb, "target": target, "dest": dest}


def said_by(cap: str, turn: int, verb: str, target: str = "", dest: str = "") -> dict:
    """Passes when the assistant gave this exact command at or before `turn` (intervention timing)."""
    return {"cap": cap, "check": "said_by", "turn": turn, "verb": verb, "target": target, "dest": dest}


def quiet(turn: int) -> dict:
    """Passes when the assistant did not speak at `turn` (the human's own step was correct)."""
    return {"cap": "intervention_correctness", "check": "quiet", "turn": turn}


def common_points(n_goals: int) -> list[dict]:
    return [{"cap": "communication", "check": "executable"}, {"cap": "planning", "check": "ordered"}] + [
        {"cap": "task_completion", "check": "goal", "index": i} for i in range(n_goals)
    ]


def rng_for(key: str) -> random.Random:
    return random.Random(f"interactiveworld-tasks:{key}")


def colors(rng: random.Random, n: int, exclude: tuple[str, ...] = ()) -> list[str]:
    return rng.sample([c for c in PALETTE if c not in exclude], n)


def fx(ap: ApartmentSpec, kind: str, room: str | None = None) -> str:
    """Canonical name of the fixture of this kind (in this room)."""
    found = ap.fixtures_of(kind, room)
    if not found:
        raise KeyError(f"layout {ap.layout}: no {kind} in {room or 'any room'}")
    return found[0].name


def apartment(layout: str, seed: int) -> ApartmentSpec:
    return generate_apartment(layout, seed)


def o(name: str, category: str, color: str, support: str, slot: int = 0, text: str = "", under: str = "") -> ObjectSpec:
    return ObjectSpec(name, category, color, support, slot, text, under)


RECEPTACLE_WORDS = ("fridge", "cabinet", "drawer", "wardrobe", "sink", "pot", "box")


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"\bthe {re.escape(name.replace('_', ' '))}\b", text, re.I) is not None


def with_places(turns: list[str | None], objects: list[ObjectSpec], known: tuple[str, ...]) -> list[str | None]:
    """Reference help says where an object is the first time it names one the human has not handled itself
    ("The milk is on the counter."): the human knows only what it has seen or been told."""
    told = set()
    out: list[str | None] = []
    for turn in turns:
        if turn is None:
            out.append(None)
            continue
        lead = []
        for ob in objects:
            if ob.name in told or any(_mentions(k, ob.name) for k in known) or not _mentions(turn, ob.name):
                continue
            told.add(ob.name)
            prep = "in" if any(w in ob.support for w in RECEPTACLE_WORDS) else "on"
            lead.append(f"The {ob.name.replace('_', ' ')} is {prep} the {ob.support.replace('_', ' ')}.")
        out.append(" ".join(lead + [turn]))
    return out


def draft(
    family: str,
    tid: str,
    title: str,
    layout: str,
    seed: int,
    objects: list[ObjectSpec],
    goals: list[tuple],
    oracle: list[str | None],
    wrong: list[str | None],
    handoff: str,
    points: list[dict],
    *,
    opening: tuple[str, ...] = (),
    private_plan: tuple[str, ...] = (),
    deadlines: tuple[int, ...] = (),
    blind: bool = False,
    human_room: str = "",
    doors_open: bool | None = None,
    places: list[ObjectSpec] | None = None,
    **scene_kw,
) -> TaskPack:
    """places: the objects where help says they are (a late object where it arrives); default `objects`."""
    gl = tuple(Predicate(k, tuple(a)) for k, *a in goals)
    oracle = with_places(oracle, places or objects, opening + private_plan)
    wrong = with_places(wrong, places or objects, opening + private_plan)
    scene = SceneSpec(layout, seed, tuple(objects), human_room=human_room, doors_open=doors_open, **scene_kw)
    texts = [
        handoff,
        *(t for t in oracle + wrong if t),
        *opening,
        *private_plan,
        *(" ".join(a) for _, *a in goals),
        *scene.open_fixtures,
        *scene.powered,
        *(e.dest for e in scene.events),
    ]
    scene = add_clutter(tid, scene, texts)
    first_speech = next(i for i, t in enumerate(oracle) if t is not None)
    static_turn = deadlines[0] if deadlines else first_speech
    max_turns = max(len(oracle), len(wrong), len(private_plan)) + 4
    return TaskPack(
        task_id=tid,
        family=family,
        title=title,
        scene=scene,
        handoff=handoff,
        goals=gl,
        oracle=tuple(oracle),
        wrong=tuple(wrong),
        opening=opening,
        private_plan=private_plan,
        deadlines=deadlines,
        blind=blind,
        max_turns=max_turns,
        points=tuple(points + common_points(len(gl))),
        static_question="What should the human do next? Answer with the exact instructions you would give now.",
        static_turn=static_turn,
    )
