"""`reacthuman dataset export SCENES --out DIR`: the benchmark as a folder Hugging Face `datasets` loads with
`load_dataset(DIR)`, and the observation windows `reacthuman decide --dataset DIR` asks a model on.

One row per scene: what the scene is (family, speed band and group, object, adversarial look), its ground
truth, the state text, the three views' frames at the brain's size exactly as the observation set holds them
(PNG, lossless: the pixels a model is sent) and what `decide` needs to score a reply (the spec, the hazard's
track and freeze state). An mp4 per view sits beside the Parquet shards for people to watch. Splits are
disjoint: `test` holds up to 18 scenes per family (the paper's protocol subset; a family with fewer gives them
all), `extra` the rest. The export is a pure function of the scene set and its observation set (the scene
set's hash is in the card).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from types import ModuleType
from collections import defaultdict
from pathlib import Path

import numpy as np

from reacthuman.brain.observation import state_text
from reacthuman.evaluation.observation_set import RenderedWindow, SetSettings, load_window, read_settings, window_path
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scoring.inputs import ScoringTruth
from PIL import Image
import yaml
from reacthuman.evaluation.scene_set import load_scene_set
from reacthuman.scenes.attribution import attribution_lines
from reacthuman.scenes.dataset import read_spec

PER_FAMILY_TEST = 18  # the paper's protocol: 18 scenes per family (sec. 5.1)
VIEWS = ("egocentric", "closeup", "overhead")
LICENSE = "cc-by-4.0"
SETTINGS_FILE = "observation_set.json"  # the observation set's settings, which decide --dataset checks


def _datasets() -> ModuleType:
    """Hugging Face `datasets`, loaded on first use: it brings pyarrow and pandas (seconds), which the commands
    that only read a scene set never need."""
    import datasets

    return datasets


def features():
    ds = _datasets()
    Features, Image, List, Value = ds.Features, ds.Image, ds.List, ds.Value

    number, text = Value("float64"), Value("string")
    vec = List(number)
    return Features(
        {
            "scene_id": text,
            "family": text,
            "speed_band": text,
            "speed_group": text,
            "object": text,
            "room": text,
            "adversarial": Value("bool"),
            "looks_like": text,
            "object_look": text,
            "correct_action": text,
            "dangerous": Value("bool"),
            "impact_point": vec,
            "time_to_floor_s": number,
            "body_reachable": Value("bool"),
            "state_text": text,
            "frame_times_s": vec,
            **{view: List(Image()) for view in VIEWS},
            "track_t_s": vec,
            "track_position_m": List(vec),
            "track_velocity_mps": List(vec),
            "freeze_position_m": vec,
            "freeze_velocity_mps": vec,
            "spec_json": text,
        }
    )


def _png(frame: np.ndarray) -> dict:
    out = io.BytesIO()
    Image.fromarray(frame).save(out, format="PNG")
    return {"bytes": out.getvalue(), "path": None}


def _write_mp4(path: Path, frames: np.ndarray) -> None:
    """The window's frames of one view as an mp4 at their own rate (5 frames over 0.6 s: 1 frame per 0.15 s)."""
    import imageio.v3 as iio  # export only: not in the light install, which reads datasets

    path.parent.mkdir(parents=True, exist_ok=True)
    iio.imwrite(path, frames, fps=5, codec="libx264", plugin="pyav")


