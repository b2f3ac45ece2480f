"""Between reacthuman_msgs messages and the core library's plain data (dicts, dataclasses, arrays).
The only place that knows both sides."""

from __future__ import annotations

import math

import numpy as np
from geometry_msgs.msg import Point
from reacthuman_msgs.msg import ExecutedOutcome, HandKeyframe, ObservationWindow, ReactionPlan
from sensor_msgs.msg import Image

from reacthuman.plan import Keyframe, Plan


def point(xyz) -> Point:
    return Point(x=float(xyz[0]), y=float(xyz[1]), z=float(xyz[2]))


def xyz(p: Point) -> tuple[float, float, float]:
    return (p.x, p.y, p.z)


def image_to_array(img: Image) -> np.ndarray:
    if img.encoding != "rgb8":
        raise ValueError(f"expected rgb8 images, got {img.encoding!r}")
    return np.frombuffer(bytes(img.data), np.uint8).reshape(img.height, img.step // 3, 3)[:, : img.width].copy()


def array_to_image(array: np.ndarray, stamp=None, frame_id: str = "") -> Image:
    img = Image(height=int(array.shape[0]), width=int(array.shape[1]), encoding="rgb8", is_bigendian=0,
                step=int(array.shape[1]) * 3)
    img.data = np.ascontiguousarray(array, dtype=np.uint8).tobytes()
    if stamp is not None:
        img.header.stamp = stamp
    img.header.frame_id = frame_id
    return img


def observation_frames(msg: ObservationWindow) -> dict[str, list[np.ndarray]]:
    return {view.view_name: [image_to_array(f) for f in view.frames] for view in msg.views}


def plan_from_msg(msg: ReactionPlan) -> Plan | None:
    """The parsed plan, or None when the brain could not parse one (or the API failed)."""
    if not msg.parse_ok or msg.api_error:
        return None
    keyframes = tuple(Keyframe(k.t_s, xyz(k.left_hand), xyz(k.right_hand), k.knee_bend) for k in msg.keyframes)
    return Plan(msg.object_identified, msg.intent, msg.confidence, tuple(float(v) for v in msg.walking_cmd),
                msg.walking_duration_s, msg.catch_duration_s, keyframes)


def plan_to_msg(plan: Plan | None, msg: ReactionPlan) -> ReactionPlan:
    """Fill the plan fields of `msg` (scene id, raw text and flags are set by the caller)."""
    if plan is None:
        return msg
    msg.object_identified, msg.intent, msg.confidence = plan.object_identified, plan.intent, plan.confidence
    msg.walking_cmd = [float(v) for v in plan.walking_cmd]
    msg.walking_duration_s, msg.catch_duration_s = plan.walking_duration_s, plan.catch_duration_s
    msg.keyframes = [HandKeyframe(t_s=k.t_s, left_hand=point(k.left_hand), right_hand=point(k.right_hand),
                                  knee_bend=k.knee_bend) for k in plan.keyframes]
    return msg


def plan_msg_to_dict(msg: ReactionPlan) -> dict:
    return {
        "scene_id": msg.scene_id, "model": msg.model, "parse_ok": msg.parse_ok, "parse_error": msg.parse_error,
        "api_error": msg.api_error, "object_identified": msg.object_identified, "intent": msg.intent,
        "confidence": msg.confidence, "walking_cmd": list(msg.walking_cmd),
        "walking_duration": msg.walking_duration_s, "catch_duration": msg.catch_duration_s,
        "keyframes": [{"t": k.t_s, "left_hand": list(xyz(k.left_hand)), "right_hand": list(xyz(k.right_hand)),
                       "knee_bend": k.knee_bend} for k in msg.keyframes],
        "latency_s": msg.latency_s, "prompt_tokens": msg.prompt_tokens, "completion_tokens": msg.completion_tokens,
    }


def outcome_msg_to_dict(msg: ExecutedOutcome) -> dict:
    out = {}
    for name in msg.get_fields_and_field_types():
        if name == "header":
            continue
        value = getattr(msg, name)
        if isinstance(value, Point):
            value = list(xyz(value))
        elif isinstance(value, float) and not math.isfinite(value):
            value = None
        out[name] = value
    return out
