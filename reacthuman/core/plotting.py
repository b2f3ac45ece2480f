"""matplotlib for the suite's figures, loaded on first use (about a second) with the file backend (Agg), so
that a machine without a display draws the same PNGs and a command that draws nothing never pays for it."""

from __future__ import annotations

from types import ModuleType


def pyplot() -> ModuleType:
    """matplotlib.pyplot, on the Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
