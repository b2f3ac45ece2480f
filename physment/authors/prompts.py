"""`physment prompts-authors TESTRESULTS_DIR`: our `--dialogue authors` first prompt for every bucketed logged
episode, built from the scene (the published file, or with `--git` the file as committed before the log), held
against the first prompt the log holds. Each episode is compared with the dialogue of its era (`authors-early`
where the logged `answer` tool still reads "...checking or logging") and classed:

- `identical`: character for character;
- `no_prompt_logged`: the log holds its header only;
- `no_scene` / `scene_unreadable`: no scene file (at that commit), or one that does not parse;
- `python_tool`: their optional Python tool was on (a paragraph our dialogue never adds);
- `scene_differs`: only scene-dependent lines differ (description, task, object lines, the problem-type
  rule): the scene the run loaded is not the one we built from;
- `other`: anything else (none, on their published logs)."""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections import Counter
from pathlib import Path

from physment.authors.dialogue import build_prompt, texts
from physment.authors.logs import _section, episode_paths
from physment.authors.replay import git_scene_file
from physment.scene import SceneError, parse_scene

_EARLY_MARK = "submits an answer back to the system for checking or logging"
_PYTHON_MARK = "You have access to a Python tool"
_SCENE_PREFIXES = ("Scene Description:", "Task:", "Object id:")


@dataclasses.dataclass
class PromptCheck:
    classes: Counter = dataclasses.field(default_factory=Counter)
    by_dialogue: Counter = dataclasses.field(default_factory=Counter)  # identical prompts per dialogue
    examples: dict = dataclasses.field(default_factory=dict)  # class -> the first log of it

    def to_json(self) -> dict:
        return {
            "episodes": sum(self.classes.values()),
            "classes": dict(self.classes),
            "identical_by_dialogue": dict(self.by_dialogue),
            "examples": self.examples,
        }


def _rule_lines() -> set[str]:
    rules = list(texts()["problem_type_rules"].values()) + list(texts()["problem_type_rules_early"].values())
    return {line for rule in rules for line in rule.splitlines()}


def classify(ours: str, logged: str) -> str:
    if ours == logged:
        return "identical"
    if _PYTHON_MARK in logged and _PYTHON_MARK not in ours:
        return "python_tool"
    rules = _rule_lines()
    changed = [
        line[1:]
        for line in difflib.unified_diff(ours.splitlines(), logged.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    if all(not c.strip() or c.startswith(_SCENE_PREFIXES) or c in rules for c in changed):
        return "scene_differs"
    return "other"


def _scene_files(scenes: Path, git_dir: Path | None, number: int, stamp: str) -> tuple[str | None, str | None]:
    if git_dir is not None:
        return git_scene_file(git_dir, number, stamp, "json"), git_scene_file(git_dir, number, stamp, "xml")
    folder = scenes / f"Scene{number}"
    files = [folder / f"scene{number}.{s}" for s in ("json", "xml")]
    return tuple(f.read_text(encoding="utf-8", errors="replace") if f.is_file() else None for f in files)  # type: ignore[return-value]


def check_prompts(
    results_dir: str | Path, scenes_dir: str | Path | None = None, git_dir: str | Path | None = None
) -> PromptCheck:
    scenes = Path(scenes_dir) if scenes_dir is not None else Path(results_dir).resolve().parent / "Scenes"
    out = PromptCheck()
    for _, _, number, path in episode_paths(results_dir):
        logged = _section(
            path.read_text(encoding="utf-8", errors="replace"), "LLM Input Prompt Below:\n", "\n\nLLM Response Below:"
        )
        kind, dialogue = "no_prompt_logged", "authors-early" if _EARLY_MARK in logged else "authors"
        if logged.strip():
            meta, xml = _scene_files(scenes, Path(git_dir) if git_dir else None, number, path.stem.split("_", 1)[-1])
            if meta is None or xml is None:
                kind = "no_scene"
            else:
                try:
                    scene = parse_scene(json.loads(meta), xml, number, Path(f"Scene{number}"))
                    kind = classify(build_prompt(scene, dialogue), logged)
                except (ValueError, SceneError):  # JSON or MJCF that does not parse (their run failed on it too)
                    kind = "scene_unreadable"
        out.classes[kind] += 1
        out.by_dialogue[dialogue] += kind == "identical"
        out.examples.setdefault(kind, str(path))
    return out
