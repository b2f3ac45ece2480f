"""The fault campaign, small (tools/fault_campaign.py at 3 faults): real evals of the oracle on a MuJoCo body,
one node stopped (SIGSTOP) and one killed (SIGKILL) at random moments of two episodes, and the spine's first
joint command of an episode dropped. Every pair is scored once, equal to the undisturbed run's row in every
non-timing field, rescore equals the ledger, no half-written folder, no process left, no fault unresolved past
two minutes. The liveness limit is 15 s here instead of the eval's 60, to keep the test short."""

from __future__ import annotations

import os

from reacthuman.evaluation.fault_campaign import markdown, run_campaign


def test_three_faults_lose_nothing_duplicate_nothing_and_leave_nothing(tmp_path):
    summary = run_campaign(
        tmp_path / "campaign",
        faults=3,
        seed=5,
        domain_base=20 + os.getpid() % 100,
        hung_after_s=15.0,
        kinds=("stop", "kill"),
        say=lambda _text: None,
        timed=False,
    )
    table = markdown(summary)
    assert (summary["faults"], summary["process_faults"], summary["message_faults"]) == (3, 2, 1), table
    for measure in (
        "lost",
        "duplicated",
        "stalled_past_2_min",
        "processes_left",
        "differing_rows",
        "rescore_differs",
        "partial_folders",
    ):
        assert summary[measure] == 0, (measure, table)
    process = summary["runs"][0]
    assert [f["kind"] for f in process["faults"]] == ["stop", "kill"], table
    assert all(f["resolved_s"] is not None for f in process["faults"]), table
    assert process["rows"] == process["pairs"], table
    assert summary["runs"][1]["rows"] == 1, table
