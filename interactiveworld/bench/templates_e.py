"""More Accessibility (the human is blind) and Prevention templates (see templates_a for the conventions)."""

from __future__ import annotations

from interactiveworld.bench.points import apartment, colors, draft, fx, o, quiet, rng_for, said, said_by
from interactiveworld.bench.templates_a import _kitchen
from interactiveworld.bench.templates_d import BOX_SLOTS, LIVING_LAYOUTS, LOBBY_LAYOUTS, MIXED_LAYOUTS, other_room
from interactiveworld.names import display as d
from interactiveworld.world.scene import SpillSpec

BLIND = "I can't see. "


# --- Accessibility -------------------------------------------------------------------------------------
def access_box(v: int):
    layout, seed = MIXED_LAYOUTS[v], 340 + v
    ap, rng = apartment(layout, seed), rng_for(f"a-box-{v}")
    k = _kitchen(ap)
    ca, cb, c1, c2 = colors(rng, 4)
    box_a, box_b, mine, other = f"{ca}_box", f"{cb}_box", f"{c1}_glasses", f"{c2}_glasses"
    objs = [o(box_a, "box", ca, k["table"], BOX_SLOTS[0]), o(box_b, "box", cb, k["table"], BOX_SLOTS[1]),
            o(mine, "glasses", c1, k["table"], 1), o(other, "glasses", c2, box_b)]
    opening = (f"pick up the {d(mine)}", f"open the {d(box_a)}", f"put the {d(mine)} in the {d(box_a)}",
               f"close the {d(box_a)}", f"go to the {other_room(ap, 'kitchen')}")
    oracle = [f"The {d(box_a)} is on the {d(k['table'])}. The {d(mine)} are in the {d(box_a)}. Open the {d(box_a)}, "
              f"then pick up the {d(mine)}, then put the {d(mine)} on the {d(k['counter'])}."]
    wrong = [f"The {d(box_b)} is on the {d(k['table'])}. The {d(other)} are in the {d(box_b)}. Open the {d(box_b)}, "
             f"then pick up the {d(other)}, then put the {d(other)} on the {d(k['counter'])}."]
    return draft("accessibility", f"accessibility-box-{v}", "find a blind user's glasses in the right box", layout,
                 seed, objs, [("on", mine, k["counter"])], oracle, wrong,
                 BLIND + "A moment ago I put my reading glasses away in one of the boxes, and there are other glasses "
                 "around. Put mine out on the kitchen counter.",
                 [said("memory", "open", box_a), said("memory", "pick", mine)], blind=True, opening=opening,
                 human_room=other_room(ap, "kitchen"))


def access_doors(v: int):
    layout, seed = ("studio", "flat3")[v], 350 + v
    ap, rng = apartment(layout, seed), rng_for(f"a-doors-{v}")
    k = _kitchen(ap)
    objs = [o("milk", "milk", "white", k["counter"], 2)]
    oracle = [f"The milk is on the {d(k['counter'])}. Pick up the milk, then put the milk in the fridge, then close "
              f"the fridge, then close the {d(k['cab'])}."]
    wrong = [f"The milk is on the {d(k['counter'])}. Pick up the milk, then put the milk in the fridge, then close "
             "the fridge."]
    return draft("accessibility", f"accessibility-doors-{v}", "put the milk away and close what was left open",
                 layout, seed, objs, [("in", "milk", k["fridge"]), ("closed", k["fridge"]), ("closed", k["cab"])],
                 oracle, wrong,
                 BLIND + "I think I left things open in the kitchen, and the milk is still out. Sort it out for me.",
                 [said("perception", "close", k["cab"]), said("perception", "pick", "milk")], blind=True,
                 human_room="kitchen", open_fixtures=(k["fridge"], k["cab"]))


