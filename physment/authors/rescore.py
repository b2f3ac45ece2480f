"""`physment rescore-authors TESTRESULTS_DIR`: the authors' logged final answers graded with each matcher
(strict, the paper's Eq. 4, the authors' own), per model folder and budget, beside the verdicts their logs
recorded and beside their `manual_grading_summary.csv` (the paper's Table 2).

One episode per (model, budget, scene): the latest log that reached its final summary. A log whose summary
stops after the answer line (writing a key with a character outside the log's encoding failed) is graded
against the scene file's current key when a scene folder is given (counted in `current_key`); a scene whose
every log broke off before an answer counts as not answered (as a timeout does). Accuracy is over the scenes
logged in that model's budget folder (105 for the main models)."""

from __future__ import annotations

import ast
import csv
import dataclasses
import json
from collections import defaultdict
from pathlib import Path

from physment.authors.logs import LoggedEpisode, read_episodes
from physment.authors.matcher import authors_correct
from physment.protocol import paper_correct
from physment.scoring import ABS_TOL, REL_TOL, as_number, is_correct
from physment.scene import load_scenes_lenient

MATCHERS = ("strict", "paper", "authors")
MANUAL_CSV = "manual_grading_summary.csv"
# the manual-grading CSV's columns whose model has logs under iterations_<B>/ (same model, same folder name
# up to spelling); GPT_5_4 and Gemini_3_0_5 have none there
CSV_COLUMN_FOLDERS = {
    "Kimi_K2_5": "kimi_k2_5",
    "GLM_5": "glm_5",
    "DeepSeek_R1": "deepseek_r1",
    "Qwen_3_5": "qwen_3_5",
    "Claude_Opus_4_6": "openrouter_opus_4_6",
}


def typed(text: str | None) -> object:
    """A logged str() back to a value where it reads as one ('2' -> 2, '[1, 2]' -> [1, 2]); else the text."""
    if text is None:
        return None
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(text.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, (int, float, str, list)) and not isinstance(value, bool):
            return value
    return text


def verdicts(ep: LoggedEpisode, key: object = None) -> dict[str, bool]:
    """Each matcher's verdict on one logged final answer, against the logged key (or `key` where the log lost
    it); an episode without an answer or a key fails all three."""
    truth_text = ep.truth if ep.complete else (None if key is None else str(key))
    if ep.final_answer is None or truth_text is None:
        return {m: False for m in MATCHERS}
    pred, truth = typed(ep.final_answer), typed(truth_text)
    categorical = ep.problem_type in ("comparison", "observation") or as_number(truth) is None
    return {
        "strict": is_correct(pred, truth, ABS_TOL, REL_TOL, categorical),
        "paper": paper_correct(pred, truth, ABS_TOL, REL_TOL),
        "authors": authors_correct(ep.final_answer, truth_text),
    }


def current_keys(scenes_dir: str | Path | None) -> dict[int, object]:
    """Scene number -> the answer key of the scene files (the authors' Scenes/, as published now)."""
    if scenes_dir is None or not Path(scenes_dir).is_dir():
        return {}

    return {s.number: s.answer for s in load_scenes_lenient(scenes_dir)[0]}


@dataclasses.dataclass
class Cell:
    """One model folder at one budget."""

    scenes: int = 0
    complete: int = 0  # scenes with a log that reached its summary
    current_key: int = 0  # scenes graded against the scene file's key (their log lost it)
    correct: dict[str, int] = dataclasses.field(default_factory=lambda: {m: 0 for m in (*MATCHERS, "logged")})

    def accuracy(self, matcher: str) -> float:
        return round(100.0 * self.correct[matcher] / self.scenes, 1) if self.scenes else 0.0


def chosen_episodes(results_dir: str | Path) -> dict[tuple[str, int, int], LoggedEpisode]:
    """(model, budget, scene) -> the latest complete log, else the latest with an answer, else the latest."""
    out: dict[tuple[str, int, int], LoggedEpisode] = {}
    for ep in read_episodes(results_dir):
        key = (ep.model, ep.budget, ep.scene_number)
        held = out.get(key)
        if held is None or _rank(ep) >= _rank(held):
            out[key] = ep
    return out


def _rank(ep: LoggedEpisode) -> tuple[bool, bool, str]:
    return ep.complete, ep.final_answer is not None, ep.stamp


def rescore(results_dir: str | Path, scenes_dir: str | Path | None = None) -> dict[str, dict[int, Cell]]:
    """model folder -> budget -> counts; `scenes_dir` (default: the Scenes/ beside TESTRESULTS_DIR) supplies
    the keys logs lost."""
    if scenes_dir is None:
        scenes_dir = Path(results_dir).resolve().parent / "Scenes"
    keys = current_keys(scenes_dir)
    cells: dict[str, dict[int, Cell]] = defaultdict(dict)
    for (model, budget, scene), ep in sorted(chosen_episodes(results_dir).items()):
        cell = cells[model].setdefault(budget, Cell())
        cell.scenes += 1
        cell.complete += ep.complete
        lost_key = not ep.complete and ep.final_answer is not None and scene in keys
        cell.current_key += lost_key
        for m, ok in verdicts(ep, keys.get(scene) if lost_key else None).items():
            cell.correct[m] += ok
        cell.correct["logged"] += ep.complete and ep.logged_correct
    return dict(cells)


def manual_table(results_dir: str | Path) -> dict[str, dict[int, float]]:
    """manual_grading_summary.csv as model folder (or the CSV column where no folder matches) -> budget -> %."""
    path = Path(results_dir) / MANUAL_CSV
    if not path.is_file():
        return {}
    out: dict[str, dict[int, float]] = defaultdict(dict)
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            for column, value in row.items():
                if column != "iterations" and value not in (None, ""):
                    out[CSV_COLUMN_FOLDERS.get(column, column)][int(row["iterations"])] = float(value)
    return dict(out)


def summary_json(cells: dict[str, dict[int, Cell]]) -> dict[str, dict[str, dict[str, float]]]:
    """model folder -> budget -> matcher -> accuracy %."""
    return {
        model: {str(b): {m: c.accuracy(m) for m in MATCHERS} for b, c in sorted(by_b.items())}
        for model, by_b in sorted(cells.items())
    }


def table_lines(cells: dict[str, dict[int, Cell]], manual: dict[str, dict[int, float]]) -> list[str]:
    lines = [
        "| model folder | budget | scenes | complete | current key | strict | paper (Eq. 4) | authors | logged "
        "| manual CSV |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for model, by_b in sorted(cells.items()):
        for b, c in sorted(by_b.items()):
            man = manual.get(model, {}).get(b)
            lines.append(
                f"| {model} | {b} | {c.scenes} | {c.complete} | {c.current_key} | {c.accuracy('strict')} | {c.accuracy('paper')} "
                f"| {c.accuracy('authors')} | {c.accuracy('logged')} | {'' if man is None else man} |"
            )
    unlogged = sorted(k for k in manual if k not in cells)
    if unlogged:
        lines.append(f"\nCSV columns without logs under iterations_*/: {', '.join(unlogged)}")
    return lines
