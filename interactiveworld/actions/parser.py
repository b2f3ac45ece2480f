"""Deterministic parsing of command text into typed goals, and of speech into command clauses."""

from __future__ import annotations

import re
from dataclasses import dataclass

from interactiveworld.actions.entities import Catalog

_LEAD = re.compile(
    r"^(?:(?:please|now|next|first|then|finally|and|ok|okay|so|also|you should|can you|could you|"
    r"go ahead and|i need you to|now please)\s+)+"
)
_ARTICLES = re.compile(r"\b(?:the|a|an|your|my)\b")
_NUM = r"(?P<n>\d+(?:\.\d+)?)\s*(?P<u>seconds?|secs?|s|minutes?|mins?|m)?"

# (primitive, pattern) in priority order; named groups: t target, d second entity, n number, q text
PATTERNS: tuple[tuple[str, str], ...] = (
    ("ask", r"^ask (?P<q>.+)$"),
    ("halt", r"^(?:halt|stop)$"),
    ("confirm", r"^confirm$"),
    ("turn_left", r"^turn left$"),
    ("turn_right", r"^turn right$"),
    ("turn_around", r"^turn around$"),
    ("step_forward", r"^(?:step|move|walk) forward$"),
    ("step_back", r"^(?:step|move|walk) back(?:wards?)?$"),
    ("look_up", r"^look up$"),
    ("look_down", r"^look down$"),
    ("look_around", r"^look around$"),
    ("set_timer", r"^set timer (?:for )?" + _NUM + "$"),
    ("wait", r"^wait(?: for)?(?: " + _NUM + ")?$"),
    ("set_level", r"^(?:set|turn) (?P<t>.+?) to (?:level )?(?P<n>\d+)$"),
    ("turn_on", r"^(?:turn|switch) on (?P<t>.+)$"),
    ("turn_on", r"^(?:turn|switch) (?P<t>.+) on$"),
    ("turn_off", r"^(?:turn|switch) off (?P<t>.+)$"),
    ("turn_off", r"^(?:turn|switch) (?P<t>.+) off$"),
    ("search", r"^(?:search|look inside|look in|check inside|check in|feel inside) (?P<t>.+)$"),
    ("look_at", r"^look at (?P<t>.+)$"),
    ("face", r"^(?:face|turn to(?:wards?)?) (?P<t>.+)$"),
    ("inspect", r"^(?:inspect|examine|check) (?P<t>.+)$"),
    ("read", r"^read (?P<t>.+)$"),
    ("put_down", r"^(?:put down|drop|set down) (?P<t>.+)$"),
    ("put_down", r"^put (?P<t>.+) down$"),
    ("place_in", r"^(?:put|place|store|move|return) (?P<t>.+?) (?:in|into|inside|back in|back into) (?P<d>.+)$"),
    ("place_on", r"^(?:put|place|set|move|return) (?P<t>.+?) (?:on|onto|on top of|back on) (?P<d>.+)$"),
    ("hand_over", r"^(?:hand over|hand|give) (?P<t>.+?) to (?P<d>.+)$"),
    ("pick", r"^(?:pick|take|grab|get|lift) (?P<t>.+?) (?:up|out)(?: (?:from|out of|off) (?P<d>.+))?$"),
    ("pick", r"^(?:pick up|pick|take|grab|get) (?P<t>.+?)(?: (?:from|out of|off) (?P<d>.+))?$"),
    ("uncover", r"^(?:uncover|remove cover from|lift cover off|take cover off) (?P<t>.+)$"),
    ("cover", r"^cover (?P<t>.+?)(?: with (?P<d>.+))?$"),
    ("wipe", r"^(?:wipe|clean|mop)(?: up)? (?P<t>.+?)(?: with (?P<d>.+))?$"),
    ("pour", r"^pour (?:water |(?P<d>.+?) )?(?:into|in) (?P<t>.+)$"),
    ("open", r"^open (?P<t>.+)$"),
    ("close", r"^(?:close|shut) (?P<t>.+)$"),
    ("press", r"^(?:press|push) (?:button on )?(?P<t>.+)$"),
    ("fill", r"^fill (?P<t>.+?)(?: with water)?(?: at (?P<d>.+))?$"),
    ("navigate_to", r"^(?:go|walk|navigate|move|head|come)(?: over| back)? to (?P<t>.+)$"),
    ("go_to_room", r"^(?:go|walk|head|come)(?: back)? (?:in)?to (?P<t>.+)$"),
)
_COMPILED = tuple((p, re.compile(rx)) for p, rx in PATTERNS)


