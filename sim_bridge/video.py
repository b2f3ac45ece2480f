"""Execution videos (mp4): a third-person view and an egocentric view riding on the G1's head.

Frames are streamed to ffmpeg (imageio-ffmpeg) in a private temporary folder while the episode runs, and
moved into place only by save(): a failed or abandoned episode leaves no half-written video behind.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reacthuman.core.atomic import atomic_path
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim_bridge.engine import CameraSpec, PhysicsEngine, quat_rotate_inverse_wxyz, quat_rotate_wxyz

THIRD_PERSON = "video_thirdperson"
EGOCENTRIC = "video_egocentric"
HEAD_LINK = "torso_link"
# Eye point in the torso frame: just in front of the head's collision capsule (x 0.01, z 0.41, r 0.068).
EYE_IN_TORSO_M = np.array([0.09, 0.0, 0.43])


@dataclass(frozen=True)
class VideoConfig:
    enabled: bool = False
    fps: float = 30.0
    width_px: int = 640
    height_px: int = 360
    fov_deg: float = 70.0

    def __post_init__(self) -> None:
        if not 1.0 <= self.fps <= 120.0:
            raise ValueError(f"VideoConfig.fps must be in [1, 120], got {self.fps}")
        if self.width_px % 8 or self.height_px % 8 or self.width_px < 64 or self.height_px < 64:
            raise ValueError(f"VideoConfig size must be multiples of 8 and >= 64, got {self.width_px}x{self.height_px}")


def _third_person_pose(spec: SceneSpec) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Behind the observer's shoulder, looking at the midpoint between the observer and the hazard."""
    o = spec.observer
    hz = spec.hazard.pos
    mid = ((o.x_m + hz[0]) / 2, (o.y_m + hz[1]) / 2, 0.8)
    back = (-math.cos(o.yaw_rad), -math.sin(o.yaw_rad))
    side = (-math.sin(o.yaw_rad), math.cos(o.yaw_rad))
    pos = (o.x_m + 1.6 * back[0] + 0.8 * side[0], o.y_m + 1.6 * back[1] + 0.8 * side[1], 1.7)
    return pos, mid


class VideoRecorder:
    def __init__(self, config: VideoConfig, spec: SceneSpec, engine: PhysicsEngine) -> None:
        import imageio.v2 as imageio  # only a run that records videos needs it (not the light install)

        self.config = config
        self._engine = engine
        self._dir = tempfile.mkdtemp(prefix="reacthuman-video-")
        self._writers = {
            name: imageio.get_writer(
                os.path.join(self._dir, f"{name}.mp4"),
                fps=config.fps,
                codec="libx264",
                macro_block_size=8,
                quality=7,
                ffmpeg_log_level="error",
            )
            for name in (THIRD_PERSON, EGOCENTRIC)
        }
        self._next_s: float | None = None
        ego = spec.camera("egocentric")
        self._ego_dir_world = np.subtract(ego.lookat, ego.pos)
        self._ego_dir_torso: np.ndarray | None = None
        self.frames = 0

    @staticmethod
    def camera_specs(config: VideoConfig, spec: SceneSpec) -> tuple[CameraSpec, ...]:
        pos, lookat = _third_person_pose(spec)
        ego = spec.camera("egocentric")
        return (
            CameraSpec(THIRD_PERSON, pos, lookat, config.fov_deg, config.width_px, config.height_px),
            CameraSpec(EGOCENTRIC, ego.pos, ego.lookat, config.fov_deg, config.width_px, config.height_px),
        )

    def _aim_egocentric(self) -> None:
        torso = self._engine.body_state(HEAD_LINK)
        if self._ego_dir_torso is None:  # the scene's egocentric direction, fixed to the head from now on
            d = self._ego_dir_world / np.linalg.norm(self._ego_dir_world)
            self._ego_dir_torso = quat_rotate_inverse_wxyz(torso.quat_wxyz, d)
        eye = torso.pos_m + quat_rotate_wxyz(torso.quat_wxyz, EYE_IN_TORSO_M)
        look = eye + quat_rotate_wxyz(torso.quat_wxyz, self._ego_dir_torso)
        self._engine.set_camera_pose(EGOCENTRIC, tuple(eye), tuple(look))

    def capture(self, sim_time_s: float) -> None:
        """Render both views if a video frame is due at `sim_time_s` (the first call always captures)."""
        if self._next_s is not None and sim_time_s < self._next_s - 1e-9:
            return
        self._next_s = (sim_time_s if self._next_s is None else self._next_s) + 1.0 / self.config.fps
        self._aim_egocentric()
        for name, writer in self._writers.items():
            writer.append_data(self._engine.render(name))
        self.frames += 1

    def save(self, folder: Path) -> dict[str, Path]:
        """Finish both videos and move them to folder/video_{thirdperson,egocentric}.mp4 (an episode folder)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self._close_writers()
        out = {}
        for name in (THIRD_PERSON, EGOCENTRIC):
            short = name.removeprefix("video_")
            target = folder / f"{name}.mp4"
            with atomic_path(target) as tmp:
                shutil.copyfile(os.path.join(self._dir, f"{name}.mp4"), tmp)
            out[short] = target
        self.discard()
        return out

    def _close_writers(self) -> None:
        for writer in self._writers.values():
            writer.close()
        self._writers = {}

    def discard(self) -> None:
        self._close_writers()
        shutil.rmtree(self._dir, ignore_errors=True)
