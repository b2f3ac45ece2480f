"""Build the scene set from the templates (answers computed by running each reference solution in the lab)
and verify a scene folder: files match a fresh build, the taxonomy rules hold, and the oracle solves every
scene through the ordinary episode loop within the smallest budget it is assigned to."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
import tempfile
from pathlib import Path

from physment.agents import OracleAgent
from physment.episode import BUDGETS, EpisodeConfig, run_episode
from physment.failures import INTERVENTIONS
from physment.scene import Scene, load_scenes, parse_scene
from physment.scenegen.registry import Draft, Template
from physment.scenegen.templates import all_templates
from physment.tools import ToolBox

LOG = logging.getLogger(__name__)
EASY_MAX_INTERVENTIONS = 3
RECORDED_CALLS_MAX = 40


class BuildError(RuntimeError):
    pass


@dataclasses.dataclass
class Replay:
    answer: object
    turns: int
    calls: list[dict]
    interventions: int
    stepped_time_s: float


def replay(scene: Scene, template: Template, params: dict) -> Replay:
    """Run the reference solution directly in the lab; every call must succeed and the last must answer."""
    toolbox = ToolBox(scene)
    solver = template.solve(dict(params))
    calls, made, turns, stepped = next(solver), [], 0, 0.0
    while True:
        turns += 1
        results = []
        for c in calls:
            res = toolbox.call(c["name"], c["arguments"])
            if not res.ok:
                raise BuildError(
                    f"{scene.scene_id} ({template.name}): reference call {c['name']} failed: {res.result['error']}"
                )
            results.append(res)
            made.append({"tool": c["name"], "arguments": c["arguments"]})
            if c["name"] == "step":
                stepped += res.result["steps"] * res.result["timestep_s"]
        if toolbox.answered:
            break
        try:
            calls = solver.send([r.result for r in results])
        except StopIteration:
            raise BuildError(f"{scene.scene_id} ({template.name}): reference solution ended without answer") from None
    interventions = sum(1 for c in made if c["tool"] in INTERVENTIONS)
    return Replay(toolbox.submitted, turns, made, interventions, round(stepped, 6))


def _meta(template: Template, params: dict, draft: Draft) -> dict:
    return {
        "metadata": {
            "scene_name": draft.name,
            "task": draft.task,
            "problem_type": template.problem_type,
            "description": draft.description,
        },
        "answer": None,
        "expected_behavior": draft.expected_behavior,
        "reasoning": draft.reasoning,
        "number_of_objects": str(len(draft.objects)),
        "objects": {f"object_{oid}": {"name": name, "object_id": str(oid)} for oid, name, _ in draft.objects},
        "object_permissions": {f"object_{oid}_permissions": perms for oid, _, perms in draft.objects},
        "category": template.category,
        "difficulty": template.difficulty,
        "concepts": template.concepts,
        "modality": template.modality,
        "topic": template.topic,
    }


def generate(number: int, template: Template, params: dict) -> tuple[dict, str]:
    """(scene JSON dict with its computed answer, MJCF text) for one template parameter set."""
    draft = template.build(dict(params))
    meta = _meta(template, params, draft)
    if draft.answer_synonyms:
        meta["answer_synonyms"] = draft.answer_synonyms
    scene = parse_scene(meta, draft.xml, number, Path(f"Scene{number}"))
    rep = replay(scene, template, params)
    min_budget = next((b for b in BUDGETS if b >= rep.turns), None)
    if min_budget is None:
        raise BuildError(f"Scene{number} ({template.name}): reference needs {rep.turns} turns, more than any budget")
    meta["answer"] = rep.answer
    meta["budgets"] = [b for b in BUDGETS if b >= min_budget]
    meta["reference_solution"] = {
        "template": template.name,
        "params": params,
        "turns": rep.turns,
        "interventions": rep.interventions,
        "stepped_time_s": rep.stepped_time_s,
        "tool_calls": len(rep.calls),
        **({"calls": rep.calls} if len(rep.calls) <= RECORDED_CALLS_MAX else {}),
    }
    return meta, draft.xml


def scene_files(meta: dict, xml: str, number: int) -> dict[str, str]:
    return {f"scene{number}.json": json.dumps(meta, indent=2, default=float) + "\n", f"scene{number}.xml": xml}


def build_all() -> dict[int, dict[str, str]]:
    """Scene number -> {file name: text}, numbered 1.. in template order."""
    out: dict[int, dict[str, str]] = {}
    number = 0
    for template in all_templates():
        for params in template.params:
            number += 1
            meta, xml = generate(number, template, params)
            out[number] = scene_files(meta, xml, number)
    return out


def write_scenes(out_dir: Path) -> int:
    """Write every scene folder; the whole set appears at once (built in a sibling temp folder, then swapped)."""
    built = build_all()
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".scenes-", dir=out_dir.parent))
    for number, files in built.items():
        folder = tmp / f"Scene{number}"
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
    if out_dir.exists():
        old = out_dir.with_name(out_dir.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(out_dir, old)
        os.replace(tmp, out_dir)
        shutil.rmtree(old)
    else:
        os.replace(tmp, out_dir)
    return len(built)


def verify(scene_dir: Path, all_budgets: bool = False) -> list[str]:
    """Problems found (empty when the set is sound)."""
    problems: list[str] = []
    scenes = {s.number: s for s in load_scenes(scene_dir)}  # a bad folder fails before the build
    built = build_all()
    for number, files in built.items():
        folder = Path(scene_dir) / f"Scene{number}"
        for name, text in files.items():
            path = folder / name
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                problems.append(f"{path}: differs from a fresh build (run `physment scenes build`)")
    for number, scene in scenes.items():
        ref = scene.extra.get("reference_solution") or {}
        if scene.extra.get("difficulty") == "Easy" and ref.get("interventions", 0) > EASY_MAX_INTERVENTIONS:
            problems.append(f"{scene.scene_id}: Easy but its reference needs {ref['interventions']} interventions")
        if scene.extra.get("difficulty") == "Hard" and ref.get("interventions", 0) <= EASY_MAX_INTERVENTIONS:
            problems.append(
                f"{scene.scene_id}: Hard but its reference needs only {ref.get('interventions')} interventions"
            )
        for budget in scene.budgets if all_budgets else scene.budgets[:1]:
            row, _ = run_episode(scene, OracleAgent(), EpisodeConfig(budget=budget))
            if not row.correct:
                problems.append(
                    f"{scene.scene_id}: oracle not correct at budget {budget} "
                    f"(predicted {row.predicted!r}, truth {row.truth!r})"
                )
    return problems
