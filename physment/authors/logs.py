"""The authors' published per-episode logs (`TestResults/iterations_<B>/<model>/scene_<NNN>/summary_*.txt`), read
as data: the first prompt, the final answer and key with the verdict their code recorded, and every executed
tool call with the result their simulator returned (`--- Tool Call Results ---`, one Python repr a line).

The results are Python reprs (single quotes, tuples, `np.float64(x)`); they are read with a small literal
reader over `ast` that accepts literals and `np.float64(...)`-style numeric wrappers only, never `eval`."""

from __future__ import annotations

import ast
import dataclasses
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

_BUDGET_DIR_RE = re.compile(r"^iterations_(\d+)$")
_SCENE_DIR_RE = re.compile(r"^scene_(\d+)$")
_RESULT_LINE_RE = re.compile(r"^  \[(\d+)\] ", re.MULTILINE)
_NUMERIC_WRAPPERS = {"float64", "float32", "int64", "int32", "float", "int", "float_", "bool_"}
_NAMES = {"nan": math.nan, "inf": math.inf, "True": True, "False": False, "None": None}


class LogError(ValueError):
    """A log file that cannot be read; the message names the file and what is wrong."""


@dataclasses.dataclass(frozen=True)
class LoggedCall:
    """One executed tool call as their simulator answered it."""

    index: int  # 1-based, over the episode
    tool: str
    parameters: dict
    result: object  # None where their tool returned nothing (`step`)
    sim_time: float | None


@dataclasses.dataclass(frozen=True)
class LoggedEpisode:
    model: str  # the log folder (kimi_k2_5, ...)
    budget: int
    scene_number: int
    path: Path
    first_prompt: str
    final_answer: str | None  # str() of what the model answered, as their log wrote it; None: no answer
    truth: str
    logged_correct: bool
    calls: tuple[LoggedCall, ...]
    complete: bool = True  # False: the log stops before its final summary (the run broke off; no verdict)
    problem_type: str = ""  # from the episode's log_<stamp>.json, when it has one

    @property
    def stamp(self) -> str:
        return self.path.stem.split("_", 1)[-1]


def literal(text: str) -> object:
    """A Python repr of their results: literals plus `np.float64(x)` wrappers and nan/inf names."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise LogError(f"not a Python literal: {text[:80]!r}") from exc
    return _value(tree.body)


def _value(node: ast.AST) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Dict):
        return {_value(k): _value(v) for k, v in zip(node.keys, node.values)}  # type: ignore[arg-type]
    if isinstance(node, ast.List):
        return [_value(e) for e in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_value(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _value(node.operand)
        return -v if isinstance(node.op, ast.USub) else v  # type: ignore[operator]
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in _NUMERIC_WRAPPERS:
            v = _value(node.args[0])
            return float(v) if name.startswith("float") else v  # type: ignore[arg-type]
    raise LogError(f"unexpected element in a logged result: {ast.dump(node)[:80]}")


def _section(text: str, start: str, end: str) -> str:
    i = text.find(start)
    if i < 0:
        return ""
    j = text.find(end, i + len(start))
    return text[i + len(start) : j if j >= 0 else len(text)]


def _field(text: str, label: str, following: str) -> str:
    i = text.rfind(f"\n{label}")
    if i < 0:
        raise LogError(f"no {label.strip()!r} line")
    j = text.find(f"\n{following}", i + 1)
    return text[i + 1 + len(label) : j if j >= 0 else len(text)]


def parse_calls(section: str) -> tuple[LoggedCall, ...]:
    marks = list(_RESULT_LINE_RE.finditer(section))
    calls = []
    for m, nxt in zip(marks, marks[1:] + [None]):
        entry = section[m.end() : nxt.start() if nxt else len(section)].strip()
        value = literal(entry)
        if not isinstance(value, dict) or "tool" not in value:
            raise LogError(f"tool call result {m.group(1)} is not a call record")
        params = value.get("parameters")
        calls.append(
            LoggedCall(
                int(m.group(1)),
                str(value["tool"]),
                params if isinstance(params, dict) else {},
                value.get("result", value.get("error")),
                value.get("sim_time"),
            )
        )
    return tuple(calls)


def read_episode(path: str | Path, model: str = "", budget: int = 0, scene_number: int = 0) -> LoggedEpisode:
    path = Path(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    first = _section(text, "LLM Input Prompt Below:\n", "\n\nLLM Response Below:")
    summary = (
        text[text.rfind("=== Final Experiment Summary ===") :] if "=== Final Experiment Summary ===" in text else ""
    )
    try:
        answer = _field(summary, "LLM's Final Answer: ", "Correct Answer: ")
        truth = _field(summary, "Correct Answer: ", "Is Correct: ")
        correct = _field(summary, "Is Correct: ", "Answer Found: ").strip() == "True"
        found = _field(summary, "Answer Found: ", "Timeout Occurred: ").strip() == "True"
    except LogError:  # the run broke off before (or while) writing its summary: no verdict, no results section
        return LoggedEpisode(
            model, budget, scene_number, path, first, _broken_off_answer(summary), "", False, (), complete=False
        )
    try:
        calls = parse_calls(_section(text, "--- Tool Call Results ---\n", "\n--- Python Tool Status ---"))
    except LogError as exc:
        raise LogError(f"{path}: {exc}") from exc
    return LoggedEpisode(
        model,
        budget,
        scene_number,
        path,
        first,
        answer if found else None,
        truth,
        correct,
        calls,
        problem_type=_problem_type(path),
    )


def _broken_off_answer(summary: str) -> str | None:
    """The final answer of a summary that stops after its answer line (writing the key failed: keys holding
    characters outside the log file's encoding, such as a theta), else None."""
    label = "\nLLM's Final Answer: "
    i = summary.find(label)
    if i < 0 or "\nCorrect Answer: " in summary:
        return None
    text = summary[i + len(label) :].rstrip("\n")
    return None if text == "None" else text


def _problem_type(summary_path: Path) -> str:
    log = summary_path.with_name(summary_path.name.replace("summary_", "log_", 1)).with_suffix(".json")
    try:
        entries = json.loads(log.read_text(encoding="utf-8"))
        return str(entries[0]["summary"].get("Problem Type") or "")
    except (OSError, ValueError, LookupError, TypeError, AttributeError):
        return ""


def episode_paths(results_dir: str | Path) -> Iterator[tuple[int, str, int, Path]]:
    """(budget, model folder, scene number, summary path) of every log under `iterations_<B>/` (the bucketed
    runs the paper's Table 2 draws on), in budget, model, scene, time order."""
    root = Path(results_dir)
    if not root.is_dir():
        raise LogError(f"{root} is not a folder (expected the authors' TestResults/)")
    for bdir in sorted(p for p in root.iterdir() if _BUDGET_DIR_RE.match(p.name)):
        budget = int(_BUDGET_DIR_RE.match(bdir.name).group(1))  # type: ignore[union-attr]
        for mdir in sorted(p for p in bdir.iterdir() if p.is_dir()):
            for sdir in sorted(
                (p for p in mdir.iterdir() if _SCENE_DIR_RE.match(p.name)), key=lambda p: int(p.name.split("_")[1])
            ):
                for f in sorted(sdir.glob("summary_*.txt")):
                    yield budget, mdir.name, int(sdir.name.split("_")[1]), f


def read_episodes(results_dir: str | Path) -> Iterator[LoggedEpisode]:
    for budget, model, scene, path in episode_paths(results_dir):
        yield read_episode(path, model, budget, scene)
