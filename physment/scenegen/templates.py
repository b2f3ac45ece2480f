"""Every scene template, in the order that numbers the scenes, and the reference solution of a built scene.

The template modules register their templates (registry.scene_template) when imported here.
"""

from __future__ import annotations

from physment.scene import Scene
from physment.scenegen import t_cells, t_creation, t_hard, t_hidden, t_measure, t_standard  # noqa: F401 (they register)
from physment.scenegen.registry import Solve, Solver, Template, registered_paper_solvers, registered_templates

# Scenes are numbered module by module in this order (and, within a module, in registration order), so the
# scenes of older templates keep their numbers and ledgers stay comparable.
MODULE_ORDER = ("t_standard", "t_hard", "t_creation", "t_hidden", "t_measure", "t_cells")


def all_templates() -> list[Template]:
    by_module = registered_templates()
    return [t for module in MODULE_ORDER for m, t in by_module if m == module]


def template(name: str) -> Template:
    for t in all_templates():
        if t.name == name:
            return t
    raise KeyError(f"no scene template named {name!r}")


def paper_solvers() -> dict[str, Solve]:
    """Template name -> a reference using only the paper's 26 tools, for templates whose own resets the lab."""
    return registered_paper_solvers()


def reference_solver(scene: Scene, tools: tuple[str, ...] | None = None) -> Solver:
    """The reference solution of a generated scene (one within `tools` when the template has such a variant);
    KeyError if the scene has none."""
    ref = scene.extra.get("reference_solution")
    if not isinstance(ref, dict) or "template" not in ref:
        raise KeyError(f"{scene.scene_id} has no reference solution")
    params = dict(ref.get("params") or {})
    if tools is not None and "reset_sim" not in tools and ref["template"] in paper_solvers():
        return paper_solvers()[ref["template"]](params)
    return template(ref["template"]).solve(params)