def row_of(spec: SceneSpec, window: RenderedWindow) -> dict:
    gt = spec.ground_truth
    obs = window.observation(spec, with_ground_truth=False)
    times = sorted(window.samples)
    return {
        "scene_id": spec.scene_id,
        "family": spec.family,
        "speed_band": spec.speed_band,
        "speed_group": spec.speed_group,
        "object": spec.object_id,
        "room": spec.room,
        "adversarial": spec.adversarial,
        "looks_like": ScoringTruth.from_scene_spec(spec).looks_like,
        "object_look": obs.object_look,
        "correct_action": gt.correct_action,
        "dangerous": gt.dangerous,
        "impact_point": list(gt.impact_point) if gt.impact_point else None,
        "time_to_floor_s": gt.time_to_floor_s,
        "body_reachable": gt.body_reachable,
        "state_text": state_text(obs),
        "frame_times_s": list(window.frame_times_s),
        **{view: [_png(f) for f in window.images[view]] for view in VIEWS},
        "track_t_s": times,
        "track_position_m": [window.samples[t][0].tolist() for t in times],
        "track_velocity_mps": [window.samples[t][1].tolist() for t in times],
        "freeze_position_m": window.freeze_position_m.tolist(),
        "freeze_velocity_mps": window.freeze_velocity_mps.tolist(),
        "spec_json": spec.to_json(),
    }


def window_of_row(row: dict) -> tuple[SceneSpec, RenderedWindow]:
    """The scene and its rendered window back from a row (PNG is lossless: the set's own pixels)."""

    spec = SceneSpec.from_json(row["spec_json"])

    def pixels(image) -> np.ndarray:
        if isinstance(image, dict):
            image = Image.open(io.BytesIO(image["bytes"]))
        return np.asarray(image.convert("RGB"), dtype=np.uint8)

    order = [c.name for c in spec.cameras if c.name in VIEWS]  # the body's order, which the prompt keeps
    images = {view: np.stack([pixels(im) for im in row[view]]) for view in order}
    samples = {
        float(t): (np.array(p, dtype=np.float64), np.array(v, dtype=np.float64))
        for t, p, v in zip(row["track_t_s"], row["track_position_m"], row["track_velocity_mps"])
    }
    return spec, RenderedWindow(
        spec.scene_id,
        tuple(float(t) for t in row["frame_times_s"]),
        images,
        samples,
        np.array(row["freeze_position_m"], dtype=np.float64),
        np.array(row["freeze_velocity_mps"], dtype=np.float64),
    )


def load_rows(folder: Path) -> tuple[SetSettings, list[dict]]:
    """The exported dataset's settings and rows (every split, scene-id order), read with `datasets`."""
    ds = _datasets()
    disable_progress_bars, load_dataset = ds.disable_progress_bars, ds.load_dataset

    path = Path(folder) / SETTINGS_FILE
    if not path.is_file():
        raise ValueError(f"--dataset: {folder} is not an exported ReactHuman dataset (no {SETTINGS_FILE})")
    data = json.loads(path.read_text())
    settings = SetSettings(**{k: data[k] for k in SetSettings.__dataclass_fields__})
    disable_progress_bars()
    loaded = load_dataset(str(folder))
    rows = [row for split in loaded.values() for row in split]
    return settings, sorted(rows, key=lambda r: r["scene_id"])


def splits(specs: list[SceneSpec]) -> dict[str, list[SceneSpec]]:
    """test: the first PER_FAMILY_TEST scenes of each family (in scene-id order), extra: the rest."""
    seen: dict[str, int] = defaultdict(int)
    out: dict[str, list[SceneSpec]] = {"test": [], "extra": []}
    for spec in sorted(specs, key=lambda s: s.scene_id):
        seen[spec.family] += 1
        out["test" if seen[spec.family] <= PER_FAMILY_TEST else "extra"].append(spec)
    return out


