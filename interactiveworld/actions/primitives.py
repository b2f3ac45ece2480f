"""The 36 canonical action primitives of the unified action interface, each documented.

`args`: "" none, "T" a target entity, "TD" target and destination/tool, "T?D" target and optional
second entity, "N" a number, "TN" target and number, "Q" free text. `near`: which argument the human must
stand close to (navigation is inserted before the primitive when they are not).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Primitive:
    name: str
    group: str
    args: str
    near: str  # "", "T" or "D"
    doc: str
    failures: tuple[str, ...] = ()


_P = Primitive
PRIMITIVES: tuple[Primitive, ...] = (
    # navigation
    _P(
        "navigate_to",
        "navigation",
        "T",
        "",
        "Walk to a collision-checked standing place from which the target can be "
        "reached, on a route planned on the 0.10 m occupancy grid; closed room doors on the route are opened on the way.",
        ("UNKNOWN_ENTITY", "AMBIGUOUS", "NOT_KNOWN", "NOT_FOUND", "NOT_REACHABLE"),
    ),
    _P(
        "go_to_room",
        "navigation",
        "T",
        "",
        "Walk into the named room, to the free spot nearest its centre.",
        ("UNKNOWN_ENTITY", "INVALID_TARGET", "NOT_REACHABLE"),
    ),
    _P("turn_left", "navigation", "", "", "Turn 90 degrees to the left on the spot."),
    _P("turn_right", "navigation", "", "", "Turn 90 degrees to the right on the spot."),
    _P("turn_around", "navigation", "", "", "Turn 180 degrees on the spot."),
    _P(
        "step_forward",
        "navigation",
        "",
        "",
        "Take a 0.5 m step forward if the body stays clear of obstacles.",
        ("BLOCKED",),
    ),
    _P(
        "step_back",
        "navigation",
        "",
        "",
        "Take a 0.5 m step backward if the body stays clear of obstacles.",
        ("BLOCKED",),
    ),
    _P("face", "navigation", "T", "", "Turn the body to face the target.", ("UNKNOWN_ENTITY", "NOT_KNOWN")),
    # perception
    _P(
        "look_at",
        "perception",
        "T",
        "",
        "Turn body and head so the target is in the centre of view.",
        ("UNKNOWN_ENTITY", "NOT_KNOWN"),
    ),
    _P("look_up", "perception", "", "", "Tilt the head up."),
    _P("look_down", "perception", "", "", "Tilt the head down."),
    _P("look_around", "perception", "", "", "Turn once around on the spot, one view every 90 degrees."),
    _P(
        "inspect",
        "perception",
        "T",
        "T",
        "Look closely at the target: category, colour and state.",
        ("CANNOT_SEE", "NOT_KNOWN", "NOT_FOUND", "NOT_CLOSE_ENOUGH"),
    ),
    _P(
        "read",
        "perception",
        "T",
        "T",
        "Read the text written on the target (the page is held up to the eyes for one frame).",
        ("CANNOT_SEE", "NOT_READABLE", "NOT_KNOWN", "NOT_FOUND", "NOT_CLOSE_ENOUGH"),
    ),
    _P(
        "search",
        "perception",
        "T",
        "T",
        "Feel or look inside a receptacle and list what it holds.",
        ("DOOR_CLOSED", "INVALID_TARGET", "NOT_CLOSE_ENOUGH"),
    ),
    # manipulation
    _P(
        "pick",
        "manipulation",
        "T?D",
        "T",
        "Grasp the target object; it follows the wrist until released. "
        "'from D' tells where it is: the human looks there and takes only that one (no substitution).",
        (
            "HANDS_FULL",
            "NOT_KNOWN",
            "NOT_FOUND",
            "DOOR_CLOSED",
            "COVERED",
            "NOT_REACHABLE",
            "INVALID_TARGET",
            "NOT_CLOSE_ENOUGH",
        ),
    ),
    _P(
        "place_in",
        "manipulation",
        "TD",
        "D",
        "Put the held target into a receptacle (fridge, cabinet, drawer, sink, pot).",
        ("HANDS_EMPTY", "NOT_HOLDING", "DOOR_CLOSED", "NO_SPACE", "INVALID_TARGET", "NOT_REACHABLE"),
    ),
    _P(
        "place_on",
        "manipulation",
        "TD",
        "D",
        "Put the held target on a surface (counter, table, desk, shelf, stove).",
        ("HANDS_EMPTY", "NOT_HOLDING", "NO_SPACE", "INVALID_TARGET", "NOT_REACHABLE"),
    ),
    _P(
        "put_down",
        "manipulation",
        "T",
        "",
        "Set the held target on the floor in front of the body.",
        ("HANDS_EMPTY", "NOT_HOLDING", "BLOCKED"),
    ),
    _P(
        "hand_over",
        "manipulation",
        "TD",
        "D",
        "Give the held target to a person.",
        ("HANDS_EMPTY", "NOT_HOLDING", "INVALID_TARGET"),
    ),
    _P(
        "uncover",
        "manipulation",
        "T",
        "T",
        "Lift whatever covers the target and set it aside on the same surface.",
        ("HANDS_FULL", "INVALID_TARGET", "NO_SPACE"),
    ),
    _P(
        "cover",
        "manipulation",
        "T?D",
        "T",
        "Lay the held cloth or lid over the target.",
        ("HANDS_EMPTY", "WRONG_TOOL", "INVALID_TARGET"),
    ),
    _P(
        "wipe",
        "manipulation",
        "T?D",
        "T",
        "Wipe up a spill with the held cloth or sponge.",
        ("HANDS_EMPTY", "WRONG_TOOL", "INVALID_TARGET"),
    ),
    _P(
        "pour",
        "manipulation",
        "T?D",
        "T",
        "Pour the water in the held container into the target container.",
        ("HANDS_EMPTY", "EMPTY", "INVALID_TARGET"),
    ),
    # articulation and appliances
    _P(
        "open",
        "appliance",
        "T",
        "T",
        "Open a door, fridge, cabinet, wardrobe or drawer (a real joint moves).",
        ("INVALID_TARGET", "ALREADY_IN_STATE", "NOT_CLOSE_ENOUGH"),
    ),
    _P(
        "close",
        "appliance",
        "T",
        "T",
        "Close a door, fridge, cabinet, wardrobe or drawer.",
        ("INVALID_TARGET", "ALREADY_IN_STATE", "NOT_CLOSE_ENOUGH"),
    ),
    _P(
        "turn_on",
        "appliance",
        "T",
        "T",
        "Switch an appliance on (a burner's knob turns to level 2).",
        ("INVALID_TARGET", "ALREADY_IN_STATE", "UNSAFE"),
    ),
    _P(
        "turn_off",
        "appliance",
        "T",
        "T",
        "Switch an appliance off (a burner's knob turns to 0).",
        ("INVALID_TARGET", "ALREADY_IN_STATE"),
    ),
    _P("set_level", "appliance", "TN", "T", "Turn a burner's knob to level N (0 to 3).", ("INVALID_TARGET",)),
    _P(
        "press",
        "appliance",
        "T",
        "T",
        "Press an appliance's button: toggles a lamp, television or kettle.",
        ("INVALID_TARGET", "UNSAFE"),
    ),
    _P(
        "fill",
        "appliance",
        "T",
        "",
        "Fill the held container with water at the sink.",
        ("HANDS_EMPTY", "NOT_HOLDING", "INVALID_TARGET", "NOT_REACHABLE"),
    ),
    # time
    _P("wait", "time", "N", "", "Wait N seconds (default 10) while appliances keep running.", ("INVALID_TARGET",)),
    _P("set_timer", "time", "N", "", "Set a kitchen timer to ring after N seconds.", ("INVALID_TARGET",)),
    # dialogue and control
    _P("ask", "dialogue", "Q", "", "Ask the assistant a clarifying question (no change to the world)."),
    _P("confirm", "dialogue", "", "", "Report where the human is and what they hold, to confirm the state."),
    _P("halt", "dialogue", "", "", "Stop: abandon the rest of the human's own plan and wait for guidance."),
)
BY_NAME: dict[str, Primitive] = {p.name: p for p in PRIMITIVES}
assert len(PRIMITIVES) == 36 and len(BY_NAME) == 36

FAILURE_CODES: dict[str, str] = {
    "PARSE_ERROR": "the command is not one of the canonical commands",
    "NOT_ALLOWED": "this action is not available in this task",
    "UNKNOWN_ENTITY": "I do not know of that",
    "NOT_KNOWN": "I do not know of that",  # same words: an unseen object and a missing one sound alike
    "NOT_FOUND": "I do not find it where I expected",
    "AMBIGUOUS": "the name fits more than one thing",
    "INVALID_TARGET": "the action does not apply to that target",
    "NOT_CLOSE_ENOUGH": "not close enough",
    "NOT_REACHABLE": "no safe standing place or posture reaches it",
    "DOOR_CLOSED": "it is behind a closed door",
    "HANDS_FULL": "hands are full",
    "HANDS_EMPTY": "nothing in hand",
    "NOT_HOLDING": "holding something else",
    "NO_SPACE": "no free space there",
    "COVERED": "something covers it",
    "WRONG_TOOL": "the held object cannot do that",
    "ALREADY_IN_STATE": "it is already so",
    "UNSAFE": "that would be unsafe",
    "EMPTY": "the container is empty",
    "CANNOT_SEE": "the human cannot see",
    "NOT_READABLE": "there is nothing to read on it",
    "BLOCKED": "the way is blocked",
}


def catalogue_markdown() -> str:
    """The documentation table of all 36 primitives (written into the docs by `interactiveworld primitives`)."""
    rows = ["| # | primitive | group | arguments | what it does | structured failures |", "|---|---|---|---|---|---|"]
    for i, p in enumerate(PRIMITIVES, 1):
        rows.append(f"| {i} | `{p.name}` | {p.group} | {p.args or '-'} | {p.doc} | {', '.join(p.failures) or '-'} |")
    return "\n".join(rows)
