"""Scoring of ReactHuman decisions (paper sec. 4) and the run report. ROS-free.

Per decision: `score_decision(meta, truth, observer, reply, outcome=None) -> DecisionRecord`, appended to
RUN_DIR/ledger.jsonl by `LedgerWriter`. Per run: `reacthuman report RUN_DIR` (`report_cli.main`).
Importing this package does not import matplotlib; only the report modules do.
"""

from reacthuman.scoring.decision import score_decision
from reacthuman.scoring.inputs import ExecutedOutcome, ModelReply, SceneMeta, ScoringTruth
from reacthuman.scoring.ledger import DecisionRecord, LedgerError, LedgerWriter, decided_keys, read_ledger

__all__ = [
    "DecisionRecord",
    "ExecutedOutcome",
    "LedgerError",
    "LedgerWriter",
    "ModelReply",
    "SceneMeta",
    "ScoringTruth",
    "decided_keys",
    "read_ledger",
    "score_decision",
]
