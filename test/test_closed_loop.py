"""The closed loop, in process (evaluation/closed_loop.py, scoring/closed_loop.py): a rolling ball in MuJoCo,
re-planned on; each decision judged against the labeller's rule at its moment, and a scripted brain's change
of mind counted as a recovery or a regression."""

from __future__ import annotations

import json

import pytest

from reacthuman.brain.base import Brain, BrainDecision
from reacthuman.brain.motion import plan_stay
from reacthuman.brain.observation import Observation
from reacthuman.brain.prompt import build_messages
from reacthuman.brain.reference import OracleBrain
from reacthuman.spine.spine import Spine, default_config as spine_config
from reacthuman.evaluation.closed_loop import LoopConfig, default_config, run_closed_episode, sees_images
from reacthuman.evaluation.episode import run_episode
from reacthuman.plan.plan import Pose2D
from reacthuman.scenes import generate_spec
from reacthuman.evaluation.loop_cli import main as loop_main
from reacthuman.evaluation.rescore import main as rescore_main
from reacthuman.scoring.closed_loop import DecisionPoint, JudgedDecision, closed_loop_fields, load_path, rescore_row
from reacthuman.reporting.report import write_report
from reacthuman.scoring.ledger import DecisionRecord
from reacthuman.sim_bridge.body import Body, graph_config

# A ball rolling toward the observer: still moving at the first re-plans, a catch at the first decisions.
SCENE = ("rolling_ball", 0)
FIRST_DECISION_FIELDS = (
    "correct_action",
    "action",
    "saa",
    "safe",
    "rule",
    "rules_broken",
    "d_end",
    "d_first",
    "d_min",
    "aia",
    "plan_parse_ok",
    "hazard_source",
)


class Scripted(Brain):
    """The first decision from `first`, every re-plan from `later`; keeps what it was shown."""

    name = "scripted"
    modality = "images"  # shown the frames of every window, as a model under the paper's protocol is

    def __init__(self, first: str, later: str) -> None:
        self.seen: list[Observation] = []
        self.choice = (first, later)

    def plan(self, obs: Observation) -> BrainDecision:
        self.seen.append(obs)
        which = self.choice[0 if obs.decision_index == 0 else 1]
        if which == "oracle":
            return OracleBrain().plan(obs)
        plan = plan_stay("ball", 0.5)
        return BrainDecision("scripted", plan, "{}", True, modality="track")


@pytest.fixture(scope="module")
def spec():
    return generate_spec(*SCENE)


@pytest.fixture(scope="module")
def body():
    b = Body(graph_config(engine="mujoco", frame_width_px=160, frame_height_px=90))
    yield b
    b.close()


def _closed(spec, body, brain, replans: int) -> dict:
    result = run_closed_episode(spec, brain, body, Spine(spine_config()), LoopConfig(max_replans=replans))
    return result.record.to_dict()


def test_the_loop_command_writes_rows_that_rescore_equal_and_the_report_sets_side_by_side(spec, tmp_path, capsys):
    """`reacthuman loop --loop closed`, then `reacthuman rescore` judges every decision again from the recorded
    path and finds the ledger; a tampered decision is named."""
    scenes = tmp_path / "scenes"
    (scenes / spec.scene_id).mkdir(parents=True)
    (scenes / spec.scene_id / "spec.json").write_text(spec.to_json())
    run = tmp_path / "run"
    assert (
        loop_main(
            [
                "--scenes",
                str(scenes),
                "--models",
                "heuristic",
                "--out",
                str(run),
                "--loop",
                "closed",
                "--engine",
                "mujoco",
            ]
        )
        == 0
    )
    (row,) = [json.loads(line) for line in (run / "ledger.jsonl").read_text().splitlines()]
    assert row["loop"] == "closed" and row["replans"] >= 1 and len(row["decisions"]) == row["replans"] + 1
    assert rescore_main([str(run)]) == 0
    assert "1 identical, 0 different" in capsys.readouterr().out
    path = load_path(run / "episodes" / "heuristic" / spec.scene_id)
    assert rescore_row(spec, row, path) == []
    row["decisions"][1]["correct_action"] = "DODGE" if row["decisions"][1]["correct_action"] != "DODGE" else "CATCH"
    assert [d.partition(":")[0] for d in rescore_row(spec, row, path)] == ["decisions"]
    assert "Open vs closed loop" in write_report(run).markdown.read_text()


