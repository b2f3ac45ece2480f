"""The episode loop's tool box under `--tools authors`: the prompt still lists the scene through our ToolBox
(objects, permitted attributes, timestep), and every call runs in an `AuthorsSim` with their semantics; a
result holding an `error` key is an invalid action, as their loop counted it."""

from __future__ import annotations

from typing import Any

from physment.authors.tools import AuthorsSim
from physment.lab import Lab
from physment.scene import Scene
from physment.tools import ToolBox, ToolResult


class AuthorsToolBox(ToolBox):
    def __init__(
        self, scene: Scene, switches: frozenset[str], lab: Lab | None = None, allowed: tuple[str, ...] | None = None
    ) -> None:
        super().__init__(scene, lab, allowed)
        self.switches = switches
        self.sim = AuthorsSim(scene.xml_text, switches)

    def call(self, name: str, arguments: object = None) -> ToolResult:
        if self.answered:
            return ToolResult(name, arguments, False, {"error": "the episode has ended (answer was submitted)"})
        params = arguments if isinstance(arguments, dict) else {}
        if name == "answer":
            if "answer" not in params or params["answer"] is None:
                return ToolResult(
                    name,
                    arguments,
                    False,
                    {"error": "Null answer provided. Please call the answer tool with a valid value."},
                )
            self.answered, self.submitted = True, params["answer"]
            return ToolResult(
                name, arguments, True, {"acknowledged": True, "submitted": params["answer"]}, terminal=True
            )
        if self.allowed is not None and name not in self.allowed:
            return ToolResult(name, arguments, False, {"error": f"Unknown tool '{name}'"})
        return self.run(name, dict(params))[0]

    def run(self, name: str, params: dict) -> tuple[ToolResult, Any, float]:
        """(the call's result as the episode records it, the result as their simulator returned it, their
        clock after the call): `--dialogue authors` shows a model the last two, as their loop did."""
        result, sim_time = self.sim.call(name, dict(params))
        ok = not (isinstance(result, dict) and "error" in result)
        body = result if isinstance(result, dict) else {"result": result}
        return ToolResult(name, params, ok, {**body, "sim_time": sim_time} if ok else body), result, sim_time
