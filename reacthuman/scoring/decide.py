"""`reacthuman decide --scenes DIR --models a,b --out RUN`: decision-only scoring of brains over a scene set.

Each scene's observation window is simulated in Genesis up to the freeze (scene only, no robot: nothing
reaches the observer before the freeze in these scenes' windows, and the plan is not executed), the brain
commits its plan from the same state observation the graph gives it (the hazard's track at the frame
times, the object's look, the ground truth for the oracle; no images), and the plan is scored against the
stored simulator ground truth exactly as the graph's scorer scores it (`score_decision`). The paper scores
its metrics against simulator ground truth independent of execution (sec. 3.1), so SAA, safety, rules,
d_end and HDE are the paper's; the executed columns (caught, struck, d_end_executed) stay empty. For
figures over hundreds of scenes where a full graph episode (10+ s each here) is too slow.

The run folder gets ledger.jsonl (append-only; a rerun resumes, skipping decided (scene, model) pairs) and
decide.json saying how the rows were made. Prints the label split and, per brain, SAA, safety and how many
decisions each rule was the recorded (first) rule of.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

from reacthuman.core.model_spec import ModelSpec, ModelSpecError, ModelsOption
from reacthuman.scenes.spec import SceneSpec, window_frame_times_s
from reacthuman.scoring.ledger import DecisionRecord, LedgerWriter, decided_keys, read_ledger
from reacthuman.scoring.metrics import RULES

FRAME_COUNT = 5  # frames over the window, evenly spaced from t0 to the freeze (as the body renders them)
PAPER_SPLIT = {"CATCH": 141, "DODGE": 156, "NO_ACTION": 9}


def frame_times_s(spec: SceneSpec, frame_count: int = FRAME_COUNT) -> tuple[float, ...]:
    return window_frame_times_s(spec.observation_window_s, frame_count)


def decide_scene(spec: SceneSpec, brains: list, simulator) -> list[DecisionRecord]:
    """One decision-only record per brain on one labelled scene (the window is simulated once)."""
    from reacthuman.evaluation.observe import build_observation, ground_truth_dict, hazard_point
    from reacthuman.scoring.episode import reply_of
    from reacthuman.scoring.decision import score_decision
    from reacthuman.scoring.inputs import SceneMeta, ScoringTruth

    if spec.ground_truth is None:
        raise ValueError(f"{spec.scene_id}: the scene has no ground truth (generate it with `reacthuman scenes generate`)")
    freeze_k = int(round((spec.t0_s + spec.observation_window_s) / spec.dt_s))
    track = simulator.run(spec, stop=lambda k, pos, vel: k >= freeze_k)
    times = frame_times_s(spec)
    hazard = spec.hazard_bodies[0]
    samples = {}
    for t in times:  # the hazard's centre of mass, as the body's WindowTracker records it
        state = track.at(hazard, spec.t0_s + t)
        samples[t] = hazard_point(spec, hazard, state["pos"], state["quat"], state["vel"], state["ang_vel"])
    obs = build_observation(spec, times, {}, samples, ground_truth_dict(spec))
    last = track.at(hazard, spec.t0_s + spec.observation_window_s)
    freeze = tuple(float(v) for v in hazard_point(spec, hazard, last["pos"], last["quat"], last["vel"], last["ang_vel"])[0])
    records = []
    for brain in brains:
        decision = brain.plan(obs)
        records.append(score_decision(SceneMeta.from_scene_spec(spec, decision.brain),
                                      ScoringTruth.from_scene_spec(spec, freeze), spec.observer.pose(),
                                      reply_of(decision)))
    return records


def summary(rows: list[DecisionRecord], split: dict[str, int]) -> str:
    """The label split beside the paper's, and per model SAA, safety and the recorded rules' counts."""
    total = sum(split.values()) or 1
    paper_total = sum(PAPER_SPLIT.values())
    lines = ["label split (this set | paper):"]
    for action, n in PAPER_SPLIT.items():
        lines.append(f"  {action:<9} {split.get(action, 0):4d} ({100 * split.get(action, 0) / total:4.1f}%) | "
                     f"{n:3d} ({100 * n / paper_total:4.1f}%)")
    lines.append(f"{'model':<14} {'n':>4} {'SAA%':>6} {'safe%':>6} " + " ".join(f"{r:>4}" for r in RULES)
                 + "  violations  d_end(m) over n (no impact point)")
    by_model: dict[str, list[DecisionRecord]] = collections.defaultdict(list)
    for r in rows:
        if r.scored:
            by_model[r.model].append(r)
    for model, rs in by_model.items():
        rules = collections.Counter(r.rule for r in rs if r.rule)
        lines.append(f"{model:<14} {len(rs):4d} {100 * sum(r.saa for r in rs) / len(rs):6.1f} "
                     f"{100 * sum(r.safe for r in rs) / len(rs):6.1f} " + " ".join(f"{rules[k]:4d}" for k in RULES)
                     + f"  {sum(rules.values()):10d}  {_mean_n(rs)}")
    return "\n".join(lines)


def _mean_n(rows: list[DecisionRecord]) -> str:
    """Mean d_end over the decisions that have one, with how many have one and how many lack an impact point."""
    values = [r.d_end for r in rows if r.d_end is not None]
    skipped = sum(1 for r in rows if r.d_end is None)
    return (f"{sum(values) / len(values):.2f}" if values else "-") + f" over {len(values)} ({skipped} skipped)"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="reacthuman decide", description=__doc__.splitlines()[0])
    p.add_argument("--scenes", type=Path, required=True, help="folder of generated scenes")
    models_option().add_to(p)
    p.add_argument("--out", type=Path, required=True, help="run folder (created; an existing one is resumed)")
    p.add_argument("--limit", type=int, default=None, help="only the first N scenes")
    return p


def models_option() -> ModelsOption:
    """`--models` in the suite's grammar, over ReactHuman's reference brains: decide runs no model server, so
    the help names the brains alone and `_brains` refuses a model."""
    from reacthuman.brain import reference_brains

    brains = reference_brains()
    return ModelsOption(brains, help="comma-separated reference brains, decided one after another (no model "
                                     f"presets: decide runs no model server): {', '.join(brains)}")


def _brains(specs: list[ModelSpec], references: list[str]) -> list:
    """The brains of `specs`; ModelSpecError (one line) for a model preset or explicit model, which decide
    cannot run: it simulates the window and asks the brain in-process, with no model server."""
    from reacthuman.brain import make_brain

    models = [spec.name for spec in specs if spec.is_llm]
    if models:
        named = ", ".join(map(repr, models)) + (" is a model" if len(models) == 1 else " are models")
        raise ModelSpecError(f"--models: {named}; decide runs no model server and takes reference brains only "
                             f"({', '.join(references)}): evaluate models with `reacthuman eval`")
    return [make_brain(spec.name) for spec in specs]


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    from reacthuman.scenes.dataset import read_spec, scene_dirs

    try:  # a bad name fails first, in one line (a ModelSpecError is a ValueError)
        option = models_option()
        brains = _brains(option.parse(args), list(option.references))
        if not args.scenes.is_dir():
            raise ValueError(f"--scenes: {args.scenes} is not a folder")
        if args.limit is not None and args.limit < 1:
            raise ValueError(f"--limit must be a positive integer, got {args.limit}")
        dirs = scene_dirs(str(args.scenes))[: args.limit]
        if not dirs:
            raise ValueError(f"--scenes: no scenes in {args.scenes}")
    except ValueError as exc:
        print(f"reacthuman decide: {exc}", file=sys.stderr)
        return 2
    from reacthuman.scenes import default_simulator

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "decide.json").write_text(json.dumps({"scenes": str(args.scenes), "models": [b.name for b in brains],
                                                      "execution": "none (decision-only: plan + simulator ground truth)"},
                                                     indent=1))
    done = decided_keys(args.out)
    split: collections.Counter = collections.Counter()
    sim = default_simulator()
    with LedgerWriter(args.out) as ledger:
        for d in dirs:
            spec = read_spec(str(Path(d) / "spec.json"))
            split[spec.ground_truth.correct_action] += 1
            todo = [b for b in brains if (spec.scene_id, b.name) not in done]
            if todo:
                for record in decide_scene(spec, todo, sim):
                    ledger.append(record)
    print(summary(read_ledger(args.out), dict(split)))
    return 0
