"""Images are the default modality everywhere (the paper's protocol); state_text is the privileged-state
ablation, carried by ledger rows and never mixed with images in one report table."""

import csv

from reacthuman.brain import DEFAULT_MODALITY
from reacthuman.evaluation.cli import build_parser
from reacthuman.evaluation.graph_worker import LAUNCH_FILE, WorkerConfig
from reacthuman.launching.launch_file import load
from reacthuman.plan.plan import Plan, Pose2D
from reacthuman.scoring import ExecutedOutcome, LedgerWriter, ModelReply, SceneMeta, ScoringTruth, score_decision
from reacthuman.scoring.ledger import read_ledger
from reacthuman.reporting.report import write_report


def test_default_modality_of_eval_launch_file_and_brain_is_images():
    assert DEFAULT_MODALITY == "images"
    assert build_parser().parse_args(["--scenes", "s", "--models", "m", "--out", "o"]).modality == "images"
    assert WorkerConfig("m", None, None).modality == "images"
    spec = load(LAUNCH_FILE)
    assert spec.args["modality"] == "images"
    brain = next(n for n in spec.nodes if n.name == "brain")
    assert dict(brain.params)["modality"] == "images"


def _row(model: str, modality: str, scene: str, action_plan: Plan):
    truth = ScoringTruth.from_spec(
        {
            "correct_action": "DODGE",
            "dangerous": True,
            "adversarial": False,
            "impact_point": [1.2, 0.1, 0.9],
            "time_to_floor_s": 0.7,
            "speed_band": "fast",
        },
        object_at_freeze_world=(2.0, 0.0, 1.5),
    )
    record = score_decision(
        SceneMeta(scene, "thrown_object", "cricket ball", model, room="kitchen"),
        truth,
        Pose2D(0.0, 0.0, 0.0),
        ModelReply("{}", action_plan, latency_s=1.0, tokens=10),
        ExecutedOutcome(
            caught=False, struck=False, fell=False, final_left_hand_world=None, final_right_hand_world=None
        ),
    )
    record.modality = modality
    return record


def test_report_never_mixes_modalities_in_one_table(tmp_path):
    dodge = Plan("ball", "step back", 0.8, (-0.7, 0.0, 0.0), 0.7, 0.0, ())
    with LedgerWriter(tmp_path) as w:
        for scene in ("s1", "s2"):
            w.append(_row("vision-model", "images", scene, dodge))
            w.append(_row("local", "state_text", scene, dodge))
            w.append(_row("oracle", "ground_truth", scene, dodge))
    assert {r.modality for r in read_ledger(tmp_path)} == {"images", "state_text", "ground_truth"}
    files = write_report(tmp_path)
    tables = {p.stem: p for p in files.tables}
    assert "main_images" in tables
    assert "main_state_text" in tables
    assert "main" not in tables
    for name, path in tables.items():
        models = {row[0] for row in csv.reader(path.open())}
        assert not ({"vision-model", "local"} <= models), f"table {name} mixes images and state_text rows"
    main_images = {row[0] for row in csv.reader(tables["main_images"].open())}
    assert {"vision-model", "oracle"} <= main_images
    assert "local" not in main_images
    md = files.markdown.read_text()
    assert "privileged-state ablation" in md
    assert "Shown state_text, not images: local" in md
