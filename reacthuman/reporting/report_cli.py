"""`reacthuman report RUN_DIR [--compare RUN_B] [--out DIR]`.

Without --compare: writes report.md, report.html, plots/ and tables/ for RUN_DIR (see `report`).
With --compare RUN_B: writes compare-<RUN_B>.md/.html (see `compare`). Output goes to --out (default
RUN_DIR). A missing, empty or malformed ledger is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from reacthuman.scoring.ledger import LedgerError
from reacthuman.reporting.compare import write_comparison


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="reacthuman report", description="Write the report of a run, or compare two runs.")
    p.add_argument("run_dir", help="run folder holding ledger.jsonl")
    p.add_argument("--compare", metavar="RUN_B", help="second run folder: show what changed from RUN_DIR to RUN_B")
    p.add_argument("--out", metavar="DIR", help="where to write (default: RUN_DIR)")
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # argparse already printed its one-line usage error
        return int(exc.code or 0)
    # Imported here so `--help` and argument errors never pay for matplotlib.
    from reacthuman.reporting.report import write_report

    try:
        if args.compare:
            md, page = write_comparison(args.run_dir, args.compare, args.out)
            print(md.read_text(encoding="utf-8"))
            print(f"wrote {md} and {page}", file=sys.stderr)
        else:
            files = write_report(args.run_dir, args.out)
            print(f"wrote {files.markdown}, {files.html}, {len(files.plots)} plot(s), {len(files.tables)} table(s)")
    except (LedgerError, OSError) as exc:
        print(f"reacthuman report: {exc}", file=sys.stderr)
        return 2
    return 0