@dataclass(frozen=True)
class Command:
    verb: str
    target: str = ""
    dest: str = ""
    number: float | None = None
    text: str = ""  # the clause as said


@dataclass(frozen=True)
class ParseFailure:
    code: str  # PARSE_ERROR, UNKNOWN_ENTITY, AMBIGUOUS
    text: str
    detail: str = ""


def clean(text: str) -> str:
    t = text.lower().strip()
    t = re.sub(r"[^a-z0-9.\s_-]", " ", t).replace("_", " ").replace("-", " ")
    t = _ARTICLES.sub(" ", t)
    t = re.sub(r"\s+", " ", t).strip(" .")
    return _LEAD.sub("", t).strip()


# words a command can start with (after the polite lead-ins): a comma or an "and" before one of these
# starts a new command ("open the fridge, take the milk and put it on the table")
VERB_WORDS = (
    "go",
    "walk",
    "navigate",
    "move",
    "head",
    "come",
    "pick",
    "take",
    "grab",
    "get",
    "put",
    "place",
    "store",
    "set",
    "return",
    "open",
    "close",
    "shut",
    "turn",
    "switch",
    "press",
    "push",
    "fill",
    "pour",
    "wipe",
    "clean",
    "mop",
    "cover",
    "uncover",
    "remove",
    "lift",
    "hand",
    "give",
    "drop",
    "search",
    "look",
    "check",
    "feel",
    "face",
    "inspect",
    "examine",
    "read",
    "wait",
    "step",
    "halt",
    "stop",
    "confirm",
    "ask",
    "please",
    "now",
    "next",
    "finally",
    "also",
    "then",
)
_VERB_AHEAD = r"(?=(?:" + "|".join(VERB_WORDS) + r")\b)"
PRONOUNS = ("it", "them", "that one", "this one")
PLACE_VERBS = ("open", "close", "navigate_to", "go_to_room", "search", "face", "look_at")


def split_clauses(speech: str) -> list[str]:
    """Speech -> candidate command clauses, in order: sentences, "then", and commas or "and" before a verb."""
    parts = re.split(
        r"\n|;|(?<![0-9])\.(?![0-9])|,? and then |,? then |!|\?|,\s*(?:and\s+)?"
        + _VERB_AHEAD
        + r"|\s+and\s+"
        + _VERB_AHEAD,
        speech,
        flags=re.I,
    )
    return [p.strip() for p in parts if p and p.strip()]


_PRONOUN = r"\b(?:" + "|".join(PRONOUNS) + r")\b"
_PLACE_WORDS = r"(?:in|into|inside|on|onto|on top of|to|from|out of|off|with|at)"


def with_referent(clause: str, thing: str, place: str) -> str:
    """Replaces pronouns by the last named entity: after a preposition by the last named place ("put the milk
    in it" after "open the fridge"), elsewhere by the last named thing ("take the milk and put it away")."""

    def name(n: str) -> str:
        return f"the {n.replace('_', ' ')}"

    if place:
        clause = re.sub(rf"\b({_PLACE_WORDS}) {_PRONOUN}", lambda m: f"{m.group(1)} {name(place)}", clause, flags=re.I)
    if thing:
        clause = re.sub(_PRONOUN, name(thing), clause, flags=re.I)
    return clause


