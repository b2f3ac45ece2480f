"""The report of a run, recomputed from its ledger alone: `reacthuman report` (`report_cli.py`, `report.py`,
`compare.py`), its tables (`aggregate.py`, `analyses.py`, `outcomes.py`), figures (`plots.py`) and one page per
episode (`episode_pages.py`, `plan_overlay.py`). Importing a module here may import matplotlib; the scorer never
does."""
