"""The six scoring dimensions and the Final Score.

Per episode: C correctness (graded, partial credit per list element), E efficiency 1 - k/I_max (0 when the
budget ran out), G groundedness (numbers asserted in the reasoning that match a value some earlier tool call
returned), V action validity (valid calls / calls, unusable replies counting as invalid), R reasoning
diversity (1 - the maximum bigram repetition). Per group: G' generalisation, the accuracy on held-out
categories. FS = 100 * w . (C, E, G, V, R, G') (a group with no held-out scene renormalises the weights)."""

from __future__ import annotations

import collections
import math
import re

from physment.failures import failure_modes
from physment.scene import Scene
from physment.scoring import embedded_numbers

WEIGHTS = {
    "correctness": 0.40,
    "efficiency": 0.15,
    "groundedness": 0.15,
    "validity": 0.10,
    "diversity": 0.10,
    "generalisation": 0.10,
}
# categories no worked example covers: the agent meets them without a demonstration
HELD_OUT_CATEGORIES = ("Hard Multi", "Hard Single + Hidden", "Hard Multi + Creation", "Scene Manipulation")
GROUNDING_REL_TOL = 0.01
_WORD_RE = re.compile(r"[a-z_]+|\d+(?:\.\d+)?")


def _numbers_in(value: object) -> list[float]:
    out: list[float] = []
    if isinstance(value, bool):
        return out
    if isinstance(value, (int, float)):
        out.append(float(value))
    elif isinstance(value, dict):
        for v in value.values():
            out += _numbers_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out += _numbers_in(v)
    return out


def _is_assertion(x: float) -> bool:
    """A quantitative claim, not a count or an index: non-integers and integers above 10."""
    return not float(x).is_integer() or abs(x) > 10


def _traceable(x: float, seen: list[float]) -> bool:
    return any(
        abs(x - s) <= GROUNDING_REL_TOL * max(abs(s), 1e-9) + 1e-9
        or (abs(x) > 0 and abs(abs(x) - abs(s)) <= GROUNDING_REL_TOL * abs(s))
        for s in seen
    )


def groundedness(turns: list[dict], given: list[float] | None = None) -> float:
    """Fraction of asserted numbers traceable to an earlier tool result (1.0 when nothing is asserted).
    Numbers the task itself states (`given`) restate the problem and are not counted as assertions."""
    seen: list[float] = []
    asserted = traced = 0
    for turn in turns:
        for x in embedded_numbers(turn.get("reasoning") or ""):
            if _is_assertion(x) and not _traceable(x, list(given or [])):
                asserted += 1
                traced += _traceable(x, seen)
        for res in turn.get("results", []):
            if res.get("ok"):
                seen += _numbers_in(res.get("result"))
    return traced / asserted if asserted else 1.0


def diversity(turns: list[dict]) -> float:
    """1 - (count of the most repeated bigram - 1) / (bigrams - 1), over reasoning and call phrasing."""
    words: list[str] = []
    for turn in turns:
        words += _WORD_RE.findall((turn.get("reasoning") or "").lower())
        for res in turn.get("results", []):
            words += [res.get("tool", "")] + _WORD_RE.findall(str(res.get("arguments", "")).lower())
    bigrams = list(zip(words, words[1:]))
    if len(bigrams) < 2:
        return 1.0
    top = collections.Counter(bigrams).most_common(1)[0][1]
    return 1.0 - (top - 1) / (len(bigrams) - 1)


def episode_metrics(scene: Scene, turns: list[dict], budget: int, answer_iteration: int | None, graded: float) -> dict:
    calls = [r for t in turns for r in t.get("results", [])]
    unusable = sum(1 for t in turns if not t.get("results") and not t.get("api_error"))
    invalid = sum(1 for r in calls if not r["ok"]) + unusable
    total = len(calls) + unusable
    stepped = sum(
        r["result"].get("steps", 0) * r["result"].get("timestep_s", 0.0)
        for r in calls
        if r["ok"] and r["tool"] == "step"
    )
    out = {
        "correctness": graded,
        "efficiency": 0.0 if answer_iteration is None else 1.0 - answer_iteration / budget,
        "groundedness": groundedness(turns, embedded_numbers(scene.task)),
        "validity": (total - invalid) / total if total else 0.0,
        "diversity": diversity(turns),
        "tool_calls": len(calls),
        "invalid_calls": invalid,
        "parse_failures": sum(1 for t in turns if t.get("parse_error")),
        "api_errors": sum(1 for t in turns if t.get("api_error")),
        "stepped_time_s": round(stepped, 6),
    }
    out["failure_modes"] = failure_modes(scene, turns, budget, answer_iteration, graded, stepped)
    return out


def final_score(rows: list[dict], held_out: tuple[str, ...] = HELD_OUT_CATEGORIES) -> dict:
    """Mean dimensions over a group of episodes, G' over its held-out categories, and the Final Score."""
    if not rows:
        return {}
    mean = {
        k: sum(float(r[k]) for r in rows) / len(rows)
        for k in ("correctness", "efficiency", "groundedness", "validity", "diversity")
    }
    held = [r for r in rows if r.get("category") in held_out]
    mean["generalisation"] = sum(bool(r["correct"]) for r in held) / len(held) if held else math.nan
    # a group without held-out scenes has no G': its weight is spread over the others, not scored as 0
    defined = {k: v for k, v in mean.items() if not math.isnan(v)}
    mean["final_score"] = 100.0 * sum(WEIGHTS[k] * v for k, v in defined.items()) / sum(WEIGHTS[k] for k in defined)
    mean["accuracy"] = sum(bool(r["correct"]) for r in rows) / len(rows)
    mean["accuracy_after_regrade"] = sum(bool(r["correct_after_regrade"]) for r in rows) / len(rows)
    mean["episodes"] = len(rows)
    return mean
