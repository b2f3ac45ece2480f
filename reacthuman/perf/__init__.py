"""`reacthuman bench`: every stage measured against its own limit (the command is reacthuman.perf.cli)."""
