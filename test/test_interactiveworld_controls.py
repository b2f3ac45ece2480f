"""The paper's controls and analyses (early help, the assistant x human matrix, the task-horizon slope) and
the assistant's eyes (320x240 frames, a note held up is readable, recent images kept in its history)."""

from __future__ import annotations

import dataclasses
import json
import shutil

import numpy as np

from interactiveworld.bench.horizon import fit
from interactiveworld.bench.record import TaskRecord
from interactiveworld.bench.taskpack import default_tasks_dir, load_pack
from interactiveworld.cli import main


def test_matrix_of_controls_tabulates_pass_rate_and_mcr(tmp_path, capsys):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for tid in ("guidance-store-0", "prevention-burner-1"):
        shutil.copy(default_tasks_dir() / f"{tid}.json", tasks)
    out = tmp_path / "mx"
    assert (
        main(
            [
                "matrix",
                "--tasks",
                str(tasks),
                "--models",
                "oracle,silent,early",
                "--humans",
                "scripted",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    table = capsys.readouterr().out
    cells = {(c["assistant"], c["human"]): c for c in json.loads((out / "matrix.json").read_text())}
    assert cells[("oracle", "scripted")]["pass_rate"] == 1.0
    assert cells[("oracle", "scripted")]["mcr"] == 1.0
    assert cells[("silent", "scripted")]["pass_rate"] == 0.0
    # early help (everything at handoff, then quiet) cannot store groceries that arrive after the handoff nor
    # catch the human's later mistake
    assert cells[("early", "scripted")]["pass_rate"] == 0.0
    assert "| oracle | 100.0 / 100.0 |" in table
    assert "| silent | 0.0 /" in table
    assert main(["matrix", "--tasks", str(tasks), "--models", "", "--humans", "scripted", "--out", str(out)]) == 2


def test_horizon_slope_and_bootstrap_ci():
    rows = []
    for fam, lengths in (("guidance", (2, 4, 6)), ("finding", (3, 5, 7, 9))):
        lo, hi = min(lengths), max(lengths)
        for n in lengths:
            h = (n - lo) / (hi - lo)
            for k in range(4):  # success falls exactly linearly from 1 to 0 with the normalised horizon
                rows.append(
                    TaskRecord(
                        task_id=f"{fam}-{n}",
                        family=fam,
                        assistant="oracle",
                        human="scripted",
                        oracle_actions=n,
                        passed=k < round(4 * (1 - h)),
                    )
                )
    f = fit(rows)
    assert f.n_tasks == 7
    assert abs(f.slope + 1.0) < 0.1
    assert f.ci95[0] <= f.slope <= f.ci95[1]
    flat = fit([dataclasses.replace(r, oracle_actions=4) for r in rows])
    assert flat.slope is None  # lengths that do not vary cannot give a slope


def test_assistant_frames_show_a_readable_note_and_history_keeps_recent_images():
    from interactiveworld.agents.llm_assistant import command_grammar, keep_recent_images
    from interactiveworld.episode import Episode

    p = load_pack(default_tasks_dir() / "guidance-store-0.json")
    ep = Episode(p, render=True)
    try:
        ep.run_opening()
        note_before = ep.world.object_pos("note").copy()
        ep.pending.clear()
        ep.hear("The note is on the counter.")
        assert ep.execute("read the note").ok
        frame = next(f.image for f in ep.pending if f.label.startswith("reading"))
    finally:
        ep.close()
    assert frame.shape == (240, 320, 3)
    paper = frame.min(axis=2) > 225  # the white page fills the middle of the view ...
    ink = frame.max(axis=2) < 60
    assert paper[40:200, 100:220].mean() > 0.6
    assert 0.01 < ink[40:200, 100:220].mean() < 0.3  # ... with dark writing on it
    # holding the note up to read it put it back exactly where it lay
    assert np.allclose(ep.world.object_pos("note"), note_before, atol=1e-4)
    h = [
        {"role": "user", "content": [{"type": "text", "text": "a"}, "img1", "img2"]},
        {"role": "assistant", "content": "x"},
        {"role": "user", "content": [{"type": "text", "text": "b"}, "img3"]},
    ]
    assert keep_recent_images(h, 2)[0]["content"] == [{"type": "text", "text": "a"}, "img2"]
    assert keep_recent_images(h, 0)[0]["content"] == "a"
    grammar = command_grammar()
    assert "'pick up the X from the Y'" in grammar
    assert "'put the X in the Y'" in grammar
    assert "'wait 2 seconds'" in grammar


def test_several_models_get_one_run_folder_each(tmp_path):
    """A run folder holds one assistant's run: with several models, `run` and `static` write OUT/<model>/."""
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    shutil.copy(default_tasks_dir() / "guidance-store-0.json", tasks)
    out = tmp_path / "run"
    assert main(["run", "--tasks", str(tasks), "--models", "oracle,silent", "--out", str(out)]) == 0
    passed = {name: json.loads((out / name / "results.jsonl").read_text())["passed"] for name in ("oracle", "silent")}
    assert passed == {"oracle": True, "silent": False}
    assert not (out / "results.jsonl").exists()
    assert main(["static", "--tasks", str(tasks), "--models", "oracle,wrong", "--out", str(tmp_path / "st")]) == 0
    assert json.loads((tmp_path / "st" / "oracle" / "static.jsonl").read_text())["correct"]
    assert not json.loads((tmp_path / "st" / "wrong" / "static.jsonl").read_text())["correct"]
