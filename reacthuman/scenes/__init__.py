"""ReactHuman scene generator (ROS-free): natural language or (family, seed) -> labelled SceneSpec.

Frames and units everywhere: world frame, z up, floor z = 0, metres, seconds, kg, radians; the observer's
pose is a Pose2D (reacthuman/plan/plan.py). Public API:

- FAMILIES, SPEED_FAMILIES, GRAVITY_FAMILIES; OBJECTS (catalogue); ROOM_TYPES
- sample_spec(family, seed, **opts) -> SceneSpec           stage 2 only, unlabelled, pure, no simulator
- generate_spec(family, seed, simulator=None, **opts)      stages 2+3: simulated and labelled in Genesis
- simulate(spec, simulator=None) -> Track                  the dynamic bodies' states at every step
- hazard_track(spec, times_s, simulator=None, track=None)  hazard state (pos, vel, ...) at given times
- scene_mjcf(spec, with_observer_proxy=False) -> str       simulator-neutral MJCF of the scene
- SceneSpec, GroundTruth, CameraSpec, ObserverSpec, SpecError
Genesis is imported only when something is simulated.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING, Any, Sequence

from reacthuman.scenes.cameras import place_cameras
from reacthuman.scenes.catalog import OBJECTS
from reacthuman.scenes.families import FAMILIES, GRAVITY_FAMILIES, SPEED_FAMILIES
from reacthuman.scenes.label import label
from reacthuman.scenes.mjcf import scene_mjcf
from reacthuman.scenes.randomize import sample_spec
from reacthuman.scenes.rooms import ROOM_TYPES
from reacthuman.scenes.spec import CameraSpec, GroundTruth, ObserverSpec, SceneSpec, SpecError
from reacthuman.scenes.validators import check_in_frame, hazard_window_points, validate_track
from reacthuman.scenes.visibility import place_visible_cameras

if TYPE_CHECKING:
    from reacthuman.scenes.genesis_sim import GenesisSimulator, Track

_SIM: "GenesisSimulator | None" = None


def default_simulator() -> "GenesisSimulator":
    """One Genesis simulator per process (kernels compile once; later scene builds are cheap)."""
    global _SIM
    if _SIM is None:
        from reacthuman.scenes.genesis_sim import GenesisSimulator

        _SIM = GenesisSimulator()
    return _SIM


def simulate(spec: SceneSpec, simulator: "GenesisSimulator | None" = None) -> "Track":
    return (simulator or default_simulator()).run(spec)


class SceneInvalid(ValueError):
    """The simulated scene does not match its spec (a validator failed); one line naming the scene."""


def label_spec(spec: SceneSpec, simulator: "GenesisSimulator | None" = None, check: bool = True) -> SceneSpec:
    """The spec with ground truth computed from its Genesis simulation. With check: cameras are re-placed
    (seeded) when the hazard leaves a view during the window or shows too few pixels at the freeze frame
    (visibility.py), and the validators must pass."""

    track = simulate(spec, simulator)
    if check and check_in_frame(spec, track):
        rng = random.Random(f"reacthuman/camera-retry/{spec.family}/{spec.seed}")
        ego = spec.camera("egocentric")
        try:
            cams = place_cameras(
                rng,
                spec.observer,
                tuple(spec.params["event_origin"]),
                tuple(spec.params["event_target"]),
                ego.width,
                ego.height,
                max_tries=200,
                also_see=tuple(hazard_window_points(spec, track)),
            )
        except RuntimeError:
            raise SceneInvalid(f"{spec.scene_id}: no camera placement keeps the hazard in all three views") from None
        spec = dataclasses.replace(spec, cameras=cams)
    if check:
        try:
            spec = place_visible_cameras(spec, track)
        except RuntimeError as exc:
            raise SceneInvalid(f"{spec.scene_id}: {exc}") from None
        problems = validate_track(spec, track)
        if problems:
            raise SceneInvalid(f"{spec.scene_id}: {problems[0]}")
    return spec.with_ground_truth(label(spec, track))


def generate_spec(family: str, seed: int, simulator: "GenesisSimulator | None" = None, **opts: Any) -> SceneSpec:
    """A labelled spec: sample_spec(family, seed, **opts) simulated in Genesis and labelled."""
    return label_spec(sample_spec(family, seed, **opts), simulator)


def hazard_track(
    spec: SceneSpec,
    times_s: Sequence[float],
    simulator: "GenesisSimulator | None" = None,
    track: "Track | None" = None,
    body: str | None = None,
) -> list[dict[str, Any]]:
    """States of the hazard body (default: the primary one) at the given times, from simulator state:
    [{t_s, pos, quat, vel, ang_vel}], world frame. For hinged bodies pos/vel are the body frame's origin
    (the pivot); use label.body_points for points on the object. A run ends once everything has come to
    rest; later times get that final (resting) state."""
    track = track or simulate(spec, simulator)
    name = body or spec.hazard_bodies[0]
    return [track.at(name, t) for t in times_s]


__all__ = [
    "SceneInvalid",
    "FAMILIES",
    "SPEED_FAMILIES",
    "GRAVITY_FAMILIES",
    "OBJECTS",
    "ROOM_TYPES",
    "sample_spec",
    "generate_spec",
    "label_spec",
    "simulate",
    "hazard_track",
    "scene_mjcf",
    "default_simulator",
    "SceneSpec",
    "GroundTruth",
    "CameraSpec",
    "ObserverSpec",
    "SpecError",
]
