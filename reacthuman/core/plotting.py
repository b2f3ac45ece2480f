"""matplotlib for the suite's figures, loaded on first use (about a second) with the file backend (Agg), so
that a machine without a display draws the same PNGs and a command that draws nothing never pays for it."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def matplotlib_agg() -> ModuleType:
    """matplotlib on the Agg backend, with pyplot loaded (and with it `figure`, `colors` and `ticker`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401  (loads the submodules the callers read)

    return matplotlib


def pyplot() -> ModuleType:
    """matplotlib.pyplot, on the Agg backend."""
    return matplotlib_agg().pyplot


def figure(**kwargs: Any) -> Figure:
    """A new Figure of matplotlib's object API (no pyplot global state), e.g. figure(figsize=(6.0, 4.0))."""
    return matplotlib_agg().figure.Figure(**kwargs)