def test_the_config_file_gives_the_issue_defaults_and_bad_values_are_named():
    assert default_config() == LoopConfig(0.5, 4)
    with pytest.raises(ValueError, match="max_replans"):
        LoopConfig(max_replans=-1)
    with pytest.raises(ValueError, match="replan_interval_s"):
        LoopConfig(replan_interval_s=0.0)


def test_reference_brains_re_plan_without_frames_and_models_on_images_with_them():
    assert not sees_images(OracleBrain()) and sees_images(Scripted("oracle", "oracle"))


def test_a_closed_loop_episode_decides_again_on_a_later_window_of_the_same_shape(spec, body):
    brain = Scripted("oracle", "oracle")
    row = _closed(spec, body, brain, 2)
    first, *later = brain.seen
    assert row["replans"] == len(later) == 2 and len(row["decisions"]) == 3
    assert [d["t_s"] for d in row["decisions"]] == pytest.approx([first.freeze_time_s + 0.5 * k for k in range(3)])
    for k, obs in enumerate(later, start=1):
        assert obs.decision_index == k and obs.previous_plan is not None
        shift = obs.freeze_time_s - first.freeze_time_s
        assert obs.frame_times_s == pytest.approx(tuple(t + shift for t in first.frame_times_s))
        assert {v: [f.shape for f in fs] for v, fs in obs.images.items()} == {
            v: [f.shape for f in fs] for v, fs in first.images.items()
        }
        assert obs.observer_pose != first.observer_pose  # the robot's pose of that moment
        assert any(obs.images[v][-1].tobytes() != first.images[v][-1].tobytes() for v in obs.images)
        text = build_messages(obs, "state_text")[1]["content"]
        assert "RE-PLANNING" in text and '"walking_cmd"' in text
    assert "RE-PLANNING" not in build_messages(first, "state_text")[1]["content"]
    # each decision judged against the truth of its own moment; the first is the row's, unchanged
    d0 = row["decisions"][0]
    assert (d0["action"], d0["correct_action"], d0["saa"]) == (row["action"], row["correct_action"], row["saa"])
    assert row["decision_saa"] == [d["saa"] for d in row["decisions"]]
    assert row["final_action"] == row["decisions"][-1]["action"]
    # the paper's first-decision metrics are those of the open-loop episode of the same decision
    open_row = run_episode(spec, OracleBrain(), body, Spine(spine_config())).record.to_dict()
    assert {k: open_row[k] for k in FIRST_DECISION_FIELDS} == {k: row[k] for k in FIRST_DECISION_FIELDS}
    assert "replans" not in open_row and "loop" not in open_row


def test_wrong_then_right_is_a_recovery_and_right_then_wrong_a_regression(spec, body):
    recovered = _closed(spec, body, Scripted("stay", "oracle"), 1)
    assert recovered["correct_action"] == "CATCH" and recovered["decisions"][1]["correct_action"] == "CATCH"
    assert recovered["decision_saa"] == [0, 1] and recovered["executed_safe"]
    assert recovered["recovery"] and not recovered["regression"]
    regressed = _closed(spec, body, Scripted("oracle", "stay"), 1)
    assert regressed["decision_saa"] == [1, 0] and regressed["final_action"] == "NO_ACTION"
    assert regressed["regression"] and not regressed["recovery"]


def _judged(index: int, action: str | None, saa: int) -> JudgedDecision:
    point = DecisionPoint(index, 0.6 + 0.5 * index, Pose2D(0.0, 0.0, 0.0), None, (1.0, 0.0, 0.5))
    return JudgedDecision(point, action, "CATCH", saa, None)


def test_an_unparsed_replan_leaves_the_running_plan_final_and_a_struck_body_is_no_recovery():
    row = DecisionRecord("s", "rolling_ball", "m", "ball", correct_action="CATCH", struck=False, fell=False)
    fields = closed_loop_fields((_judged(0, "DODGE", 0), _judged(1, "CATCH", 1), _judged(2, None, 0)), row)
    assert fields["final_action"] == "CATCH" and fields["saa_final"] == 1 and fields["replans"] == 2
    assert fields["recovery"] and not fields["regression"]
    row.struck = True
    assert not closed_loop_fields((_judged(0, "DODGE", 0), _judged(1, "CATCH", 1)), row)["recovery"]
