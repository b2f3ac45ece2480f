"""Task templates: Guidance, Planning, Accessibility. Each template(v) builds variant v (0-4) as a draft
TaskPack; `taskgen` runs the admission checks and freezes it."""

from __future__ import annotations

from interactiveworld.bench.points import apartment, colors, draft, fx, o, rng_for, said
from interactiveworld.names import display as d

KITCHEN_LAYOUTS = ("studio", "flat3", "office3", "house5", "flat3")


def _kitchen(ap):
    return {"fridge": fx(ap, "fridge"), "counter": fx(ap, "counter"), "sink": fx(ap, "sink"),
            "cab": fx(ap, "cabinet", "kitchen"), "drawer": fx(ap, "drawer", "kitchen"), "table": fx(ap, "table", "kitchen")}


# --- Guidance ------------------------------------------------------------------------------------------
def guidance_store(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 100 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-store-{v}")
    k = _kitchen(ap)
    c1, c2 = colors(rng, 2)
    can, other = f"{c1}_can", f"{c2}_can"
    note = f"Shopping list rules: milk goes in the fridge, the {c1} can goes in the {d(k['cab'])}."
    objs = [o("milk", "milk", "white", k["counter"], 0), o(can, "can", c1, k["counter"], 3),
            o(other, "can", c2, k["table"], 1), o("note", "note", "white", k["counter"], 5, text=note)]
    oracle = [f"Open the fridge, then pick up the milk, then put the milk in the fridge.",
              f"Open the {d(k['cab'])}, then pick up the {d(can)}, then put the {d(can)} in the {d(k['cab'])}."]
    wrong = [f"Open the {d(k['cab'])}, then pick up the milk, then put the milk in the {d(k['cab'])}.",
             f"Open the fridge, then pick up the {d(can)}, then put the {d(can)} in the fridge."]
    return draft("guidance", f"guidance-store-{v}", "store groceries by the written rules", layout, seed, objs,
                 [("in", "milk", k["fridge"]), ("in", can, k["cab"])], oracle, wrong,
                 "I just put the shopping on the counter. There is a note about where things go - can you guide me?",
                 [said("reasoning", "place_in", "milk", k["fridge"]), said("reasoning", "place_in", can, k["cab"]),
                  said("perception", "pick", can)], human_room="kitchen", opening=("look around",))


def guidance_egg(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 110 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-egg-{v}")
    k = _kitchen(ap)
    objs = [o("pot", "pot", rng.choice(["gray", "black"]), k["counter"], 1), o("egg", "egg", "white", k["counter"], 4)]
    oracle = ["Pick up the pot, then fill the pot, then put the pot on the stove.",
              "Pick up the egg, then put the egg in the pot, then turn on the left burner.",
              "Turn off the right burner, then wait 5 minutes.", "Turn off the left burner."]
    wrong = ["Pick up the pot, then fill the pot, then put the pot on the stove.",
             "Pick up the egg, then put the egg in the pot.", "Wait 5 minutes.", "Turn off the right burner."]
    return draft("guidance", f"guidance-egg-{v}", "boil an egg safely", layout, seed, objs,
                 [("cooked", "egg"), ("unpowered", "right_burner")], oracle, wrong,
                 "I want a boiled egg, but I never cook. Someone was using the stove before me. Tell me step by step.",
                 [said("reasoning", "turn_on", "left_burner"), said("state_tracking", "turn_off", "right_burner")],
                 human_room="kitchen", powered=("right_burner",), foods=("egg",))


def guidance_table(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 120 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-table-{v}")
    k = _kitchen(ap)
    cs = colors(rng, 4)
    a, b, c = (f"{x}_mug" for x in cs[:3])
    objs = [o(f"{x}_mug", "mug", x, k["cab"], i) for i, x in enumerate(cs)]
    objs.append(o("note", "note", "white", k["table"], 0, text=f"Tonight set the {cs[0]} mug and the {cs[1]} mug on the table."))
    oracle = [f"Open the {d(k['cab'])}, then pick up the {d(a)}, then put the {d(a)} on the {d(k['table'])}.",
              f"Pick up the {d(b)}, then put the {d(b)} on the {d(k['table'])}."]
    wrong = [oracle[0], f"Pick up the {d(c)}, then put the {d(c)} on the {d(k['table'])}."]
    return draft("guidance", f"guidance-table-{v}", "set the table as the note says", layout, seed, objs,
                 [("on", a, k["table"]), ("on", b, k["table"])], oracle, wrong,
                 "There's a note on the table about which mugs to set out tonight. Help me do it.",
                 [said("perception", "pick", a), said("perception", "pick", b)], human_room=ap.rooms[-1].name)


def guidance_kettle(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 130 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-kettle-{v}")
    k = _kitchen(ap)
    c1, c2 = colors(rng, 2)
    mug = f"{c1}_mug"
    objs = [o("kettle", "kettle", "white", k["counter"], 2), o(mug, "mug", c1, k["counter"], 5),
            o(f"{c2}_mug", "mug", c2, k["table"], 0)]
    oracle = ["Pick up the kettle, then fill the kettle, then put the kettle on the counter, then turn on the kettle.",
              "Wait 2 minutes.", f"Pick up the kettle, then pour water into the {d(mug)}."]
    wrong = ["Pick up the kettle, then put the kettle on the counter, then turn on the kettle.", "Wait 2 minutes.",
             f"Pick up the kettle, then pour water into the {d(mug)}."]
    return draft("guidance", f"guidance-kettle-{v}", "make hot water for tea", layout, seed, objs,
                 [("boiled", "kettle"), ("filled", mug)], oracle, wrong,
                 f"I'd like hot water for tea in my {c1} mug on the counter. How do I use this kettle?",
                 [said("reasoning", "fill", "kettle"), said("state_tracking", "pour", mug)], human_room="kitchen")


# --- Planning ------------------------------------------------------------------------------------------
ROUTE_LAYOUTS = ("house5", "flat3", "house5", "office3", "house5")


def planning_route(v: int):
    layout, seed = ROUTE_LAYOUTS[v], 200 + v
    ap, rng = apartment(layout, seed), rng_for(f"p-route-{v}")
    surfaces = [f.name for f in ap.fixtures if f.kind in ("table", "desk", "shelf", "counter", "bed")]
    rng.shuffle(surfaces)
    starts, ends = surfaces[:3], surfaces[3:6]
    cats = rng.sample(["book", "remote", "phone", "wallet", "glasses", "keys"], 3)
    cs = colors(rng, 3)
    names = [f"{c}_{cat}" for c, cat in zip(cs, cats)]
    objs = [o(n, cat, c, s, 1) for n, cat, c, s in zip(names, cats, cs, starts)]
    goals = [("on", n, e) for n, e in zip(names, ends)]
    oracle = [f"Pick up the {d(n)}, then put the {d(n)} on the {d(e)}." for n, e in zip(names, ends)]
    wrong = [f"Pick up the {d(names[0])}, then put the {d(names[0])} on the {d(ends[1])}.",
             f"Pick up the {d(names[1])}, then put the {d(names[1])} on the {d(ends[0])}.", oracle[2]]
    plan = ", ".join(f"the {d(n)} to the {d(e)}" for n, e in zip(names, ends))
    return draft("planning", f"planning-route-{v}", "move three objects across the home", layout, seed, objs, goals,
                 oracle, wrong, f"I need to bring {plan}. Plan it for me.",
                 [said("planning", "place_on", n, e) for n, e in zip(names, ends)], human_room=ap.rooms[v % len(ap.rooms)].name)


def planning_cook2(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 210 + v
    ap = apartment(layout, seed)
    k = _kitchen(ap)
    objs = [o("gray_pot", "pot", "gray", k["counter"], 0), o("black_pot", "pot", "black", k["counter"], 3),
            o("egg", "egg", "white", k["table"], 0), o("pasta", "pasta", "yellow", k["table"], 2)]
    oracle = ["Pick up the gray pot, then put the gray pot on the stove, then pick up the egg, then put the egg in the gray pot.",
              "Pick up the black pot, then put the black pot on the stove, then pick up the pasta, then put the pasta in the black pot.",
              "Turn on the left burner, then turn on the right burner, then wait 5 minutes.", "Wait 4 minutes.",
              "Turn off the left burner, then turn off the right burner."]
    wrong = oracle[:3] + ["Turn off the left burner, then turn off the right burner."]
    return draft("planning", f"planning-cook2-{v}", "cook egg and pasta on two burners", layout, seed, objs,
                 [("cooked", "egg"), ("cooked", "pasta")], oracle, wrong,
                 "I want the egg and the pasta both cooked. The pots already have water. Egg takes 5 minutes, pasta 8.",
                 [said("reasoning", "place_in", "egg", "gray_pot"), said("state_tracking", "turn_off", "left_burner")],
                 human_room="kitchen", filled=("gray_pot", "black_pot"), foods=("egg", "pasta"))


def planning_recover(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 220 + v
    ap, rng = apartment(layout, seed), rng_for(f"p-recover-{v}")
    k = _kitchen(ap)
    cloth = f"{colors(rng, 1)[0]}_cloth"
    objs = [o("milk", "milk", "white", k["counter"], 0), o(cloth, "cloth", cloth.split("_")[0], k["counter"], 4)]
    from interactiveworld.world.scene import SpillSpec

    opening = (f"open the {d(k['cab'])}", "pick up the milk", f"put the milk in the {d(k['cab'])}")
    oracle = [f"Pick up the milk from the {d(k['cab'])}, then open the fridge, then put the milk in the fridge.",
              f"Pick up the {d(cloth)}, then wipe the spill with the {d(cloth)}."]
    wrong = [f"Pick up the {d(cloth)}, then wipe the spill with the {d(cloth)}."]
    return draft("planning", f"planning-recover-{v}", "recover from mis-stored milk and a spill", layout, seed, objs,
                 [("in", "milk", k["fridge"]), ("spill_clean", "spill")], oracle, wrong,
                 "I was putting groceries away and something went wrong, and there's something wet on the floor. Help me fix it all.",
                 [said("memory", "pick", "milk", k["cab"]), said("planning", "wipe", "spill")],
                 opening=opening, human_room="kitchen", spills=(SpillSpec("spill", "kitchen"),))


def planning_reset(v: int):
    layout, seed = ("studio", "flat3", "house5", "flat3", "house5")[v], 230 + v
    ap, rng = apartment(layout, seed), rng_for(f"p-reset-{v}")
    shelf, sink, table = fx(ap, "shelf", "living"), fx(ap, "sink"), fx(ap, "table", "living")
    cb, cm = colors(rng, 2)
    book, mug = f"{cb}_book", f"{cm}_mug"
    objs = [o(book, "book", cb, fx(ap, "sofa"), 0), o(mug, "mug", cm, table, 2)]
    oracle = ["Turn off the tv.", f"Pick up the {d(book)}, then put the {d(book)} on the {d(shelf)}.",
              f"Pick up the {d(mug)}, then put the {d(mug)} in the sink."]
    wrong = [f"Pick up the {d(book)}, then put the {d(book)} on the {d(shelf)}.",
             f"Pick up the {d(mug)}, then put the {d(mug)} on the counter."]
    return draft("planning", f"planning-reset-{v}", "reset the living room", layout, seed, objs,
                 [("unpowered", "tv"), ("on", book, shelf), ("in", mug, sink)], oracle, wrong,
                 "Guests are coming. Help me reset the living room: the TV off, the book shelved and the mug in the sink.",
                 [said("state_tracking", "turn_off", "tv"), said("reasoning", "place_in", mug, sink)],
                 human_room="living", powered=("tv",))


# --- Accessibility (the human is blind) ----------------------------------------------------------------
def access_fetch(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 300 + v
    ap, rng = apartment(layout, seed), rng_for(f"a-fetch-{v}")
    k = _kitchen(ap)
    cs = colors(rng, 3)
    names = [f"{c}_bottle" for c in cs]
    objs = [o(n, "bottle", c, k["counter"], 2 * i) for i, (n, c) in enumerate(zip(names, cs))]
    # the human took its medicine just now and put the bottle back among the others: only the assistant,
    # who watched, can tell which bottle it is
    opening = (f"pick up the {d(names[0])}", f"put the {d(names[0])} on the {d(k['counter'])}")
    oracle = [f"Pick up the {d(names[0])} from the {d(k['counter'])}, then put the {d(names[0])} on the {d(k['table'])}."]
    wrong = [f"Pick up the {d(names[1])} from the {d(k['counter'])}, then put the {d(names[1])} on the {d(k['table'])}."]
    return draft("accessibility", f"accessibility-fetch-{v}", "find the medicine bottle for a blind user", layout, seed,
                 objs, [("on", names[0], k["table"])], oracle, wrong,
                 "I can't see. I just took my medicine and put the bottle back with the others; please put my "
                 "medicine bottle on the kitchen table.",
                 [said("memory", "pick", names[0])], blind=True, human_room="kitchen", opening=opening)


def access_phone(v: int):
    layout, seed = ("house5", "flat3", "office3", "house5", "flat3")[v], 310 + v
    ap, rng = apartment(layout, seed), rng_for(f"a-phone-{v}")
    surfaces = [f.name for f in ap.fixtures if f.kind in ("table", "desk", "shelf", "counter")]
    rng.shuffle(surfaces)
    start, hide, dest = surfaces[:3]
    opening = ("pick up the phone", f"put the phone on the {d(hide)}", f"go to the {ap.rooms[0].name}", "wait 60 seconds")
    objs = [o("phone", "phone", "black", start, 2), o("wallet", "wallet", "brown", start, 5)]
    oracle = [f"Pick up the phone from the {d(hide)}, then put the phone on the {d(dest)}."]
    wrong = [f"Pick up the phone from the {d(start)}, then put the phone on the {d(dest)}."]
    return draft("accessibility", f"accessibility-phone-{v}", "recall where a blind user left the phone", layout, seed,
                 objs, [("on", "phone", dest)], oracle, wrong,
                 f"I put my phone down somewhere a minute ago and I can't see where. Please help me put it on the {d(dest)}.",
                 [said("memory", "pick", "phone", hide)], blind=True, opening=opening,
                 human_room=ap.fixture(start).room)


def access_burner(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 320 + v
    ap, rng = apartment(layout, seed), rng_for(f"a-burner-{v}")
    cooking, stray = ("left_burner", "right_burner") if rng.random() < 0.5 else ("right_burner", "left_burner")
    # both burners are on: one under the egg pot (keep it), one with nothing on it (the hazard)
    objs = [o("pot", "pot", "gray", "stove", 0 if cooking == "left_burner" else 1), o("egg", "egg", "white", "pot", 0)]
    return draft("accessibility", f"accessibility-burner-{v}", "make the stove safe for a blind user", layout, seed, objs,
                 [("unpowered", stray), ("cooked", "egg")], [f"Turn off the {d(stray)}, then wait 5 minutes."],
                 [f"Turn off the {d(cooking)}, then wait 5 minutes."],
                 "I can't see. I just started boiling an egg, but I smell something hot - I may have left another "
                 "burner on. Make it safe without spoiling my egg.",
                 [said("perception", "turn_off", stray)], blind=True, human_room="kitchen", powered=(cooking, stray),
                 filled=("pot",), foods=("egg",))


def access_sort(v: int):
    layout, seed = KITCHEN_LAYOUTS[v], 330 + v
    ap, rng = apartment(layout, seed), rng_for(f"a-sort-{v}")
    k = _kitchen(ap)
    c1, c2 = colors(rng, 2)
    a, b = f"{c1}_mug", f"{c2}_mug"
    # one mug on the table, one on the counter, in an order only the assistant can see
    first, second = (k["table"], k["counter"]) if rng.random() < 0.5 else (k["counter"], k["table"])
    objs = [o(a, "mug", c1, first, 1), o(b, "mug", c2, second, 4)]
    oracle = [f"Open the {d(k['cab'])}, then pick up the {d(a)}, then put the {d(a)} in the {d(k['cab'])}.",
              f"Pick up the {d(b)}, then put the {d(b)} in the sink."]
    wrong = [f"Open the {d(k['cab'])}, then pick up the {d(b)}, then put the {d(b)} in the {d(k['cab'])}.",
             f"Pick up the {d(a)}, then put the {d(a)} in the sink."]
    return draft("accessibility", f"accessibility-sort-{v}", "sort look-alike mugs for a blind user", layout, seed, objs,
                 [("in", a, k["cab"]), ("in", b, k["sink"])], oracle, wrong,
                 f"I can't tell colours apart. The {c1} mug goes in the cabinet and the {c2} mug in the sink; one is "
                 "on the table, the other somewhere else in the kitchen.",
                 [said("perception", "pick", a), said("perception", "pick", b)], blind=True, human_room="kitchen")


TEMPLATES = {
    "guidance": (guidance_store, guidance_egg, guidance_table, guidance_kettle),
    "planning": (planning_route, planning_cook2, planning_recover, planning_reset),
    "accessibility": (access_fetch, access_phone, access_burner, access_sort),
}
