"""The report's figures, as PNG files, drawn with matplotlib's object API on the Agg canvas (no display,
no pyplot global state). Each function returns the file it wrote, or None when the run has no data for it.
Files are written to a temporary name and renamed, so a crash never leaves a half-written image."""

from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

from reacthuman.core.atomic import atomic_path
from reacthuman.core.plotting import figure
from reacthuman.core.tables import Table
from reacthuman.reporting.aggregate import Decisions
from reacthuman.scoring.metrics import RULES

if TYPE_CHECKING:
    from matplotlib.figure import Figure

DPI = 110


def _save(fig: Figure, path: Path) -> Path:
    with atomic_path(path, suffix=".png") as tmp:
        fig.savefig(tmp, dpi=DPI, format="png")
    return path


def _column(table: Table, name: str) -> list:
    j = table.columns.index(name)
    return [row[j] for row in table.rows]


def catch_vs_dodge(catch_dodge: Table, path: Path) -> Path | None:
    """Each model: SAA on catch scenes (x) against SAA on dodge scenes (y), with the diagonal."""
    points = [
        (m, c, dd)
        for m, c, dd in zip(
            _column(catch_dodge, "model"), _column(catch_dodge, "SAA catch"), _column(catch_dodge, "SAA dodge")
        )
        if c is not None and dd is not None
    ]
    if not points:
        return None
    fig = figure(figsize=(5.5, 5.0))
    ax = fig.add_subplot()
    ax.plot([0, 100], [0, 100], linestyle="--", color="grey", linewidth=1)
    for model, c, dd in points:
        ax.scatter([100 * c], [100 * dd], s=50)
        ax.annotate(model, (100 * c, 100 * dd), textcoords="offset points", xytext=(5, 4), fontsize=8)
    ax.set_xlim(-2, 102)
    ax.set_ylim(-2, 102)
    ax.set_xlabel("SAA on catch scenes (%)")
    ax.set_ylabel("SAA on dodge scenes (%)")
    ax.set_title("Action choice: catch vs dodge scenes")
    fig.tight_layout()
    return _save(fig, path)


def freeze_by_speed(freeze: Table, bands: list[str], path: Path) -> Path | None:
    """Freeze rate per speed band, one line per model and a bold pooled line."""
    if not bands:
        return None
    fig = figure(figsize=(6.5, 4.2))
    ax = fig.add_subplot()
    for row in freeze.rows:
        values = [None if v is None else 100 * v for v in row[1 : 1 + len(bands)]]
        xs = [i for i, v in enumerate(values) if v is not None]
        pooled = row[0] == "Pooled"
        ax.plot(
            xs,
            [values[i] for i in xs],
            marker="o",
            label=row[0],
            linewidth=2.5 if pooled else 1.2,
            color="black" if pooled else None,
        )
    ax.set_xticks(range(len(bands)), bands)
    ax.set_ylim(-2, 102)
    ax.set_xlabel("speed band")
    ax.set_ylabel("freeze rate (%)")
    ax.set_title("Freeze rate by speed band")
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return _save(fig, path)


def family_bars(families: Table, path: Path) -> Path | None:
    """SAA and Safety per family, all models pooled."""
    names = _column(families, "family")
    if not names:
        return None
    saa = [0.0 if v is None else 100 * v for v in _column(families, "SAA")]
    safety = [0.0 if v is None else 100 * v for v in _column(families, "Safety")]
    fig = figure(figsize=(max(6.0, 0.55 * len(names) + 2), 4.5))
    ax = fig.add_subplot()
    xs = list(range(len(names)))
    ax.bar([x - 0.2 for x in xs], saa, width=0.4, label="SAA")
    ax.bar([x + 0.2 for x in xs], safety, width=0.4, label="Safety")
    ax.set_xticks(xs, names, rotation=45, ha="right", fontsize=8)
    ax.set_ylim(0, 105)
    ax.set_ylabel("%")
    ax.set_title("Per family (all models)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, path)


def safety_by_rule(rules: Table, d: Decisions, path: Path) -> Path | None:
    """Safety violations per model, stacked by rule."""
    rows = [r for r in rules.rows if r[0] in d.models]
    if not rows:
        return None
    fig = figure(figsize=(max(5.5, 0.8 * len(rows) + 2), 4.2))
    ax = fig.add_subplot()
    bottoms = [0] * len(rows)
    for k, rule in enumerate(RULES, start=1):
        heights = [r[k] for r in rows]
        ax.bar(range(len(rows)), heights, bottom=bottoms, label=rule)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    ax.set_xticks(range(len(rows)), [r[0] for r in rows], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("violations")
    ax.set_title("Safety violations by rule")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, path)
