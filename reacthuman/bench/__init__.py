"""`reacthuman bench`: every stage measured against its own limit (see reacthuman.bench.cli)."""

from reacthuman.bench.cli import main

__all__ = ["main"]
