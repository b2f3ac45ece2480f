"""Failure-mode tags for a failed episode (the paper's six, plus the mechanical ones).

Each tag is a rule over the transcript and the scene's reference solution record, so the counts in a report
can be recomputed and argued with:
- premature_answer: answered in the first half of the budget with fewer simulator interventions than the
  reference solution needed.
- insufficient_simulation_time: stepped less simulated time than the reference solution did.
- answer_format_mismatch: the answer's shape differs from the truth's (number vs id/keyword, list vs scalar,
  wrong list length, or a number wrapped in text).
- object_id_confusion: a comparison answered with an existing object's id, but the wrong one.
- wrong_parameter_substitution: a mass passed to a formula tool that differs from the mass the task states
  (or, when the task states none, from the simulator's mass of that object).
- trusting_anomalous_simulation: the reasoning notes a contradiction with theory and the answer is wrong.
- budget_exhausted, api_error, unparsed_reply: the mechanical ways an episode ends without a good answer.
"""

from __future__ import annotations

import re

from physment.scene import Scene
from physment.scoring import as_list, as_number

INTERVENTIONS = (
    "step",
    "apply_force",
    "apply_torque",
    "set_velocity",
    "move_object",
    "change_position",
    "create_objects",
    "delete_objects",
    "attach_objects",
    "reset_sim",
)
MASS_TOOLS = (
    "compute_force",
    "get_kinetic_energy",
    "get_potential_energy",
    "get_rotational_energy",
    "get_momentum",
    "get_angular_momentum",
)
_KG_RE = re.compile(r"(\d+(?:\.\d+)?)\s*kg\b", re.IGNORECASE)
_ANOMALY_RE = re.compile(
    r"\b(contradict\w*|inconsistent|anomal\w*|unexpected\w*|should(?: not|n't)? .{0,40}\bbut\b|"
    r"however, (?:my|the) (?:simulation|measurement))",
    re.IGNORECASE,
)


def _shape(value: object) -> str:
    lst = as_list(value)
    if lst is not None:
        return f"list{len(lst)}"
    return "number" if as_number(value) is not None else "text"


def failure_modes(
    scene: Scene, turns: list[dict], budget: int, answer_iteration: int | None, graded: float, stepped_time_s: float
) -> list[str]:
    if graded >= 1.0 and answer_iteration is not None:
        return []
    tags: list[str] = []
    results = [r for t in turns for r in t.get("results", [])]
    if answer_iteration is None:
        tags.append("budget_exhausted")
    if any(t.get("api_error") for t in turns):
        tags.append("api_error")
    if any(t.get("parse_error") for t in turns):
        tags.append("unparsed_reply")
    reference = scene.extra.get("reference_solution") or {}
    ref_interventions = int(reference.get("interventions", 1))
    ref_time_s = float(reference.get("stepped_time_s", 0.0))
    interventions = sum(1 for r in results if r["ok"] and r["tool"] in INTERVENTIONS)
    if answer_iteration is not None:
        if answer_iteration <= max(1, budget // 2) and interventions < ref_interventions:
            tags.append("premature_answer")
        if ref_time_s > 0 and stepped_time_s < 0.5 * ref_time_s:
            tags.append("insufficient_simulation_time")
        predicted = next(r["result"]["submitted"] for r in results if r["tool"] == "answer" and r["ok"])
        truth_shape, pred_shape = _shape(scene.answer), _shape(predicted)
        truth_is_id = scene.problem_type == "comparison"
        if pred_shape != truth_shape and not (truth_is_id and pred_shape == "text"):
            tags.append("answer_format_mismatch")
        if truth_is_id:
            pid = str(predicted).strip().lower().replace("object_", "").replace("object ", "")
            if pid.isdigit() and int(pid) != int(as_number(scene.answer) or -1):
                tags.append("object_id_confusion")
    stated = [float(x) for x in _KG_RE.findall(scene.task)]
    for r in results:
        if r["ok"] and r["tool"] in MASS_TOOLS and isinstance(r.get("arguments"), dict):
            used = as_number(r["arguments"].get("mass"))
            if used is None:
                continue
            # a mass stated in the task wins over the simulator's (the paper's Scene 91 failure)
            ok_masses = stated or _sim_masses(results, r["arguments"].get("object_id"))
            if ok_masses and not any(abs(used - m) <= 0.02 * max(m, 1e-9) for m in ok_masses):
                tags.append("wrong_parameter_substitution")
                break
    reasoning = " ".join(t.get("reasoning") or "" for t in turns)
    if answer_iteration is not None and _ANOMALY_RE.search(reasoning):
        tags.append("trusting_anomalous_simulation")
    return tags


def _sim_masses(results: list[dict], object_id: object) -> list[float]:
    """Masses the simulator reported (get_parameters, create_objects) for that object."""
    out = []
    for r in results:
        res = r.get("result") or {}
        if r["ok"] and "mass_kg" in res and str(res.get("object_id")) == str(object_id).replace("object_", ""):
            out.append(float(res["mass_kg"]))
    return out
