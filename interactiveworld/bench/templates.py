"""InteractiveBench's task templates, one row each: 10 per family, in the order the tasks are generated. The
patterns and the builder are in `bench.template`; `{kitchen_table}` and the like name a fixture of the variant's
apartment, the other placeholders the colours and names the row draws and spells."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from interactiveworld.bench.points import colors, quiet, said, said_by
from interactiveworld.bench.taskpack import FAMILIES
from interactiveworld.bench.template import Obj, Template, Variant
from interactiveworld.world.scene import SpillSpec

KITCHEN = ("studio", "flat3", "office3", "house5", "flat3")  # every layout has a kitchen
MIXED = ("studio", "office3")
BOX_SLOTS = (7, 10)  # slots of a 1.2 m table that a lidded box fits in, away from the edges
BOXES = {"box_a": "{ca}_box", "box_b": "{cb}_box"}  # two look-alike boxes, in colours `ca` and `cb`
MUG_IN_EACH_BOX = (Obj("{mine}", "mug", "{c1}", "{box_a}"), Obj("{other}", "mug", "{c2}", "{box_b}"))
JUICES = {"a": "{c_open}_juice", "b": "{c_sealed}_juice"}
LABELLED_JUICES = (Obj("{a}", "juice", "{c_open}", "{counter}", 1, "opened"),
                   Obj("{b}", "juice", "{c_sealed}", "{counter}", 4, "sealed"),
                   Obj("note", "note", "white", "{kitchen_table}", 0,
                       "Opened juice goes in the fridge. Sealed juice goes in the cabinet."))
SPILL = (SpillSpec("spill", "kitchen"),)
SPILL_LATER = (SpillSpec("spill", "kitchen", present=False, trigger="event"),)  # appears at the start of turn 1
SPLASH = (1, "spill", "spill", "I heard a splash in the kitchen")


def _two_boxes(on: str) -> tuple[Obj, Obj]:
    return (Obj("{box_a}", "box", "{ca}", on, BOX_SLOTS[0]), Obj("{box_b}", "box", "{cb}", on, BOX_SLOTS[1]))


def then_spill(t: Template, cloth_slot: int) -> Template:
    """The row, and after the handoff a spill in the kitchen (the human hears it) to be wiped up with a gray cloth
    from the kitchen counter: help given at the handoff cannot clean what is not there yet."""
    wipe = "Pick up the gray cloth, then wipe the spill with the gray cloth."
    return dataclasses.replace(
        t, objects=[*t.objects, Obj("gray_cloth", "cloth", "gray", "{counter}", cloth_slot)],
        goals=[*t.goals, ("wiped", "spill")], oracle=[*t.oracle, wipe], wrong=[*t.wrong, len(t.oracle)],
        handoff=t.handoff + " And something is dripping in the kitchen - it will be on the floor any moment.",
        points=[*t.points, said("state_tracking", "wipe", "spill")], spills=SPILL_LATER, events=[*t.events, SPLASH])


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
    return {**_numbered("s", surfaces[:3]), **_numbered("e", surfaces[3:6]), **_numbered("cat", cats),
            **_numbered("c", colors(t.rng, 3)), "room": t.ap.rooms[t.v % len(t.ap.rooms)].name}


def _phone(t: Variant) -> Mapping[str, object]:
    start, hide, dest = _surfaces(t, ("table", "desk", "shelf", "counter"))[:3]
    return {"start": start, "hide": hide, "dest": dest, "first_room": t.ap.rooms[0].name,
            "start_room": t.ap.fixture(start).room}


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


GUIDANCE = (
    Template(
        "guidance", "store", "store groceries by the written rules", KITCHEN, 100, colors="c1 c2",
        names={"can": "{c1}_can", "other": "{c2}_can"},
        objects=[Obj("milk", "milk", "white", "{counter}", 0), Obj("{can}", "can", "{c1}", "{counter}", 3),
                 Obj("{other}", "can", "{c2}", "{kitchen_table}", 1),
                 Obj("note", "note", "white", "{counter}", 5, "Shopping list rules: milk goes in the fridge, the "
                     "{c1} can goes in the {kitchen_cabinet}.")],
        goals=[("in", "milk", "{fridge}"), ("in", "{can}", "{kitchen_cabinet}")],
        oracle=["Open the fridge, then pick up the milk, then put the milk in the fridge.",
                "Open the {kitchen_cabinet}, then pick up the {can}, then put the {can} in the {kitchen_cabinet}."],
        wrong=["Open the {kitchen_cabinet}, then pick up the milk, then put the milk in the {kitchen_cabinet}.",
               "Open the fridge, then pick up the {can}, then put the {can} in the fridge."],
        handoff="I just put the first bag of shopping on the counter; my partner is bringing in the other one. There "
                "is a note about where things go - can you guide me?", late=["{can}"], notice="I heard someone come in and put something down",
        points=[said("reasoning", "place_in", "milk", "{fridge}"),
                said("reasoning", "place_in", "{can}", "{kitchen_cabinet}"), said("perception", "pick", "{can}")],
        human_room="kitchen", opening=["look around"]),
    Template(
        "guidance", "egg", "boil an egg safely", KITCHEN, 110, derive=_pot_color,
        objects=[Obj("pot", "pot", "{pot_color}", "{counter}", 1), Obj("egg", "egg", "white", "{counter}", 4)],
        goals=[("cooked", "egg"), ("unpowered", "right_burner")],
        oracle=["Pick up the pot, then fill the pot, then put the pot on the stove.",
                "Pick up the egg, then put the egg in the pot, then turn on the left burner.",
                "Turn off the right burner, then wait 5 minutes.", "Turn off the left burner."],
        wrong=[0, "Pick up the egg, then put the egg in the pot.", "Wait 5 minutes.", "Turn off the right burner."],
        handoff="I want a boiled egg, but I never cook. Someone was using the stove before me, and my neighbour is "
                "bringing me an egg. Tell me step by step.", late=["egg"], notice="I heard someone come in and put something down",
        points=[said("reasoning", "turn_on", "left_burner"), said("state_tracking", "turn_off", "right_burner")],
        human_room="kitchen", powered=["right_burner"], foods=["egg"]),
    Template(
        "guidance", "table", "set the table as the note says", KITCHEN, 120, colors="c0 c1 c2 c3",
        derive=_last_room, names={"a": "{c0}_mug", "b": "{c1}_mug", "c": "{c2}_mug", "spare": "{c3}_mug"},
        objects=[Obj("{a}", "mug", "{c0}", "{kitchen_cabinet}", 0), Obj("{b}", "mug", "{c1}", "{counter}", 2),
                 Obj("{c}", "mug", "{c2}", "{kitchen_cabinet}", 2),
                 Obj("{spare}", "mug", "{c3}", "{kitchen_cabinet}", 3),
                 Obj("note", "note", "white", "{kitchen_table}", 0,
                     "Tonight set the {c0} mug and the {c1} mug on the table.")],
        goals=[("on", "{a}", "{kitchen_table}"), ("on", "{b}", "{kitchen_table}")],
        oracle=["Open the {kitchen_cabinet}, then pick up the {a}, then put the {a} on the {kitchen_table}.",
                "Pick up the {b}, then put the {b} on the {kitchen_table}."],
        wrong=[0, "Pick up the {c}, then put the {c} on the {kitchen_table}."],
        handoff="There's a note on the table about which mugs to set out tonight; one mug is still being washed and "
                "will be put out in the kitchen. Help me do it.", late=["{b}"], notice="I heard a mug being put down",
        points=[said("perception", "pick", "{a}"), said("perception", "pick", "{b}")], human_room="{last_room}"),
    Template(
        "guidance", "kettle", "make hot water for tea", KITCHEN, 130, colors="c1 c2",
        names={"mug": "{c1}_mug", "other": "{c2}_mug"},
        objects=[Obj("kettle", "kettle", "white", "{counter}", 2), Obj("{mug}", "mug", "{c1}", "{counter}", 5),
                 Obj("{other}", "mug", "{c2}", "{kitchen_table}", 0)],
        goals=[("boiled", "kettle"), ("filled", "{mug}")],
        oracle=["Pick up the kettle, then fill the kettle, then put the kettle on the counter, then turn on the "
                "kettle.",
                "Wait 2 minutes.", "Pick up the kettle, then pour water into the {mug}."],
        wrong=["Pick up the kettle, then put the kettle on the counter, then turn on the kettle.", 1, 2],
        handoff="I'd like hot water for tea in my {c1} mug; my son is bringing it back to the counter. How do I use "
                "this kettle?", late=["{mug}"], notice="I heard someone come in and put something down",
        points=[said("reasoning", "fill", "kettle"), said("state_tracking", "pour", "{mug}")], human_room="kitchen"),
    Template(
        "guidance", "box", "take the right mug out of a closed box", MIXED, 140, colors="ca cb c1 c2",
        names={**BOXES, "mine": "{c1}_mug", "other": "{c2}_mug"},
        objects=[*_two_boxes("{kitchen_table}"), *MUG_IN_EACH_BOX],
        goals=[("in", "{mine}", "{sink}")],
        oracle=["Open the {box_a}, then pick up the {mine}, then put the {mine} in the sink."],
        wrong=["Open the {box_b}, then pick up the {other}, then put the {other} in the sink."],
        handoff="The movers are carrying two boxes into the kitchen; my {c1} mug got packed into one of them. Help "
                "me get it into the sink.", late=["{box_a}", "{box_b}"], notice="I heard the movers put boxes down",
        points=[said("perception", "open", "{box_a}"), said("perception", "pick", "{mine}")], human_room="kitchen"),
    Template(
        "guidance", "labels", "file two folders by their printed labels", ("flat3", "house5"), 150, colors="ca cb",
        names={"tax": "{ca}_folder", "food": "{cb}_folder"},
        objects=[Obj("{tax}", "folder", "{ca}", "{office_desk}", 1, "TAXES"),
                 Obj("{food}", "folder", "{cb}", "{office_desk}", 4, "RECIPES")],
        goals=[("on", "{tax}", "{office_shelf}"), ("on", "{food}", "{kitchen_table}")],
        oracle=["Pick up the {tax}, then put the {tax} on the {office_shelf}.",
                "Pick up the {food}, then put the {food} on the {kitchen_table}."],
        wrong=["Pick up the {food}, then put the {food} on the {office_shelf}.",
               "Pick up the {tax}, then put the {tax} on the {kitchen_table}."],
        handoff="One folder is on my desk and a colleague is bringing the other. The tax papers belong on the "
                "office shelf and the recipes on the kitchen table. I can't tell them apart - guide me.",
        late=["{food}"], notice="I heard someone come in and put something down",
        points=[said("perception", "pick", "{tax}"), said("perception", "pick", "{food}")], human_room="office"),
    Template(
        "guidance", "spill", "clean a spill with the sponge kept in a box", MIXED, 160, colors="cb cs",
        names={"box": "{cb}_box", "sponge": "{cs}_sponge"},
        objects=[Obj("{box}", "box", "{cb}", "{counter}", 1), Obj("{sponge}", "sponge", "{cs}", "{box}")],
        goals=[("wiped", "spill")],
        oracle=["Open the {box}, then pick up the {sponge}.", "Wipe the spill with the {sponge}."],
        wrong=[0, "Put the {sponge} in the sink."],
        handoff="Water is dripping off the counter - it's about to make a puddle. The cleaning things are put away "
                "somewhere - help me clean up.",
        points=[said("perception", "open", "{box}"), said("planning", "wipe", "spill")], human_room="kitchen",
        spills=SPILL_LATER, events=[SPLASH]),
    Template(
        "guidance", "tea", "boil water with the put-away kettle for the right cup", ("flat3", "office3"), 170,
        colors="c1 c2", names={"mine": "{c1}_cup", "other": "{c2}_cup"},
        objects=[Obj("kettle", "kettle", "white", "{kitchen_cabinet}", 0),
                 Obj("{mine}", "cup", "{c1}", "{kitchen_table}", 1),
                 Obj("{other}", "cup", "{c2}", "{kitchen_table}", 4)],
        goals=[("boiled", "kettle"), ("filled", "{mine}")],
        oracle=["Open the {kitchen_cabinet}, then pick up the kettle, then fill the kettle, then put the kettle on the "
                "{counter}, then turn on the kettle.", "Wait 2 minutes.",
                "Pick up the kettle, then pour water into the {mine}."],
        wrong=[0, 1, "Pick up the kettle, then pour water into the {other}."],
        handoff="I'd like hot water in my {c1} cup - my flatmate is bringing it back to the kitchen table - but the "
                "kettle has been put away. Walk me through it.", late=["{mine}"], notice="I heard someone come in and put something down",
        points=[said("memory", "open", "{kitchen_cabinet}"), said("perception", "pour", "{mine}")],
        human_room="kitchen"),
    Template(
        "guidance", "books", "shelve the novel and take the manual to the desk", ("flat3", "house5"), 180,
        colors="c1 c2", names={"novel": "{c1}_book", "manual": "{c2}_book"},
        objects=[Obj("{novel}", "book", "{c1}", "{living_sofa}", 0, "A NOVEL"),
                 Obj("{manual}", "book", "{c2}", "{living_sofa}", 1, "PRINTER MANUAL")],
        goals=[("on", "{novel}", "{living_shelf}"), ("on", "{manual}", "{office_desk}")],
        oracle=["Pick up the {novel}, then put the {novel} on the {living_shelf}.",
                "Pick up the {manual}, then put the {manual} on the {office_desk}."],
        wrong=["Pick up the {manual}, then put the {manual} on the {living_shelf}.",
               "Pick up the {novel}, then put the {novel} on the {office_desk}."],
        handoff="The novel is lying on the sofa and my son is bringing the printer manual: the novel goes on the "
                "living room shelf, the manual on the office desk. Which is which?", late=["{manual}"], notice="I heard someone come in and put something down",
        points=[said("perception", "pick", "{novel}"), said("perception", "pick", "{manual}")], human_room="living"),
    Template(
        "guidance", "remote", "switch the TV off and find the remote under a cloth", ("flat3", "house5"), 190,
        colors="cr cc", names={"remote": "{cr}_remote", "cloth": "{cc}_cloth"},
        objects=[Obj("{cloth}", "cloth", "{cc}", "{living_sofa}", 1),
                 Obj("{remote}", "remote", "{cr}", "{living_sofa}", 1, under="{cloth}")],
        goals=[("unpowered", "tv"), ("on", "{remote}", "{living_table}")],
        oracle=["Turn off the tv.",
                "The tv came back on. Turn off the tv, then uncover the {remote}, then pick up the {remote}, then put "
                "the {remote} on the {living_table}."],
        wrong=[0, "Turn off the tv, then pick up the {cloth}, then put the {cloth} on the {living_table}."],
        events=[(1, "power", "tv", "the TV just came back on")],
        handoff="The TV is blaring and I've lost the remote again. Turn it off and help me put the remote where "
                "I'll find it, on the living room table.",
        points=[said("state_tracking", "turn_off", "tv"), said("perception", "uncover", "{remote}")],
        human_room="living", powered=["tv"]),
)

PLANNING = (
    Template(
        "planning", "route", "move three objects across the home", ("house5", "flat3", "house5", "office3", "house5"),
        200, derive=_route, names={"n0": "{c0}_{cat0}", "n1": "{c1}_{cat1}", "n2": "{c2}_{cat2}"},
        objects=[Obj("{n0}", "{cat0}", "{c0}", "{s0}", 1), Obj("{n1}", "{cat1}", "{c1}", "{s1}", 1),
                 Obj("{n2}", "{cat2}", "{c2}", "{s2}", 1)],
        goals=[("on", "{n0}", "{e0}"), ("on", "{n1}", "{e1}"), ("on", "{n2}", "{e2}")],
        oracle=["Pick up the {n0}, then put the {n0} on the {e0}.", "Pick up the {n1}, then put the {n1} on the {e1}.",
                "Pick up the {n2}, then put the {n2} on the {e2}."],
        wrong=["Pick up the {n0}, then put the {n0} on the {e1}.", "Pick up the {n1}, then put the {n1} on the {e0}.",
               2],
        handoff="I need to bring the {n0} to the {e0}, the {n1} to the {e1}, the {n2} to the {e2}; my flatmate is "
                "bringing the {n2} back home. Plan it for me.", late=["{n2}"], late_turn=2, notice="I heard someone come in and put something down",
        points=[said("planning", "place_on", "{n0}", "{e0}"), said("planning", "place_on", "{n1}", "{e1}"),
                said("planning", "place_on", "{n2}", "{e2}")], human_room="{room}"),
    Template(
        "planning", "cook2", "cook egg and pasta on two burners", KITCHEN, 210,
        objects=[Obj("gray_pot", "pot", "gray", "{counter}", 0), Obj("black_pot", "pot", "black", "{counter}", 3),
                 Obj("egg", "egg", "white", "{kitchen_table}", 0),
                 Obj("pasta", "pasta", "yellow", "{kitchen_table}", 2)],
        goals=[("cooked", "egg"), ("cooked", "pasta")],
        oracle=["Pick up the gray pot, then put the gray pot on the stove, then pick up the egg, then put the egg in "
                "the gray pot.",
                "Pick up the black pot, then put the black pot on the stove, then pick up the pasta, then put the "
                "pasta in the black pot.",
                "Turn on the left burner, then turn on the right burner, then wait 5 minutes.", "Wait 4 minutes.",
                "Turn off the left burner, then turn off the right burner."],
        wrong=[0, 1, 2, 4],  # burners off before the pasta is done
        handoff="I want the egg and the pasta both cooked. The pots already have water. Egg takes 5 minutes, pasta 8.",
        points=[said("reasoning", "place_in", "egg", "gray_pot"), said("state_tracking", "turn_off", "left_burner")],
        human_room="kitchen", filled=["gray_pot", "black_pot"], foods=["egg", "pasta"]),
    Template(
        "planning", "recover", "recover from mis-stored milk and a spill", KITCHEN, 220, colors="cc",
        names={"cloth": "{cc}_cloth"},
        objects=[Obj("milk", "milk", "white", "{counter}", 0), Obj("{cloth}", "cloth", "{cc}", "{counter}", 4)],
        opening=["open the {kitchen_cabinet}", "pick up the milk", "put the milk in the {kitchen_cabinet}"],
        goals=[("in", "milk", "{fridge}"), ("wiped", "spill")],
        oracle=["Pick up the milk from the {kitchen_cabinet}, then open the fridge, then put the milk in the fridge.",
                "Pick up the {cloth}, then wipe the spill with the {cloth}."],
        wrong=[1],
        handoff="I was putting groceries away and something went wrong, and something is dripping off the counter. "
                "Help me fix it all.",
        points=[said("memory", "pick", "milk", "{kitchen_cabinet}"), said("planning", "wipe", "spill")],
        human_room="kitchen", spills=SPILL_LATER, events=[SPLASH]),
    Template(
        "planning", "reset", "reset the living room", ("studio", "flat3", "house5", "flat3", "house5"), 230,
        colors="cb cm", names={"book": "{cb}_book", "mug": "{cm}_mug"},
        objects=[Obj("{book}", "book", "{cb}", "{sofa}", 0), Obj("{mug}", "mug", "{cm}", "{living_table}", 2)],
        goals=[("unpowered", "tv"), ("on", "{book}", "{living_shelf}"), ("in", "{mug}", "{sink}")],
        oracle=["Turn off the tv.", "Pick up the {book}, then put the {book} on the {living_shelf}.",
                "Pick up the {mug}, then put the {mug} in the sink."],
        wrong=[1, "Pick up the {mug}, then put the {mug} on the counter."],
        handoff="Guests are coming. Help me reset the living room: the TV off, the book shelved and my son's mug in "
                "the sink once he has put it down.", late=["{mug}"], notice="I heard a mug being put down",
        points=[said("state_tracking", "turn_off", "tv"), said("reasoning", "place_in", "{mug}", "{sink}")],
        human_room="living", powered=["tv"]),
    Template(
        "planning", "unpack", "unpack two closed boxes to the right places", ("flat3", "house5"), 240,
        colors="ca cb c1 c2", names={**BOXES, "mug": "{c1}_mug", "can": "{c2}_can"},
        objects=[*_two_boxes("{living_table}"), Obj("{mug}", "mug", "{c1}", "{box_a}"),
                 Obj("{can}", "can", "{c2}", "{box_b}")],
        opening=["open the {box_a}", "close the {box_a}", "go to the kitchen"], late=["{box_b}"],
        notice="I heard the movers put a box down",
        goals=[("in", "{mug}", "{sink}"), ("in", "{can}", "{fridge}")],
        oracle=["The {box_a} is on the {living_table}. The {mug} is in the {box_a}. Open the {box_a}, then pick up "
                "the {mug}, then put the {mug} in the sink.",
                "The {can} is in the {box_b}. Open the {box_b}, then pick up the {can}, then open the fridge, then "
                "put the {can} in the fridge."],
        wrong=["The {box_b} is on the {living_table}. Open the {box_b}, then pick up the {mug}, then put the {mug} "
               "in the sink.",
               "Open the {box_a}, then pick up the {can}, then open the fridge, then put the {can} in the fridge."],
        handoff="I packed my {c1} mug and a {c2} can into boxes earlier; the movers are still bringing one of them "
                "in. The mug goes in the sink and the can in the fridge - plan it for me.",
        points=[said("memory", "open", "{box_a}"), said("memory", "open", "{box_b}")], human_room="living"),
    Template(
        "planning", "errands", "gather keys, wallet and phone by the door", ("office3", "house5"), 250,
        colors="ck cw cp", names={"keys": "{ck}_keys", "wallet": "{cw}_wallet", "phone": "{cp}_phone"},
        objects=[Obj("{keys}", "keys", "{ck}", "{office_shelf}", 2),
                 Obj("{wallet}", "wallet", "{cw}", "{kitchen_table}", 2),
                 Obj("{phone}", "phone", "{cp}", "{office_desk}", 2)],
        opening=["go to the office", "look around", "go to the kitchen", "look around", "go to the lobby"],
        goals=[("on", "{keys}", "{lobby_desk}"), ("on", "{wallet}", "{lobby_desk}"), ("on", "{phone}", "{lobby_desk}")],
        oracle=["Pick up the {keys}, then put the {keys} on the {lobby_desk}.",
                "Pick up the {wallet}, then put the {wallet} on the {lobby_desk}.",
                "Pick up the {phone}, then put the {phone} on the {lobby_desk}."],
        wrong=[0, 1],
        handoff="I'm about to head out. I need my keys, my wallet and my phone on the lobby desk - you saw where I "
                "left the keys and wallet as I walked around, and my flatmate is putting my phone back in the office. "
                "Plan the shortest way.", late=["{phone}"], late_turn=2, notice="I heard someone come in and put something down",
        points=[said("memory", "pick", "{keys}"), said("memory", "pick", "{wallet}"),
                said("memory", "pick", "{phone}")], human_room="lobby"),
    Template(
        "planning", "breakfast", "boil an egg and the kettle at once", ("studio", "flat3"), 260,
        objects=[Obj("gray_pot", "pot", "gray", "{kitchen_cabinet}", 0), Obj("egg", "egg", "white", "{fridge}", 1),
                 Obj("kettle", "kettle", "white", "{counter}", 4)],
        goals=[("cooked", "egg"), ("boiled", "kettle")],
        oracle=["Open the {kitchen_cabinet}, then pick up the gray pot, then fill the gray pot, then put the gray pot "
                "on the stove.",
                "Open the fridge, then pick up the egg, then put the egg in the gray pot, then turn on the left "
                "burner.",
                "Pick up the kettle, then fill the kettle, then put the kettle on the {counter}, then turn on the "
                "kettle.", "Wait 5 minutes.", "Turn off the left burner."],
        wrong=["Open the {kitchen_cabinet}, then pick up the gray pot, then put the gray pot on the stove.",
               1, 2, 3, 4],
        handoff="Breakfast: I want a boiled egg and hot water for tea, both done at the same time. Tell me the order.",
        points=[said("planning", "fill", "gray_pot"), said("reasoning", "turn_on", "left_burner")],
        human_room="kitchen", foods=["egg"]),
    Template(
        "planning", "office", "tidy the office before leaving", ("flat3", "house5"), 270, colors="c1 c2 cm",
        names={"f1": "{c1}_folder", "f2": "{c2}_folder", "mug": "{cm}_mug"},
        objects=[Obj("{f1}", "folder", "{c1}", "{office_desk}", 0), Obj("{f2}", "folder", "{c2}", "{office_desk}", 3),
                 Obj("{mug}", "mug", "{cm}", "{office_desk}", 6)],
        opening=["go to the office", "look around", "go to the living room"],
        goals=[("on", "{f1}", "{office_shelf}"), ("on", "{f2}", "{office_shelf}"), ("in", "{mug}", "{sink}"),
               ("unpowered", "{office_lamp}")],
        oracle=["Pick up the {f1}, then put the {f1} on the {office_shelf}.",
                "Pick up the {f2}, then put the {f2} on the {office_shelf}, then turn off the {office_lamp}.",
                "Pick up the {mug}, then put the {mug} in the sink."],
        wrong=[0, 2],
        handoff="Before I leave: everything on my desk should be put away - papers shelved, dishes to the sink (a "
                "colleague is bringing my mug back to it) - and nothing left switched on in there. Plan it.",
        late=["{mug}"], late_turn=2, notice="I heard someone come in and put something down",
        points=[said("memory", "pick", "{f1}"), said("state_tracking", "turn_off", "{office_lamp}")],
        human_room="living", powered=["{office_lamp}"]),
    then_spill(Template(
        "planning", "movebox", "carry the box with the keys in it to the office", ("flat3", "house5"), 280,
        colors="ca cb ck", names={**BOXES, "keys": "{ck}_keys"},
        objects=[Obj("{keys}", "keys", "{ck}", "{living_table}", 4), *_two_boxes("{living_table}")],
        opening=["pick up the {keys}", "open the {box_a}", "put the {keys} in the {box_a}", "close the {box_a}",
                 "go to the kitchen"],
        goals=[("on", "{box_a}", "{office_desk}")],
        # the opening named the boxes: help says where they are, as for anything the human has not handled
        oracle=["The {box_a} is on the {living_table}. Pick up the {box_a}, then put the {box_a} on the "
                "{office_desk}."],
        wrong=["The {box_b} is on the {living_table}. Pick up the {box_b}, then put the {box_b} on the {office_desk}."],
        handoff="I put my spare keys in one of the boxes in the living room. Bring that box, keys inside, to the "
                "office desk.",
        points=[said("memory", "pick", "{box_a}")], human_room="kitchen"), 6),
    Template(
        "planning", "guests", "light, cup and stove before a guest arrives", ("flat3", "house5"), 290, colors="cb cc",
        names={"box": "{cb}_box", "cup": "{cc}_cup"},
        objects=[Obj("{box}", "box", "{cb}", "{kitchen_table}", BOX_SLOTS[0]), Obj("{cup}", "cup", "{cc}", "{box}")],
        opening=["go to the living room"], late=["{box}"], notice="I heard a box being put down",
        goals=[("powered", "{living_lamp}"), ("on", "{cup}", "{living_table}"), ("unpowered", "right_burner")],
        oracle=["Turn on the {living_lamp}.",
                "The {box} is on the {kitchen_table}. Turn off the right burner, then open the {box}, then pick up "
                "the {cup}, then put the {cup} on the {living_table}."],
        wrong=[0, "The {box} is on the {kitchen_table}. Open the {box}, then pick up the {cup}, then put the {cup} "
                  "on the {living_table}."],
        handoff="A guest is coming. I want light in here, the good cup I packed away set out on this table (my "
                "partner is bringing its box to the kitchen) and nothing left cooking. Plan it for me.",
        points=[said("memory", "open", "{box}"), said("state_tracking", "turn_off", "right_burner")],
        human_room="living", powered=["right_burner"]),
)

ACCESSIBILITY = (  # the human is blind
    then_spill(Template(
        "accessibility", "fetch", "find the medicine bottle for a blind user", KITCHEN, 300, colors="c0 c1 c2",
        names={"pills": "{c0}_bottle", "b1": "{c1}_bottle", "b2": "{c2}_bottle"},
        objects=[Obj("{pills}", "bottle", "{c0}", "{counter}", 0), Obj("{b1}", "bottle", "{c1}", "{counter}", 2),
                 Obj("{b2}", "bottle", "{c2}", "{counter}", 4)],
        # the human took its medicine just now and put the bottle back among the others: only the assistant,
        # who watched, can tell which bottle it is
        opening=["pick up the {pills}", "put the {pills} on the {counter}"],
        goals=[("on", "{pills}", "{kitchen_table}")],
        oracle=["Pick up the {pills} from the {counter}, then put the {pills} on the {kitchen_table}."],
        wrong=["Pick up the {b1} from the {counter}, then put the {b1} on the {kitchen_table}."],
        handoff="I can't see. I just took my medicine and put the bottle back with the others; please put my "
                "medicine bottle on the kitchen table.",
        points=[said("memory", "pick", "{pills}")], blind=True, human_room="kitchen"), 6),
    Template(
        "accessibility", "phone", "recall where a blind user left the phone",
        ("house5", "flat3", "office3", "house5", "flat3"), 310, derive=_phone,
        objects=[Obj("phone", "phone", "black", "{start}", 2), Obj("wallet", "wallet", "brown", "{start}", 5)],
        opening=["pick up the phone", "put the phone on the {hide}", "go to the {first_room}", "wait 60 seconds"],
        goals=[("on", "phone", "{dest}"), ("on", "wallet", "{dest}")],
        oracle=["Pick up the phone from the {hide}, then put the phone on the {dest}.",
                "Pick up the wallet, then put the wallet on the {dest}."],
        wrong=["Pick up the phone from the {start}, then put the phone on the {dest}.", 1],
        handoff="I put my phone down somewhere a minute ago and I can't see where. Please help me put it on the "
                "{dest}, and my wallet too - a friend is bringing it back right now.", late=["wallet"], notice="I heard someone come in and put something down",
        points=[said("memory", "pick", "phone", "{hide}")], blind=True, human_room="{start_room}"),
    then_spill(Template(
        "accessibility", "burner", "make the stove safe for a blind user", KITCHEN, 320, derive=_burners,
        # both burners are on: one under the egg pot (keep it), one with nothing on it (the hazard)
        objects=[Obj("pot", "pot", "gray", "stove", "pot_slot"), Obj("egg", "egg", "white", "pot", 0)],
        goals=[("unpowered", "{stray}"), ("cooked", "egg")],
        oracle=["Turn off the {stray}, then wait 5 minutes."], wrong=["Turn off the {cooking}, then wait 5 minutes."],
        handoff="I can't see. I just started boiling an egg, but I smell something hot - I may have left another "
                "burner on. Make it safe without spoiling my egg.",
        points=[said("perception", "turn_off", "{stray}")], blind=True, human_room="kitchen",
        powered=["{cooking}", "{stray}"], filled=["pot"], foods=["egg"]), 6),
    Template(
        "accessibility", "sort", "sort look-alike mugs for a blind user", KITCHEN, 330, colors="c1 c2",
        derive=_table_or_counter, names={"a": "{c1}_mug", "b": "{c2}_mug"},
        objects=[Obj("{a}", "mug", "{c1}", "{first}", 1), Obj("{b}", "mug", "{c2}", "{second}", 4)],
        goals=[("in", "{a}", "{kitchen_cabinet}"), ("in", "{b}", "{sink}")],
        oracle=["Open the {kitchen_cabinet}, then pick up the {a}, then put the {a} in the {kitchen_cabinet}.",
                "Pick up the {b}, then put the {b} in the sink."],
        wrong=["Open the {kitchen_cabinet}, then pick up the {b}, then put the {b} in the {kitchen_cabinet}.",
               "Pick up the {a}, then put the {a} in the sink."],
        handoff="I can't tell colours apart. The {c1} mug goes in the cabinet and the {c2} mug in the sink; one is "
                "here already, the other my son is about to put down somewhere in the kitchen.", late=["{b}"],
        notice="I heard a mug being put down",
        points=[said("perception", "pick", "{a}"), said("perception", "pick", "{b}")], blind=True,
        human_room="kitchen"),
    then_spill(Template(
        "accessibility", "box", "find a blind user's glasses in the right box", MIXED, 340, colors="ca cb c1 c2",
        derive=_away_from_kitchen, names={**BOXES, "mine": "{c1}_glasses", "other": "{c2}_glasses"},
        objects=[*_two_boxes("{kitchen_table}"), Obj("{mine}", "glasses", "{c1}", "{kitchen_table}", 1),
                 Obj("{other}", "glasses", "{c2}", "{box_b}")],
        opening=["pick up the {mine}", "open the {box_a}", "put the {mine} in the {box_a}", "close the {box_a}",
                 "go to the {away}"],
        goals=[("on", "{mine}", "{counter}")],
        oracle=["The {box_a} is on the {kitchen_table}. The {mine} are in the {box_a}. Open the {box_a}, then pick "
                "up the {mine}, then put the {mine} on the {counter}."],
        wrong=["The {box_b} is on the {kitchen_table}. The {other} are in the {box_b}. Open the {box_b}, then pick "
               "up the {other}, then put the {other} on the {counter}."],
        handoff="I can't see. A moment ago I put my reading glasses away in one of the boxes, and there are other "
                "glasses around. Put mine out on the kitchen counter.",
        points=[said("memory", "open", "{box_a}"), said("memory", "pick", "{mine}")], blind=True,
        human_room="{away}"), 6),
    Template(
        "accessibility", "doors", "put the milk away and close what was left open", ("studio", "flat3"), 350,
        objects=[Obj("milk", "milk", "white", "{counter}", 2)],
        goals=[("in", "milk", "{fridge}"), ("closed", "{fridge}"), ("closed", "{kitchen_cabinet}")],
        oracle=["Close the {kitchen_cabinet}.", "The milk is on the {counter}. Pick up the milk, then put the milk in "
                "the fridge, then close the fridge."],
        wrong=[None, "The milk is on the {counter}. Pick up the milk, then put the milk in the fridge."],
        handoff="I can't see. I think I left things open in the kitchen, and my carer is bringing the milk in. "
                "Sort it out for me.", late=["milk"], notice="I heard someone come in and put something down",
        points=[said("perception", "close", "{kitchen_cabinet}"), said("perception", "pick", "milk")], blind=True,
        human_room="kitchen", open_fixtures=["{fridge}", "{kitchen_cabinet}"]),
    Template(
        "accessibility", "cup", "fill a blind user's own cup with water", ("flat3", "house5"), 360, colors="c1 c2",
        derive=_table_or_counter, names={"mine": "{c1}_cup", "other": "{c2}_cup"},
        objects=[Obj("{mine}", "cup", "{c1}", "{first}", 1), Obj("{other}", "cup", "{c2}", "{second}", 3)],
        goals=[("filled", "{mine}")],
        oracle=["Pick up the {mine}, then fill the {mine}, then put the {mine} on the {kitchen_table}."],
        wrong=["Pick up the {other}, then fill the {other}, then put the {other} on the {kitchen_table}."],
        handoff="I can't see. Fill my {c1} cup with water, please; my daughter just finished with it and is putting "
                "it down somewhere in the kitchen.", late=["{mine}"], notice="I heard a cup being put down",
        points=[said("perception", "pick", "{mine}")], blind=True, human_room="kitchen"),
    Template(
        "accessibility", "spill", "clean a spill a blind user cannot find", MIXED, 370, colors="cc",
        names={"cloth": "{cc}_cloth"}, objects=[Obj("{cloth}", "cloth", "{cc}", "{counter}", 3)],
        goals=[("wiped", "spill")],
        oracle=["Pick up the {cloth}.", "Wipe the spill with the {cloth}."],
        wrong=[0, "Put the {cloth} in the sink."],
        handoff="I can't see. I knocked a glass over and I can hear it dripping off the table - the floor will be "
                "wet in a moment. Clean it up with me.",
        points=[said("perception", "wipe", "spill")], blind=True, human_room="kitchen", spills=SPILL_LATER,
        events=[SPLASH]),
    Template(
        "accessibility", "wallet", "put away a blind user's own wallet", ("office3", "house5"), 380, colors="c1 c2",
        names={"mine": "{c1}_wallet", "other": "{c2}_wallet"},
        objects=[Obj("{mine}", "wallet", "{c1}", "{lobby_desk}", 1),
                 Obj("{other}", "wallet", "{c2}", "{lobby_desk}", 4)],
        goals=[("in", "{mine}", "{office_drawer}")],
        oracle=["Pick up the {mine}, then open the {office_drawer}, then put the {mine} in the {office_drawer}."],
        wrong=["Pick up the {other}, then open the {office_drawer}, then put the {other} in the {office_drawer}."],
        handoff="I can't see. My wallet is the {c1} one; my flatmate is putting both our wallets down on a desk "
                "somewhere. Put mine into my office drawer.", late=["{mine}", "{other}"],
        notice="I heard someone come in and put things down",
        points=[said("perception", "pick", "{mine}")], blind=True, human_room="office"),
    then_spill(Template(
        "accessibility", "pasta", "time a blind user's pasta", ("flat3", "house5"), 390,
        objects=[Obj("pot", "pot", "gray", "stove", 0), Obj("pasta", "pasta", "yellow", "pot", 0)],
        opening=["turn on the left burner", "wait 3 minutes"],
        goals=[("cooked", "pasta"), ("unpowered", "left_burner")],
        oracle=["Wait 5 minutes, then turn off the left burner."],
        wrong=["Wait 2 minutes, then turn off the left burner."],
        handoff="I can't see. My pasta needs 8 minutes and it has been on for a while already. Tell me when to "
                "switch it off.",
        points=[said("memory", "wait"), said("state_tracking", "turn_off", "left_burner")], blind=True,
        human_room="kitchen", filled=["pot"], foods=["pasta"]), 6),
)

DECISION = (  # a note, a printed label or the room's state decides where things go or what to switch
    Template(
        "decision", "desk", "return a badge and a phone to the right desks",
        ("office3", "house5", "office3", "house5", "office3"), 400,
        objects=[Obj("badge", "badge", "orange", "{kitchen_table}", 0),
                 Obj("phone", "phone", "black", "{kitchen_table}", 3),
                 Obj("note", "note", "white", "{kitchen_table}", 5, "Visitor badges are returned to the lobby desk. "
                     "Staff phones stay on the office desk.")],
        goals=[("on", "badge", "{lobby_desk}"), ("on", "phone", "{office_desk}")],
        oracle=["Pick up the badge, then put the badge on the {lobby_desk}.",
                "Pick up the phone, then put the phone on the {office_desk}."],
        wrong=["Pick up the badge, then put the badge on the {office_desk}.",
               "Pick up the phone, then put the phone on the {lobby_desk}."],
        handoff="A visitor left their badge on the kitchen table, and my son is bringing my phone there. Where should "
                "each go? There's a note.", late=["phone"], notice="I heard someone come in and put something down",
        points=[said("reasoning", "place_on", "badge", "{lobby_desk}"),
                said("reasoning", "place_on", "phone", "{office_desk}")], human_room="kitchen"),
    then_spill(Template(
        "decision", "timer", "decide when the egg is done", KITCHEN, 410, derive=_timer_room,
        objects=[Obj("pot", "pot", "gray", "stove", 0), Obj("egg", "egg", "white", "pot", 0)],
        opening=["turn on the left burner", "wait 2 minutes", "go to the {away}"],
        goals=[("cooked", "egg"), ("unpowered", "left_burner")],
        oracle=["Wait 3 minutes, then turn off the left burner."], wrong=["Turn off the left burner."],
        handoff="My egg needs 5 minutes at this heat. I put it on a little while ago - when do I turn it off?",
        points=[said("reasoning", "wait"), said("state_tracking", "turn_off", "left_burner")], human_room="kitchen",
        filled=["pot"], foods=["egg"]), 6),
    Template(
        "decision", "juice", "store opened and sealed juice correctly", KITCHEN, 420, colors="c_open c_sealed",
        names=JUICES, objects=LABELLED_JUICES, goals=[("in", "{a}", "{fridge}"), ("in", "{b}", "{kitchen_cabinet}")],
        oracle=["Open the fridge, then pick up the {a}, then put the {a} in the fridge.",
                "Open the {kitchen_cabinet}, then pick up the {b}, then put the {b} in the {kitchen_cabinet}."],
        wrong=["Open the fridge, then pick up the {b}, then put the {b} in the fridge.",
               "Open the {kitchen_cabinet}, then pick up the {a}, then put the {a} in the {kitchen_cabinet}."],
        handoff="A juice carton is on the counter and my partner is bringing another. Which goes in the fridge and "
                "which in the cabinet?", late=["{b}"], notice="I heard someone come in and put something down",
        points=[said("perception", "place_in", "{a}", "{fridge}"),
                said("reasoning", "place_in", "{b}", "{kitchen_cabinet}")], human_room="kitchen"),
    Template(
        "decision", "lamp", "light the room where the reading will happen",
        ("flat3", "house5", "flat3", "house5", "flat3"), 430, colors="cb", names={"book": "{cb}_book"},
        objects=[Obj("{book}", "book", "{cb}", "{living_shelf}", 5)],
        goals=[("powered", "{office_lamp}"), ("on", "{book}", "{office_desk}")],
        oracle=["Turn on the {office_lamp}.", "Pick up the {book}, then put the {book} on the {office_desk}."],
        wrong=["Turn on the {living_lamp}.", 1],
        handoff="I want to read my {cb} book at the desk tonight - my son is putting it back on the living room "
                "shelf. Get me set up with light where I'll be reading.", late=["{book}"], notice="I heard someone come in and put something down",
        points=[said("reasoning", "turn_on", "{office_lamp}")], human_room="living"),
    Template(
        "decision", "milk", "keep the fresh milk and pour away the expired one", KITCHEN, 440, colors="ca cb",
        rng_key="decision-milk", names={"a": "{ca}_milk", "b": "{cb}_milk"},
        objects=[Obj("{a}", "milk", "{ca}", "{counter}", 1, "fresh"),
                 Obj("{b}", "milk", "{cb}", "{counter}", 4, "expired"),
                 Obj("note", "note", "white", "{kitchen_table}", 0, "Fresh milk goes back in the fridge. Expired milk "
                     "goes in the sink to be poured away.")],
        goals=[("in", "{a}", "{fridge}"), ("in", "{b}", "{sink}")],
        oracle=["Open the {fridge}, then pick up the {a}, then put the {a} in the {fridge}.",
                "Pick up the {b}, then put the {b} in the {sink}."],
        wrong=["Pick up the {a}, then put the {a} in the {sink}.",
               "Open the {fridge}, then pick up the {b}, then put the {b} in the {fridge}."],
        handoff="A milk carton is out on the counter and my flatmate is bringing another from her room. One of them "
                "is past its date - what do I do with each?", late=["{b}"], notice="I heard someone come in and put something down",
        points=[said("perception", "place_in", "{a}", "{fridge}"), said("reasoning", "place_in", "{b}", "{sink}")],
        human_room="kitchen"),
    Template(
        "decision", "folder", "file an urgent and an archived folder",
        ("office3", "house5", "flat3", "office3", "house5"), 450, colors="ca cb", rng_key="decision-folder",
        names={"a": "{ca}_folder", "b": "{cb}_folder"},
        objects=[Obj("{a}", "folder", "{ca}", "{kitchen_table}", 1, "urgent"),
                 Obj("{b}", "folder", "{cb}", "{kitchen_table}", 4, "archive"),
                 Obj("note", "note", "white", "{kitchen_table}", 0, "Urgent folders go on the office desk. Archive "
                     "folders go in the office cabinet.")],
        goals=[("on", "{a}", "{office_desk}"), ("in", "{b}", "{office_cabinet}")],
        oracle=["Pick up the {a}, then put the {a} on the {office_desk}.",
                "Open the {office_cabinet}, then pick up the {b}, then put the {b} in the {office_cabinet}."],
        wrong=["Open the {office_cabinet}, then pick up the {a}, then put the {a} in the {office_cabinet}.",
               "Pick up the {b}, then put the {b} on the {office_desk}."],
        handoff="I brought two folders home: one is on the kitchen table, my son is bringing the other one there. "
                "Where does each one belong?", late=["{b}"], notice="I heard someone come in and put something down",
        points=[said("perception", "place_on", "{a}", "{office_desk}"),
                said("reasoning", "place_in", "{b}", "{office_cabinet}")], human_room="kitchen"),
    Template(
        "decision", "pasta", "set out tonight's pasta and put the spare away",
        # two boxes on the table leave a studio too full for clutter
        ("house5", "flat3", "office3", "house5", "flat3"), 460, colors="ca cb", rng_key="decision-pasta",
        names={"a": "{ca}_pasta", "b": "{cb}_pasta"},
        objects=[Obj("{a}", "pasta", "{ca}", "{kitchen_table}", 1, "tonight"),
                 Obj("{b}", "pasta", "{cb}", "{kitchen_table}", 4, "spare"),
                 Obj("note", "note", "white", "{kitchen_table}", 0, "The box marked tonight goes on the counter by the "
                     "stove. Spare boxes go in the cabinet.")],
        goals=[("on", "{a}", "{counter}"), ("in", "{b}", "{kitchen_cabinet}")],
        oracle=["Pick up the {a}, then put the {a} on the {counter}.",
                "Open the {kitchen_cabinet}, then pick up the {b}, then put the {b} in the {kitchen_cabinet}."],
        wrong=["Open the {kitchen_cabinet}, then pick up the {a}, then put the {a} in the {kitchen_cabinet}.",
               "Pick up the {b}, then put the {b} on the {counter}."],
        handoff="I have a box of pasta on the table and my partner is bringing another. Which one do I cook tonight "
                "and where does the other go?", late=["{b}"], notice="I heard someone come in and put something down",
        points=[said("perception", "place_on", "{a}", "{counter}"),
                said("reasoning", "place_in", "{b}", "{kitchen_cabinet}")], human_room="kitchen"),
    Template(
        "decision", "remote", "tidy the remote and a book into the living room",
        ("flat3", "house5", "studio", "flat3", "house5"), 470, colors="cb", exclude=("black",),
        names={"book": "{cb}_book"},
        objects=[Obj("remote", "remote", "black", "{kitchen_table}", 0),
                 Obj("{book}", "book", "{cb}", "{kitchen_table}", 3),
                 Obj("note", "note", "white", "{kitchen_table}", 5, "The remote lives on the living room table. Books "
                     "go on the shelf.")],
        goals=[("on", "remote", "{living_table}"), ("on", "{book}", "{living_shelf}")],
        oracle=["Pick up the remote, then put the remote on the {living_table}.",
                "Pick up the {book}, then put the {book} on the {living_shelf}."],
        wrong=["Pick up the remote, then put the remote on the {living_shelf}.",
               "Pick up the {book}, then put the {book} on the {living_table}."],
        handoff="The remote ended up on the kitchen table, and my daughter is bringing a book there too. Where do "
                "they go? There's a note.", late=["{book}"], notice="I heard someone come in and put something down",
        points=[said("reasoning", "place_on", "remote", "{living_table}"),
                said("reasoning", "place_on", "{book}", "{living_shelf}")], human_room="kitchen"),
    Template(
        "decision", "reading", "make the living room right for reading",
        ("flat3", "house5", "studio", "flat3", "house5"), 480, objects=[],
        goals=[("unpowered", "{living_tv}"), ("powered", "{living_lamp}")],
        oracle=["Turn off the {living_tv}, then turn on the {living_lamp}.",
                "The tv came back on. Turn off the {living_tv}."],
        wrong=["Turn on the {living_lamp}.", None], events=[(1, "power", "{living_tv}", "the TV just came back on")],
        handoff="I want to read in the living room now and it's getting dark. What should I switch?",
        points=[said("state_tracking", "turn_off", "{living_tv}"), said("reasoning", "turn_on", "{living_lamp}")],
        human_room="living", powered=["{living_tv}"]),
    Template(
        "decision", "keys", "put the spare keys and the wallet where the note says",
        ("house5", "office3", "house5", "office3", "house5"), 490,
        objects=[Obj("keys", "keys", "gray", "{kitchen_table}", 0),
                 Obj("wallet", "wallet", "brown", "{kitchen_table}", 3),
                 Obj("note", "note", "white", "{kitchen_table}", 5, "Spare keys go in the office drawer. The wallet "
                     "stays on the lobby desk.")],
        goals=[("in", "keys", "{office_drawer}"), ("on", "wallet", "{lobby_desk}")],
        oracle=["Open the {office_drawer}, then pick up the keys, then put the keys in the {office_drawer}.",
                "Pick up the wallet, then put the wallet on the {lobby_desk}."],
        wrong=["Open the {office_drawer}, then pick up the wallet, then put the wallet in the {office_drawer}.",
               "Pick up the keys, then put the keys on the {lobby_desk}."],
        handoff="My spare keys are on the kitchen table and my partner is bringing my wallet there. Where do they "
                "belong? I left a note.", late=["wallet"], notice="I heard someone come in and put something down",
        points=[said("reasoning", "place_in", "keys", "{office_drawer}"),
                said("reasoning", "place_on", "wallet", "{lobby_desk}")], human_room="kitchen"),
)

PREVENTION = (  # the human follows a private plan with one consequential error
    Template(
        "prevention", "store", "catch milk going into the cabinet", KITCHEN, 500, colors="c",
        names={"mug": "{c}_mug"},
        objects=[Obj("milk", "milk", "white", "{counter}", 0), Obj("{mug}", "mug", "{c}", "{kitchen_table}", 1)],
        plan=["pick up the milk", "put the milk in the {kitchen_cabinet}", "pick up the {mug}",
              "put the {mug} in the sink"],
        goals=[("in", "milk", "{fridge}"), ("in", "{mug}", "{sink}")],
        oracle=[None, "No, not the cabinet. Open the fridge, then put the milk in the fridge.", None, None],
        wrong=[None, None, "Put the {mug} in the fridge.", None],
        handoff="I'm putting the milk away and the mug in the sink. Just watch, and stop me only if I get something "
                "wrong.",
        points=[quiet(0), quiet(2), quiet(3), said("intervention_correctness", "place_in", "milk", "{fridge}"),
                said_by("intervention_timing", 1, "place_in", "milk", "{fridge}")],
        deadlines=(1,), human_room="kitchen", open_fixtures=["{kitchen_cabinet}"]),
    Template(
        "prevention", "burner", "catch the wrong burner", KITCHEN, 510,
        objects=[Obj("pot", "pot", "gray", "stove", 0), Obj("egg", "egg", "white", "{counter}", 2)],
        plan=["pick up the egg", "put the egg in the pot", "turn on the right burner", "wait 5 minutes",
              "turn off the right burner"],
        goals=[("cooked", "egg")],
        oracle=[None, None, "The pot is on the left burner. Turn on the left burner.", None,
                "Turn off the left burner."],
        wrong=[None, "Turn on the right burner.", None, None, None],
        handoff="I'm boiling an egg in the pot on the stove. Watch me and speak up only if I slip.",
        points=[quiet(0), quiet(1), quiet(3), said("intervention_correctness", "turn_on", "left_burner"),
                said_by("intervention_timing", 2, "turn_on", "left_burner")],
        deadlines=(2,), human_room="kitchen", filled=["pot"], foods=["egg"]),
    then_spill(Template(
        "prevention", "kettle", "catch an empty kettle being switched on", KITCHEN, 520,
        objects=[Obj("kettle", "kettle", "white", "{kitchen_table}", 1)],
        plan=["pick up the kettle", "put the kettle on the counter", "turn on the kettle", "wait 3 minutes"],
        goals=[("boiled", "kettle")],
        oracle=[None, None, "The kettle is empty. Pick up the kettle, then fill the kettle, then put the kettle on the "
                "counter.", None, None],
        wrong=[None, None, "Turn on the kettle.", None, None],
        handoff="I'm boiling water in the kettle. Keep an eye on me and only interrupt if something is off.",
        points=[quiet(0), quiet(1), quiet(3), said("intervention_correctness", "fill", "kettle"),
                said_by("intervention_timing", 2, "fill", "kettle")],
        deadlines=(2,), human_room="kitchen"), 6),
    Template(
        "prevention", "folder", "catch a look-alike folder", ("flat3", "office3", "house5", "flat3", "house5"), 530,
        colors="c1 c2 c3", derive=_folder_room,
        names={"mine": "{c1}_folder", "other": "{c2}_folder", "third": "{c3}_folder"},
        objects=[Obj("{mine}", "folder", "{c1}", "{office_shelf}", 4),
                 Obj("{other}", "folder", "{c2}", "{office_shelf}", 6),
                 Obj("{third}", "folder", "{c3}", "{office_shelf}", 9)],
        plan=["go to the office", "pick up the {other}", "put the {other} on the {office_desk}"],
        goals=[("on", "{mine}", "{office_desk}")],
        oracle=[None, "That is the {c2} folder; yours is the {c1} one. Pick up the {mine}, then put the {mine} on the "
                "{office_desk}.", None],
        wrong=[None, "Pick up the {third}, then put the {third} on the {office_desk}.", None],
        handoff="A colleague is putting my {c1} folder back on the office shelf; I'm taking it from there to the "
                "desk. Tell me only if I'm about to make a mistake.", late=["{mine}"],
        notice="I heard someone put something down in the office",
        points=[quiet(0), said("intervention_correctness", "pick", "{mine}"),
                said_by("intervention_timing", 1, "pick", "{mine}")], deadlines=(1,), human_room="{room}"),
    Template(
        "prevention", "box", "catch a look-alike mug taken from the wrong box", MIXED, 540, colors="ca cb c1 c2",
        names={**BOXES, "mine": "{c1}_mug", "other": "{c2}_mug"},
        objects=[*_two_boxes("{kitchen_table}"), *MUG_IN_EACH_BOX],
        plan=["open the {box_b}", "pick up the {other}", "put the {other} in the sink"],
        goals=[("in", "{mine}", "{sink}")],
        oracle=[None, "That is not your mug; yours is in the {box_a}. Open the {box_a}, then pick up the {mine}, then "
                "put the {mine} in the sink.", None],
        wrong=[None, None, "Put the {other} on the {kitchen_table}."],
        handoff="I'm getting my {c1} mug out of its box and into the sink; the movers are bringing in the last box "
                "now. Only stop me if I get it wrong.", late=["{box_a}"], notice="I heard the movers put a box down",
        points=[quiet(0), said("intervention_correctness", "pick", "{mine}"),
                said_by("intervention_timing", 1, "pick", "{mine}")], deadlines=(1,), human_room="kitchen"),
    Template(
        "prevention", "fridge", "catch the fridge being left open", ("flat3", "studio"), 550, colors="c",
        names={"juice": "{c}_juice"}, objects=[Obj("{juice}", "juice", "{c}", "{counter}", 1)],
        plan=["pick up the {juice}", "put the {juice} in the fridge", "go to the living room"],
        goals=[("in", "{juice}", "{fridge}"), ("closed", "{fridge}")],
        oracle=[None, None, "You left the fridge open. Close the fridge."],
        wrong=[None, "Put the {juice} on the {counter}.", None],
        handoff="I'm putting the juice in the fridge, it's open already, and then going to sit down. Say something "
                "only if I slip up.",
        points=[quiet(0), quiet(1), said("intervention_correctness", "close", "{fridge}"),
                said_by("intervention_timing", 2, "close", "{fridge}")],
        deadlines=(2,), human_room="kitchen", open_fixtures=["{fridge}"]),
    then_spill(Template(
        "prevention", "lamp", "catch the lamp switched on in the wrong room", ("flat3", "house5"), 560, colors="c",
        names={"book": "{c}_book"}, objects=[Obj("{book}", "book", "{c}", "{living_shelf}", 3)],
        plan=["go to the living room", "turn on the {living_lamp}", "pick up the {book}",
              "put the {book} on the {office_desk}"],
        goals=[("powered", "{office_lamp}"), ("on", "{book}", "{office_desk}")],
        oracle=[None, "That lamp is in the living room; you will read in the office. Turn on the {office_lamp}.", None,
                None],
        wrong=[None, None, None, "Put the {book} on the {living_shelf}."],
        handoff="I'll read at my office desk tonight: I'm switching on my reading light and taking my {c} book "
                "there. Speak up only if I do something wrong.",
        points=[quiet(0), said("intervention_correctness", "turn_on", "{office_lamp}"),
                said_by("intervention_timing", 1, "turn_on", "{office_lamp}"), quiet(2), quiet(3)],
        deadlines=(1,), human_room="office"), 6),
    Template(
        "prevention", "egg", "catch an egg taken off too early", ("studio", "house5"), 570,
        objects=[Obj("pot", "pot", "gray", "stove", 0), Obj("egg", "egg", "white", "{counter}", 2)],
        plan=["pick up the egg", "put the egg in the pot", "turn on the left burner", "wait 2 minutes",
              "turn off the left burner"],
        goals=[("cooked", "egg")],
        oracle=[None, None, None, None, "Two minutes is not enough. Wait 3 minutes, then turn off the left burner."],
        wrong=[None, None, "Turn on the right burner.", None, None],
        handoff="I'm boiling an egg; it has to cook through. Watch and only interrupt if I'm about to get it wrong.",
        points=[quiet(0), quiet(1), quiet(2), quiet(3), said("intervention_correctness", "wait"),
                said_by("intervention_timing", 4, "wait")],
        deadlines=(4,), human_room="kitchen", filled=["pot"], foods=["egg"]),
    Template(
        "prevention", "juice", "catch opened and sealed juice mixed up", ("flat3", "office3"), 580,
        colors="c_open c_sealed", names=JUICES, objects=LABELLED_JUICES,
        plan=["pick up the {b}", "put the {b} in the fridge", "pick up the {a}",
              "put the {a} in the {kitchen_cabinet}"],
        goals=[("in", "{a}", "{fridge}"), ("in", "{b}", "{kitchen_cabinet}")],
        oracle=[None, "That carton is sealed. Put the {b} in the {kitchen_cabinet}.", None,
                "That carton is opened. Put the {a} in the fridge."],
        wrong=[None, None, None, "Put the {a} in the sink."],
        handoff="I'm putting the two juice cartons away the way the note on the table says. Tell me only if I mix "
                "them up.",
        points=[quiet(0), quiet(2), said("intervention_correctness", "place_in", "{b}", "{kitchen_cabinet}"),
                said_by("intervention_timing", 1, "place_in", "{b}", "{kitchen_cabinet}")],
        deadlines=(1, 3), human_room="kitchen", open_fixtures=["{fridge}", "{kitchen_cabinet}"]),
    Template(
        "prevention", "badge", "catch a visitor badge returned to the wrong desk", ("office3", "house5"), 590,
        objects=[Obj("badge", "badge", "orange", "{kitchen_table}", 1),
                 Obj("note", "note", "white", "{kitchen_table}", 4, "Visitor badges go back to the lobby desk.")],
        plan=["pick up the badge", "put the badge on the {office_desk}"],
        goals=[("on", "badge", "{lobby_desk}")],
        oracle=[None, "The note says visitor badges go back to the lobby. Put the badge on the {lobby_desk}."],
        wrong=[None, "Put the badge on the {kitchen_table}."],
        handoff="A visitor left their badge here; I'm returning it. Stop me only if I'm taking it to the wrong place.",
        points=[quiet(0), said("intervention_correctness", "place_on", "badge", "{lobby_desk}"),
                said_by("intervention_timing", 1, "place_on", "badge", "{lobby_desk}")],
        deadlines=(1,), human_room="kitchen"),
)

FINDING = (  # the thing is hidden, put away, glimpsed in passing or written about; a look-alike is about
    then_spill(Template(
        "finding", "hidden", "find a folder hidden under a cloth", ("flat3", "office3", "house5", "flat3", "house5"),
        600, colors="c1 c2 cc", names={"mine": "{c1}_folder", "other": "{c2}_folder", "cloth": "{cc}_cloth"},
        objects=[Obj("{cloth}", "cloth", "{cc}", "{kitchen_table}", 1),
                 Obj("{mine}", "folder", "{c1}", "{kitchen_table}", 1, under="{cloth}"),
                 Obj("{other}", "folder", "{c2}", "{office_shelf}", 5)],
        goals=[("on", "{mine}", "{office_desk}")],
        oracle=["Uncover the {mine}, then pick up the {mine}, then put the {mine} on the {office_desk}."],
        wrong=["Pick up the {other}, then put the {other} on the {office_desk}."],
        handoff="I need my {c1} folder on the office desk, but I can't find it anywhere.",
        points=[said("perception", "uncover", "{mine}"), said("memory", "pick", "{mine}")], human_room="office"), 6),
    then_spill(Template(
        "finding", "moved", "remember where the keys were put away", ("flat3", "office3", "house5", "flat3", "house5"),
        610, objects=[Obj("keys", "keys", "yellow", "{kitchen_table}", 2),
                      Obj("wallet", "wallet", "brown", "{kitchen_table}", 5)],
        opening=["pick up the keys", "open the {office_drawer}", "put the keys in the {office_drawer}",
                 "close the {office_drawer}", "go to the kitchen", "wait 60 seconds"],
        goals=[("on", "keys", "{office_desk}")],
        oracle=["Open the {office_drawer}, then pick up the keys, then put the keys on the {office_desk}."],
        wrong=["Open the {kitchen_drawer}, then pick up the keys from the {kitchen_drawer}, then put the keys on the "
               "{office_desk}."],
        handoff="I tidied up earlier and now I can't find my keys. Help me get them onto the office desk.",
        points=[said("memory", "open", "{office_drawer}")], human_room="kitchen"), 6),
    Template(
        "finding", "bottle", "retrieve the right bottle among look-alikes",
        ("flat3", "office3", "house5", "flat3", "house5"), 620, colors="c1 c2",
        names={"mine": "{c1}_bottle", "other": "{c2}_bottle", "can": "{c1}_can"},
        objects=[Obj("{mine}", "bottle", "{c1}", "{office_shelf}", 1),
                 Obj("{other}", "bottle", "{c2}", "{office_shelf}", 2),
                 Obj("{can}", "can", "{c1}", "{office_shelf}", 5)],
        goals=[("in", "{mine}", "{fridge}")],
        oracle=["Open the fridge, then pick up the {mine}, then put the {mine} in the fridge."],
        wrong=["Open the fridge, then pick up the {other}, then put the {other} in the fridge."],
        handoff="My flatmate found my {c1} bottle of water and is putting it somewhere in the house. Get it into "
                "the fridge for me.", late=["{mine}"], notice="I heard someone put something down",
        points=[said("perception", "pick", "{mine}")], human_room="kitchen"),
    then_spill(Template(
        "finding", "nested", "find a sponge nested in a pot in a cupboard", KITCHEN, 630, colors="c1 c2",
        names={"mine": "{c1}_sponge", "other": "{c2}_sponge"},
        objects=[Obj("pot", "pot", "gray", "{kitchen_cabinet}", 0), Obj("{mine}", "sponge", "{c1}", "pot", 0),
                 Obj("{other}", "sponge", "{c2}", "{counter}", 3)],
        goals=[("in", "{mine}", "{sink}")],
        oracle=["Open the {kitchen_cabinet}, then pick up the {mine}, then put the {mine} in the sink."],
        wrong=["Pick up the {other}, then put the {other} in the sink."],
        handoff="My {c1} sponge is put away somewhere in the kitchen. Put it in the sink for me.",
        points=[said("memory", "open", "{kitchen_cabinet}"), said("perception", "pick", "{mine}")],
        human_room="kitchen"), 6),
    then_spill(Template(
        "finding", "box", "find the mug in the right closed box", ("flat3", "house5"), 640, colors="ca cb c1 c2",
        names={**BOXES, "mine": "{c1}_mug", "other": "{c2}_mug"},
        objects=[*_two_boxes("{living_table}"), *MUG_IN_EACH_BOX],
        opening=["go to the living room", "open the {box_b}", "close the {box_b}", "open the {box_a}",
                 "close the {box_a}", "go to the kitchen"],
        goals=[("on", "{mine}", "{kitchen_table}")],
        oracle=["The {box_a} is on the {living_table}. Open the {box_a}, then pick up the {mine}, then put the {mine} "
                "on the {kitchen_table}."],
        wrong=["The {box_b} is on the {living_table}. Open the {box_b}, then pick up the {other}, then put the "
               "{other} on the {kitchen_table}."],
        handoff="Where did my {c1} mug end up? I looked into some boxes earlier. Bring it to the kitchen table.",
        points=[said("memory", "open", "{box_a}"), said("perception", "pick", "{mine}")], human_room="living"), 6),
    then_spill(Template(
        "finding", "cabinet", "remember which cabinet the wallet went into", ("flat3", "house5"), 650, colors="c1 c2",
        names={"mine": "{c1}_wallet", "other": "{c2}_wallet"},
        objects=[Obj("{mine}", "wallet", "{c1}", "{office_desk}", 2),
                 Obj("{other}", "wallet", "{c2}", "{kitchen_table}", 3)],
        opening=["pick up the {mine}", "open the {office_cabinet}", "put the {mine} in the {office_cabinet}",
                 "close the {office_cabinet}", "go to the kitchen"],
        goals=[("on", "{mine}", "{kitchen_table}")],
        oracle=["The {mine} is in the {office_cabinet}. Open the {office_cabinet}, then pick up the {mine}, then put "
                "the {mine} on the {kitchen_table}."],
        wrong=["Pick up the {other}, then put the {other} on the {counter}."],
        handoff="I put my wallet away somewhere earlier and now I can't find it. Get it out onto the kitchen table.",
        points=[said("memory", "open", "{office_cabinet}")], human_room="kitchen"), 6),
    then_spill(Template(
        "finding", "glimpse", "fetch a book glimpsed in passing among look-alikes", ("flat3", "house5"), 660,
        colors="c1 c2 c3", names={"mine": "{c1}_book", "other": "{c2}_book", "third": "{c3}_book"},
        objects=[Obj("{other}", "book", "{c2}", "{office_shelf}", 1),
                 Obj("{mine}", "book", "{c1}", "{office_shelf}", 3),
                 Obj("{third}", "book", "{c3}", "{office_shelf}", 5)],
        opening=["go to the office", "look around", "go to the kitchen"],
        goals=[("on", "{mine}", "{kitchen_table}")],
        oracle=["Pick up the {mine}, then put the {mine} on the {kitchen_table}."],
        wrong=["Pick up the {other}, then put the {other} on the {kitchen_table}."],
        handoff="I walked past my {c1} book a minute ago but didn't notice where. Put it on the kitchen table.",
        points=[said("memory", "pick", "{mine}")], human_room="kitchen"), 6),
    then_spill(Template(
        "finding", "lid", "find keys covered by a lid", ("flat3", "house5"), 670, colors="c1 cl",
        names={"keys": "{c1}_keys", "lid": "{cl}_lid"},
        objects=[Obj("{keys}", "keys", "{c1}", "{counter}", 1), Obj("{lid}", "lid", "{cl}", "{counter}", 4)],
        opening=["pick up the {lid}", "cover the {keys} with the {lid}", "go to the living room"],
        goals=[("on", "{keys}", "{living_table}")],
        oracle=["The {keys} are on the {counter}. Uncover the {keys}, then pick up the {keys}, then put the {keys} on "
                "the {living_table}."],
        wrong=["Pick up the {lid}, then put the {lid} on the {living_table}."],
        handoff="My keys were lying in the kitchen a minute ago and now they're gone. Put them on the living room "
                "table.",
        points=[said("memory", "uncover", "{keys}")], human_room="living"), 6),
    Template(
        "finding", "note", "find the keys a note tells about", ("flat3", "office3"), 680, colors="c1",
        names={"keys": "{c1}_keys"},
        objects=[Obj("{keys}", "keys", "{c1}", "{office_drawer}", 1),
                 Obj("note", "note", "white", "{kitchen_table}", 2, "Your spare keys are in the office drawer.")],
        goals=[("on", "{keys}", "{kitchen_table}")],
        oracle=["Open the {office_drawer}, then pick up the {keys}, then put the {keys} on the {kitchen_table}."],
        wrong=["Open the {kitchen_drawer}, then pick up the {keys} from the {kitchen_drawer}, then put the {keys} on "
               "the {kitchen_table}."],
        handoff="Someone left me a note about where they are putting my spare keys. Bring them to the kitchen "
                "table.", late=["{keys}"], notice="I heard a drawer open and close",
        points=[said("perception", "open", "{office_drawer}")], human_room="kitchen"),
    then_spill(Template(
        "finding", "packed", "remember which box the phone was packed into", ("flat3", "house5"), 690,
        colors="ca cb c1 c2", names={**BOXES, "mine": "{c1}_phone", "other": "{c2}_phone"},
        objects=[Obj("{box_a}", "box", "{ca}", "{office_desk}", 1), Obj("{box_b}", "box", "{cb}", "{office_desk}", 4),
                 Obj("{mine}", "phone", "{c1}", "{kitchen_table}", 2), Obj("{other}", "phone", "{c2}", "{box_b}")],
        opening=["pick up the {mine}", "open the {box_a}", "put the {mine} in the {box_a}", "close the {box_a}",
                 "go to the living room"],
        goals=[("on", "{mine}", "{kitchen_table}")],
        oracle=["The {box_a} is on the {office_desk}. The {mine} is in the {box_a}. Open the {box_a}, then pick up "
                "the {mine}, then put the {mine} on the {kitchen_table}."],
        wrong=["The {box_b} is on the {office_desk}. The {other} is in the {box_b}. Open the {box_b}, then pick up "
               "the {other}, then put the {other} on the {kitchen_table}."],
        handoff="I packed my phone into a box in the office before - which one? Get it onto the kitchen table.",
        points=[said("memory", "open", "{box_a}"), said("memory", "pick", "{mine}")], human_room="living"), 6),
)

ROWS = GUIDANCE + PLANNING + ACCESSIBILITY + DECISION + PREVENTION + FINDING
TEMPLATES: dict[str, tuple[Template, ...]] = {f: tuple(t for t in ROWS if t.family == f) for f in FAMILIES}
