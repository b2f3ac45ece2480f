"""Task templates: Decision, Prevention, Finding (see templates_a for the conventions)."""

from __future__ import annotations

from interactiveworld.bench.points import apartment, colors, draft, fx, o, quiet, rng_for, said, said_by
from interactiveworld.bench.templates_a import KITCHEN_LAYOUTS, _kitchen
from interactiveworld.names import display as d

LOBBY_LAYOUTS = ("office3", "house5", "office3", "house5", "office3")
OFFICE_LAYOUTS = ("flat3", "office3", "house5", "flat3", "house5")


# --- Decision ------------------------------------------------------------------------------------------
def decision_desk(v: int):
    layout, seed = LOBBY_LAYOUTS[v], 400 + v
    ap = apartment(layout, seed)
    lobby, office, table = fx(ap, "desk", "lobby"), fx(ap, "desk", "office"), fx(ap, "table", "kitchen")
    note = "Visitor badges are returned to the lobby desk. Staff phones stay on the office desk."
    objs = [o("badge", "badge", "orange", table, 0), o("phone", "phone", "black", table, 3),
            o("note", "note", "white", table, 5, text=note)]
    oracle = [f"Pick up the badge, then put the badge on the {d(lobby)}.", f"Pick up the phone, then put the phone on the {d(office)}."]
    wrong = [f"Pick up the badge, then put the badge on the {d(office)}.", f"Pick up the phone, then put the phone on the {d(lobby)}."]
    return draft("decision", f"decision-desk-{v}", "return a badge and a phone to the right desks", layout, seed, objs,
                 [("on", "badge", lobby), ("on", "phone", office)], oracle, wrong,
                 "A visitor left their badge and my phone on the kitchen table. Where should each go? There's a note.",
                 [said("reasoning", "place_on", "badge", lobby), said("reasoning", "place_on", "phone", office)],
                 human_room="kitchen")


