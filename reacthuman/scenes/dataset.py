"""Datasets of labelled scenes on disk: generate (resumable, atomic per scene) and validate bit for bit.

Layout: DIR/<scene_id>/spec.json (+ frames and mp4s with --render), DIR/index.jsonl (one line per scene,
in generation order). A scene directory appears only complete (written under DIR/.partial-* and
renamed); index.jsonl is replaced atomically. Scene seeds derive from the dataset seed, the family and
a counter, so a dataset is a pure function of its arguments. No frames or units of its own.
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import os
import random
import shutil
from dataclasses import dataclass, field
from typing import Callable, Iterator

from reacthuman.core.atomic import atomic_write_text
from reacthuman.core.presets import resolve_preset
from reacthuman.scenes import SceneInvalid, default_simulator, label_spec
from reacthuman.scenes.attribution import write_dataset_card
from reacthuman.scenes.descriptions import planned_spec
from reacthuman.scenes.catalog import OBJECTS
from reacthuman.scenes.families import FAMILIES, get_family
from reacthuman.scenes.label import label
from reacthuman.scenes.randomize import DEFAULT_ADVERSARIAL_RATE, choose_object, sample_spec
from reacthuman.scenes.render import default_config as render_config
from reacthuman.scenes.render import render_window
from reacthuman.scenes.spec import SPEED_BANDS, SceneSpec, SpecError
from reacthuman.scenes.validators import validate_track

log = logging.getLogger(__name__)
INDEX = "index.jsonl"
PARTIAL_PREFIX = ".partial-"
MAX_SEED_TRIES = 50  # scene groups a family may reject (validator failures) before the run gives up


def _render_interval_s() -> float:
    return render_config().interval_s


@dataclass(frozen=True)
class GenerateConfig:
    """The arguments of `reacthuman scenes generate`: a run's request (where, how many, which seed), not
    tunables, so no file in config/; the render interval defaults to config/render.yaml's interval_s."""

    out: str
    count: int | None = None
    seed: int = 0
    families: tuple[str, ...] = FAMILIES
    balanced: int | None = None
    render: bool = False
    render_interval_s: float = field(default_factory=_render_interval_s)  # config/render.yaml
    width: int = 1280
    height: int = 720
    adversarial_rate: float = DEFAULT_ADVERSARIAL_RATE
    planner_model: str | None = None  # the description stage's model (None: the rule parser; descriptions.py)

    def __post_init__(self) -> None:
        if (self.count is None) == (self.balanced is None):
            raise SpecError("give exactly one of --count or --balanced")
        if self.count is not None and self.count < 1:
            raise SpecError(f"count must be a positive integer, got {self.count}")
        if self.balanced is not None and self.balanced < 1:
            raise SpecError(f"balanced must be a positive integer, got {self.balanced}")
        if self.seed < 0:
            raise SpecError(f"seed must be a non-negative integer, got {self.seed}")
        if not self.families:
            raise SpecError("families is empty")
        for f in self.families:
            get_family(f)
        if not 0.0 <= self.adversarial_rate <= 1.0:
            raise SpecError(f"adversarial rate must be in [0, 1], got {self.adversarial_rate}")
        if self.width < 16 or self.height < 16:
            raise SpecError(f"image size must be at least 16x16, got {self.width}x{self.height}")
        if self.planner_model is not None:  # an unknown preset fails before anything is written
            resolve_preset(self.planner_model)


