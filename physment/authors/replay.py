"""`physment replay TESTRESULTS_DIR`: every logged tool call of every logged episode re-executed, in order, in
our lab under the authors' tool semantics (`physment.authors.tools`, all switches on), each result held
against the one their simulator logged.

Agreement: numbers within 1e-6 relative or 1e-9 absolute (NaN equals NaN), strings, booleans and None
exactly, lists and tuples element by element, dicts key by key. A mismatch is recorded with its episode, call,
our result and theirs, and a class:
- `initial_state`: before the episode changed any state (no step, move, force or edit yet), or a result that
  depends on the model alone (`get_parameters`) before any edit: the scene as loaded here is not the scene
  the run loaded (a scene file changed since the run);
- `after_divergence`: a later call of an episode whose state already diverged (a consequence, not a cause);
- `first_divergence`: the first mismatch of an episode after it changed state (engine numerics or semantics).
An episode whose scene does not load counts every call as a mismatch of class `scene_missing`."""

from __future__ import annotations

import dataclasses
import math
import subprocess
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from physment.authors.logs import LoggedEpisode, read_episodes
from physment.authors.tools import ALL_ON, AuthorsSim
import argparse
import json
from physment.authors.tools import parse_switches
import mujoco

REL_TOL = 1e-6
ABS_TOL = 1e-9
# tools after which the episode's state may differ from the file's
STATE_TOOLS = frozenset(
    {
        "step",
        "apply_force",
        "apply_torque",
        "set_velocity",
        "move_object",
        "change_position",
        "create_objects",
        "delete_objects",
        "find_objects",
        "attach_objects",
        "reset_sim",
        "detect_collision",
    }
)
EDIT_TOOLS = frozenset({"create_objects", "delete_objects", "find_objects", "attach_objects"})  # reload the model
MODEL_TOOLS = frozenset({"get_parameters"})  # results that depend on the model alone, not on the state


def same(ours: Any, theirs: Any, rel_tol: float = REL_TOL, abs_tol: float = ABS_TOL) -> bool:
    if isinstance(ours, bool) or isinstance(theirs, bool):
        return ours is theirs or (type(ours) is bool and type(theirs) is bool and ours == theirs)
    if isinstance(ours, (int, float)) and isinstance(theirs, (int, float)):
        a, b = float(ours), float(theirs)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= abs_tol or abs(a - b) <= rel_tol * abs(b)
    if isinstance(ours, (list, tuple)) and isinstance(theirs, (list, tuple)):
        return len(ours) == len(theirs) and all(same(x, y, rel_tol, abs_tol) for x, y in zip(ours, theirs))
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return ours.keys() == theirs.keys() and all(same(ours[k], theirs[k], rel_tol, abs_tol) for k in ours)
    return type(ours) is type(theirs) and ours == theirs


@dataclasses.dataclass(frozen=True)
class Mismatch:
    model: str
    budget: int
    scene: int
    log: str  # the summary file's stamp
    call: int  # 1-based index among the episode's logged results
    tool: str
    parameters: dict
    ours: Any
    theirs: Any
    kind: str  # initial_state | first_divergence | after_divergence | scene_missing


