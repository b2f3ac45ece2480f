"""What the brain is shown, built from the body's own simulation of the observation window.

The hazard's track is read from simulator state at the frame times (the instants the cameras rendered),
then expressed in the freeze-time robot frame. The object's look is what a camera shows: the catalogue's
appearance (an adversarial object shows its twin's look, never its own physics)."""

from __future__ import annotations

import math

import numpy as np

from reacthuman.brain.observation import Observation, TrackSample
from reacthuman.plan.plan import Pose2D
from reacthuman.scenes.catalog import OBJECTS
from reacthuman.scenes.mass_centre import arm_world_m, centre_local_m
from reacthuman.scenes.spec import GroundTruth, SceneSpec

_COLOURS = {(0.93, 0.92, 0.88): "white", (0.18, 0.18, 0.2): "black"}
_SHAPES = {"box": "block", "sphere": "ball", "cylinder": "cylinder", "capsule": "rounded rod"}


def object_look(object_id: str) -> str:
    """'a ceramic plate (a white cylinder)'; an adversarial object is described as the twin it imitates."""
    entry = OBJECTS[object_id]
    shown = OBJECTS[entry.looks_like] if entry.looks_like else entry
    r, g, b, _ = entry.color
    colour = _COLOURS.get((round(r, 2), round(g, 2), round(b, 2))) or _colour_name(r, g, b)
    return f"{_article(shown.name)} {shown.name} (a {colour} {_SHAPES.get(entry.shape, entry.shape)})"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _colour_name(r: float, g: float, b: float) -> str:
    if max(r, g, b) - min(r, g, b) < 0.08:
        return "grey" if 0.25 < r < 0.8 else ("white" if r >= 0.8 else "black")
    hues = {
        "red": (1, 0, 0),
        "green": (0, 1, 0),
        "blue": (0, 0, 1),
        "light blue": (0.68, 0.85, 0.92),
        "yellow": (1, 1, 0),
        "brown": (0.6, 0.4, 0.2),
        "purple": (0.5, 0.3, 0.6),
        "orange": (1, 0.5, 0),
        "cyan": (0, 1, 1),
    }
    return min(hues, key=lambda h: sum((a - c) ** 2 for a, c in zip((r, g, b), hues[h])))


def hazard_point(
    spec: SceneSpec, name: str, pos_m, quat_wxyz, lin_vel_mps, ang_vel_radps
) -> tuple[np.ndarray, np.ndarray]:
    """World position and velocity of a body's centre of mass from its frame's state (origin, orientation,
    the origin's linear velocity and the angular velocity, world frame)."""
    arm = arm_world_m(centre_local_m(spec, name), quat_wxyz)
    pos = np.asarray(pos_m, dtype=np.float64) + arm
    vel = np.asarray(lin_vel_mps, dtype=np.float64) + np.cross(np.asarray(ang_vel_radps, dtype=np.float64), arm)
    return pos, vel


def ground_truth_dict(spec: SceneSpec) -> dict:
    """The ground truth a reference brain reads (the graph's brain reads the same from `GroundTruth`)."""
    return truth_dict(spec.ground_truth)


def truth_dict(gt: GroundTruth) -> dict:
    """A truth as the mapping a reference brain reads: the scene's (`ground_truth_dict`) or a re-plan's
    (`remaining_truth.remaining_truth`)."""
    return {
        "correct_action": gt.correct_action,
        "dangerous": gt.dangerous,
        "impact_point": gt.impact_point,
        "time_to_floor_s": gt.time_to_floor_s,
        "impact_time_s": gt.impact_time_s,
        "speed_band": gt.speed_band,
        "adversarial": gt.adversarial,
        "intercept_point": gt.intercept_point,
        "intercept_time_s": gt.intercept_time_s,
        "clear_step": gt.clear_step,
    }


class WindowTracker:
    """Records the primary hazard's centre of mass (world frame) at each instant the body renders a frame, so the
    track is exactly what the cameras showed, whatever the control rate. It wraps the window's command source
    (a pass-through) so callers hand the body one callable, and registers itself with the body's frame hook."""

    def __init__(self, body, source, spec: SceneSpec, frame_times_s: tuple[float, ...]) -> None:
        self.body, self.source, self.spec = body, source, spec
        dt = spec.dt_s
        self._due = {int(round((spec.t0_s + t) / dt)): t for t in frame_times_s}
        self.samples: dict[float, tuple[np.ndarray, np.ndarray]] = {}
        body.add_frame_hook(self._on_frame)

    def _on_frame(self, sim_time_s: float) -> None:
        # keyed by the rendered frame's own time (FrameSet.t_s, computed the same way): the observation is built
        # from those times, and a frame time computed otherwise (window * i / (n - 1)) can differ in the last bit
        if int(round(sim_time_s / self.spec.dt_s)) in self._due:
            self.samples[sim_time_s - self.spec.t0_s] = self.freeze_state()

    def __call__(self, sim_time_s: float, state):
        return self.source(sim_time_s, state)

    def freeze_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The hazard's centre of mass and its velocity now (at the freeze, once the window is simulated)."""
        name = self.spec.hazard_bodies[0]
        h = self.body.snapshot().hazards[name]
        return hazard_point(self.spec, name, h.pos_m, h.quat_wxyz, h.lin_vel_mps, h.ang_vel_radps)


def build_observation(
    spec: SceneSpec,
    frame_times_s: tuple[float, ...],
    images: dict[str, list[np.ndarray]],
    samples: dict[float, tuple[np.ndarray, np.ndarray]],
    ground_truth: dict | None = None,
    pose: Pose2D | None = None,
    **later: object,
) -> Observation:
    """`pose`: where the robot stands at the freeze (default the scene's observer: the first freeze); `later`:
    a re-plan's further Observation fields (previous_plan, decision_index, robot_velocity_mps)."""
    pose = pose or spec.observer.pose()
    c, s = math.cos(pose.yaw_rad), math.sin(pose.yaw_rad)
    track = []
    for t in frame_times_s:
        if t not in samples:
            continue
        pos, vel = samples[t]
        p_robot = pose.to_robot(tuple(float(v) for v in pos))
        v_robot = (c * vel[0] + s * vel[1], -s * vel[0] + c * vel[1], float(vel[2]))
        track.append(TrackSample(t, p_robot, tuple(float(v) for v in v_robot)))
    return Observation(
        scene_id=spec.scene_id,
        frame_times_s=frame_times_s,
        images=images,
        track=tuple(track),
        object_look=object_look(spec.object_id),
        room=spec.room,
        observer_pose=pose,
        ground_truth=ground_truth,
        **later,
    )