def scene_seed(dataset_seed: int, family: str, counter: int) -> int:
    digest = hashlib.sha256(f"reacthuman/dataset/{dataset_seed}/{family}/{counter}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def _quota(cfg: GenerateConfig) -> dict[str, int]:
    if cfg.balanced is not None:
        return {f: cfg.balanced for f in cfg.families}
    quota = {f: 0 for f in cfg.families}
    left, i = cfg.count, 0
    while left > 0:  # whole speed groups, round robin, so groups stay together
        f = cfg.families[i % len(cfg.families)]
        take = min(left, 4 if get_family(f).speed_swept else 1)
        quota[f] += take
        left -= take
        i += 1
    return quota


def index_row(spec: SceneSpec) -> dict:
    gt = spec.ground_truth
    return {
        "scene_id": spec.scene_id,
        "family": spec.family,
        "object_id": spec.object_id,
        "room": spec.room,
        "seed": spec.seed,
        "speed_band": spec.speed_band,
        "speed_group": spec.speed_group,
        "adversarial": spec.adversarial,
        "correct_action": gt.correct_action if gt else None,
        "dangerous": gt.dangerous if gt else None,
        "impact_point": list(gt.impact_point) if gt and gt.impact_point else None,
        "time_to_floor_s": gt.time_to_floor_s if gt else None,
        "body_reachable": gt.body_reachable if gt else None,
    }


def write_index(out: str, rows: list[dict]) -> None:
    atomic_write_text(os.path.join(out, INDEX), "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))


def read_spec(path: str) -> SceneSpec:
    with open(path) as f:
        return SceneSpec.from_json(f.read())


def group_strata(dataset_seed: int, family: str, groups: int) -> list[bool | None]:
    """Whether each of a family's scene groups, in generation order, draws a dangerous object (True), a harmless
    one (False) or either (None: `FamilyDef.danger_quota` None, a family of one kind). A fixed quota, round
    half up of danger_quota x groups, is dangerous, in an order permuted from the dataset seed: the
    family's split then follows from its objects, whatever the seed. Pure sampling, no simulation."""
    share = get_family(family).danger_quota
    if share is None:
        return [None] * groups
    dangerous = int(share * groups + 0.5)
    order: list[bool | None] = [True] * dangerous + [False] * (groups - dangerous)
    random.Random(f"reacthuman/dataset/{dataset_seed}/{family}/strata").shuffle(order)
    return order


def draws_dangerous(family: str, seed: int, adversarial_rate: float) -> bool:
    """Whether the scene seed's object draw (randomize.choose_object) is dangerous by the catalogue."""
    return bool(OBJECTS[choose_object(family, seed, adversarial_rate)].hazard_flags)


def stratum_seeds(cfg: GenerateConfig, family: str, stratum: bool | None) -> Iterator[int]:
    """The family's scene seeds in counter order whose object draw falls in the stratum (None: every seed).
    Each scene's spec stays a function of its own seed: the stratum only chooses which seeds the set takes."""
    for counter in range(10**9):
        seed = scene_seed(cfg.seed, family, counter)
        if stratum is None or draws_dangerous(family, seed, cfg.adversarial_rate) == stratum:
            yield seed


def family_slots(cfg: GenerateConfig, family: str, need: int) -> list[tuple[bool | None, list[str]]]:
    """The family's scene groups until `need` scenes: each group's stratum and speed bands (whole speed
    groups of the four bands, the last one cut short; one scene a group in a gravity-paced family)."""
    bands = list(SPEED_BANDS) if get_family(family).speed_swept else ["gravity"]
    sizes = [min(len(bands), need - i) for i in range(0, need, len(bands))]
    return list(zip(group_strata(cfg.seed, family, len(sizes)), [bands[:n] for n in sizes]))


def prepare_output(cfg: GenerateConfig) -> dict[str, int]:
    """Create the output folder, drop the partial scenes of an interrupted run; the scenes wanted per family."""
    os.makedirs(cfg.out, exist_ok=True)
    for name in os.listdir(cfg.out):
        if name.startswith(PARTIAL_PREFIX):
            shutil.rmtree(os.path.join(cfg.out, name), ignore_errors=True)
    return _quota(cfg)


def generate_dataset(
    cfg: GenerateConfig, simulator=None, progress: Callable[[str], None] | None = None, workers: int = 1
) -> list[dict]:
    """Generate (or resume) the dataset; returns the index rows (family by family, in --families order).
    workers > 1 splits the families over that many processes (one Genesis each); the result is the same."""
    if workers < 1:
        raise SpecError(f"workers must be >= 1, got {workers}")
    quota = prepare_output(cfg)
    families = [f for f in quota if quota[f] > 0]
    by_family: dict[str, list[dict]] = {}
    try:
        if workers == 1:
            sim = simulator or default_simulator()
            for f in families:
                by_family[f] = []
                _generate_family(cfg, f, quota[f], sim, by_family[f], progress)
        else:
            chunks = [families[i::workers] for i in range(workers) if families[i::workers]]
            with multiprocessing.get_context("spawn").Pool(len(chunks)) as pool:
                for part in pool.starmap(_worker, [(cfg, chunk, {f: quota[f] for f in chunk}) for chunk in chunks]):
                    by_family.update(part)
                # Let the workers exit on their own: leaving the block terminates them (SIGTERM), and one killed
                # while it writes Genesis' kernel cache leaves the cache's lock file behind, so every process
                # after it compiles its kernels afresh until the lock is old enough to be called stale.
                pool.close()
                pool.join()
    finally:  # the index always lists exactly the finished scenes, even after an interruption
        rows = [r for f in families for r in by_family.get(f, [])]
        write_index(cfg.out, rows)
        write_dataset_card(cfg.out, (read_spec(os.path.join(cfg.out, r["scene_id"], "spec.json")) for r in rows))
    return rows


def _worker(cfg: GenerateConfig, families: list[str], quota: dict[str, int]) -> dict[str, list[dict]]:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from reacthuman.scenes.genesis_sim import GenesisSimulator

    sim = GenesisSimulator()
    out: dict[str, list[dict]] = {}
    for f in families:
        out[f] = []
        _generate_family(cfg, f, quota[f], sim, out[f], None)
    return out


def _generate_family(cfg: GenerateConfig, family: str, need: int, sim, rows: list[dict], progress) -> None:
    """The family's scene groups (family_slots) until `need` scenes; groups failing validation are replaced."""
    rejected = 0
    seeds = {stratum: stratum_seeds(cfg, family, stratum) for stratum in (True, False, None)}
    for stratum, group in family_slots(cfg, family, need):
        for seed in seeds[stratum]:  # a group failing validation is replaced by the next seed of its stratum
            try:
                specs = [_load_or_label(cfg, family, seed, band, sim, label_spec) for band in group]
            except SceneInvalid as exc:
                rejected += 1
                log.info("rejected %s", exc)
                if rejected > MAX_SEED_TRIES:
                    raise RuntimeError(f"{family}: {rejected} scene groups failed validation; last: {exc}") from None
                continue
            for spec in specs:
                _store(cfg, spec, sim)
                rows.append(index_row(spec))
                if progress:
                    progress(spec.scene_id)
            break


def _load_or_label(cfg: GenerateConfig, family: str, seed: int, band: str, sim, label_spec) -> SceneSpec:
    drawn = sample_spec(
        family, seed, speed_band=band, adversarial_rate=cfg.adversarial_rate, width=cfg.width, height=cfg.height
    )
    done = os.path.join(cfg.out, drawn.scene_id, "spec.json")
    if os.path.exists(done):  # resume: a finished scene directory is kept as it is
        return read_spec(done)
    return label_spec(planned(cfg, family, seed, band, drawn), sim)


def planned(cfg: GenerateConfig, family: str, seed: int, band: str, drawn: SceneSpec | None = None) -> SceneSpec:
    """The scene's spec through the description stage (descriptions.py): described, planned, sampled."""
    return planned_spec(
        family,
        seed,
        band,
        adversarial_rate=cfg.adversarial_rate,
        width=cfg.width,
        height=cfg.height,
        model=cfg.planner_model,
        drawn=drawn,
    )


def _store(cfg: GenerateConfig, spec: SceneSpec, sim) -> None:
    final = os.path.join(cfg.out, spec.scene_id)
    if os.path.exists(os.path.join(final, "spec.json")):
        return
    partial = os.path.join(cfg.out, PARTIAL_PREFIX + spec.scene_id)
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(partial)
    try:
        with open(os.path.join(partial, "spec.json"), "w") as f:
            f.write(spec.to_json())
        if cfg.render:
            render_window(
                spec, partial, sim, render_config(interval_s=cfg.render_interval_s, width=cfg.width, height=cfg.height)
            )
        shutil.rmtree(final, ignore_errors=True)
        os.replace(partial, final)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise


def scene_dirs(root: str) -> list[str]:
    """Scene directories of a dataset, in index order when there is an index."""
    index = os.path.join(root, INDEX)
    if os.path.exists(index):
        with open(index) as f:
            return [os.path.join(root, json.loads(line)["scene_id"]) for line in f if line.strip()]
    return sorted(os.path.join(root, d) for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, "spec.json")))