def access_cup(v: int):
    layout, seed = ("flat3", "house5")[v], 360 + v
    ap, rng = apartment(layout, seed), rng_for(f"a-cup-{v}")
    k = _kitchen(ap)
    c1, c2 = colors(rng, 2)
    mine, other = f"{c1}_cup", f"{c2}_cup"
    spots = (k["table"], k["counter"]) if rng.random() < 0.5 else (k["counter"], k["table"])
    objs = [o(mine, "cup", c1, spots[0], 1), o(other, "cup", c2, spots[1], 3)]
    oracle = [f"Pick up the {d(mine)}, then fill the {d(mine)}, then put the {d(mine)} on the {d(k['table'])}."]
    wrong = [f"Pick up the {d(other)}, then fill the {d(other)}, then put the {d(other)} on the {d(k['table'])}."]
    return draft("accessibility", f"accessibility-cup-{v}", "fill a blind user's own cup with water", layout, seed,
                 objs, [("filled", mine)], oracle, wrong,
                 BLIND + f"Fill my {c1} cup with water, please; it's somewhere in the kitchen.",
                 [said("perception", "pick", mine)], blind=True, human_room="kitchen")


def access_spill(v: int):
    layout, seed = MIXED_LAYOUTS[v], 370 + v
    ap, rng = apartment(layout, seed), rng_for(f"a-spill-{v}")
    k = _kitchen(ap)
    cc = colors(rng, 1)[0]
    cloth = f"{cc}_cloth"
    objs = [o(cloth, "cloth", cc, k["counter"], 3)]
    oracle = [f"Pick up the {d(cloth)}, then wipe the spill with the {d(cloth)}."]
    wrong = [f"Pick up the {d(cloth)}, then put the {d(cloth)} in the sink."]
    return draft("accessibility", f"accessibility-spill-{v}", "clean a spill a blind user cannot find", layout, seed,
                 objs, [("spill_clean", "spill")], oracle, wrong,
                 BLIND + "I knocked a glass over somewhere in here and now the floor is wet. Clean it up with me.",
                 [said("perception", "wipe", "spill")], blind=True, human_room="kitchen",
                 spills=(SpillSpec("spill", "kitchen"),))


def access_wallet(v: int):
    layout, seed = LOBBY_LAYOUTS[v], 380 + v
    ap, rng = apartment(layout, seed), rng_for(f"a-wallet-{v}")
    lobby, drawer = fx(ap, "desk", "lobby"), fx(ap, "drawer", "office")
    c1, c2 = colors(rng, 2)
    mine, other = f"{c1}_wallet", f"{c2}_wallet"
    objs = [o(mine, "wallet", c1, lobby, 1), o(other, "wallet", c2, lobby, 4)]
    oracle = [f"Pick up the {d(mine)}, then open the {d(drawer)}, then put the {d(mine)} in the {d(drawer)}."]
    wrong = [f"Pick up the {d(other)}, then open the {d(drawer)}, then put the {d(other)} in the {d(drawer)}."]
    return draft("accessibility", f"accessibility-wallet-{v}", "put away a blind user's own wallet", layout, seed,
                 objs, [("in", mine, drawer)], oracle, wrong,
                 BLIND + f"My wallet is the {c1} one; both our wallets are lying on a desk somewhere. Put mine "
                 "into my office drawer.",
                 [said("perception", "pick", mine)], blind=True, human_room="office")


def access_pasta(v: int):
    layout, seed = ("flat3", "house5")[v], 390 + v
    ap = apartment(layout, seed)
    objs = [o("pot", "pot", "gray", "stove", 0), o("pasta", "pasta", "yellow", "pot", 0)]
    opening = ("turn on the left burner", "wait 3 minutes")
    return draft("accessibility", f"accessibility-pasta-{v}", "time a blind user's pasta", layout, seed, objs,
                 [("cooked", "pasta"), ("unpowered", "left_burner")],
                 ["Wait 5 minutes, then turn off the left burner."], ["Wait 2 minutes, then turn off the left burner."],
                 BLIND + "My pasta needs 8 minutes and it has been on for a while already. Tell me when to switch "
                 "it off.",
                 [said("memory", "wait"), said("state_tracking", "turn_off", "left_burner")], blind=True,
                 opening=opening, human_room="kitchen", filled=("pot",), foods=("pasta",))


