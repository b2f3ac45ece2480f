"""Observation sets: each scene's observation window rendered once, exactly as the graph's body publishes it.

    reacthuman scenes render SCENES [--workers N]      # SCENES/observations/<scene_id>.npz + set.json

(the render's processes: `evaluation.render_workers`)

A scene's window is simulated by the episode engine the graph's body runs (`evaluation.episode.simulate_window`
on a `Body(graph_config())` with the G1 standing under the spine, asked at the graph's control ticks), so the
frames (three views at the brain's size and the window's frame times), the hazard's track at those instants
and its freeze state (what the scorer reads) are the graph's observation to the bit. `decide` then asks any
model on these files instead of re-simulating and re-rendering the window for every model.

Files: `set.json` (format, renderer, frame size and count, window, the code revision that rendered it) and
one `<scene_id>.npz` per scene, written atomically, so an interrupted render resumes where it stopped. A set
whose settings differ from the evaluation's is refused in one line (`ObservationSetError`). Reading needs
numpy only: no Genesis, MuJoCo or ROS 2.
"""

from __future__ import annotations

import json
import sys
import time
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from reacthuman.brain.observation import Observation
from reacthuman.core.atomic import atomic_path, atomic_write_text
from reacthuman.evaluation.observe import build_observation, ground_truth_dict
from reacthuman.scenes.spec import SceneSpec
from reacthuman.evaluation.manifest import revision

FOLDER = "observations"
SETTINGS = "set.json"
FORMAT = 1


class ObservationSetError(ValueError):
    """An observation set that cannot serve this evaluation (one line)."""


@dataclass(frozen=True)
class SetSettings:
    """What decides the observation's pixels and numbers; a set serves an evaluation with equal settings."""

    renderer: str
    frame_width_px: int
    frame_height_px: int
    frame_count: int
    observation_window_s: float
    format: int = FORMAT

    @staticmethod
    def graph(engine: str = "genesis") -> "SetSettings":
        """The settings of the graph's body (the body node's parameter defaults)."""
        from reacthuman.sim_bridge.body import (
            GRAPH_BODY_DEFAULTS as g,
        )  # the body loads MuJoCo: not in decide's light install

        return SetSettings(
            engine,
            int(g["frame_width_px"]),
            int(g["frame_height_px"]),
            int(g["frame_count"]),
            float(g["observation_window_s"]),
        )

    def mismatch(self, other: "SetSettings") -> str:
        """'' when equal, else what differs ('frame_width_px 320 (set) vs 640 (evaluation)', ...)."""
        mine, theirs = asdict(self), asdict(other)
        return ", ".join(f"{k} {mine[k]} (set) vs {theirs[k]} (evaluation)" for k in mine if mine[k] != theirs[k])


@dataclass(frozen=True)
class RenderedWindow:
    """One scene's window as the body left it: frames per view, the hazard's track (world frame, at the frame
    times since t0) and its centre of mass and velocity at the freeze."""

    scene_id: str
    frame_times_s: tuple[float, ...]
    images: dict[str, np.ndarray]  # view -> frames x H x W x 3 uint8, in frame-time order
    samples: dict[float, tuple[np.ndarray, np.ndarray]]
    freeze_position_m: np.ndarray
    freeze_velocity_mps: np.ndarray

    def observation(self, spec: SceneSpec, with_ground_truth: bool = True) -> Observation:
        """What the graph's brain is shown (the ground truth only for the brains that read it)."""
        images = {view: list(frames) for view, frames in self.images.items()}
        return build_observation(
            spec, self.frame_times_s, images, self.samples, ground_truth_dict(spec) if with_ground_truth else None
        )

    @property
    def freeze_xyz(self) -> tuple[float, float, float]:
        return tuple(float(v) for v in self.freeze_position_m)


def folder_of(scenes: Path) -> Path:
    return Path(scenes) / FOLDER


def window_path(scenes: Path, scene_id: str) -> Path:
    return folder_of(scenes) / f"{scene_id}.npz"


def read_settings(scenes: Path) -> tuple[SetSettings, dict] | None:
    """(settings, the whole set.json) of the set in `scenes`, None when there is none."""
    path = folder_of(scenes) / SETTINGS
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    try:
        settings = SetSettings(**{k: data[k] for k in SetSettings.__dataclass_fields__})
    except (KeyError, TypeError) as exc:
        raise ObservationSetError(f"{path}: not an observation set's settings ({exc})") from None
    return settings, data