def validate_scene(spec: SceneSpec, sim) -> list[str]:
    """Re-simulate and re-label one stored scene; every difference from what it stores."""
    if spec.ground_truth is None:
        return ["has no ground truth"]
    track = sim.run(spec)
    problems = []
    fresh = label(spec, track)
    if fresh.track_sha256 != spec.ground_truth.track_sha256:
        problems.append("trajectory differs from the stored one")
    problems += ground_truth_changes(spec.ground_truth, fresh)
    problems += validate_track(spec, track)
    return problems


# Fields whose change is a change of label: `scenes validate` names their stored and fresh values.
LABEL_FIELDS = ("correct_action", "dangerous", "reasons")


def ground_truth_changes(stored, fresh) -> list[str]:
    """What differs between a stored ground truth and one labelled afresh (both `GroundTruth`): the label
    fields with both values ("label changed: correct_action CATCH -> DODGE"), then the names of the other
    fields that differ. Empty when they are equal. The stored scene is never rewritten."""
    if fresh == stored:
        return []
    out = []
    labels = [
        f"{k} {_shown(getattr(stored, k))} -> {_shown(getattr(fresh, k))}"
        for k in LABEL_FIELDS
        if getattr(stored, k) != getattr(fresh, k)
    ]
    if labels:
        out.append("label changed: " + ", ".join(labels))
    other = [k for k, v in fresh.__dict__.items() if k not in LABEL_FIELDS and getattr(stored, k) != v]
    if other:
        out.append(f"ground truth differs in {', '.join(other)}")
    return out


def _shown(value) -> str:
    return "[" + "; ".join(value) + "]" if isinstance(value, tuple) else str(value)
