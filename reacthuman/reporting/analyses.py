"""The paper's sec. 5.2 analyses, computed from ledger rows alone.

- Speed: only scenes whose speed_band is one of `reacthuman.scenes.spec.SPEED_BANDS` (slow, normal, fast,
  very_fast, in that order) count; gravity-paced families (band "gravity") and rows without a band are
  left out. A freeze is a derived NO_ACTION. "slowest" is the slowest band present, "faster" pools the rest.
- Stability: per model, a scene group (speed_group) is complete when the model has a decision at every band
  present in the run; we report how often all of its actions agree, and how often the slowest and fastest
  variants agree (over groups having both). An unparseable plan counts as its own answer.
- Adversarial: each disguised object (adversarial rows, by object) against its genuine look-alike (the
  non-adversarial rows whose object equals the disguised row's looks_like): share caught, share dodged.
  Doubt: whether the intent (or, for unparseable replies, the raw text) doubts the object's material or
  weight (`intent.doubts_material`), on adversarial decisions, with the other decisions as a control.
- Voting: over scenes that every model of the run decided; unanimous when all chose the same action (not
  an unparseable one); the majority vote is the plurality action, and a tie for the top, or an unparseable
  top, is no majority and counts as wrong; the best single model is the best SAA on the same scenes.
- Out of reach: among correct catches with a defined d_end, the distribution of d_end; a miss is
  d_end > catch_radius_m; a miss falls short when hand_shortfall_m > 0; beyond reach when the body ends
  more than arm_reach_m (horizontally) from the impact point.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Callable

from reacthuman.core.config import config_with
from reacthuman.core.validate import require_positive
from reacthuman.plan.plan import Action
from reacthuman.scenes.spec import SPEED_BANDS
from reacthuman.reporting.aggregate import Decisions
from reacthuman.scoring.intent import doubts_material
from reacthuman.scoring.ledger import DecisionRecord
from reacthuman.core.tables import Table, mean_n, median_n, share

POOLED = "Pooled"


@dataclass(frozen=True)
class AnalysisConfig:
    catch_radius_m: float = 0.2  # a planned hand this close to the impact point would meet the object
    arm_reach_m: float = 0.8  # the paper's bound: farther than this the arm cannot reach at all

    def __post_init__(self) -> None:
        require_positive(self, ("catch_radius_m", "arm_reach_m"), "analysis config")


def default_config(**overrides: Any) -> AnalysisConfig:
    """config/analyses.yaml with `overrides` applied."""
    return config_with(AnalysisConfig, overrides)


def _groups(d: Decisions) -> list[tuple[str, list[DecisionRecord]]]:
    return [(m, d.by_model(m)) for m in d.models] + [(POOLED, d.scored)]


def speed_bands_present(d: Decisions) -> list[str]:
    present = {r.speed_band for r in d.scored}
    return [b for b in SPEED_BANDS if b in present]


def _by_speed(d: Decisions, title: str, name: str, metric: Callable[[DecisionRecord], Any]) -> Table:
    bands = speed_bands_present(d)
    columns = ["model"] + bands + ["slowest", "faster", "n"]
    rows = []
    for label, rs in _groups(d):
        rs = [r for r in rs if r.speed_band in bands]
        cells = [mean_n(metric(r) for r in rs if r.speed_band == b)[0] for b in bands]
        slowest = cells[0] if bands else None
        faster = mean_n(metric(r) for r in rs if bands and r.speed_band != bands[0])[0]
        rows.append([label] + cells + [slowest, faster, len(rs)])
    formats = {c: "pct" for c in columns[1:-1]} | {"n": "int"}
    return Table(
        name,
        title,
        columns,
        rows,
        formats,
        note="Families that sweep object speed only; gravity-paced families are left out.",
    )


def freeze_by_speed_table(d: Decisions) -> Table:
    return _by_speed(
        d,
        "Freeze rate (NO_ACTION) by speed band (%)",
        "freeze_by_speed",
        lambda r: float(r.action == Action.NO_ACTION.value),
    )


def saa_by_speed_table(d: Decisions) -> Table:
    return _by_speed(d, "SAA by speed band (%)", "saa_by_speed", lambda r: r.saa)


def stability_table(d: Decisions) -> Table:
    bands = speed_bands_present(d)
    columns = [
        "model",
        "complete groups",
        "same action at all bands",
        "groups with slowest+fastest",
        "slowest = fastest",
    ]
    rows = []
    for label, rs in _groups(d):
        groups: dict[tuple[str, str], dict[str, str | None]] = defaultdict(dict)
        for r in rs:
            if r.speed_group is not None and r.speed_band in bands:
                groups[(r.model, r.speed_group)][r.speed_band] = r.action
        complete = [g for g in groups.values() if len(bands) > 1 and set(g) == set(bands)]
        ends = [g for g in groups.values() if len(bands) > 1 and bands[0] in g and bands[-1] in g]
        rows.append(
            [
                label,
                len(complete),
                share(len(set(g.values())) == 1 for g in complete)[0],
                len(ends),
                share(g[bands[0]] == g[bands[-1]] for g in ends)[0],
            ]
        )
    return Table(
        "stability",
        "Decision stability across the speed variants of one scene group",
        columns,
        rows,
        {
            "complete groups": "int",
            "same action at all bands": "pct",
            "groups with slowest+fastest": "int",
            "slowest = fastest": "pct",
        },
    )


def _treatment(rs: list[DecisionRecord]) -> tuple[int, float | None, float | None]:
    return (
        len(rs),
        share(r.action == Action.CATCH.value for r in rs)[0],
        share(r.action == Action.DODGE.value for r in rs)[0],
    )


def adversarial_table(d: Decisions) -> Table:
    columns = [
        "disguised object",
        "truth",
        "n",
        "caught",
        "dodged",
        "look-alike",
        "look-alike n",
        "look-alike caught",
        "look-alike dodged",
    ]
    rows = []
    for obj in sorted({r.object for r in d.scored if r.adversarial}):
        rs = [r for r in d.scored if r.adversarial and r.object == obj]
        truth = Counter(r.correct_action for r in rs).most_common(1)[0][0]
        looks_like = Counter(r.looks_like for r in rs).most_common(1)[0][0]
        genuine = [r for r in d.scored if not r.adversarial and looks_like is not None and r.object == looks_like]
        rows.append([obj, truth, *_treatment(rs), looks_like, *_treatment(genuine)])
    formats = {
        "n": "int",
        "caught": "pct",
        "dodged": "pct",
        "look-alike n": "int",
        "look-alike caught": "pct",
        "look-alike dodged": "pct",
    }
    return Table(
        "adversarial",
        "Adversarial probes: disguised objects against their genuine look-alikes (%)",
        columns,
        rows,
        formats,
    )


def doubt_table(d: Decisions) -> Table:
    columns = ["model", "adversarial decisions", "doubting", "doubt rate", "other decisions", "other doubt rate"]
    rows = []
    for label, rs in _groups(d):
        adv = [doubts_material(r.intent or r.raw_text) for r in rs if r.adversarial]
        other = [doubts_material(r.intent or r.raw_text) for r in rs if not r.adversarial]
        rows.append([label, len(adv), sum(adv), share(adv)[0], len(other), share(other)[0]])
    return Table(
        "doubt",
        "Does the intent ever doubt an object's material or weight?",
        columns,
        rows,
        {
            "adversarial decisions": "int",
            "doubting": "int",
            "doubt rate": "pct",
            "other decisions": "int",
            "other doubt rate": "pct",
        },
    )


def _majority(actions: list[str | None]) -> str | None:
    ranked = Counter(actions).most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def voting_table(d: Decisions) -> Table:
    by_scene: dict[str, dict[str, DecisionRecord]] = defaultdict(dict)
    for r in d.scored:
        by_scene[r.scene_id][r.model] = r
    scenes = [s for s, rs in by_scene.items() if len(d.models) > 1 and set(rs) == set(d.models)]
    unanimous, majority_ok, ties = [], [], 0
    for s in scenes:
        rs = list(by_scene[s].values())
        actions = [r.action for r in rs]
        truth = rs[0].correct_action
        if len(set(actions)) == 1 and actions[0] is not None:
            unanimous.append(actions[0] == truth)
        vote = _majority(actions)
        ties += vote is None and len(set(actions)) > 1
        majority_ok.append(vote is not None and vote == truth)
    per_model = {m: mean_n(by_scene[s][m].saa for s in scenes)[0] for m in d.models}
    best_model = max(per_model, key=lambda m: -1.0 if per_model[m] is None else per_model[m]) if scenes else None
    rows = [
        ["scenes decided by every model", None, len(scenes)],
        ["unanimity rate", len(unanimous) / len(scenes) if scenes else None, len(scenes)],
        ["accuracy when unanimous", share(unanimous)[0], len(unanimous)],
        ["majority-vote accuracy", share(majority_ok)[0], len(majority_ok)],
        ["majority ties (counted wrong)", None, ties],
        [f"best single model ({best_model or '–'})", per_model.get(best_model) if best_model else None, len(scenes)],
        ["mean single model", mean_n(per_model.values())[0], len(scenes)],
    ]
    return Table(
        "voting",
        "Across models: unanimity and majority vote",
        ["measure", "value (%)", "n"],
        rows,
        {"value (%)": "pct", "n": "int"},
    )


def _quartiles(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    if len(values) == 1:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], q[2]


def reach_table(d: Decisions, config: AnalysisConfig | None = None) -> Table:
    cfg = config or default_config()
    columns = [
        "model",
        "correct catches",
        "d_end median (m)",
        "d_end p25 (m)",
        "d_end p75 (m)",
        "d_end mean (m)",
        "misses",
        "misses short",
        "beyond arm's reach",
    ]
    rows = []
    for label, rs in _groups(d):
        good = [r for r in rs if r.action == r.correct_action == Action.CATCH.value and r.d_end is not None]
        d_end = sorted(r.d_end for r in good)
        misses = [r for r in good if r.d_end > cfg.catch_radius_m]
        short = share(r.hand_shortfall_m > 0 for r in misses if r.hand_shortfall_m is not None)[0]
        beyond = share(r.body_to_impact_m > cfg.arm_reach_m for r in good if r.body_to_impact_m is not None)[0]
        p25, p75 = _quartiles(d_end)
        rows.append([label, len(good), median_n(d_end)[0], p25, p75, mean_n(d_end)[0], len(misses), short, beyond])
    formats = {c: "m" for c in columns[2:6]} | {
        "correct catches": "int",
        "misses": "int",
        "misses short": "pct",
        "beyond arm's reach": "pct",
    }
    return Table(
        "reach",
        "Correct but out of reach: correct catches, planned hands vs the impact point",
        columns,
        rows,
        formats,
        note=f"miss: d_end > {cfg.catch_radius_m} m; beyond reach: body ends more than "
        f"{cfg.arm_reach_m} m from the impact point; shares in %.",
    )
