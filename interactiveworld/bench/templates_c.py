"""More Decision templates: a written rule, a label or the room's state decides where things go or what
to switch (see templates_a for the conventions). Each needs the assistant to read or look, then choose."""

from __future__ import annotations

from interactiveworld.bench.points import apartment, colors, draft, fx, o, rng_for, said
from interactiveworld.bench.templates_a import KITCHEN_LAYOUTS, _kitchen
from interactiveworld.names import display as d

LIVING_LAYOUTS = ("flat3", "house5", "studio", "flat3", "house5")
OFFICE_LAYOUTS = ("office3", "house5", "flat3", "office3", "house5")
ROOMY_KITCHEN_LAYOUTS = ("house5", "flat3", "office3", "house5", "flat3")
LOBBY_LAYOUTS = ("house5", "office3", "house5", "office3", "house5")


def _put(obj: str, dest: str, into: bool, opens: bool = True) -> str:
    """opens: the receptacle has a door or drawer to open first (a sink has none)."""
    if into and opens:
        return f"Open the {d(dest)}, then pick up the {d(obj)}, then put the {d(obj)} in the {d(dest)}."
    if into:
        return f"Pick up the {d(obj)}, then put the {d(obj)} in the {d(dest)}."
    return f"Pick up the {d(obj)}, then put the {d(obj)} on the {d(dest)}."


def _two_by_label(tid: str, title: str, layout: str, seed: int, category: str, labels: tuple[str, str],
                  start: str, dests: tuple[tuple[str, bool, bool], ...], note: str, handoff: str,
                  note_on: str, human_room: str):
    """Two look-alike objects told apart only by their printed labels, sent to two places by a note.
    dests: (place, into it, has a door to open first) for the first and the second label."""
    rng = rng_for(tid)
    ca, cb = colors(rng, 2)
    a, b = f"{ca}_{category}", f"{cb}_{category}"
    objs = [o(a, category, ca, start, 1, text=labels[0]), o(b, category, cb, start, 4, text=labels[1]),
            o("note", "note", "white", note_on, 0, text=note)]
    (da, ia, oa), (db, ib, ob) = dests
    oracle = [_put(a, da, ia, oa), _put(b, db, ib, ob)]
    wrong = [_put(a, db, ib, ob), _put(b, da, ia, oa)]
    goals = [("in" if ia else "on", a, da), ("in" if ib else "on", b, db)]
    verb = {True: "place_in", False: "place_on"}
    return draft("decision", tid, title, layout, seed, objs, goals, oracle, wrong, handoff,
                 [said("perception", verb[ia], a, da), said("reasoning", verb[ib], b, db)], human_room=human_room)


def decision_milk(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 440 + v
    k = _kitchen(apartment(layout, seed))
    return _two_by_label(
        f"decision-milk-{v}", "keep the fresh milk and pour away the expired one", layout, seed, "milk",
        ("fresh", "expired"), k["counter"], ((k["fridge"], True, True), (k["sink"], True, False)),
        "Fresh milk goes back in the fridge. Expired milk goes in the sink to be poured away.",
        "Two milk cartons are out on the counter. One of them is past its date - what do I do with each?",
        k["table"], "kitchen")


def decision_folder(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 450 + v
    ap = apartment(layout, seed)
    desk, cab, table = fx(ap, "desk", "office"), fx(ap, "cabinet", "office"), fx(ap, "table", "kitchen")
    return _two_by_label(
        f"decision-folder-{v}", "file an urgent and an archived folder", layout, seed, "folder",
        ("urgent", "archive"), table, ((desk, False, False), (cab, True, True)),
        "Urgent folders go on the office desk. Archive folders go in the office cabinet.",
        "I brought two folders home and left them on the kitchen table. Where does each one belong?",
        table, "kitchen")


def decision_pasta(v: int):
    layout, seed = ROOMY_KITCHEN_LAYOUTS[v], 460 + v  # two boxes on the table leave a studio too full for clutter
    k = _kitchen(apartment(layout, seed))
    return _two_by_label(
        f"decision-pasta-{v}", "set out tonight's pasta and put the spare away", layout, seed, "pasta",
        ("tonight", "spare"), k["table"], ((k["counter"], False, False), (k["cab"], True, True)),
        "The box marked tonight goes on the counter by the stove. Spare boxes go in the cabinet.",
        "I have two boxes of pasta on the table. Which one do I cook tonight and where does the other go?",
        k["table"], "kitchen")


def decision_remote(v: int):
    layout, seed = LIVING_LAYOUTS[v], 470 + v
    ap, rng = apartment(layout, seed), rng_for(f"d-remote-{v}")
    table, shelf, ktable = fx(ap, "table", "living"), fx(ap, "shelf", "living"), fx(ap, "table", "kitchen")
    cb = colors(rng, 1, exclude=("black",))[0]
    book = f"{cb}_book"
    objs = [o("remote", "remote", "black", ktable, 0), o(book, "book", cb, ktable, 3),
            o("note", "note", "white", ktable, 5, text="The remote lives on the living room table. Books go on the shelf.")]
    oracle = [_put("remote", table, False), _put(book, shelf, False)]
    wrong = [_put("remote", shelf, False), _put(book, table, False)]
    return draft("decision", f"decision-remote-{v}", "tidy the remote and a book into the living room", layout, seed,
                 objs, [("on", "remote", table), ("on", book, shelf)], oracle, wrong,
                 "The remote and a book ended up on the kitchen table. Where do they go? There's a note.",
                 [said("reasoning", "place_on", "remote", table), said("reasoning", "place_on", book, shelf)],
                 human_room="kitchen")


def decision_reading(v: int):
    layout, seed = LIVING_LAYOUTS[v], 480 + v
    ap = apartment(layout, seed)
    tv, lamp = fx(ap, "tv", "living"), fx(ap, "lamp", "living")
    return draft("decision", f"decision-reading-{v}", "make the living room right for reading", layout, seed, [],
                 [("unpowered", tv), ("powered", lamp)], [f"Turn off the {d(tv)}, then turn on the {d(lamp)}."],
                 [f"Turn on the {d(lamp)}."],
                 "I want to read in the living room now and it's getting dark. What should I switch?",
                 [said("state_tracking", "turn_off", tv), said("reasoning", "turn_on", lamp)],
                 human_room="living", powered=(tv,))


def decision_keys(v: int):
    layout, seed = LOBBY_LAYOUTS[v], 490 + v
    ap = apartment(layout, seed)
    desk, drawer, table = fx(ap, "desk", "lobby"), fx(ap, "drawer", "office"), fx(ap, "table", "kitchen")
    note = "Spare keys go in the office drawer. The wallet stays on the lobby desk."
    objs = [o("keys", "keys", "gray", table, 0), o("wallet", "wallet", "brown", table, 3),
            o("note", "note", "white", table, 5, text=note)]
    oracle = [_put("keys", drawer, True), _put("wallet", desk, False)]
    wrong = [_put("wallet", drawer, True), _put("keys", desk, False)]
    return draft("decision", f"decision-keys-{v}", "put the spare keys and the wallet where the note says", layout,
                 seed, objs, [("in", "keys", drawer), ("on", "wallet", desk)], oracle, wrong,
                 "My spare keys and wallet are on the kitchen table. Where do they belong? I left a note.",
                 [said("reasoning", "place_in", "keys", drawer), said("reasoning", "place_on", "wallet", desk)],
                 human_room="kitchen")


TEMPLATES = (decision_milk, decision_folder, decision_pasta, decision_remote, decision_reading, decision_keys)
