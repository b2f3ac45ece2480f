"""More Guidance and Planning templates (see templates_a for the conventions): closed boxes, labels, things
put away in closed furniture, and errands spread over the home."""

from __future__ import annotations

from interactiveworld.bench.points import apartment, colors, draft, fx, o, rng_for, said
from interactiveworld.bench.templates_a import _kitchen
from interactiveworld.names import display as d
from interactiveworld.world.scene import SpillSpec

# slots of a 1.2 m table that a lidded box fits in, away from the edges
BOX_SLOTS = (7, 10)
OFFICE_LAYOUTS = ("flat3", "house5")
LOBBY_LAYOUTS = ("office3", "house5")
LIVING_LAYOUTS = ("flat3", "house5")
MIXED_LAYOUTS = ("studio", "office3")


def other_room(ap, *avoid: str) -> str:
    return next(r.name for r in ap.rooms if r.name not in avoid)


# --- Guidance ------------------------------------------------------------------------------------------
def guidance_box(v: int):
    layout, seed = MIXED_LAYOUTS[v], 140 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-box-{v}")
    k = _kitchen(ap)
    ca, cb, c1, c2 = colors(rng, 4)
    box_a, box_b, mine, other = f"{ca}_box", f"{cb}_box", f"{c1}_mug", f"{c2}_mug"
    objs = [o(box_a, "box", ca, k["table"], BOX_SLOTS[0]), o(box_b, "box", cb, k["table"], BOX_SLOTS[1]),
            o(mine, "mug", c1, box_a), o(other, "mug", c2, box_b)]
    oracle = [f"Open the {d(box_a)}, then pick up the {d(mine)}, then put the {d(mine)} in the sink."]
    wrong = [f"Open the {d(box_b)}, then pick up the {d(other)}, then put the {d(other)} in the sink."]
    return draft("guidance", f"guidance-box-{v}", "take the right mug out of a closed box", layout, seed, objs,
                 [("in", mine, k["sink"])], oracle, wrong,
                 f"My {c1} mug got packed into one of the boxes on the kitchen table. Help me get it into the sink.",
                 [said("perception", "open", box_a), said("perception", "pick", mine)], human_room="kitchen")


