"""`reacthuman decide --scenes DIR --models a,b --out RUN [--concurrency N]`: decision-only evaluation of any
model of the suite's grammar (presets, `openai-compatible:...`, the embedded model, reference brains).

Every model is asked on the scene set's observation set (`reacthuman scenes render`; windows it lacks are
rendered first): exactly the observation the graph's body publishes to the brain, so the model sees what
it would see in the graph. Its brain is built as the graph's brain node builds it (`make_brain` on the
`--models` entry, `--modality`), and its reply is scored against the simulator ground truth as the graph's
scorer scores it (`scoring.episode.score_unexecuted`: the scoring fields of `score_episode`, the execution
columns empty, `executed: false`) with the committed plan stored in the row (`plan`), so that `reacthuman eval
--plans RUN` can execute it through the graph later. The paper scores its metrics against simulator ground truth independent
of execution (sec. 3.1); `reacthuman eval` runs whole episodes for outcome-level verification.

The run folder gets ledger.jsonl (append-only; a rerun resumes, skipping decided (scene, model) pairs) and
decide.json saying how the rows were made. Prints the label split and, per model, SAA, safety and how many
decisions each rule was the recorded (first) rule of.

`decide_scene` is the older window without the robot (the scene alone, no images), kept for the ground-truth
tests that need a decision without rendering.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict
from pathlib import Path

from reacthuman.scoring.replay import PLAN_FIELD, stored_plan
from reacthuman.core.model_spec import ModelsOption
from reacthuman.evaluation.progress import Progress
from reacthuman.policy.loading import is_policy_entry
from reacthuman.policy.loading import models_option as eval_models_option
from reacthuman.scenes.spec import SceneSpec, window_frame_times_s
from reacthuman.scoring.episode import reply_of, score_unexecuted
from reacthuman.scoring.ledger import DecisionRecord, LedgerWriter, decided_keys, ledger_path, read_ledger
from reacthuman.scoring.metrics import RULES
from reacthuman.evaluation.observe import build_observation, ground_truth_dict, hazard_point
from reacthuman.scoring.decision import score_decision
from reacthuman.scoring.inputs import SceneMeta, ScoringTruth
from reacthuman.brain import DEFAULT_MODALITY, MODALITIES
from reacthuman.brain import make_brain
from reacthuman.brain.llm_brain import model_modalities

FRAME_COUNT = 5  # frames over the window, evenly spaced from t0 to the freeze (as the body renders them)
PAPER_SPLIT = {"CATCH": 141, "DODGE": 156, "NO_ACTION": 9}
# scenes whose windows are held at once: their encoded frames fit the encoder's cache (llm.images), so each
# frame is encoded once whichever model asks first
DECIDE_CHUNK_SCENES = 16


def frame_times_s(spec: SceneSpec, frame_count: int = FRAME_COUNT) -> tuple[float, ...]:
    return window_frame_times_s(spec.observation_window_s, frame_count)


def decide_scene(spec: SceneSpec, brains: list, simulator) -> list[DecisionRecord]:
    """One decision-only record per brain on one labelled scene (the window is simulated once)."""

    if spec.ground_truth is None:
        raise ValueError(
            f"{spec.scene_id}: the scene has no ground truth (generate it with `reacthuman scenes generate`)"
        )
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
    freeze = tuple(
        float(v) for v in hazard_point(spec, hazard, last["pos"], last["quat"], last["vel"], last["ang_vel"])[0]
    )
    records = []
    for brain in brains:
        decision = brain.plan(obs)
        records.append(
            score_decision(
                SceneMeta.from_scene_spec(spec, decision.brain),
                ScoringTruth.from_scene_spec(spec, freeze),
                spec.observer.pose(),
                reply_of(decision),
            )
        )
    return records


def summary(rows: list[DecisionRecord], split: dict[str, int]) -> str:
    """The label split beside the paper's, and per model SAA, safety and the recorded rules' counts."""
    total = sum(split.values()) or 1
    paper_total = sum(PAPER_SPLIT.values())
    lines = ["label split (this set | paper):"]
    for action, n in PAPER_SPLIT.items():
        lines.append(
            f"  {action:<9} {split.get(action, 0):4d} ({100 * split.get(action, 0) / total:4.1f}%) | "
            f"{n:3d} ({100 * n / paper_total:4.1f}%)"
        )
    lines.append(
        f"{'model':<14} {'n':>4} {'SAA%':>6} {'safe%':>6} "
        + " ".join(f"{r:>4}" for r in RULES)
        + "  violations  d_end(m) over n (no impact point)"
    )
    by_model: dict[str, list[DecisionRecord]] = collections.defaultdict(list)
    for r in rows:
        if r.scored:
            by_model[r.model].append(r)
    for model, rs in by_model.items():
        rules = collections.Counter(r.rule for r in rs if r.rule)
        lines.append(
            f"{model:<14} {len(rs):4d} {100 * sum(r.saa for r in rs) / len(rs):6.1f} "
            f"{100 * sum(r.safe for r in rs) / len(rs):6.1f} "
            + " ".join(f"{rules[k]:4d}" for k in RULES)
            + f"  {sum(rules.values()):10d}  {_mean_n(rs)}"
        )
    return "\n".join(lines)


def _mean_n(rows: list[DecisionRecord]) -> str:
    """Mean d_end over the decisions that have one, with how many have one and how many lack an impact point."""
    values = [r.d_end for r in rows if r.d_end is not None]
    skipped = sum(1 for r in rows if r.d_end is None)
    return (f"{sum(values) / len(values):.2f}" if values else "-") + f" over {len(values)} ({skipped} skipped)"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="reacthuman decide", description=__doc__.splitlines()[0])
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--scenes",
        type=Path,
        help="folder of generated scenes (its observation set: SCENES/observations, rendered where missing)",
    )
    source.add_argument(
        "--dataset",
        type=Path,
        help="a folder written by `reacthuman dataset export` (no simulator needed: `pip install -e '.[client]'`)",
    )
    models_option().add_to(p)
    p.add_argument("--out", type=Path, required=True, help="run folder (created; an existing one is resumed)")
    p.add_argument("--limit", type=int, default=None, help="only the first N scenes")
    p.add_argument("--modality", default=DEFAULT_MODALITY, choices=MODALITIES, help="what an LLM brain is shown")
    p.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="requests at once per model (each with the client's retries and backoff)",
    )
    p.add_argument("--workers", type=int, default=1, help="render processes for windows the set lacks")
    p.add_argument("--engine", default="genesis", choices=("genesis", "mujoco"), help="the graph's renderer")
    return p


def models_option() -> ModelsOption:
    """`--models`: eval's own option (the suite's grammar over the reference brains)."""

    return eval_models_option()


def decide_one(spec: SceneSpec, window, brain) -> DecisionRecord:
    """The row of `brain`'s decision on `spec`'s rendered window (observation_set.RenderedWindow)."""
    decision = brain.plan(window.observation(spec))
    record = score_unexecuted(spec, decision.brain, reply_of(decision), window.freeze_xyz, decision.modality or None)
    if record.scored:  # the committed plan, which `reacthuman eval --plans` executes
        record.extras[PLAN_FIELD] = stored_plan(decision.plan)
    return record


def _decide_all(
    args: argparse.Namespace, specs: list[SceneSpec], window_of, brains: dict, ledger: LedgerWriter
) -> dict[str, str]:
    """Scenes in chunks (a chunk's windows loaded once for every model); per model `--concurrency` calls.
    A model whose server turns images away in the middle of the run (one declared `?vision=true`) is stopped
    there, its pending calls cancelled, and no row is written for that call; the others go on. Returns the
    stopped models' one-line refusals."""
    from reacthuman.llm.vision import ImageInputRefused

    names, refused = list(brains), {}
    done = decided_keys(args.out)
    total = len(specs) * len(names)
    progress = Progress(total, already_done=sum(1 for s in specs for n in names if (s.scene_id, n) in done))
    pools = {n: ThreadPoolExecutor(args.concurrency, thread_name_prefix=f"decide-{n}") for n in names}
    chunk = min(max(8, 2 * args.concurrency), DECIDE_CHUNK_SCENES)
    try:
        for start in range(0, len(specs), chunk):
            futures = {}
            for spec in specs[start : start + chunk]:
                todo = [n for n in names if (spec.scene_id, n) not in done and n not in refused]
                if not todo:
                    continue
                window = window_of(spec)
                for n in todo:
                    futures[pools[n].submit(decide_one, spec, window, brains[n])] = n
            for future in as_completed(futures):
                name = futures[future]
                if future.cancelled():
                    continue
                try:
                    record = future.result()
                except ImageInputRefused as exc:
                    if name not in refused:
                        refused[name] = str(exc)
                        progress.note(f"stopping {name}: {exc}")
                        for other, of in futures.items():
                            if of == name:
                                other.cancel()
                    continue
                if name in refused:  # a call that was already under way when its model was stopped
                    continue
                ledger.append(record)
                progress.add(name, record.to_dict())
    finally:
        progress.close()
        for pool in pools.values():
            pool.shutdown(cancel_futures=True)
        for brain in brains.values():
            brain.close()
    return refused


def _from_scenes(args: argparse.Namespace):
    """(specs, window of a spec, the set's settings) from a scene folder, rendering the windows it lacks."""
    from reacthuman.scenes.dataset import read_spec, scene_dirs
    from reacthuman.evaluation import observation_set as obs_set
    from reacthuman.evaluation.render_workers import render_set

    if not args.scenes.is_dir():
        raise ValueError(f"--scenes: {args.scenes} is not a folder")
    dirs = scene_dirs(str(args.scenes))[: args.limit]
    if not dirs:
        raise ValueError(f"--scenes: no scenes in {args.scenes}")
    specs = [read_spec(str(Path(d) / "spec.json")) for d in dirs]
    unlabelled = [s.scene_id for s in specs if s.ground_truth is None]
    if unlabelled:
        raise ValueError(
            f"--scenes: {unlabelled[0]} has no ground truth (generate it with `reacthuman scenes generate`)"
        )
    obs_set.require_settings(args.scenes, obs_set.SetSettings.graph(args.engine))
    render_set(args.scenes, [s.scene_id for s in specs], args.workers, args.engine)
    return (
        specs,
        lambda spec: obs_set.load_window(obs_set.window_path(args.scenes, spec.scene_id)),
        obs_set.read_settings(args.scenes)[1],
    )


def _from_dataset(args: argparse.Namespace):
    """(specs, window of a spec, the set's settings) from an exported dataset (no simulator)."""
    from reacthuman.evaluation.observation_set import ObservationSetError, SetSettings
    from reacthuman.evaluation.dataset_export import load_rows, window_of_row

    if not args.dataset.is_dir():
        raise ValueError(f"--dataset: {args.dataset} is not a folder")
    settings, rows = load_rows(args.dataset)
    differs = settings.mismatch(SetSettings.graph(args.engine))
    if differs:
        raise ObservationSetError(
            f"--dataset: {args.dataset} was rendered with other settings than this evaluation's: {differs}"
        )
    rows = rows[: args.limit]
    by_id = {row["scene_id"]: row for row in rows}
    specs = [SceneSpec.from_json(row["spec_json"]) for row in rows]
    return specs, lambda spec: window_of_row(by_id[spec.scene_id])[1], asdict(settings)


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return int(exc.code or 0)

    try:  # a bad name fails first, in one line (a ModelSpecError is a ValueError)
        model_specs = models_option().parse(args)
        names = [spec.name for spec in model_specs]
        policies = [name for name in names if is_policy_entry(name)]
        if policies:
            raise ValueError(
                f"{', '.join(policies)}: a policy acts every control period and commits no frozen "
                "decision to score without execution; run it with reacthuman eval"
            )
        for flag in ("limit", "concurrency", "workers"):
            value = getattr(args, flag)
            if value is not None and value < 1:
                raise ValueError(f"--{flag} must be a positive integer, got {value}")
        specs, window_of, set_json = (_from_dataset if args.dataset else _from_scenes)(args)
        # before anything is written, as eval: a model whose server refuses images stops the run in one line
        model_modalities({m.name: m.entry for m in model_specs if m.is_llm}, args.modality)
        # built from the entries with their ?options, as the graph's brain node builds them
        brains = {m.name: make_brain(m.entry, modality=args.modality) for m in model_specs}
    except ValueError as exc:
        print(f"reacthuman decide: {exc}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "decide.json").write_text(
        json.dumps(
            {
                "scenes": str((args.scenes or args.dataset).resolve()),
                "models": names,
                "modality": args.modality,
                "observation_set": set_json,
                "execution": "none (decision-only: plan + simulator ground truth)",
            },
            indent=1,
        )
    )
    split = collections.Counter(s.ground_truth.correct_action for s in specs)
    with LedgerWriter(args.out) as ledger:
        refused = _decide_all(args, specs, window_of, brains, ledger)
    if ledger_path(args.out).is_file() and ledger_path(args.out).stat().st_size:
        print(summary(read_ledger(args.out), dict(split)))
    for line in refused.values():
        print(f"reacthuman decide: {line}", file=sys.stderr)
    return 2 if refused else 0
