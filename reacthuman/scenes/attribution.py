"""Attributions for the catalogue models a set of scenes draws (CC-BY requires naming creator and licence).

`dataset_card(specs)` is the text of DIR/ATTRIBUTION.md, which `scenes generate` rewrites with the index;
the evaluation report appends the same list for the scenes of its run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from reacthuman.core.atomic import atomic_write_text
from reacthuman.scenes.spec import SceneSpec, VisualMeshSpec

CARD_NAME = "ATTRIBUTION.md"


def used_models(specs: Iterable[SceneSpec]) -> list[tuple[VisualMeshSpec, list[str]]]:
    """Each model drawn (objects and room furniture; once, by archive member) with the scenes that draw it."""
    seen: dict[tuple[str, str], tuple[VisualMeshSpec, list[str]]] = {}
    for spec in specs:
        drawn = [b.visual for b in spec.bodies if b.visual is not None] + list(spec.furnishings)
        for visual in drawn:
            key = (visual.archive, visual.member)
            entry = seen.setdefault(key, (visual, []))
            if spec.scene_id not in entry[1]:
                entry[1].append(spec.scene_id)
    return [seen[k] for k in sorted(seen)]


def attribution_lines(specs: Iterable[SceneSpec]) -> list[str]:
    rows = used_models(specs)
    if not rows:
        return ["No catalogue models are drawn in these scenes (every object is drawn with primitives)."]
    lines = ["| model | creator | licence | source (package: archive / member) | scenes |", "|---|---|---|---|---:|"]
    for v, scenes in rows:
        lines.append(
            f"| {v.name} | {v.creator or 'unknown'} | {v.licence} | {v.package}: {v.archive} / "
            f"`{v.member}` | {len(scenes)} |"
        )
    return lines


def dataset_card(specs: Iterable[SceneSpec]) -> str:
    specs = list(specs)
    return "\n".join(
        [
            "# Object models in this scene set",
            "",
            f"{len(specs)} scene(s). Objects and room furniture are drawn with models from the Debian package "
            "`sweethome3d-furniture` and PyPI asset wheels (read where installed at run time; nothing is "
            "redistributed here). Their physics (shape, size, mass, material) is the ReactHuman object library's; "
            "the models only draw them. Models under "
            "CC-BY licences require this attribution when renders are shared:",
            "",
            *attribution_lines(specs),
            "",
        ]
    )


def write_dataset_card(out_dir: str, specs: Iterable[SceneSpec]) -> str:
    path = os.path.join(out_dir, CARD_NAME)
    atomic_write_text(path, dataset_card(specs))
    return path
