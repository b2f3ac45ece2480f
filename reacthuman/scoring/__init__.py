"""Scoring of ReactHuman decisions (paper sec. 4), one decision at a time. ROS-free.

Per decision: `score_decision(meta, truth, observer, reply, outcome=None) -> DecisionRecord`, appended to
RUN_DIR/ledger.jsonl by `LedgerWriter`. The report of a run is `reacthuman.reporting`'s. Importing this
package does not import matplotlib.
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
