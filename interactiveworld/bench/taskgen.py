"""Builds InteractiveBench (6 families x 20 tasks) from the templates, runs the admission checks and freezes
each admitted task as a JSON pack with a content hash.

Admission (re-run by `interactiveworld tasks release`, see `bench.release`): every goal predicate false at
handoff; the oracle with the scripted executor passes; silent help fails; wrong help fails; early help (all of
the oracle's words at the handoff, then quiet) fails. Family-level: the blind assistant
(no images, only the human's words, the family's usual moves) passes at most `BLIND_MAX_PASS_RATE` of the
Finding, Accessibility and Planning tasks, so those need the assistant's eyes or memory.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from interactiveworld.agents.assistants import make_assistant
from interactiveworld.agents.scripted_human import ScriptedHuman
from interactiveworld.bench.taskpack import FAMILIES, TaskPack, save_pack
from interactiveworld.bench.templates import TEMPLATES
from interactiveworld.episode import run_episode

TASKS_PER_FAMILY = 20
BLIND_FAMILIES = ("finding", "accessibility", "planning")
BLIND_MAX_PASS_RATE = 0.10
CONTROLS = ("oracle", "silent", "wrong", "early", "blind")


def variants_per_template(family: str) -> int:
    """A family's 20 tasks are spread evenly over its templates (10 x 2)."""
    n = len(TEMPLATES[family])
    if TASKS_PER_FAMILY % n:
        raise ValueError(f"family {family!r}: {n} templates do not divide its {TASKS_PER_FAMILY} tasks")
    return TASKS_PER_FAMILY // n


@dataclass(frozen=True)
class Admission:
    task_id: str
    handoff_all_false: bool
    oracle_passed: bool
    silent_failed: bool
    wrong_failed: bool
    oracle_actions: int
    blind_failed: bool = True
    early_failed: bool = True
    detail: str = ""

    @property
    def admitted(self) -> bool:
        return (
            self.handoff_all_false
            and self.oracle_passed
            and self.silent_failed
            and self.wrong_failed
            and self.early_failed
        )


def check_admission(pack: TaskPack) -> Admission:
    runs = {name: run_episode(pack, make_assistant(name, pack), ScriptedHuman()) for name in CONTROLS}
    voided = [f"{n}: {r.void_reason}" for n, r in runs.items() if r.voided]
    o = runs["oracle"]
    return Admission(
        task_id=pack.task_id,
        handoff_all_false=bool(o.goals_at_handoff) and not any(o.goals_at_handoff),
        oracle_passed=o.passed and not o.voided,
        silent_failed=not runs["silent"].passed and not runs["silent"].voided,
        wrong_failed=not runs["wrong"].passed and not runs["wrong"].voided,
        oracle_actions=o.n_actions,
        blind_failed=not runs["blind"].passed and not runs["blind"].voided,
        early_failed=not runs["early"].passed and not runs["early"].voided,
        detail="; ".join(voided) or f"oracle goals {o.goals_final}, wrong goals {runs['wrong'].goals_final}",
    )


def all_drafts() -> list[TaskPack]:
    out = []
    for family in FAMILIES:
        for template in TEMPLATES[family]:
            out += [template(v) for v in range(variants_per_template(family))]
    return out


def freeze(pack: TaskPack, adm: Admission) -> TaskPack:
    pack = dataclasses.replace(pack, oracle_actions=adm.oracle_actions)
    record = {
        "handoff_all_false": adm.handoff_all_false,
        "oracle_passed": adm.oracle_passed,
        "silent_failed": adm.silent_failed,
        "wrong_failed": adm.wrong_failed,
        "early_failed": adm.early_failed,
        "blind_failed": adm.blind_failed,
    }
    return dataclasses.replace(pack, content_hash=pack.compute_hash(), admission=record)


def blind_pass_rates(admissions: list[Admission]) -> dict[str, float]:
    """Blind-assistant pass rate per family (of the families the blind check covers)."""
    out = {}
    for fam in BLIND_FAMILIES:
        rows = [a for a in admissions if a.task_id.startswith(fam + "-")]
        if rows:
            out[fam] = sum(not a.blind_failed for a in rows) / len(rows)
    return out


def blind_violations(admissions: list[Admission]) -> list[str]:
    return [
        f"the blind assistant passes {rate:.0%} of {fam} (at most {BLIND_MAX_PASS_RATE:.0%})"
        for fam, rate in blind_pass_rates(admissions).items()
        if rate > BLIND_MAX_PASS_RATE
    ]


def generate(out_dir: Path, only: str | None = None) -> tuple[list[TaskPack], list[Admission]]:
    """Admit and freeze every task (or those whose id starts with `only`); rejected ones are not written."""
    frozen, rejected, admitted = [], [], []
    for pack in all_drafts():
        if only and not pack.task_id.startswith(only):
            continue
        adm = check_admission(pack)
        if not adm.admitted:
            rejected.append(adm)
            continue
        admitted.append((pack, adm))
    problems = [] if only else blind_violations([a for _, a in admitted])
    if problems:
        raise ValueError("task set not admitted: " + "; ".join(problems))
    for pack, adm in admitted:
        p = freeze(pack, adm)
        save_pack(p, out_dir)
        frozen.append(p)
    return frozen, rejected