# --- Prevention ----------------------------------------------------------------------------------------
def prevention_box(v: int):
    layout, seed = MIXED_LAYOUTS[v], 540 + v
    ap, rng = apartment(layout, seed), rng_for(f"v-box-{v}")
    k = _kitchen(ap)
    ca, cb, c1, c2 = colors(rng, 4)
    box_a, box_b, mine, other = f"{ca}_box", f"{cb}_box", f"{c1}_mug", f"{c2}_mug"
    objs = [o(box_a, "box", ca, k["table"], BOX_SLOTS[0]), o(box_b, "box", cb, k["table"], BOX_SLOTS[1]),
            o(mine, "mug", c1, box_a), o(other, "mug", c2, box_b)]
    plan = (f"open the {d(box_b)}", f"pick up the {d(other)}", f"put the {d(other)} in the sink")
    oracle = [None, f"That is not your mug; yours is in the {d(box_a)}. Open the {d(box_a)}, then pick up the "
              f"{d(mine)}, then put the {d(mine)} in the sink.", None]
    wrong = [None, None, f"Put the {d(other)} on the {d(k['table'])}."]
    return draft("prevention", f"prevention-box-{v}", "catch a look-alike mug taken from the wrong box", layout, seed,
                 objs, [("in", mine, k["sink"])], oracle, wrong,
                 f"I'm getting my {c1} mug out of its box and into the sink. Only stop me if I get it wrong.",
                 [quiet(0), said("intervention_correctness", "pick", mine), said_by("intervention_timing", 1, "pick", mine)],
                 private_plan=plan, deadlines=(1,), human_room="kitchen")


def prevention_fridge(v: int):
    layout, seed = ("flat3", "studio")[v], 550 + v
    ap, rng = apartment(layout, seed), rng_for(f"v-fridge-{v}")
    k = _kitchen(ap)
    c = colors(rng, 1)[0]
    juice = f"{c}_juice"
    objs = [o(juice, "juice", c, k["counter"], 1)]
    plan = (f"pick up the {d(juice)}", f"put the {d(juice)} in the fridge", "go to the living room")
    oracle = [None, None, "You left the fridge open. Close the fridge."]
    wrong = [None, f"Put the {d(juice)} on the {d(k['counter'])}.", None]
    return draft("prevention", f"prevention-fridge-{v}", "catch the fridge being left open", layout, seed, objs,
                 [("in", juice, k["fridge"]), ("closed", k["fridge"])], oracle, wrong,
                 "I'm putting the juice in the fridge, it's open already, and then going to sit down. Say something "
                 "only if I slip up.",
                 [quiet(0), quiet(1), said("intervention_correctness", "close", k["fridge"]),
                  said_by("intervention_timing", 2, "close", k["fridge"])],
                 private_plan=plan, deadlines=(2,), human_room="kitchen", open_fixtures=(k["fridge"],))


def prevention_lamp(v: int):
    layout, seed = LIVING_LAYOUTS[v], 560 + v
    ap, rng = apartment(layout, seed), rng_for(f"v-lamp-{v}")
    living, office = fx(ap, "lamp", "living"), fx(ap, "lamp", "office")
    shelf, desk = fx(ap, "shelf", "living"), fx(ap, "desk", "office")
    c = colors(rng, 1)[0]
    book = f"{c}_book"
    objs = [o(book, "book", c, shelf, 3)]
    plan = ("go to the living room", f"turn on the {d(living)}", f"pick up the {d(book)}", f"put the {d(book)} on the {d(desk)}")
    oracle = [None, f"That lamp is in the living room; you will read in the office. Turn on the {d(office)}.", None, None]
    wrong = [None, None, None, f"Put the {d(book)} on the {d(shelf)}."]
    return draft("prevention", f"prevention-lamp-{v}", "catch the lamp switched on in the wrong room", layout, seed,
                 objs, [("powered", office), ("on", book, desk)], oracle, wrong,
                 f"I'll read at my office desk tonight: I'm switching on my reading light and taking my {c} book "
                 "there. Speak up only if I do something wrong.",
                 [quiet(0), said("intervention_correctness", "turn_on", office),
                  said_by("intervention_timing", 1, "turn_on", office), quiet(2), quiet(3)],
                 private_plan=plan, deadlines=(1,), human_room="office")


