"""A fault campaign against real evals: `python tools/fault_campaign.py --faults 30 --out DIR`
(reacthuman.evaluation.fault_campaign; run it niced on a shared machine)."""

from __future__ import annotations

from reacthuman.evaluation.fault_campaign import main

if __name__ == "__main__":
    raise SystemExit(main())
