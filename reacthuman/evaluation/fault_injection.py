"""Faults injected into a running graph on purpose, to prove it survives them (`tools/fault_campaign.py`, the
fault tests). Off unless the environment variable REACTHUMAN_INJECT names some; every node of a graph
inherits it from the eval that launched it.

    REACTHUMAN_INJECT="spine.drop_commands=1"         the spine computes but does not send the first joint
                                                      command of each scene (a message lost to DDS discovery)
    REACTHUMAN_INJECT="spine.delay_command_s=3"       it sends the first joint command of each scene 3 s late
    REACTHUMAN_INJECT="spine.crash_at_tick=40"        its controller raises at the 40th tick of each scene

Entries are `node.fault=value`, separated by commas. A name not listed in FAULTS is refused in one line, so a
misspelt campaign never runs undisturbed while claiming otherwise."""

from __future__ import annotations

import os
from collections.abc import Mapping

INJECT_ENV = "REACTHUMAN_INJECT"
# node -> fault -> what the value means
FAULTS: dict[str, dict[str, str]] = {
    "spine": {
        "drop_commands": "the first N joint commands of each scene are computed but not sent",
        "delay_command_s": "the first joint command of each scene is sent this many wall seconds late",
        "crash_at_tick": "the controller raises at this tick (counted from 1) of each scene",
    },
}


def injected(node: str, env: Mapping[str, str] = os.environ) -> dict[str, float]:
    """The faults REACTHUMAN_INJECT sets for `node` (fault -> value); ValueError names a bad entry."""
    found: dict[str, float] = {}
    for entry in filter(None, (e.strip() for e in env.get(INJECT_ENV, "").split(","))):
        name, sep, value = entry.partition("=")
        target, dot, fault = name.strip().partition(".")
        if not (sep and dot) or fault not in FAULTS.get(target, {}):
            known = ", ".join(f"{n}.{f}" for n, fs in FAULTS.items() for f in fs)
            raise ValueError(f"{INJECT_ENV}: unknown fault {entry!r} (known: {known}; written node.fault=value)")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"{INJECT_ENV}: {entry!r} needs a number after '='") from None
        if not number >= 0:
            raise ValueError(f"{INJECT_ENV}: {entry!r} must be >= 0")
        if target == node:
            found[fault] = number
    return found