@dataclasses.dataclass
class ReplaySummary:
    calls: int = 0
    reproduced: int = 0
    episodes: int = 0
    per_tool: dict[str, list[int]] = dataclasses.field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    per_scene: dict[int, list[int]] = dataclasses.field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    kinds: Counter = dataclasses.field(default_factory=Counter)
    mismatches: list[Mismatch] = dataclasses.field(default_factory=list)
    variants: Counter = dataclasses.field(default_factory=Counter)  # episodes replayed with / without the viewer
    # calls and reproduced calls of the episodes whose scene loaded as the run's did (no initial_state or
    # scene_missing mismatch): what the tool semantics and the engine reproduce, scene changes set aside
    same_scene: list[int] = dataclasses.field(default_factory=lambda: [0, 0])

    def merge(self, other: ReplaySummary) -> None:
        self.calls += other.calls
        self.reproduced += other.reproduced
        self.episodes += other.episodes
        for mine, theirs in ((self.per_tool, other.per_tool), (self.per_scene, other.per_scene)):
            for key, (ok, n) in theirs.items():
                mine[key][0] += ok
                mine[key][1] += n
        self.kinds.update(other.kinds)
        self.mismatches += other.mismatches
        self.variants.update(other.variants)
        self.same_scene[0] += other.same_scene[0]
        self.same_scene[1] += other.same_scene[1]

    def add(self, tool: str, scene: int, ok: bool) -> None:
        self.calls += 1
        self.reproduced += ok
        for table, key in ((self.per_tool, tool), (self.per_scene, scene)):
            table[key][0] += ok
            table[key][1] += 1

    def to_json(self, mismatches_max: int | None = None) -> dict:
        return {
            "calls": self.calls,
            "reproduced": self.reproduced,
            "episodes": self.episodes,
            "share": round(self.reproduced / self.calls, 4) if self.calls else None,
            "per_tool": {k: {"reproduced": v[0], "calls": v[1]} for k, v in sorted(self.per_tool.items())},
            "per_scene": {str(k): {"reproduced": v[0], "calls": v[1]} for k, v in sorted(self.per_scene.items())},
            "same_scene": {"reproduced": self.same_scene[0], "calls": self.same_scene[1]},
            "mismatch_kinds": dict(self.kinds),
            "episodes_by_viewer": dict(self.variants),
            "mismatches": [_jsonable(dataclasses.asdict(m)) for m in self.mismatches[:mismatches_max]],
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def replay_episode(
    ep: LoggedEpisode, xml_text: str | None, summary: ReplaySummary, switches: frozenset[str] = ALL_ON
) -> None:
    """Re-execute one episode's logged calls and add each verdict to `summary`. With `viewer_sync` on, the
    episode is also replayed headless (their logs do not record whether the viewer ran) and the variant that
    reproduces more of it counts."""
    variants = [switches] + ([switches - {"viewer_sync"}] if "viewer_sync" in switches else [])
    best: ReplaySummary | None = None
    for variant in variants:
        trial = ReplaySummary()
        _replay_once(ep, xml_text, trial, variant)
        if best is None or trial.reproduced > best.reproduced:
            best, chosen = trial, variant
    summary.merge(best)
    summary.variants["viewer" if "viewer_sync" in chosen else "headless"] += 1


def _replay_once(ep: LoggedEpisode, xml_text: str | None, summary: ReplaySummary, switches: frozenset[str]) -> None:
    summary.episodes += 1
    sim = None
    if xml_text is not None:
        try:
            sim = AuthorsSim(xml_text, switches)
        except Exception:  # a scene MuJoCo does not compile here: every call of the episode is a mismatch
            sim = None
    changed = diverged = edited = False
    for c in ep.calls:
        if sim is None:
            ok, ours, kind = False, None, "scene_missing"
        else:
            ours, _ = sim.call(c.tool, dict(c.parameters))
            ok = same(ours, c.result)
            # a model-only result (mass, inertia) before any edit tells the scene file apart, however late
            model_read = c.tool in MODEL_TOOLS and not edited
            kind = (
                "after_divergence"
                if diverged
                else ("first_divergence" if changed and not model_read else "initial_state")
            )
        summary.add(c.tool, ep.scene_number, ok)
        if not ok:
            summary.kinds[kind] += 1
            summary.mismatches.append(
                Mismatch(
                    ep.model,
                    ep.budget,
                    ep.scene_number,
                    ep.stamp,
                    c.index,
                    c.tool,
                    dict(c.parameters),
                    ours,
                    c.result,
                    kind,
                )
            )
            diverged = diverged or c.tool in STATE_TOOLS or changed
        changed = changed or c.tool in STATE_TOOLS
        edited = edited or c.tool in EDIT_TOOLS
    if not (summary.kinds["initial_state"] or summary.kinds["scene_missing"]):
        summary.same_scene[0] += summary.reproduced
        summary.same_scene[1] += summary.calls


def scene_xml(scenes_dir: Path, number: int) -> str | None:
    path = scenes_dir / f"Scene{number}" / f"scene{number}.xml"
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None


def _log_time(stamp: str) -> str:
    """'20260216T163118' -> '2026-02-16 16:31:18' (their logs' local time; git compares it as given)."""
    return f"{stamp[0:4]}-{stamp[4:6]}-{stamp[6:8]} {stamp[9:11]}:{stamp[11:13]}:{stamp[13:15]}"


def git_scene_xml(git_dir: Path, number: int, stamp: str) -> str | None:
    """The scene's MJCF as last committed before the log's time stamp (None if none was)."""
    return git_scene_file(git_dir, number, stamp, "xml")


def git_scene_file(git_dir: Path, number: int, stamp: str, suffix: str) -> str | None:
    """The scene's `scene<N>.<suffix>` as last committed before the log's time stamp (None if none was)."""
    path = f"Scenes/Scene{number}/scene{number}.{suffix}"
    rev = subprocess.run(
        ["git", f"--git-dir={git_dir}", "rev-list", "-1", f"--before={_log_time(stamp)}", "HEAD", "--", path],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    if not rev:
        return None
    out = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{rev}:{path}"], capture_output=True, text=True, check=False
    )
    return out.stdout if out.returncode == 0 else None


def replay(
    results_dir: str | Path,
    scenes_dir: str | Path | None = None,
    episodes: Iterable[LoggedEpisode] | None = None,
    switches: frozenset[str] = ALL_ON,
    git_dir: str | Path | None = None,
) -> ReplaySummary:
    """Replay every complete logged episode under `iterations_<B>/` (or the given ones). With `git_dir`, each
    episode runs the scene file as committed before its log was written (scene files changed after runs)."""
    scenes = Path(scenes_dir) if scenes_dir is not None else Path(results_dir).resolve().parent / "Scenes"
    summary = ReplaySummary()
    cache: dict[tuple[int, str], str | None] = {}
    for ep in episodes if episodes is not None else read_episodes(results_dir):
        if not ep.calls:
            continue
        key = (ep.scene_number, ep.stamp if git_dir is not None else "")
        if key not in cache:
            cache[key] = (
                git_scene_xml(Path(git_dir), ep.scene_number, ep.stamp)
                if git_dir is not None
                else scene_xml(scenes, ep.scene_number)
            )
        replay_episode(ep, cache[key], summary, switches)
    return summary


def report_lines(summary: ReplaySummary, mismatches_shown: int = 20) -> list[str]:
    share = 100.0 * summary.reproduced / summary.calls if summary.calls else 0.0
    lines = [
        f"replayed {summary.calls} logged tool results of {summary.episodes} episodes: "
        f"{summary.reproduced} reproduced ({share:.1f} %)",
        "",
        "| tool | reproduced | calls | share |",
        "|---|---:|---:|---:|",
    ]
    for tool, (ok, n) in sorted(summary.per_tool.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"| {tool} | {ok} | {n} | {100.0 * ok / n:.1f} % |")
    lines += ["", "| scene | reproduced | calls | share |", "|---|---:|---:|---:|"]
    for scene, (ok, n) in sorted(summary.per_scene.items()):
        lines.append(f"| Scene{scene} | {ok} | {n} | {100.0 * ok / n:.1f} % |")
    lines += [
        "",
        "mismatch classes: " + ", ".join(f"{k} {v}" for k, v in summary.kinds.most_common()),
        f"episodes whose scene loaded as the run's: {summary.same_scene[0]} of {summary.same_scene[1]} "
        f"calls reproduced",
        "episodes best reproduced with / without the viewer's sync: "
        + ", ".join(f"{k} {v}" for k, v in summary.variants.most_common()),
    ]
    for m in summary.mismatches[:mismatches_shown]:
        lines.append(
            f"Scene{m.scene} {m.model} b{m.budget} {m.log} call {m.call} {m.tool}({m.parameters}) "
            f"[{m.kind}]: ours {str(m.ours)[:120]} | theirs {str(m.theirs)[:120]}"
        )
    return lines


def _main(argv: list[str]) -> int:
    """`python -m physment.authors.replay TESTRESULTS_DIR OUT.json [--tools T] [--scenes D] [--git G]`: the
    entry the managed MuJoCo environment runs (physment.authors.engine)."""

    p = argparse.ArgumentParser(prog="physment.authors.replay")
    p.add_argument("results_dir", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--tools", default="authors")
    p.add_argument("--scenes", type=Path, default=None)
    p.add_argument("--git", type=Path, default=None)
    args = p.parse_args(argv)
    summary = replay(args.results_dir, args.scenes, switches=parse_switches(args.tools), git_dir=args.git)

    args.out.write_text(json.dumps({**summary.to_json(), "mujoco": mujoco.__version__}) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(_main(sys.argv[1:]))
