"""`reacthuman scenes generate --executor ray`: scenes labelled on a Ray cluster, bit for bit the scenes a
local run with the same arguments writes.

A local run walks each family's seed groups (reacthuman.scenes.dataset) in counter order and keeps a group
unless one of its scenes fails validation. Labelling a scene depends on its spec alone, so the groups can
be labelled anywhere, in any order: the driver sends each group (family, seed, speed bands) to a worker,
then takes the answers in counter order with the local rule, asking for one more group per rejected one.
Workers (one Genesis each, kept across tasks) send each labelled scene's folder back as a tar archive; the
driver alone writes the dataset, through the same .partial-* rename and index as a local run."""

from __future__ import annotations

import io
import os
import shutil
import tarfile
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from reacthuman.core.ray_cluster import connect, import_ray
from reacthuman.core.ray_pool import pack_folders
from reacthuman.scenes import SceneInvalid, label_spec
from reacthuman.scenes.attribution import write_dataset_card
from reacthuman.scenes.dataset import (
    INDEX,
    MAX_SEED_TRIES,
    PARTIAL_PREFIX,
    GenerateConfig,
    _store,
    index_row,
    planned,
    prepare_output,
    read_spec,
    family_slots,
    stratum_seeds,
    write_index,
)
from reacthuman.scenes.randomize import sample_spec
from reacthuman.scenes.spec import SceneSpec


def _sample(cfg: GenerateConfig, family: str, seed: int, band: str) -> SceneSpec:
    return sample_spec(
        family, seed, speed_band=band, adversarial_rate=cfg.adversarial_rate, width=cfg.width, height=cfg.height
    )


class LabelActor:
    """A Ray worker with one Genesis simulator, labelling (and with --render rendering) scene groups."""

    def __init__(self) -> None:
        self._sim = None

    @property
    def sim(self):
        """Started at the first task, so a worker that gets none costs no Genesis start."""
        if self._sim is None:
            os.environ.setdefault("OMP_NUM_THREADS", "1")
            from reacthuman.scenes.genesis_sim import GenesisSimulator

            self._sim = GenesisSimulator()
        return self._sim

    def label_group(self, cfg: GenerateConfig, family: str, seed: int, bands: list[str]) -> list[dict]:
        """Every band of the group: {"band", "ok", "error", "archive" (tar of <scene_id>/)}."""
        out = []
        with tempfile.TemporaryDirectory(prefix="reacthuman-label-") as tmp:
            for band in bands:
                try:
                    spec = label_spec(planned(cfg, family, seed, band), self.sim)  # the description stage
                except SceneInvalid as exc:
                    out.append({"band": band, "ok": False, "error": str(exc), "archive": b""})
                    continue
                _store(replace(cfg, out=tmp), spec, self.sim)
                out.append(
                    {"band": band, "ok": True, "error": "", "archive": pack_folders(Path(tmp), (spec.scene_id,))}
                )
                shutil.rmtree(os.path.join(tmp, spec.scene_id))
        return out


@dataclass
class _Family:
    """One family's scene groups, taken in the local order (dataset.family_slots): one group in flight at a
    time, each slot's seeds drawn from its stratum in counter order, a rejected group replaced by the next seed
    of the same stratum, so the set equals a local one whatever the workers' timing."""

    name: str
    slots: list  # (stratum, bands) per scene group, in generation order
    seeds: dict  # stratum -> iterator over its seeds (dataset.stratum_seeds)
    made: int = 0
    rejected: int = 0
    slot: int = 0  # the next slot to fill
    in_flight: bool = False
    rows: list = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.slot >= len(self.slots)

    def next_task(self) -> tuple[int, list[str]]:
        stratum, bands = self.slots[self.slot]
        return next(self.seeds[stratum]), bands


def _store_archive(out: str, scene_id: str, archive: bytes) -> None:
    """As dataset._store: written under .partial-<id>, renamed when whole; a finished scene is kept."""
    final = os.path.join(out, scene_id)
    if os.path.exists(os.path.join(final, "spec.json")):
        return
    partial = os.path.join(out, PARTIAL_PREFIX + scene_id)
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(partial)
    prefix = scene_id + "/"
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r") as tar:
        for m in tar.getmembers():
            if m.name.startswith(prefix):
                m.name = m.name[len(prefix) :]
                tar.extract(m, partial, filter="data")
    shutil.rmtree(final, ignore_errors=True)
    os.replace(partial, final)


def _decide(cfg: GenerateConfig, fam: _Family, seed: int, answers: list[dict], progress) -> bool:
    """Keep the group's scenes with the local rule (dataset._generate_family); False when it was rejected."""
    bad = [
        a
        for a in answers
        if not a["ok"]
        and not os.path.exists(os.path.join(cfg.out, _sample(cfg, fam.name, seed, a["band"]).scene_id, "spec.json"))
    ]
    if bad:
        fam.rejected += 1
        if fam.rejected > MAX_SEED_TRIES:
            raise RuntimeError(f"{fam.name}: {fam.rejected} scene groups failed validation; last: {bad[0]['error']}")
        return False
    for a in answers:
        scene_id = _sample(cfg, fam.name, seed, a["band"]).scene_id
        if a["ok"]:
            _store_archive(cfg.out, scene_id, a["archive"])
        fam.rows.append(index_row(read_spec(os.path.join(cfg.out, scene_id, "spec.json"))))
        if progress:
            progress(scene_id)
    fam.made += len(answers)
    fam.slot += 1
    return True


def generate_on_ray(
    cfg: GenerateConfig, workers: int = 2, address: str | None = None, progress: Callable[[str], None] | None = None
) -> list[dict]:
    """The dataset of `cfg`, labelled on Ray; returns the index rows as generate_dataset does."""
    ray = import_ray()
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    quota = prepare_output(cfg)
    fams = [
        _Family(f, family_slots(cfg, f, quota[f]), {k: stratum_seeds(cfg, f, k) for k in (True, False, None)})
        for f in quota
        if quota[f] > 0
    ]
    connect(address)
    actors = [ray.remote(num_cpus=1, max_restarts=2, max_task_retries=2)(LabelActor).remote() for _ in range(workers)]
    idle, inflight = list(actors), {}
    try:
        while not all(f.done for f in fams):
            for fam in fams:  # families in order, so the earliest ones finish first
                if idle and not fam.done and not fam.in_flight:
                    seed, bands = fam.next_task()
                    actor = idle.pop()
                    inflight[actor.label_group.remote(cfg, fam.name, seed, bands)] = (actor, fam, seed)
                    fam.in_flight = True
            if not inflight:
                raise RuntimeError("no scene groups in flight while scenes are still missing")
            [ref], _ = ray.wait(list(inflight), num_returns=1)
            actor, fam, seed = inflight.pop(ref)
            idle.append(actor)
            fam.in_flight = False
            _decide(cfg, fam, seed, ray.get(ref), progress)
    finally:  # the index and the dataset card list exactly the finished scenes, as after a local run
        rows = [r for f in fams for r in f.rows]
        write_index(cfg.out, rows)
        write_dataset_card(cfg.out, (read_spec(os.path.join(cfg.out, r["scene_id"], "spec.json")) for r in rows))
        for a in actors:
            ray.kill(a)
        if address is None:
            ray.shutdown()
    return [r for f in fams for r in f.rows]


__all__ = ["INDEX", "LabelActor", "generate_on_ray"]
