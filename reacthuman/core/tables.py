"""A plain table type shared by the report's aggregation, analyses, rendering and CSV export.

Values stay raw (fractions, metres, counts, None for missing); `formats` says how to show each column:
"pct" (a fraction shown as a percentage, 1 decimal), "m" (metres, 2 decimals), "f2" (2 decimals),
"int", "str". `best` marks, per column, whether the highest ("max") or lowest ("min") value is best; every
row tied for best is marked, rows listed in `no_best_rows` (the mean row) never are.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Iterable

FORMATS = ("pct", "m", "f2", "int", "str")


@dataclass
class Table:
    name: str  # file stem of its CSV export
    title: str
    columns: list[str]
    rows: list[list[Any]]
    formats: dict[str, str] = field(default_factory=dict)
    best: dict[str, str] = field(default_factory=dict)
    note: str = ""
    no_best_rows: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        for column, fmt in self.formats.items():
            if column not in self.columns or fmt not in FORMATS:
                raise ValueError(f"table {self.name}: bad format {fmt!r} for column {column!r}")
        for column, how in self.best.items():
            if column not in self.columns or how not in ("max", "min"):
                raise ValueError(f"table {self.name}: bad best {how!r} for column {column!r}")
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.name}: row {row!r} does not have {len(self.columns)} cells")

    def best_cells(self) -> set[tuple[int, int]]:
        """(row, column) indices of the best value(s) per marked column."""
        marked: set[tuple[int, int]] = set()
        for column, how in self.best.items():
            j = self.columns.index(column)
            values = [(i, r[j]) for i, r in enumerate(self.rows) if i not in self.no_best_rows and _is_number(r[j])]
            if not values:
                continue
            target = max(v for _, v in values) if how == "max" else min(v for _, v in values)
            marked |= {(i, j) for i, v in values if math.isclose(v, target, rel_tol=0.0, abs_tol=1e-12)}
        return marked

    def format_cell(self, i: int, j: int) -> str:
        return format_value(self.rows[i][j], self.formats.get(self.columns[j], "str"))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def format_value(value: Any, fmt: str) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if fmt == "pct":
        return f"{100.0 * value:.1f}"
    if fmt == "m" or fmt == "f2":
        return f"{value:.2f}"
    if fmt == "int":
        return str(int(value))
    return str(value)


def mean_n(values: Iterable[Any]) -> tuple[float | None, int]:
    """Mean over the values that are not None, and how many there were (missing values drop out)."""
    present = [float(v) for v in values if v is not None]
    return (sum(present) / len(present) if present else None), len(present)


def median_n(values: Iterable[Any]) -> tuple[float | None, int]:
    present = [float(v) for v in values if v is not None]
    return (statistics.median(present) if present else None), len(present)


def share(flags: Iterable[bool]) -> tuple[float | None, int]:
    """Fraction of True among the flags, and how many flags there were."""
    return mean_n(1.0 if f else 0.0 for f in flags)
