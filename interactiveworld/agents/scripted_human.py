"""The deterministic scripted executor: follows canonical instructions exactly, never substitutes, asks
when a name is ambiguous or unknown, and otherwise carries on with its own private plan (Prevention)."""

from __future__ import annotations

from interactiveworld.actions.entities import Catalog
from interactiveworld.actions.parser import Command, ParseFailure, parse_command, parse_speech
from interactiveworld.agents.base import HumanDecision, HumanView


def drop_replaced(plan: list[str], cmd: Command, catalog: Catalog) -> None:
    """An instruction replaces the next step of the human's own plan that does the same kind of thing;
    'halt' drops the whole plan."""
    if cmd.verb == "halt":
        plan.clear()
        return
    for i, step in enumerate(plan):
        parsed = parse_command(step, catalog)
        if isinstance(parsed, Command) and parsed.verb == cmd.verb:
            del plan[i]
            return


class ScriptedHuman:
    name = "scripted"

    def __init__(self) -> None:
        self.plan: list[str] = []
        self.catalog: Catalog | None = None

    def reset(self, private_plan: tuple[str, ...], blind: bool, catalog: Catalog) -> None:
        self.plan = list(private_plan)
        self.catalog = catalog

    def _drop_replaced(self, cmd: Command) -> None:
        drop_replaced(self.plan, cmd, self.catalog)

    def decide(self, assistant_speech: str | None, view: HumanView) -> HumanDecision:
        if assistant_speech and assistant_speech.strip():
            parsed = parse_speech(assistant_speech, self.catalog)
            unclear = next((i for i, p in enumerate(parsed) if isinstance(p, ParseFailure)), None)
            # the clear steps before an unclear one are carried out; then the human asks and waits
            cmds = [p for p in parsed[:unclear] if isinstance(p, Command)]
            for c in cmds:
                self._drop_replaced(c)
            speech = ""
            if unclear is not None:
                u = parsed[unclear]
                speech = f"Which {u.detail} do you mean? I am not sure what '{u.text.strip()}' refers to."
            return HumanDecision(commands=[c.text for c in cmds], speech=speech)
        if self.plan:
            return HumanDecision(commands=[self.plan.pop(0)], from_assistant=False)
        return HumanDecision()