def require_settings(scenes: Path, expected: SetSettings) -> None:
    """Refuse (one line) a set rendered with other settings than the evaluation's; write them for a new set."""
    found = read_settings(scenes)
    if found is None:
        folder_of(scenes).mkdir(parents=True, exist_ok=True)
        atomic_write_text(
            folder_of(scenes) / SETTINGS,
            json.dumps(asdict(expected) | {"revision": revision()}, indent=1, sort_keys=True) + "\n",
        )
        return
    differs = found[0].mismatch(expected)
    if differs:
        raise ObservationSetError(
            f"observation set {folder_of(scenes)} was rendered with other settings than this "
            f"evaluation's: {differs}; render it again into another scene folder"
        )


def save_window(path: Path, window: RenderedWindow) -> None:
    times = np.array(window.frame_times_s, dtype=np.float64)
    track_t = np.array(sorted(window.samples), dtype=np.float64)
    # the views in the body's order (the scene's cameras): the prompt shows them in this order
    arrays = {
        "frame_times_s": times,
        "views": np.array(list(window.images)),
        "track_t_s": track_t,
        "track_position_m": np.array([window.samples[t][0] for t in track_t], dtype=np.float64).reshape(-1, 3),
        "track_velocity_mps": np.array([window.samples[t][1] for t in track_t], dtype=np.float64).reshape(-1, 3),
        "freeze_position_m": np.asarray(window.freeze_position_m, dtype=np.float64),
        "freeze_velocity_mps": np.asarray(window.freeze_velocity_mps, dtype=np.float64),
        "scene_id": np.array(window.scene_id),
    }
    arrays |= {f"view_{name}": frames for name, frames in window.images.items()}
    with atomic_path(path, suffix=".npz") as tmp:
        write_npz(tmp, arrays)


ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # zip's earliest date: np.savez stamps the wall clock, so equal windows differed


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """np.savez_compressed's file with a fixed date on every member: the same window gives the same bytes,
    whichever process or machine (a Ray worker) rendered it and when."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, value in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            with zf.open(info, "w", force_zip64=True) as fh:
                np.lib.format.write_array(fh, np.asanyarray(value), allow_pickle=False)


def load_window(path: Path) -> RenderedWindow:
    try:
        with np.load(path) as data:
            views = [str(v) for v in data["views"]]
            track_t = [float(t) for t in data["track_t_s"]]
            samples = {
                t: (data["track_position_m"][i].copy(), data["track_velocity_mps"][i].copy())
                for i, t in enumerate(track_t)
            }
            return RenderedWindow(
                str(data["scene_id"]),
                tuple(float(t) for t in data["frame_times_s"]),
                {v: data[f"view_{v}"] for v in views},
                samples,
                data["freeze_position_m"].copy(),
                data["freeze_velocity_mps"].copy(),
            )
    except (OSError, KeyError, ValueError) as exc:
        raise ObservationSetError(f"{path}: not a readable observation window ({exc})") from None


def render_window(spec: SceneSpec, body, spine) -> RenderedWindow:
    """The graph body's window of `spec`: the episode engine's own simulate_window, the G1 standing under the
    spine at the graph's control ticks (`ControlTicks`, as the graph's lockstep asks it)."""
    from reacthuman.evaluation.episode import (
        ControlTicks,
        simulate_window,
    )  # the simulators: not in decide's light install

    spine.reset(None)
    body.load(spec)
    window = simulate_window(body, ControlTicks(spine.command, spec.dt_s, spine.config.policy_decimation))
    body.close()
    names = list(window.frames[0].images) if window.frames else []
    images = {n: np.stack([f.images[n] for f in window.frames]) for n in names}
    return RenderedWindow(
        spec.scene_id,
        tuple(f.t_s for f in window.frames),
        images,
        dict(window.samples),
        np.asarray(window.freeze_position_m),
        np.asarray(window.freeze_velocity_mps),
    )


def missing(scenes: Path, scene_ids: list[str]) -> list[str]:
    return [s for s in scene_ids if not window_path(scenes, s).is_file()]


class RenderProgress:
    """The render's progress line: 'rendered i/N (scene)  ETA m min', one per finished window."""

    def __init__(self, total: int, stream=None) -> None:
        # sys.stderr read now, not when the module was imported (a test's capture replaces it in between)
        self.total, self.finished, self.stream, self.started = total, 0, stream or sys.stderr, time.monotonic()

    def step(self, scene_id: str) -> None:
        self.finished += 1
        per_scene_s = (time.monotonic() - self.started) / self.finished
        self.stream.write(
            f"rendered {self.finished}/{self.total} ({scene_id})  "
            f"ETA {per_scene_s * (self.total - self.finished) / 60:.1f} min\n"
        )
        self.stream.flush()