def card(split_rows: dict[str, int], scene_hash: str, settings: dict, attribution: list[str]) -> str:
    """README.md: YAML front matter (license, task categories, configs and splits, features) and the text."""

    front = {
        "license": LICENSE,
        "task_categories": ["video-classification", "visual-question-answering"],
        "tags": ["embodied-ai", "robotics", "safety", "physics"],
        "pretty_name": "ReactHuman observation windows",
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": s, "path": f"data/{s}-*.parquet"} for s, n in split_rows.items() if n],
            }
        ],
        "dataset_info": {
            "features": features()._to_yaml_list(),
            "splits": [{"name": s, "num_examples": n} for s, n in split_rows.items() if n],
        },
    }
    lines = [
        "---",
        yaml.safe_dump(front, sort_keys=False).rstrip(),
        "---",
        "",
        "# ReactHuman observation windows",
        "",
        "Each row is one scene: a humanoid (a Unitree G1) stands in a room as an object starts to fall, slide,",
        "roll, topple, swing or fly toward it. The three views (egocentric, close-up, overhead) are the frames a",
        "model is sent at the freeze, at the brain's size; the ground truth is computed from simulator state.",
        "",
        f"- scene set hash (sha256 over every spec.json): `{scene_hash}`",
        f"- rendered by `{settings.get('renderer')}` at {settings.get('frame_width_px')}x"
        f"{settings.get('frame_height_px')}, {settings.get('frame_count')} frames over "
        f"{settings.get('observation_window_s')} s, code revision `{(settings.get('revision') or {}).get('commit')}`",
        "- splits: "
        + ", ".join(f"{s} {n}" for s, n in split_rows.items())
        + f" (`test`: up to {PER_FAMILY_TEST} scenes per family, the paper's protocol; `extra`: the rest)",
        "- videos: `videos/<scene_id>/<view>.mp4` (for watching; the Parquet frames are the exact pixels)",
        "",
        "Evaluate a model on it without a simulator: `reacthuman decide --dataset DIR --models MODEL --out RUN`.",
        "",
        "## Attribution",
        "",
        *attribution,
        "",
    ]
    return "\n".join(lines)


def export(scenes: Path, out: Path) -> dict[str, int]:
    """Write DIR (README.md, data/*.parquet, videos/); returns the rows per split."""
    ds = _datasets()
    Dataset, disable_progress_bars = ds.Dataset, ds.disable_progress_bars

    entries, scene_hash = load_scene_set(scenes)
    found = read_settings(scenes)
    specs = [read_spec(str(e.path / "spec.json")) for e in entries]
    lacking = [s.scene_id for s in specs if not window_path(scenes, s.scene_id).is_file()]
    if found is None or lacking:
        raise ValueError(
            f"{scenes}: the observation set lacks {len(lacking) or len(specs)} scene(s); "
            f"render them with `reacthuman scenes render {scenes}`"
        )
    disable_progress_bars()
    counts = {}
    for split, chosen in splits(specs).items():
        counts[split] = len(chosen)
        if not chosen:
            continue
        rows = []
        for spec in chosen:
            window = load_window(window_path(scenes, spec.scene_id))
            rows.append(row_of(spec, window))
            for view in VIEWS:
                _write_mp4(out / "videos" / spec.scene_id / f"{view}.mp4", window.images[view])
        (out / "data").mkdir(parents=True, exist_ok=True)
        Dataset.from_list(rows, features=features()).to_parquet(str(out / "data" / f"{split}-00000-of-00001.parquet"))
    (out / "README.md").write_text(card(counts, scene_hash, found[1], attribution_lines(specs)))
    (out / SETTINGS_FILE).write_text(json.dumps(found[1], indent=1, sort_keys=True) + "\n")
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="reacthuman dataset", description="the benchmark as a Hugging Face dataset")
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export", help="write SCENES' observation set as a folder `datasets.load_dataset` opens")
    e.add_argument("scenes", type=Path)
    e.add_argument("--out", type=Path, required=True)
    try:
        args = p.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        if args.out.exists() and any(args.out.iterdir()):
            raise ValueError(f"--out: {args.out} is not empty")
        counts = export(args.scenes, args.out)
    except ValueError as exc:
        print(f"reacthuman dataset: {exc}", file=sys.stderr)
        return 2
    print(f"dataset {args.out}: " + ", ".join(f"{s} {n}" for s, n in counts.items()))
    return 0
