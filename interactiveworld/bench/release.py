"""The release check of a task set (`interactiveworld tasks release DIR`): the paper's four controls with the
scripted human on every pack, and the family-level limits. A pack is refused when the oracle fails, when no help,
incorrect help or early help (everything the oracle says, said at the handoff, then quiet) passes, when a goal is
already true at handoff, or when its frozen oracle action count no longer matches; the set is refused when a
family breaks a control's rate (oracle >= 95%; no help, incorrect help <= 10%; early help <= 15%) or the blind
assistant passes more than 10% of Finding, Accessibility or Planning."""

from __future__ import annotations

from dataclasses import dataclass

from interactiveworld.bench.taskgen import Admission, blind_violations, check_admission
from interactiveworld.bench.taskpack import FAMILIES, TaskPack

# control -> (the admission field that says the pack passes that control, "min" | "max", the family's limit on
# the control assistant's pass rate)
RELEASE_CONTROLS = {
    "oracle": ("oracle_passed", "min", 0.95),
    "silent": ("silent_failed", "max", 0.10),
    "wrong": ("wrong_failed", "max", 0.10),
    "early": ("early_failed", "max", 0.15),
}


@dataclass(frozen=True)
class Release:
    admissions: tuple[Admission, ...]
    refused_packs: tuple[str, ...]  # "<task id>: <why>"
    refused_families: tuple[str, ...]
    rates: dict[str, dict[str, float]]  # family -> control -> the control assistant's pass rate

    @property
    def released(self) -> bool:
        return not self.refused_packs and not self.refused_families


def pack_problems(pack: TaskPack, adm: Admission) -> list[str]:
    checks = (
        ("a goal is already true at handoff", adm.handoff_all_false),
        ("the oracle does not pass", adm.oracle_passed),
        ("no help passes", adm.silent_failed),
        ("incorrect help passes", adm.wrong_failed),
        ("early help passes", adm.early_failed),
        ("the oracle action count changed", adm.oracle_actions == pack.oracle_actions),
    )
    return [why for why, ok in checks if not ok]


def control_rates(admissions: list[Admission]) -> dict[str, dict[str, float]]:
    """family -> control -> pass rate of the control assistant (oracle: passes; the others: fails negated)."""
    out: dict[str, dict[str, float]] = {}
    for fam in FAMILIES:
        rows = [a for a in admissions if a.task_id.startswith(fam + "-")]
        if rows:
            out[fam] = {
                c: sum(getattr(a, f) == (kind == "min") for a in rows) / len(rows)
                for c, (f, kind, _) in RELEASE_CONTROLS.items()
            }
    return out


def family_violations(rates: dict[str, dict[str, float]]) -> list[str]:
    out = []
    for fam, by_control in rates.items():
        for c, (_, kind, limit) in RELEASE_CONTROLS.items():
            r = by_control[c]
            if (kind == "min" and r < limit) or (kind == "max" and r > limit):
                out.append(f"{fam}: {c} passes {r:.0%} ({'at least' if kind == 'min' else 'at most'} {limit:.0%})")
    return out


def check_release(packs: list[TaskPack]) -> Release:
    admissions = [check_admission(p) for p in packs]
    refused = [f"{p.task_id}: {'; '.join(why)}" for p, a in zip(packs, admissions) if (why := pack_problems(p, a))]
    rates = control_rates(admissions)
    families = family_violations(rates)
    if len(packs) >= 20:  # the blind limit is a family-level check of a whole task set
        families += blind_violations(admissions)
    return Release(tuple(admissions), tuple(refused), tuple(families), rates)


def release_table(rel: Release) -> str:
    """Per family, the pass % of each control assistant (and the limit it must keep)."""
    head = (
        "| family | "
        + " | ".join(
            f"{c} pass % ({'>=' if k == 'min' else '<='} {lim:.0%})" for c, (_, k, lim) in RELEASE_CONTROLS.items()
        )
        + " | tasks |"
    )
    lines = [head, "|---|" + "---:|" * (len(RELEASE_CONTROLS) + 1)]
    for fam, by_control in rel.rates.items():
        n = sum(a.task_id.startswith(fam + "-") for a in rel.admissions)
        lines.append(f"| {fam} | " + " | ".join(f"{100 * by_control[c]:.1f}" for c in RELEASE_CONTROLS) + f" | {n} |")
    return "\n".join(lines) + "\n"