def _seconds(n: str | None, unit: str | None, default: float | None) -> float | None:
    if n is None:
        return default
    v = float(n)
    return v * 60.0 if unit and unit.startswith("m") else v


def parse_command(text: str, catalog: Catalog) -> Command | ParseFailure:
    t = clean(text)
    for verb, rx in _COMPILED:
        m = rx.match(t)
        if not m:
            continue
        g = m.groupdict()
        if verb == "ask":
            return Command("ask", text=g["q"])
        ent: dict[str, str] = {}
        for key in ("t", "d"):
            if g.get(key):
                raw = g[key]
                if key == "t" and verb in ("pour", "fill") and raw in ("water",):
                    continue
                name, code = catalog.resolve(raw)
                if name is None:
                    return ParseFailure(code, text, raw)
                ent[key] = name
        if verb in ("navigate_to", "go_to_room") and ent.get("t"):
            verb = "go_to_room" if catalog.kind(ent["t"]) == "room" else "navigate_to"
        number = None
        if verb in ("wait", "set_timer", "set_level"):
            number = _seconds(g.get("n"), g.get("u"), 10.0 if verb == "wait" else None)
            if verb == "set_level":
                number = float(g["n"])
        return Command(verb, ent.get("t", ""), ent.get("d", ""), number, text)
    return ParseFailure("PARSE_ERROR", text)


def parse_speech(speech: str, catalog: Catalog) -> list[Command | ParseFailure]:
    """Every clause that looks like a command (starts with a known verb) is parsed; chatter is dropped.
    A pronoun stands for the entity the previous command acted on."""
    out: list[Command | ParseFailure] = []
    thing = place = ""
    for clause in split_clauses(speech):
        r = parse_command(with_referent(clause, thing, place), catalog)
        if isinstance(r, ParseFailure) and r.code == "PARSE_ERROR":
            continue
        if isinstance(r, Command):
            if r.dest:
                place = r.dest
            if r.target and r.verb in PLACE_VERBS:
                place = r.target  # "open the fridge and put the milk in it"; "it" keeps the thing in hand
                thing = thing or r.target
            elif r.target:
                thing = r.target
        out.append(r)
    return out


def command_text(verb: str, target: str = "", dest: str = "", number: float | None = None) -> str:
    """The canonical English of a typed command (what the oracle says and the parser reads back)."""
    t, d = target.replace("_", " "), dest.replace("_", " ")
    n = "" if number is None else (str(int(number)) if float(number).is_integer() else str(number))
    return {
        "navigate_to": f"go to the {t}",
        "go_to_room": f"go to the {t}",
        "turn_left": "turn left",
        "turn_right": "turn right",
        "turn_around": "turn around",
        "step_forward": "step forward",
        "step_back": "step back",
        "face": f"face the {t}",
        "look_at": f"look at the {t}",
        "look_up": "look up",
        "look_down": "look down",
        "look_around": "look around",
        "inspect": f"inspect the {t}",
        "read": f"read the {t}",
        "search": f"search the {t}",
        "pick": f"pick up the {t}" + (f" from the {d}" if d else ""),
        "place_in": f"put the {t} in the {d}",
        "place_on": f"put the {t} on the {d}",
        "put_down": f"put down the {t}",
        "hand_over": f"give the {t} to the {d}",
        "uncover": f"uncover the {t}",
        "cover": f"cover the {t}" + (f" with the {d}" if d else ""),
        "wipe": f"wipe the {t}" + (f" with the {d}" if d else ""),
        "pour": f"pour water into the {t}",
        "open": f"open the {t}",
        "close": f"close the {t}",
        "turn_on": f"turn on the {t}",
        "turn_off": f"turn off the {t}",
        "set_level": f"set the {t} to level {n}",
        "press": f"press the {t}",
        "fill": f"fill the {t}",
        "wait": f"wait {n} seconds" if n else "wait",
        "set_timer": f"set a timer for {n} seconds",
        "ask": f"ask {t}",
        "confirm": "confirm",
        "halt": "halt",
    }[verb]
