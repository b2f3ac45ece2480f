"""More Finding templates (see templates_a for the conventions): the thing is in a closed box or closed
furniture, under a lid, glimpsed in passing, or written about on a note; a look-alike is always about."""

from __future__ import annotations

from interactiveworld.bench.points import apartment, colors, draft, fx, o, rng_for, said
from interactiveworld.bench.templates_a import _kitchen
from interactiveworld.bench.templates_d import BOX_SLOTS, LIVING_LAYOUTS, OFFICE_LAYOUTS
from interactiveworld.names import display as d


def finding_box(v: int):
    layout, seed = LIVING_LAYOUTS[v], 640 + v
    ap, rng = apartment(layout, seed), rng_for(f"f-box-{v}")
    k, table = _kitchen(ap), fx(ap, "table", "living")
    ca, cb, c1, c2 = colors(rng, 4)
    box_a, box_b, mine, other = f"{ca}_box", f"{cb}_box", f"{c1}_mug", f"{c2}_mug"
    objs = [o(box_a, "box", ca, table, BOX_SLOTS[0]), o(box_b, "box", cb, table, BOX_SLOTS[1]),
            o(mine, "mug", c1, box_a), o(other, "mug", c2, box_b)]
    opening = ("go to the living room", f"open the {d(box_b)}", f"close the {d(box_b)}", f"open the {d(box_a)}",
               f"close the {d(box_a)}", "go to the kitchen")
    oracle = [f"The {d(box_a)} is on the {d(table)}. Open the {d(box_a)}, then pick up the {d(mine)}, then put the "
              f"{d(mine)} on the {d(k['table'])}."]
    wrong = [f"The {d(box_b)} is on the {d(table)}. Open the {d(box_b)}, then pick up the {d(other)}, then put the "
             f"{d(other)} on the {d(k['table'])}."]
    return draft("finding", f"finding-box-{v}", "find the mug in the right closed box", layout, seed, objs,
                 [("on", mine, k["table"])], oracle, wrong,
                 f"Where did my {c1} mug end up? I looked into some boxes earlier. Bring it to the kitchen table.",
                 [said("memory", "open", box_a), said("perception", "pick", mine)], opening=opening,
                 human_room="living")


