"""One episode's folder in a run: RUN_DIR/episodes/<model>/<scene_id>/ with spec.json, plan.json,
raw_reply.txt, outcome.json, score.json and bag/ (rosbag2, MCAP).

The frames the brain saw are kept once: in the bag's observation (raw, exactly as the brain got them), or,
when the bag was dropped (--keep-bags failures), as brain_view_<view>_<k>.png in the folder
(`reacthuman.recording.images.observation_frames_in_bag` reads them back from a bag).

Written under `<scene_id>.partial/` and renamed when complete, so a folder without the suffix is never
half-written; a crash leaves only a .partial folder, which the next attempt deletes.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import imageio.v3 as iio
import numpy as np

PARTIAL = ".partial"
BAG_DROPPED = "bag_dropped.txt"  # in place of bag/ when the run keeps bags only for failures
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(text: str) -> str:
    """Model ids like 'qwen/qwen3-vl-30b' become one path component."""
    return _SAFE.sub("_", text).strip("_") or "_"


class EpisodeFolder:
    def __init__(self, run_dir: Path, model: str, scene_id: str) -> None:
        self.final = Path(run_dir) / "episodes" / safe_name(model) / safe_name(scene_id)
        self.partial = self.final.with_name(self.final.name + PARTIAL)

    @property
    def bag_path(self) -> Path:
        return self.partial / "bag"

    @property
    def keeps_frames(self) -> bool:
        """Whether the folder holds the frames as PNGs: only when it has no bag (dropped, or never recorded)."""
        return not self.bag_path.is_dir()

    def begin(self) -> None:
        for stale in (self.partial, self.final):  # a final folder without a ledger row is redone
            shutil.rmtree(stale, ignore_errors=True)
        self.partial.mkdir(parents=True)

    def finish(
        self,
        spec_json: str,
        plan: dict | None,
        raw_reply: str,
        frames: dict[str, list[np.ndarray]],
        outcome: dict | None,
        score: dict,
    ) -> Path:
        _write_json(self.partial / "spec.json", json.loads(spec_json) if spec_json else {})
        _write_json(self.partial / "plan.json", plan)
        (self.partial / "raw_reply.txt").write_text(raw_reply)
        if self.keeps_frames:
            write_frames(self.partial, frames)
        _write_json(self.partial / "outcome.json", outcome)
        _write_json(self.partial / "score.json", score)
        self.partial.rename(self.final)
        return self.final

    def drop_bag(self, reason: str) -> None:
        shutil.rmtree(self.bag_path)
        (self.partial / BAG_DROPPED).write_text(reason + "\n")

    def discard(self) -> None:
        shutil.rmtree(self.partial, ignore_errors=True)


def frame_name(view: str, k: int) -> str:
    return f"brain_view_{safe_name(view)}_{k}.png"


# zlib's fastest level: a 640x360 frame encodes in about 13 ms instead of 51 ms at Pillow's default 6, and takes
# about 21% more bytes; PNG is lossless, so the pixels are the same. The report writes 15 frames per episode.
FRAME_PNG_COMPRESS_LEVEL = 1


def write_frames(folder: Path, frames: dict[str, list[np.ndarray]]) -> None:
    for view, images in frames.items():
        for k, image in enumerate(images):
            iio.imwrite(folder / frame_name(view, k), image, compress_level=FRAME_PNG_COMPRESS_LEVEL)


def _write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, indent=2, sort_keys=True, allow_nan=True) + "\n")
