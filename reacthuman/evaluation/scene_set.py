"""A folder of generated scenes: DIR/<scene_id>/spec.json (+ DIR/index.jsonl)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reacthuman.evaluation.manifest import sha256_of
from reacthuman.scenes.spec import SceneSpec, SpecError


@dataclass(frozen=True)
class SceneEntry:
    scene_id: str
    family: str
    path: Path


def load_scene_set(scenes_dir: Path, limit: int | None = None) -> tuple[list[SceneEntry], str]:
    """Scenes in id order (validated), and the scene set's hash over every spec's bytes."""
    scenes_dir = Path(scenes_dir)
    if not scenes_dir.is_dir():
        raise ValueError(f"scenes folder not found: {scenes_dir}")
    files = sorted(scenes_dir.glob("*/spec.json"))
    if not files:
        raise ValueError(f"no scenes in {scenes_dir} (expected <scene_id>/spec.json; see `reacthuman scenes generate`)")
    entries, blobs = [], []
    for f in files:
        data = f.read_bytes()
        try:
            spec = SceneSpec.from_json(data.decode())
        except (SpecError, ValueError, UnicodeDecodeError) as exc:
            raise ValueError(f"{f}: {exc}") from None
        if spec.ground_truth is None:
            raise ValueError(f"{f}: scene has no ground truth (generate it labelled)")
        entries.append(SceneEntry(spec.scene_id, spec.family, f.parent))
        blobs.append(data)
    if limit is not None:
        entries, blobs = entries[:limit], blobs[:limit]
    return entries, sha256_of(blobs)