def finding_cabinet(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 650 + v
    ap, rng = apartment(layout, seed), rng_for(f"f-cabinet-{v}")
    k, cab = _kitchen(ap), fx(ap, "cabinet", "office")
    c1, c2 = colors(rng, 2)
    mine, other = f"{c1}_wallet", f"{c2}_wallet"
    objs = [o(mine, "wallet", c1, fx(ap, "desk", "office"), 2), o(other, "wallet", c2, k["table"], 3)]
    opening = (f"pick up the {d(mine)}", f"open the {d(cab)}", f"put the {d(mine)} in the {d(cab)}",
               f"close the {d(cab)}", "go to the kitchen")
    oracle = [f"The {d(mine)} is in the {d(cab)}. Open the {d(cab)}, then pick up the {d(mine)}, then put the "
              f"{d(mine)} on the {d(k['table'])}."]
    wrong = [f"Pick up the {d(other)}, then put the {d(other)} on the {d(k['counter'])}."]
    return draft("finding", f"finding-cabinet-{v}", "remember which cabinet the wallet went into", layout, seed, objs,
                 [("on", mine, k["table"])], oracle, wrong,
                 "I put my wallet away somewhere earlier and now I can't find it. Get it out onto the kitchen table.",
                 [said("memory", "open", cab)], opening=opening, human_room="kitchen")


def finding_glimpse(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 660 + v
    ap, rng = apartment(layout, seed), rng_for(f"f-glimpse-{v}")
    k, shelf = _kitchen(ap), fx(ap, "shelf", "office")
    c1, c2, c3 = colors(rng, 3)
    mine = f"{c1}_book"
    objs = [o(f"{c2}_book", "book", c2, shelf, 1), o(mine, "book", c1, shelf, 3), o(f"{c3}_book", "book", c3, shelf, 5)]
    opening = ("go to the office", "look around", "go to the kitchen")
    oracle = [f"Pick up the {d(mine)}, then put the {d(mine)} on the {d(k['table'])}."]
    wrong = [f"Pick up the {c2} book, then put the {c2} book on the {d(k['table'])}."]
    return draft("finding", f"finding-glimpse-{v}", "fetch a book glimpsed in passing among look-alikes", layout,
                 seed, objs, [("on", mine, k["table"])], oracle, wrong,
                 f"I walked past my {c1} book a minute ago but didn't notice where. Put it on the kitchen table.",
                 [said("memory", "pick", mine)], opening=opening, human_room="kitchen")


def finding_lid(v: int):
    layout, seed = LIVING_LAYOUTS[v], 670 + v
    ap, rng = apartment(layout, seed), rng_for(f"f-lid-{v}")
    k, table = _kitchen(ap), fx(ap, "table", "living")
    c1, cl = colors(rng, 2)
    keys, lid = f"{c1}_keys", f"{cl}_lid"
    objs = [o(keys, "keys", c1, k["counter"], 1), o(lid, "lid", cl, k["counter"], 4)]
    opening = (f"pick up the {d(lid)}", f"cover the {d(keys)} with the {d(lid)}", "go to the living room")
    oracle = [f"The {d(keys)} are on the {d(k['counter'])}. Uncover the {d(keys)}, then pick up the {d(keys)}, then "
              f"put the {d(keys)} on the {d(table)}."]
    wrong = [f"Pick up the {d(lid)}, then put the {d(lid)} on the {d(table)}."]
    return draft("finding", f"finding-lid-{v}", "find keys covered by a lid", layout, seed, objs,
                 [("on", keys, table)], oracle, wrong,
                 "My keys were lying in the kitchen a minute ago and now they're gone. Put them on the living room "
                 "table.", [said("memory", "uncover", keys)], opening=opening, human_room="living")


def finding_note(v: int):
    layout, seed = ("flat3", "office3")[v], 680 + v
    ap, rng = apartment(layout, seed), rng_for(f"f-note-{v}")
    k, drawer = _kitchen(ap), fx(ap, "drawer", "office")
    c1 = colors(rng, 1)[0]
    keys = f"{c1}_keys"
    objs = [o(keys, "keys", c1, drawer, 1),
            o("note", "note", "white", k["table"], 2, text="Your spare keys are in the office drawer.")]
    oracle = [f"Open the {d(drawer)}, then pick up the {d(keys)}, then put the {d(keys)} on the {d(k['table'])}."]
    wrong = [f"Open the {d(k['drawer'])}, then pick up the {d(keys)} from the {d(k['drawer'])}, then put the "
             f"{d(keys)} on the {d(k['table'])}."]
    return draft("finding", f"finding-note-{v}", "find the keys a note tells about", layout, seed, objs,
                 [("on", keys, k["table"])], oracle, wrong,
                 "Someone left me a note about where my spare keys are. Bring them to the kitchen table.",
                 [said("perception", "open", drawer)], human_room="kitchen")


def finding_packed(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 690 + v
    ap, rng = apartment(layout, seed), rng_for(f"f-packed-{v}")
    k, desk = _kitchen(ap), fx(ap, "desk", "office")
    ca, cb, c1, c2 = colors(rng, 4)
    box_a, box_b, mine, other = f"{ca}_box", f"{cb}_box", f"{c1}_phone", f"{c2}_phone"
    objs = [o(box_a, "box", ca, desk, 1), o(box_b, "box", cb, desk, 4), o(mine, "phone", c1, k["table"], 2),
            o(other, "phone", c2, box_b)]
    opening = (f"pick up the {d(mine)}", f"open the {d(box_a)}", f"put the {d(mine)} in the {d(box_a)}",
               f"close the {d(box_a)}", "go to the living room")
    oracle = [f"The {d(box_a)} is on the {d(desk)}. The {d(mine)} is in the {d(box_a)}. Open the {d(box_a)}, then "
              f"pick up the {d(mine)}, then put the {d(mine)} on the {d(k['table'])}."]
    wrong = [f"The {d(box_b)} is on the {d(desk)}. The {d(other)} is in the {d(box_b)}. Open the {d(box_b)}, then "
             f"pick up the {d(other)}, then put the {d(other)} on the {d(k['table'])}."]
    return draft("finding", f"finding-packed-{v}", "remember which box the phone was packed into", layout, seed, objs,
                 [("on", mine, k["table"])], oracle, wrong,
                 "I packed my phone into a box in the office before - which one? Get it onto the kitchen table.",
                 [said("memory", "open", box_a), said("memory", "pick", mine)], opening=opening, human_room="living")


TEMPLATES = {"finding": (finding_box, finding_cabinet, finding_glimpse, finding_lid, finding_note, finding_packed)}
