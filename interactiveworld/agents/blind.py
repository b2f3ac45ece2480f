"""The blind assistant: an admission control that gets no images, only the human's words, and tries the
usual moves of the task's family with the names it heard. A task it passes does not need the assistant's
eyes or memory; InteractiveBench admits a family only while this control passes at most 10% of it.

Its vocabulary is the public command grammar (object categories, colours, furniture words), never the
task's answer key.
"""

from __future__ import annotations

import re

from interactiveworld.agents.base import AssistantBrief, AssistantObservation, AssistantReply
from interactiveworld.world.objects import CATEGORIES, COLORS_RGBA

FURNITURE = (
    "office desk",
    "lobby desk",
    "kitchen table",
    "kitchen cabinet",
    "living room shelf",
    "office shelf",
    "desk",
    "table",
    "counter",
    "shelf",
    "fridge",
    "cabinet",
    "drawer",
    "sink",
    "wardrobe",
    "bed",
    "stove",
)
RECEPTACLES = ("fridge", "kitchen cabinet", "drawer", "wardrobe", "box")
ROOMS = ("kitchen", "living", "office", "lobby", "bedroom")
INSIDE_WORDS = ("fridge", "cabinet", "drawer", "sink", "wardrobe", "pot", "box")
OPENABLE_WORDS = ("fridge", "cabinet", "drawer", "wardrobe", "box")
MOVES_PER_TURN = 3  # each move is two or three commands; the human carries out at most 8 a turn
_FOUND = re.compile(r"inside the ([a-z ]+?): ([a-z ,]+?)(?:\.|$)")


def _things(text: str) -> list[str]:
    """'colour category' or 'category' phrases in the order said."""
    words = re.findall(r"[a-z]+(?!')", text.lower())
    out: list[str] = []
    for i, w in enumerate(words):
        cat = w if w in CATEGORIES else (w[:-1] if w.endswith("s") and w[:-1] in CATEGORIES else "")
        if not cat:
            continue
        phrase = f"{words[i - 1]} {cat}" if i and words[i - 1] in COLORS_RGBA else cat
        if phrase not in out:
            out.append(phrase)
    return out


def _places(text: str) -> list[str]:
    t = re.sub(r"\bshelved\b", "on the shelf", text.lower())
    hits = sorted((m.start(), f) for f in FURNITURE for m in re.finditer(rf"\b(?:on|to|in|onto|into|at) the {f}\b", t))
    out: list[str] = []
    for _, f in hits:
        if f not in out and not any(f in o for o in out):
            out.append(f)
    return out


def _put(thing: str, place: str) -> str:
    if any(w in place for w in OPENABLE_WORDS):
        return f"open the {place}, then put the {thing} in the {place}"
    if any(w in place for w in INSIDE_WORDS):
        return f"put the {thing} in the {place}"
    return f"put the {thing} on the {place}"


def _switches(text: str) -> list[str]:
    t = text.lower()
    out = []
    if re.search(r"stove|burner|hot|cook", t):
        out.append("Turn off the left burner, then turn off the right burner.")
    if re.search(r"\btv\b|television", t):
        out.append("Turn off the tv.")
    if re.search(r"\blamp\b|\blight\b", t):
        out.append("Turn on the lamp.")
    if "kettle" in t:
        out.append(
            "Pick up the kettle, then fill the kettle, then put the kettle on the counter, then turn on the kettle."
        )
    return out


class BlindAssistant:
    """Move lists by family; each turn it speaks the next move, then declares done."""

    name = "blind"

    def __init__(self) -> None:
        self.family = ""
        self.moves: list[str] = []
        self.heard: list[str] = []
        self.things: list[str] = []
        self.dest = ""

    def reset(self, brief: AssistantBrief) -> None:
        self.family, self.moves, self.heard, self.things, self.dest = brief.family, [], [], [], ""

    def _plan(self, handoff: str) -> list[str]:
        self.things = [t for t in _things(handoff) if t not in ("note",)]
        places = _places(handoff)
        self.dest = places[-1] if places else ""
        rooms = [r for r in ROOMS if re.search(rf"\b{r}\b(?! table| cabinet| shelf| desk)", handoff, re.I)]
        moves = ["Look around."] + [f"Go to the {r}, then look around." for r in rooms]
        moves += _switches(handoff)
        for thing in self.things:
            for dest in places:
                moves.append(f"Pick up the {thing}, then {_put(thing, dest)}.")
                # the handoff may have said where the thing is: name that place as where to pick it from
                moves += [
                    f"Pick up the {thing} from the {src}, then {_put(thing, dest)}." for src in places if src != dest
                ]
        if self.family in ("finding", "accessibility", "planning"):
            moves += [f"Open the {r}, then search the {r}." for r in RECEPTACLES]
        return moves

    def _found_moves(self) -> list[str]:
        """Things the human reported finding that fit what the handoff asked for."""
        out = []
        for text in self.heard:
            for place, items in _FOUND.findall(text.lower()):
                for item in (i.strip() for i in items.split(",")):
                    if any(item == t or item.endswith(" " + t) for t in self.things) and self.dest:
                        out.append(f"Pick up the {item} from the {place}, then {_put(item, self.dest)}.")
        return out

    def act(self, obs: AssistantObservation) -> AssistantReply:
        if obs.turn == 0:
            self.moves = self._plan(obs.human_speech)
        else:
            self.heard.append(obs.human_speech)
            self.moves = self._found_moves()[:1] + self.moves
        said: list[str] = []
        while self.moves and len(said) < MOVES_PER_TURN:  # as much as the human takes in one turn
            move = self.moves.pop(0)
            if move not in self.heard:  # never repeats itself
                self.heard.append(move)
                said.append(move)
        return AssistantReply("speak", " ".join(said)) if said else AssistantReply("done")
