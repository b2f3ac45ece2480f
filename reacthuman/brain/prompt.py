"""The one prompt every model gets: the role, what each camera shows, the frozen-time rule, the body's
frame and limits, and the plan fields. Modalities: `images`, `state_text` or `both`.

The scene id and the ground truth never enter a prompt (the id can name the object or the family).
"""

from __future__ import annotations

from typing import Any

from reacthuman.brain.observation import VIEW_DESCRIPTIONS, Observation, observer_text, replan_text, state_text
from reacthuman.brain.schema import DURATION_LIMIT_S, MAX_KEYFRAMES
from reacthuman.scenes.envelope import default_config as default_envelope
from reacthuman.llm.images import image_part, text_part
from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M

MODALITIES = ("images", "state_text", "both")
# The paper's protocol: the model sees the three camera views. state_text (the object's name and exact
# simulator state every frame) is the privileged-state ablation, the only thing a text-only model can take.
DEFAULT_MODALITY = "images"
PRIVILEGED_MODALITY = "state_text"
COMFORT_WALK_SPEED_MPS = 0.5
MAX_WALK_SPEED_MPS = 1.0  # the walking policy's command range
# measured (docs/spine-and-body.md, "Tracking"; `reacthuman bench --sections tracking`)
MEASURED_TOP_SPEED_MPS = 0.8
MEASURED_SIDE_SPEED_MPS = 0.25
DEEP_CROUCH_KNEE_BEND = 0.25
DEEP_CROUCH_DROP_M = 0.19  # measured: the spine folds the legs 0.45 rad at knee_bend 0.25 (spine/crouch.py)
# The hands' workspace is the one the ground truth judges catches with (BodyEnvelope, measured on the tracking rig).
BODY = default_envelope()


def _xyz(v: tuple[float, float, float]) -> str:
    return "[" + ", ".join(f"{x:.2f}" for x in v) + "]"


SYSTEM_PROMPT = f"""You are the brain of a humanoid robot (a Unitree G1, 1.3 m tall) standing in a home. A sudden household event has just begun: an object is falling, sliding, rolling, toppling, swinging or flying, possibly toward you. You watched the first moments; then time froze. While time is frozen you commit to ONE reaction plan. When time resumes your body carries it out exactly, with no chance to change it.

Your frame: origin on the floor under your pelvis, x forward (the way you face), y to your left, z up, metres.
Your body:
- Legs: walking_cmd = [vx, vy, yaw_rate] (vx forward m/s, vy leftward m/s, yaw_rate rad/s, counter-clockwise positive) held for walking_duration seconds, then you stand. Comfortable walking is about {COMFORT_WALK_SPEED_MPS} m/s, at most {MAX_WALK_SPEED_MPS} m/s (which covers about {MEASURED_TOP_SPEED_MPS} m/s). Negative vx steps back as well as forward; sideways steps cover only about {MEASURED_SIDE_SPEED_MPS} m/s however fast you ask.
- Hands: keyframes give, at time t (s after time resumes), each hand's offset [x, y, z] in metres from its resting position (left hand rests at {_xyz(REST_LEFT_HAND_M)}, right hand at {_xyz(REST_RIGHT_HAND_M)} in your frame). Hands move smoothly between keyframes and travel with you as you walk. Your hands reach points up to about {BODY.arm_reach_m:g} m from the vertical line through your pelvis (measured horizontally; not closer than about {BODY.min_reach_m:g} m in front of you) at heights from {BODY.crouch_hand_m:g} to {BODY.highest_hand_m:g} m, lower points down to {BODY.lowest_hand_m:g} m only in a deep crouch and within about {BODY.crouch_reach_m:g} m, and they need about {BODY.arm_travel_s:g} s to get there from rest. knee_bend goes from 0 (straight legs) to {DEEP_CROUCH_KNEE_BEND:g} (deep crouch: pelvis about {DEEP_CROUCH_DROP_M} m lower, hands as much lower).
- catch_duration: seconds you hold your hands (and knee_bend) at the last keyframe; then they return to rest.

React as a competent person would: keep yourself safe, and prevent harm or damage where it is safe to do so.

Answer with ONE JSON object and nothing else, exactly these fields:
{{"object_identified": "<what the object is>", "intent": "<what you will do and why, briefly>", "confidence": <0..1>, "walking_cmd": [vx, vy, yaw_rate], "walking_duration": <seconds, 0..{DURATION_LIMIT_S:g}>, "catch_duration": <seconds, 0..{DURATION_LIMIT_S:g}>, "keyframes": [{{"t": <seconds>, "left_hand": [x, y, z], "right_hand": [x, y, z], "knee_bend": <0..{DEEP_CROUCH_KNEE_BEND:g}>}}]}}
keyframes holds 1 to {MAX_KEYFRAMES} entries in time order."""

CLOSING_TEXT = "Time is frozen now. Commit your reaction plan as the JSON object."


def _image_parts(obs: Observation) -> list[dict[str, Any]]:
    times = ", ".join(f"{t:.2f}" for t in obs.frame_times_s)
    parts = [text_part(f"Camera frames at t = {times} s after the event began (time froze at the last one).")]
    for view, frames in obs.images.items():
        what = VIEW_DESCRIPTIONS.get(view, "a camera in the room")
        parts.append(text_part(f"View '{view}' ({what}), {len(frames)} frames in time order:"))
        parts.extend(image_part(frame) for frame in frames)
    return parts


def build_messages(obs: Observation, modality: str) -> list[dict[str, Any]]:
    """The chat messages for one decision: the system prompt, then the observation in `modality`."""
    if modality not in MODALITIES:
        raise ValueError(f"modality must be one of {MODALITIES}, got {modality!r}")
    if modality in ("images", "both") and not obs.images:
        raise ValueError(f"modality '{modality}' needs camera frames, but observation {obs.scene_id} has none")
    replan = replan_text(obs)
    if modality == "state_text":
        content: list[dict[str, Any]] | str = (
            (replan + "\n\n" if replan else "") + state_text(obs) + "\n\n" + CLOSING_TEXT
        )
    else:
        parts = [text_part(observer_text(obs))] + ([text_part(replan)] if replan else [])
        parts += _image_parts(obs)
        if modality == "both":
            parts.append(text_part("What the cameras show, in words:\n" + state_text(obs)))
        parts.append(text_part(CLOSING_TEXT))
        content = parts
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": content}]