def prevention_egg(v: int):
    layout, seed = ("studio", "house5")[v], 570 + v
    ap = apartment(layout, seed)
    k = _kitchen(ap)
    objs = [o("pot", "pot", "gray", "stove", 0), o("egg", "egg", "white", k["counter"], 2)]
    plan = ("pick up the egg", "put the egg in the pot", "turn on the left burner", "wait 2 minutes",
            "turn off the left burner")
    oracle = [None, None, None, None, "Two minutes is not enough. Wait 3 minutes, then turn off the left burner."]
    wrong = [None, None, "Turn on the right burner.", None, None]
    return draft("prevention", f"prevention-egg-{v}", "catch an egg taken off too early", layout, seed, objs,
                 [("cooked", "egg")], oracle, wrong,
                 "I'm boiling an egg; it has to cook through. Watch and only interrupt if I'm about to get it wrong.",
                 [quiet(0), quiet(1), quiet(2), quiet(3), said("intervention_correctness", "wait"),
                  said_by("intervention_timing", 4, "wait")],
                 private_plan=plan, deadlines=(4,), human_room="kitchen", filled=("pot",), foods=("egg",))


def prevention_juice(v: int):
    layout, seed = ("flat3", "office3")[v], 580 + v
    ap, rng = apartment(layout, seed), rng_for(f"v-juice-{v}")
    k = _kitchen(ap)
    c_open, c_sealed = colors(rng, 2)
    a, b = f"{c_open}_juice", f"{c_sealed}_juice"
    objs = [o(a, "juice", c_open, k["counter"], 1, text="opened"), o(b, "juice", c_sealed, k["counter"], 4, text="sealed"),
            o("note", "note", "white", k["table"], 0, text="Opened juice goes in the fridge. Sealed juice goes in the cabinet.")]
    plan = (f"pick up the {d(b)}", f"put the {d(b)} in the fridge", f"pick up the {d(a)}", f"put the {d(a)} in the {d(k['cab'])}")
    oracle = [None, f"That carton is sealed. Put the {d(b)} in the {d(k['cab'])}.", None,
              f"That carton is opened. Put the {d(a)} in the fridge."]
    wrong = [None, None, None, f"Put the {d(a)} in the sink."]
    return draft("prevention", f"prevention-juice-{v}", "catch opened and sealed juice mixed up", layout, seed, objs,
                 [("in", a, k["fridge"]), ("in", b, k["cab"])], oracle, wrong,
                 "I'm putting the two juice cartons away the way the note on the table says. Tell me only if I mix "
                 "them up.",
                 [quiet(0), quiet(2), said("intervention_correctness", "place_in", b, k["cab"]),
                  said_by("intervention_timing", 1, "place_in", b, k["cab"])],
                 private_plan=plan, deadlines=(1, 3), human_room="kitchen", open_fixtures=(k["fridge"], k["cab"]))


def prevention_badge(v: int):
    layout, seed = LOBBY_LAYOUTS[v], 590 + v
    ap = apartment(layout, seed)
    lobby, office, table = fx(ap, "desk", "lobby"), fx(ap, "desk", "office"), fx(ap, "table", "kitchen")
    objs = [o("badge", "badge", "orange", table, 1),
            o("note", "note", "white", table, 4, text="Visitor badges go back to the lobby desk.")]
    plan = ("pick up the badge", f"put the badge on the {d(office)}")
    oracle = [None, f"The note says visitor badges go back to the lobby. Put the badge on the {d(lobby)}."]
    wrong = [None, f"Put the badge on the {d(table)}."]
    return draft("prevention", f"prevention-badge-{v}", "catch a visitor badge returned to the wrong desk", layout,
                 seed, objs, [("on", "badge", lobby)], oracle, wrong,
                 "A visitor left their badge here; I'm returning it. Stop me only if I'm taking it to the wrong place.",
                 [quiet(0), said("intervention_correctness", "place_on", "badge", lobby),
                  said_by("intervention_timing", 1, "place_on", "badge", lobby)],
                 private_plan=plan, deadlines=(1,), human_room="kitchen")


TEMPLATES = {
    "accessibility": (access_box, access_doors, access_cup, access_spill, access_wallet, access_pasta),
    "prevention": (prevention_box, prevention_fridge, prevention_lamp, prevention_egg, prevention_juice,
                   prevention_badge),
}