def guidance_labels(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 150 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-labels-{v}")
    desk, shelf, table = fx(ap, "desk", "office"), fx(ap, "shelf", "office"), fx(ap, "table", "kitchen")
    ca, cb = colors(rng, 2)
    tax, food = f"{ca}_folder", f"{cb}_folder"
    objs = [o(tax, "folder", ca, desk, 1, text="TAXES"), o(food, "folder", cb, desk, 4, text="RECIPES")]
    oracle = [f"Pick up the {d(tax)}, then put the {d(tax)} on the {d(shelf)}.",
              f"Pick up the {d(food)}, then put the {d(food)} on the {d(table)}."]
    wrong = [f"Pick up the {d(food)}, then put the {d(food)} on the {d(shelf)}.",
             f"Pick up the {d(tax)}, then put the {d(tax)} on the {d(table)}."]
    return draft("guidance", f"guidance-labels-{v}", "file two folders by their printed labels", layout, seed, objs,
                 [("on", tax, shelf), ("on", food, table)], oracle, wrong,
                 "Two folders are on my desk. The tax papers belong on the office shelf and the recipes on the "
                 "kitchen table. I can't tell them apart from here - guide me.",
                 [said("perception", "pick", tax), said("perception", "pick", food)], human_room="office")


def guidance_spill(v: int):
    layout, seed = MIXED_LAYOUTS[v], 160 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-spill-{v}")
    k = _kitchen(ap)
    cb, cs = colors(rng, 2)
    box, sponge = f"{cb}_box", f"{cs}_sponge"
    objs = [o(box, "box", cb, k["counter"], 1), o(sponge, "sponge", cs, box)]
    oracle = [f"Open the {d(box)}, then pick up the {d(sponge)}, then wipe the spill with the {d(sponge)}."]
    wrong = [f"Open the {d(box)}, then pick up the {d(sponge)}, then put the {d(sponge)} in the sink."]
    return draft("guidance", f"guidance-spill-{v}", "clean a spill with the sponge kept in a box", layout, seed, objs,
                 [("spill_clean", "spill")], oracle, wrong,
                 "I spilled something in the kitchen. The cleaning things are put away somewhere - help me clean up.",
                 [said("perception", "open", box), said("planning", "wipe", "spill")], human_room="kitchen",
                 spills=(SpillSpec("spill", "kitchen"),))


def guidance_tea(v: int):
    layout, seed = ("flat3", "office3")[v], 170 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-tea-{v}")
    k = _kitchen(ap)
    c1, c2 = colors(rng, 2)
    mine, other = f"{c1}_cup", f"{c2}_cup"
    objs = [o("kettle", "kettle", "white", k["cab"], 0), o(mine, "cup", c1, k["table"], 1), o(other, "cup", c2, k["table"], 4)]
    oracle = [f"Open the {d(k['cab'])}, then pick up the kettle, then fill the kettle, then put the kettle on the "
              f"{d(k['counter'])}, then turn on the kettle.", "Wait 2 minutes.",
              f"Pick up the kettle, then pour water into the {d(mine)}."]
    wrong = [oracle[0], "Wait 2 minutes.", f"Pick up the kettle, then pour water into the {d(other)}."]
    return draft("guidance", f"guidance-tea-{v}", "boil water with the put-away kettle for the right cup", layout, seed,
                 objs, [("boiled", "kettle"), ("filled", mine)], oracle, wrong,
                 f"I'd like hot water in my {c1} cup, but the kettle has been put away. Walk me through it.",
                 [said("memory", "open", k["cab"]), said("perception", "pour", mine)], human_room="kitchen")


def guidance_books(v: int):
    layout, seed = LIVING_LAYOUTS[v], 180 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-books-{v}")
    shelf, desk, sofa = fx(ap, "shelf", "living"), fx(ap, "desk", "office"), fx(ap, "sofa", "living")
    c1, c2 = colors(rng, 2)
    novel, manual = f"{c1}_book", f"{c2}_book"
    objs = [o(novel, "book", c1, sofa, 0, text="A NOVEL"), o(manual, "book", c2, sofa, 1, text="PRINTER MANUAL")]
    oracle = [f"Pick up the {d(novel)}, then put the {d(novel)} on the {d(shelf)}.",
              f"Pick up the {d(manual)}, then put the {d(manual)} on the {d(desk)}."]
    wrong = [f"Pick up the {d(manual)}, then put the {d(manual)} on the {d(shelf)}.",
             f"Pick up the {d(novel)}, then put the {d(novel)} on the {d(desk)}."]
    return draft("guidance", f"guidance-books-{v}", "shelve the novel and take the manual to the desk", layout, seed,
                 objs, [("on", novel, shelf), ("on", manual, desk)], oracle, wrong,
                 "Two books are lying on the sofa: the novel goes on the living room shelf, the printer manual "
                 "on the office desk. Which is which?",
                 [said("perception", "pick", novel), said("perception", "pick", manual)], human_room="living")


def guidance_remote(v: int):
    layout, seed = LIVING_LAYOUTS[v], 190 + v
    ap, rng = apartment(layout, seed), rng_for(f"g-remote-{v}")
    table, sofa = fx(ap, "table", "living"), fx(ap, "sofa", "living")
    cr, cc = colors(rng, 2)
    remote, cloth = f"{cr}_remote", f"{cc}_cloth"
    objs = [o(cloth, "cloth", cc, sofa, 1), o(remote, "remote", cr, sofa, 1, under=cloth)]
    oracle = ["Turn off the tv.", f"Uncover the {d(remote)}, then pick up the {d(remote)}, then put the {d(remote)} "
              f"on the {d(table)}."]
    wrong = ["Turn off the tv.", f"Pick up the {d(cloth)}, then put the {d(cloth)} on the {d(table)}."]
    return draft("guidance", f"guidance-remote-{v}", "switch the TV off and find the remote under a cloth", layout,
                 seed, objs, [("unpowered", "tv"), ("on", remote, table)], oracle, wrong,
                 "The TV is blaring and I've lost the remote again. Turn it off and help me put the remote "
                 "where I'll find it, on the living room table.",
                 [said("state_tracking", "turn_off", "tv"), said("perception", "uncover", remote)],
                 human_room="living", powered=("tv",))


# --- Planning ------------------------------------------------------------------------------------------
def planning_unpack(v: int):
    layout, seed = LIVING_LAYOUTS[v], 240 + v
    ap, rng = apartment(layout, seed), rng_for(f"p-unpack-{v}")
    k, table = _kitchen(ap), fx(ap, "table", "living")
    ca, cb, c1, c2 = colors(rng, 4)
    box_a, box_b, mug, can = f"{ca}_box", f"{cb}_box", f"{c1}_mug", f"{c2}_can"
    objs = [o(box_a, "box", ca, table, BOX_SLOTS[0]), o(box_b, "box", cb, table, BOX_SLOTS[1]),
            o(mug, "mug", c1, box_a), o(can, "can", c2, box_b)]
    opening = (f"open the {d(box_a)}", f"close the {d(box_a)}", f"open the {d(box_b)}", f"close the {d(box_b)}",
               "go to the kitchen")
    oracle = [f"The {d(box_a)} is on the {d(table)}. The {d(mug)} is in the {d(box_a)}. Open the {d(box_a)}, then "
              f"pick up the {d(mug)}, then put the {d(mug)} in the sink.",
              f"The {d(can)} is in the {d(box_b)}. Open the {d(box_b)}, then pick up the {d(can)}, then open the "
              f"fridge, then put the {d(can)} in the fridge."]
    wrong = [f"The {d(box_b)} is on the {d(table)}. Open the {d(box_b)}, then pick up the {d(mug)}, then put the "
             f"{d(mug)} in the sink.", f"Open the {d(box_a)}, then pick up the {d(can)}, then open the fridge, then "
             f"put the {d(can)} in the fridge."]
    return draft("planning", f"planning-unpack-{v}", "unpack two closed boxes to the right places", layout, seed, objs,
                 [("in", mug, k["sink"]), ("in", can, k["fridge"])], oracle, wrong,
                 f"I packed my {c1} mug and a {c2} can into boxes earlier. The mug goes in the sink and the can in "
                 "the fridge - plan it for me.",
                 [said("memory", "open", box_a), said("memory", "open", box_b)], opening=opening, human_room="living")


def planning_errands(v: int):
    layout, seed = LOBBY_LAYOUTS[v], 250 + v
    ap, rng = apartment(layout, seed), rng_for(f"p-errands-{v}")
    lobby = fx(ap, "desk", "lobby")
    places = [fx(ap, "shelf", "office"), fx(ap, "table", "kitchen"), fx(ap, "desk", "office")]
    cs = colors(rng, 3)
    names = [f"{c}_{cat}" for c, cat in zip(cs, ("keys", "wallet", "phone"))]
    objs = [o(n, n.split("_")[1], c, p, 2) for n, c, p in zip(names, cs, places)]
    opening = ("go to the office", "look around", "go to the kitchen", "look around", "go to the lobby")
    oracle = [f"Pick up the {d(n)}, then put the {d(n)} on the {d(lobby)}." for n in names]
    wrong = oracle[:2]
    return draft("planning", f"planning-errands-{v}", "gather keys, wallet and phone by the door", layout, seed, objs,
                 [("on", n, lobby) for n in names], oracle, wrong,
                 "I'm about to head out. I need my keys, my wallet and my phone on the lobby desk - you saw where "
                 "I left them as I walked around. Plan the shortest way.",
                 [said("memory", "pick", n) for n in names], opening=opening, human_room="lobby")


def planning_breakfast(v: int):
    layout, seed = ("studio", "flat3")[v], 260 + v
    ap, rng = apartment(layout, seed), rng_for(f"p-breakfast-{v}")
    k = _kitchen(ap)
    objs = [o("gray_pot", "pot", "gray", k["cab"], 0), o("egg", "egg", "white", k["fridge"], 1),
            o("kettle", "kettle", "white", k["counter"], 4)]
    oracle = [f"Open the {d(k['cab'])}, then pick up the gray pot, then fill the gray pot, then put the gray pot on "
              "the stove.",
              "Open the fridge, then pick up the egg, then put the egg in the gray pot, then turn on the left burner.",
              f"Pick up the kettle, then fill the kettle, then put the kettle on the {d(k['counter'])}, then turn on "
              "the kettle.", "Wait 5 minutes.", "Turn off the left burner."]
    wrong = [f"Open the {d(k['cab'])}, then pick up the gray pot, then put the gray pot on the stove.",
             oracle[1], oracle[2], "Wait 5 minutes.", "Turn off the left burner."]
    return draft("planning", f"planning-breakfast-{v}", "boil an egg and the kettle at once", layout, seed, objs,
                 [("cooked", "egg"), ("boiled", "kettle")], oracle, wrong,
                 "Breakfast: I want a boiled egg and hot water for tea, both done at the same time. Tell me the "
                 "order.",
                 [said("planning", "fill", "gray_pot"), said("reasoning", "turn_on", "left_burner")],
                 human_room="kitchen", foods=("egg",))


def planning_office(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 270 + v
    ap, rng = apartment(layout, seed), rng_for(f"p-office-{v}")
    desk, shelf, lamp = fx(ap, "desk", "office"), fx(ap, "shelf", "office"), fx(ap, "lamp", "office")
    k = _kitchen(ap)
    c1, c2, cm = colors(rng, 3)
    f1, f2, mug = f"{c1}_folder", f"{c2}_folder", f"{cm}_mug"
    objs = [o(f1, "folder", c1, desk, 0), o(f2, "folder", c2, desk, 3), o(mug, "mug", cm, desk, 6)]
    opening = ("go to the office", "look around", "go to the living room")
    oracle = [f"Pick up the {d(f1)}, then put the {d(f1)} on the {d(shelf)}.",
              f"Pick up the {d(f2)}, then put the {d(f2)} on the {d(shelf)}, then turn off the {d(lamp)}.",
              f"Pick up the {d(mug)}, then put the {d(mug)} in the sink."]
    wrong = [oracle[0], f"Pick up the {d(mug)}, then put the {d(mug)} in the sink."]
    return draft("planning", f"planning-office-{v}", "tidy the office before leaving", layout, seed, objs,
                 [("on", f1, shelf), ("on", f2, shelf), ("in", mug, k["sink"]), ("unpowered", lamp)], oracle, wrong,
                 "Before I leave: everything on my desk should be put away - papers shelved, dishes to the sink - "
                 "and nothing left switched on in there. Plan it.",
                 [said("memory", "pick", f1), said("state_tracking", "turn_off", lamp)], opening=opening,
                 human_room="living", powered=(lamp,))


def planning_movebox(v: int):
    layout, seed = OFFICE_LAYOUTS[v], 280 + v
    ap, rng = apartment(layout, seed), rng_for(f"p-movebox-{v}")
    table, desk = fx(ap, "table", "living"), fx(ap, "desk", "office")
    ca, cb, ck = colors(rng, 3)
    box_a, box_b, keys = f"{ca}_box", f"{cb}_box", f"{ck}_keys"
    objs = [o(keys, "keys", ck, table, 4), o(box_a, "box", ca, table, BOX_SLOTS[0]),
            o(box_b, "box", cb, table, BOX_SLOTS[1])]
    opening = (f"pick up the {d(keys)}", f"open the {d(box_a)}", f"put the {d(keys)} in the {d(box_a)}",
               f"close the {d(box_a)}", "go to the kitchen")
    # the opening named the boxes: help says where they are, as for anything the human has not handled
    oracle = [f"The {d(box_a)} is on the {d(table)}. Pick up the {d(box_a)}, then put the {d(box_a)} on the {d(desk)}."]
    wrong = [f"The {d(box_b)} is on the {d(table)}. Pick up the {d(box_b)}, then put the {d(box_b)} on the {d(desk)}."]
    return draft("planning", f"planning-movebox-{v}", "carry the box with the keys in it to the office", layout, seed,
                 objs, [("on", box_a, desk)], oracle, wrong,
                 "I put my spare keys in one of the boxes in the living room. Bring that box, keys inside, to the "
                 "office desk.",
                 [said("memory", "pick", box_a)], opening=opening, human_room="kitchen")


def planning_guests(v: int):
    layout, seed = LIVING_LAYOUTS[v], 290 + v
    ap, rng = apartment(layout, seed), rng_for(f"p-guests-{v}")
    lamp, table = fx(ap, "lamp", "living"), fx(ap, "table", "living")
    k = _kitchen(ap)
    cb, cc = colors(rng, 2)
    box, cup = f"{cb}_box", f"{cc}_cup"
    objs = [o(box, "box", cb, k["table"], BOX_SLOTS[0]), o(cup, "cup", cc, box)]
    opening = (f"open the {d(box)}", f"close the {d(box)}", "go to the living room")
    oracle = [f"Turn on the {d(lamp)}.", f"The {d(box)} is on the {d(k['table'])}. Turn off the right burner, then "
              f"open the {d(box)}, then pick up the "
              f"{d(cup)}, then put the {d(cup)} on the {d(table)}."]
    wrong = [f"Turn on the {d(lamp)}.", f"The {d(box)} is on the {d(k['table'])}. Open the {d(box)}, then pick up "
             f"the {d(cup)}, then put the {d(cup)} on the {d(table)}."]
    return draft("planning", f"planning-guests-{v}", "light, cup and stove before a guest arrives", layout, seed, objs,
                 [("powered", lamp), ("on", cup, table), ("unpowered", "right_burner")], oracle, wrong,
                 "A guest is coming. I want light in here, the good cup I packed away set out on this table, and "
                 "nothing left cooking. Plan it for me.",
                 [said("memory", "open", box), said("state_tracking", "turn_off", "right_burner")], opening=opening,
                 human_room="living", powered=("right_burner",))


TEMPLATES = {
    "guidance": (guidance_box, guidance_labels, guidance_spill, guidance_tea, guidance_books, guidance_remote),
    "planning": (planning_unpack, planning_errands, planning_breakfast, planning_office, planning_movebox,
                 planning_guests),
}
