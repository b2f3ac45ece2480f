"""Capability evaluation points and the first-error taxonomy, computed from an episode's trace.

Nine capabilities (each scored from its own points, independent of whole-task success):
- perception: naming the right thing among look-alikes, or a state read from the view (which burner is lit).
- memory: recalling where something went or was hidden in earlier frames.
- reasoning: applying a written rule, domain knowledge or arithmetic to choose the action or destination.
- planning: ordering steps so none is refused for being out of order (closed door, hands full, empty kettle).
- communication: instructions that are exact and executable (no unclear name, no refused action).
- state_tracking: keeping track of changing appliance and time state (turning off what was left on).
- intervention_correctness: staying quiet while the human's own plan is right, and giving the right fix.
- intervention_timing: giving the fix no later than the deadline of the consequential error.
- task_completion: each core predicate satisfied at termination.
A point is pass, fail or unobserved (the assistant never reached the opportunity); scores pool points.
"""

from __future__ import annotations

from interactiveworld.bench.taskpack import CAPABILITIES, TaskPack

ERROR_TYPES = (
    "visual_misreading",
    "lost_state",
    "rule_error",
    "planning_error",
    "unexecutable_instruction",
    "mistimed_or_missing_assistance",
)
UNLABELLED = "unlabelled"  # a failed episode no rule labels: counted as such, never given a default type
FIRST_ERROR_COLUMNS = (*ERROR_TYPES, UNLABELLED)
CAP_TO_ERROR = {
    "perception": "visual_misreading",
    "memory": "lost_state",
    "state_tracking": "lost_state",
    "reasoning": "rule_error",
    "planning": "planning_error",
    "communication": "unexecutable_instruction",
    "intervention_correctness": "mistimed_or_missing_assistance",
    "intervention_timing": "mistimed_or_missing_assistance",
}
ORDER_CODES = frozenset(
    {"DOOR_CLOSED", "HANDS_FULL", "HANDS_EMPTY", "NOT_HOLDING", "COVERED", "UNSAFE", "EMPTY", "NO_SPACE"}
)


def _assistant_commands(trace: list[dict]) -> list[tuple[int, dict]]:
    return [(t["turn"], c) for t in trace if t.get("role") == "assistant" for c in t.get("commands", [])]


def _assistant_actions(trace: list[dict]) -> list[tuple[int, dict]]:
    return [(t["turn"], a) for t in trace if t.get("role") == "human" and t.get("from_assistant") for a in t["actions"]]


def _category(pack: TaskPack, name: str) -> str:
    for o in pack.scene.objects:
        if o.name == name:
            return o.category
    return name


def _matches(c: dict, p: dict) -> bool:
    return (
        c["verb"] == p["verb"]
        and (not p["target"] or c["target"] == p["target"])
        and (not p["dest"] or c["dest"] == p["dest"])
    )


def evaluate_point(p: dict, pack: TaskPack, trace: list[dict], goals_final: list[bool]) -> tuple[str, int]:
    """-> (status, turn at which it was decided; 10**6 when never)."""
    never = 10**6
    said = _assistant_commands(trace)
    if p["check"] == "said":
        cat = _category(pack, p["target"])
        # a look-alike that another point of the same kind is about is that point's business, not this one's
        claimed = {q["target"] for q in pack.points if q["check"] == "said" and q["verb"] == p["verb"]}
        for turn, c in said:
            relevant = c["verb"] == p["verb"] and (
                not p["target"]
                or c["target"] == p["target"]
                or (c.get("target_sub") == cat and c["target"] not in claimed)
            )
            if relevant:
                return ("pass" if _matches(c, p) else "fail"), turn
        return "unobserved", never
    if p["check"] == "said_by":
        hits = [turn for turn, c in said if c["verb"] != "?" and _matches(c, p)]
        return ("pass", hits[0]) if hits and hits[0] <= p["turn"] else ("fail", p["turn"])
    if p["check"] == "quiet":
        for t in trace:
            if t.get("role") == "assistant" and t["turn"] == p["turn"]:
                return ("fail" if t["mode"] == "speak" else "pass"), p["turn"]
        return "unobserved", never
    if p["check"] == "executable":
        if not said:
            return "unobserved", never
        bad = [turn for turn, c in said if c["verb"] == "?"] + [
            turn for turn, a in _assistant_actions(trace) if not a["ok"]
        ]
        return ("fail", min(bad)) if bad else ("pass", said[-1][0])
    if p["check"] == "ordered":
        acts = _assistant_actions(trace)
        if not acts:
            return "unobserved", never
        bad = [turn for turn, a in acts if a.get("code") in ORDER_CODES]
        return ("fail", min(bad)) if bad else ("pass", acts[-1][0])
    if p["check"] == "goal":
        last = max([t["turn"] for t in trace if "turn" in t] or [never])
        return ("pass" if goals_final[p["index"]] else "fail"), last
    raise ValueError(f"unknown evaluation point check {p['check']!r}")


def evaluate_points(pack: TaskPack, trace: list[dict], goals_final: list[bool]) -> list[dict]:
    out = []
    for p in pack.points:
        status, turn = evaluate_point(p, pack, trace, goals_final)
        out.append({"cap": p["cap"], "check": p["check"], "status": status, "turn": turn})
    return out


def first_error(points: list[dict], trace: list[dict], passed: bool) -> str | None:
    """The primary label of a failed episode, only where a rule identifies it: no word said at all is missing
    assistance; else the capability whose point failed first in time. A goal left unmet says which outcome
    failed, not why: with no other failed point the episode is `unlabelled`."""
    if passed:
        return None
    if not any(t.get("role") == "assistant" and t["mode"] == "speak" for t in trace):
        return "mistimed_or_missing_assistance"
    failed = [p for p in points if p["status"] == "fail" and p["cap"] in CAP_TO_ERROR]
    if not failed:
        return UNLABELLED
    order = {c: i for i, c in enumerate(CAPABILITIES)}
    first = min(failed, key=lambda p: (p["turn"], order[p["cap"]]))
    return CAP_TO_ERROR[first["cap"]]
