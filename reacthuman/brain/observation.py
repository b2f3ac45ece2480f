"""What a brain is given at the freeze: the camera frames of the window and what they show.

Everything here is observable: frames, the hazard object's observed track and its look (what a camera
shows, never its mass or material), the room, where the humanoid stands. `ground_truth` is the one
exception; only the reference brain `oracle` reads it and no prompt ever contains it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from reacthuman.brain.schema import plan_to_dict
from reacthuman.plan.plan import Plan, Pose2D

Vec3 = tuple[float, float, float]

# What each view shows (the paper's three synchronized viewpoints, sec. 3.1), as the scene generator places
# them (reacthuman/scenes/cameras.py): the head camera aimed along the event's course from where the robot
# stands facing its start; the close-up framed on the hazard object over the last quarter of the window
# (cameras.closeup_on_hazard, held_course), so the object may be outside it in the first frames; the overhead
# above the event and the robot. Every camera stays still over the window.
VIEW_DESCRIPTIONS: dict[str, str] = {
    "egocentric": "your own eyes: the camera in your head, turned towards the event (you face where it started)",
    "closeup": (
        "a close-up camera near the object's path, framed to hold the object in the last frames before "
        "time froze; in the first frames the object may not be in this view yet"
    ),
    "overhead": "a camera high above, looking down on the event and on you",
}


@dataclass(frozen=True)
class TrackSample:
    """The hazard object as the cameras saw it at t_s (s after the event began), freeze-time robot frame."""

    t_s: float
    position_m: Vec3
    velocity_mps: Vec3

    def __post_init__(self) -> None:
        numbers = (self.t_s, *self.position_m, *self.velocity_mps)
        if len(self.position_m) != 3 or len(self.velocity_mps) != 3:
            raise ValueError("track sample position_m and velocity_mps must have 3 numbers each")
        if not all(math.isfinite(v) for v in numbers):
            raise ValueError(f"track sample at t={self.t_s} has a NaN or infinite number")


@dataclass(frozen=True)
class Observation:
    scene_id: str
    frame_times_s: tuple[float, ...]  # s after the event began (t0); the last one is the freeze
    images: Mapping[str, list[np.ndarray]]  # view name -> one HxWx3 uint8 frame per frame time
    track: tuple[TrackSample, ...]  # the hazard object's observed track, robot frame
    object_look: str  # what the cameras show, e.g. "a green block", "a white ceramic plate"
    room: str
    observer_pose: Pose2D  # where the humanoid stands in the world at the freeze
    ground_truth: Mapping[str, Any] | None = field(default=None, repr=False)  # oracle only
    # closed loop (evaluation/closed_loop.py): a re-plan's observation carries the plan the brain committed at
    # the previous decision (its hands and walk counted from that decision) and the base's velocity now
    previous_plan: Plan | None = None
    decision_index: int = 0  # 0: the first freeze; k: the k-th re-plan
    robot_velocity_mps: Vec3 | None = None  # the base's planar velocity in the robot frame now (re-plans)

    def __post_init__(self) -> None:
        if not self.scene_id:
            raise ValueError("observation.scene_id is empty")
        times = tuple(float(t) for t in self.frame_times_s)
        if (
            not times
            or any(b <= a for a, b in zip(times, times[1:]))
            or not all(math.isfinite(t) and t >= 0 for t in times)
        ):
            raise ValueError(
                f"observation.frame_times_s must be increasing, finite and >= 0, got {self.frame_times_s!r}"
            )
        object.__setattr__(self, "frame_times_s", times)
        object.__setattr__(self, "track", tuple(self.track))
        for view, frames in self.images.items():
            if len(frames) != len(times):
                raise ValueError(f"observation.images[{view!r}] has {len(frames)} frames for {len(times)} frame times")
            for frame in frames:
                if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
                    raise ValueError(
                        f"observation.images[{view!r}] frames must be HxWx3 uint8, got {frame.shape} {frame.dtype}"
                    )

    @property
    def freeze_time_s(self) -> float:
        return self.frame_times_s[-1]


def _vec(v: Vec3) -> str:
    return "(" + ", ".join(f"{x:+.2f}" for x in v) + ")"


def observer_text(obs: Observation) -> str:
    """Where the humanoid is and which way it faces (shared by every modality)."""
    pose = obs.observer_pose
    return (
        f"You stand in the {obs.room} at world position x={pose.x_m:.2f} m, y={pose.y_m:.2f} m, facing "
        f"{math.degrees(pose.yaw_rad):.0f} deg from the world x axis. In your own frame you are at the origin "
        "(floor level, under your pelvis), x points forward, y to your left, z up, in metres."
    )


def replan_text(obs: Observation) -> str:
    """What a re-plan adds to the prompt: that the brain is re-planning, how the body moves, the plan it
    committed last time (in the schema's field names); empty at the first freeze."""
    if obs.decision_index == 0:
        return ""
    lines = [
        f"You are RE-PLANNING (decision {obs.decision_index + 1}): time ran since your last plan, your body has "
        "been carrying it out, and time froze again now. Your new plan replaces the rest of the previous one "
        "from this instant; its times count from now and its positions from where you stand now."
    ]
    if obs.robot_velocity_mps is not None:
        lines.append(f"Your body is moving at {_vec(obs.robot_velocity_mps)} m/s in your frame.")
    previous = (
        json.dumps(plan_to_dict(obs.previous_plan)) if obs.previous_plan is not None else "none (it did not parse)"
    )
    lines.append(f"Your previous plan: {previous}")
    return "\n".join(lines)


def state_text(obs: Observation) -> str:
    """A textual account of what the cameras show over the window (for text-only models, and as an ablation)."""
    lines = [
        observer_text(obs),
        f"The cameras show {obs.object_look}.",
        "Its motion as seen over the window, in your frame (position in m, velocity in m/s; z is height above the floor):",
    ]
    if not obs.track:
        lines.append("  (the object could not be followed in the frames)")
    for sample in obs.track:
        distance_m = math.hypot(sample.position_m[0], sample.position_m[1])
        speed_mps = math.sqrt(sum(v * v for v in sample.velocity_mps))
        lines.append(
            f"  t={sample.t_s:.2f} s: position {_vec(sample.position_m)}, velocity {_vec(sample.velocity_mps)}, "
            f"speed {speed_mps:.2f} m/s, {distance_m:.2f} m from you horizontally"
        )
    lines.append(f"Time froze at t={obs.freeze_time_s:.2f} s.")
    return "\n".join(lines)