def decision_timer(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 410 + v
    ap = apartment(layout, seed)
    k = _kitchen(ap)
    objs = [o("pot", "pot", "gray", "stove", 0), o("egg", "egg", "white", "pot", 0)]
    opening = ("turn on the left burner", "wait 2 minutes", f"go to the {ap.rooms[-1].name if ap.rooms[-1].name != 'kitchen' else ap.rooms[0].name}")
    return draft("decision", f"decision-timer-{v}", "decide when the egg is done", layout, seed, objs,
                 [("cooked", "egg"), ("unpowered", "left_burner")],
                 ["Wait 3 minutes, then turn off the left burner."], ["Turn off the left burner."],
                 "My egg needs 5 minutes at this heat. I put it on a little while ago - when do I turn it off?",
                 [said("reasoning", "wait"), said("state_tracking", "turn_off", "left_burner")],
                 opening=opening, human_room="kitchen", filled=("pot",), foods=("egg",))


def decision_juice(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 420 + v
    ap, rng = apartment(layout, seed), rng_for(f"d-juice-{v}")
    k = _kitchen(ap)
    c_open, c_sealed = colors(rng, 2)
    a, b = f"{c_open}_juice", f"{c_sealed}_juice"
    objs = [o(a, "juice", c_open, k["counter"], 1, text="opened"), o(b, "juice", c_sealed, k["counter"], 4, text="sealed"),
            o("note", "note", "white", k["table"], 0, text="Opened juice goes in the fridge. Sealed juice goes in the cabinet.")]
    oracle = [f"Open the fridge, then pick up the {d(a)}, then put the {d(a)} in the fridge.",
              f"Open the {d(k['cab'])}, then pick up the {d(b)}, then put the {d(b)} in the {d(k['cab'])}."]
    wrong = [f"Open the fridge, then pick up the {d(b)}, then put the {d(b)} in the fridge.",
             f"Open the {d(k['cab'])}, then pick up the {d(a)}, then put the {d(a)} in the {d(k['cab'])}."]
    return draft("decision", f"decision-juice-{v}", "store opened and sealed juice correctly", layout, seed, objs,
                 [("in", a, k["fridge"]), ("in", b, k["cab"])], oracle, wrong,
                 "Two juice cartons are on the counter. Which goes in the fridge and which in the cabinet?",
                 [said("perception", "place_in", a, k["fridge"]), said("reasoning", "place_in", b, k["cab"])],
                 human_room="kitchen")


def decision_lamp(v: int):
    layout, seed = ("flat3", "house5", "flat3", "house5", "flat3")[v], 430 + v
    ap, rng = apartment(layout, seed), rng_for(f"d-lamp-{v}")
    lamp, other = fx(ap, "lamp", "office"), fx(ap, "lamp", "living")
    desk, shelf = fx(ap, "desk", "office"), fx(ap, "shelf", "living")
    cb = colors(rng, 1)[0]
    book = f"{cb}_book"
    objs = [o(book, "book", cb, shelf, 5)]
    oracle = [f"Turn on the {d(lamp)}.", f"Pick up the {d(book)}, then put the {d(book)} on the {d(desk)}."]
    wrong = [f"Turn on the {d(other)}.", f"Pick up the {d(book)}, then put the {d(book)} on the {d(desk)}."]
    return draft("decision", f"decision-lamp-{v}", "light the room where the reading will happen", layout, seed, objs,
                 [("powered", lamp), ("on", book, desk)], oracle, wrong,
                 f"I want to read my {cb} book at the desk tonight. Get me set up with light where I'll be reading.",
                 [said("reasoning", "turn_on", lamp)], human_room="living")


# --- Prevention (the human follows a private plan with one consequential error) -------------------------
def prevention_store(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 500 + v
    ap, rng = apartment(layout, seed), rng_for(f"v-store-{v}")
    k = _kitchen(ap)
    c = colors(rng, 1)[0]
    mug = f"{c}_mug"
    objs = [o("milk", "milk", "white", k["counter"], 0), o(mug, "mug", c, k["table"], 1)]
    plan = ("pick up the milk", f"put the milk in the {d(k['cab'])}", f"pick up the {d(mug)}", f"put the {d(mug)} in the sink")
    oracle = [None, "No, not the cabinet. Open the fridge, then put the milk in the fridge.", None, None]
    wrong = [None, None, f"Put the {d(mug)} in the fridge.", None]
    return draft("prevention", f"prevention-store-{v}", "catch milk going into the cabinet", layout, seed, objs,
                 [("in", "milk", k["fridge"]), ("in", mug, k["sink"])], oracle, wrong,
                 "I'm putting the milk away and the mug in the sink. Just watch, and stop me only if I get something wrong.",
                 [quiet(0), quiet(2), quiet(3), said("intervention_correctness", "place_in", "milk", k["fridge"]),
                  said_by("intervention_timing", 1, "place_in", "milk", k["fridge"])],
                 private_plan=plan, deadlines=(1,), human_room="kitchen", open_fixtures=(k["cab"],))


def prevention_burner(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 510 + v
    ap = apartment(layout, seed)
    k = _kitchen(ap)
    objs = [o("pot", "pot", "gray", "stove", 0), o("egg", "egg", "white", k["counter"], 2)]
    plan = ("pick up the egg", "put the egg in the pot", "turn on the right burner", "wait 5 minutes", "turn off the right burner")
    oracle = [None, None, "The pot is on the left burner. Turn on the left burner.", None, "Turn off the left burner."]
    wrong = [None, "Turn on the right burner.", None, None, None]
    return draft("prevention", f"prevention-burner-{v}", "catch the wrong burner", layout, seed, objs, [("cooked", "egg")],
                 oracle, wrong, "I'm boiling an egg in the pot on the stove. Watch me and speak up only if I slip.",
                 [quiet(0), quiet(1), quiet(3), said("intervention_correctness", "turn_on", "left_burner"),
                  said_by("intervention_timing", 2, "turn_on", "left_burner")],
                 private_plan=plan, deadlines=(2,), human_room="kitchen", filled=("pot",), foods=("egg",))


def prevention_kettle(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 520 + v
    ap = apartment(layout, seed)
    k = _kitchen(ap)
    objs = [o("kettle", "kettle", "white", k["table"], 1)]
    plan = ("pick up the kettle", "put the kettle on the counter", "turn on the kettle", "wait 3 minutes")
    oracle = [None, None, "The kettle is empty. Pick up the kettle, then fill the kettle, then put the kettle on the counter.", None, None]
    wrong = [None, None, "Turn on the kettle.", None, None]
    return draft("prevention", f"prevention-kettle-{v}", "catch an empty kettle being switched on", layout, seed, objs,
                 [("boiled", "kettle")], oracle, wrong,
                 "I'm boiling water in the kettle. Keep an eye on me and only interrupt if something is off.",
                 [quiet(0), quiet(1), quiet(3), said("intervention_correctness", "fill", "kettle"),
                  said_by("intervention_timing", 2, "fill", "kettle")],
                 private_plan=plan, deadlines=(2,), human_room="kitchen")


def prevention_folder(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 530 + v
    ap, rng = apartment(layout, seed), rng_for(f"v-folder-{v}")
    shelf, desk = fx(ap, "shelf", "office"), fx(ap, "desk", "office")
    c1, c2, c3 = colors(rng, 3)
    mine, other, third = f"{c1}_folder", f"{c2}_folder", f"{c3}_folder"
    objs = [o(mine, "folder", c1, shelf, 4), o(other, "folder", c2, shelf, 6), o(third, "folder", c3, shelf, 9)]
    plan = ("go to the office", f"pick up the {d(other)}", f"put the {d(other)} on the {d(desk)}")
    oracle = [None, f"That is the {c2} folder; yours is the {c1} one. Pick up the {d(mine)}, then put the {d(mine)} on the {d(desk)}.", None]
    wrong = [None, f"Pick up the {d(third)}, then put the {d(third)} on the {d(desk)}.", None]
    return draft("prevention", f"prevention-folder-{v}", "catch a look-alike folder", layout, seed, objs,
                 [("on", mine, desk)], oracle, wrong,
                 f"I'm taking my {c1} folder from the office shelf to the desk. Tell me only if I'm about to make a mistake.",
                 [quiet(0), said("intervention_correctness", "pick", mine), said_by("intervention_timing", 1, "pick", mine)],
                 private_plan=plan, deadlines=(1,), human_room=ap.rooms[0].name if ap.rooms[0].name != "office" else "kitchen")


# --- Finding -------------------------------------------------------------------------------------------
def finding_hidden(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 600 + v
    ap, rng = apartment(layout, seed), rng_for(f"f-hidden-{v}")
    desk, shelf, table = fx(ap, "desk", "office"), fx(ap, "shelf", "office"), fx(ap, "table", "kitchen")
    c1, c2, cc = colors(rng, 3)
    mine, other, cloth = f"{c1}_folder", f"{c2}_folder", f"{cc}_cloth"
    objs = [o(cloth, "cloth", cc, table, 1), o(mine, "folder", c1, table, 1, under=cloth), o(other, "folder", c2, shelf, 5)]
    oracle = [f"Uncover the {d(mine)}, then pick up the {d(mine)}, then put the {d(mine)} on the {d(desk)}."]
    wrong = [f"Pick up the {d(other)}, then put the {d(other)} on the {d(desk)}."]
    return draft("finding", f"finding-hidden-{v}", "find a folder hidden under a cloth", layout, seed, objs,
                 [("on", mine, desk)], oracle, wrong,
                 f"I need my {c1} folder on the office desk, but I can't find it anywhere.",
                 [said("perception", "uncover", mine), said("memory", "pick", mine)], human_room="office")


def finding_moved(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 610 + v
    ap = apartment(layout, seed)
    kd, od = fx(ap, "drawer", "kitchen"), fx(ap, "drawer", "office")
    table = fx(ap, "table", "kitchen")
    dest = fx(ap, "desk", "office")
    opening = (f"pick up the keys", f"open the {d(od)}", f"put the keys in the {d(od)}", f"close the {d(od)}",
               "go to the kitchen", "wait 60 seconds")
    objs = [o("keys", "keys", "yellow", table, 2), o("wallet", "wallet", "brown", table, 5)]
    oracle = [f"Open the {d(od)}, then pick up the keys, then put the keys on the {d(dest)}."]
    wrong = [f"Open the {d(kd)}, then pick up the keys from the {d(kd)}, then put the keys on the {d(dest)}."]
    return draft("finding", f"finding-moved-{v}", "remember where the keys were put away", layout, seed, objs,
                 [("on", "keys", dest)], oracle, wrong,
                 "I tidied up earlier and now I can't find my keys. Help me get them onto the office desk.",
                 [said("memory", "open", od)], opening=opening, human_room="kitchen")


def finding_bottle(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 620 + v
    ap, rng = apartment(layout, seed), rng_for(f"f-bottle-{v}")
    shelf, k = fx(ap, "shelf", "office"), _kitchen(ap)
    c1, c2 = colors(rng, 2)
    target = f"{c1}_bottle"
    objs = [o(target, "bottle", c1, shelf, 1), o(f"{c2}_bottle", "bottle", c2, shelf, 2), o(f"{c1}_can", "can", c1, shelf, 5)]
    oracle = [f"Open the fridge, then pick up the {d(target)}, then put the {d(target)} in the fridge."]
    wrong = [f"Open the fridge, then pick up the {c2} bottle, then put the {c2} bottle in the fridge."]
    return draft("finding", f"finding-bottle-{v}", "retrieve the right bottle among look-alikes", layout, seed, objs,
                 [("in", target, k["fridge"])], oracle, wrong,
                 f"I left a {c1} bottle of water somewhere in the house. Get it into the fridge for me.",
                 [said("perception", "pick", target)], human_room="kitchen")


def finding_nested(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 630 + v
    ap, rng = apartment(layout, seed), rng_for(f"f-nested-{v}")
    k = _kitchen(ap)
    c1, c2 = colors(rng, 2)
    target = f"{c1}_sponge"
    objs = [o("pot", "pot", "gray", k["cab"], 0), o(target, "sponge", c1, "pot", 0), o(f"{c2}_sponge", "sponge", c2, k["counter"], 3)]
    oracle = [f"Open the {d(k['cab'])}, then pick up the {d(target)}, then put the {d(target)} in the sink."]
    wrong = [f"Pick up the {c2} sponge, then put the {c2} sponge in the sink."]
    return draft("finding", f"finding-nested-{v}", "find a sponge nested in a pot in a cupboard", layout, seed, objs,
                 [("in", target, k["sink"])], oracle, wrong,
                 f"My {c1} sponge is put away somewhere in the kitchen. Put it in the sink for me.",
                 [said("memory", "open", k["cab"]), said("perception", "pick", target)], human_room="kitchen")


TEMPLATES = {
    "decision": (decision_desk, decision_timer, decision_juice, decision_lamp),
    "prevention": (prevention_store, prevention_burner, prevention_kettle, prevention_folder),
    "finding": (finding_hidden, finding_moved, finding_bottle, finding_nested),
}
