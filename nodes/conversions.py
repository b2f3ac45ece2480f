"""Between reacthuman_msgs messages and the core library's plain data (dicts, dataclasses, arrays).
The only place that knows both sides."""

from __future__ import annotations

import json
import math

import numpy as np
from geometry_msgs.msg import Point, Vector3
from reacthuman_msgs.msg import (
    BaseState,
    ExecutedOutcome,
    FreezeState,
    GroundTruth,
    HandKeyframe,
    ObservationWindow,
    ReactionPlan,
)
from reacthuman_msgs.msg import JointCommand as JointCommandMsg
from sensor_msgs.msg import Image, JointState

from reacthuman import ros_contract as graph
from reacthuman.plan.plan import Keyframe, Plan, Pose2D
from reacthuman.recording.images import rgb8_pixels
from reacthuman.brain.observation import Observation, TrackSample
from reacthuman.brain.base import BrainDecision
from reacthuman.brain.schema import plan_from_dict
from reacthuman.scoring import ModelReply
from reacthuman.scoring import ExecutedOutcome as ScoringOutcome
from reacthuman.scoring.closed_loop import DecisionPoint, closed_loop_fields, judge
from reacthuman.scoring.episode import reply_of, score_episode
from reacthuman.scenes.genesis_sim import Track
from reacthuman.spine.robot_state import RobotState
from reacthuman.spine.joint_command import JointCommand, Mode


def point(xyz) -> Point:
    return Point(x=float(xyz[0]), y=float(xyz[1]), z=float(xyz[2]))


def xyz(p: Point) -> tuple[float, float, float]:
    return (p.x, p.y, p.z)


def image_to_array(img: Image) -> np.ndarray:
    return rgb8_pixels(img)


def array_to_image(array: np.ndarray, stamp=None, frame_id: str = "") -> Image:
    img = Image(
        height=int(array.shape[0]),
        width=int(array.shape[1]),
        encoding="rgb8",
        is_bigendian=0,
        step=int(array.shape[1]) * 3,
    )
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
    return Plan(
        msg.object_identified,
        msg.intent,
        msg.confidence,
        tuple(float(v) for v in msg.walking_cmd),
        msg.walking_duration_s,
        msg.catch_duration_s,
        keyframes,
    )


def plan_to_msg(plan: Plan | None, msg: ReactionPlan) -> ReactionPlan:
    """Fill the plan fields of `msg` (scene id, raw text and flags are set by the caller)."""
    if plan is None:
        return msg
    msg.object_identified, msg.intent, msg.confidence = plan.object_identified, plan.intent, plan.confidence
    msg.walking_cmd = [float(v) for v in plan.walking_cmd]
    msg.walking_duration_s, msg.catch_duration_s = plan.walking_duration_s, plan.catch_duration_s
    msg.keyframes = [
        HandKeyframe(t_s=k.t_s, left_hand=point(k.left_hand), right_hand=point(k.right_hand), knee_bend=k.knee_bend)
        for k in plan.keyframes
    ]
    return msg


def plan_msg_to_dict(msg: ReactionPlan) -> dict:
    return {
        "scene_id": msg.scene_id,
        "model": msg.model,
        "parse_ok": msg.parse_ok,
        "parse_error": msg.parse_error,
        "api_error": msg.api_error,
        "object_identified": msg.object_identified,
        "intent": msg.intent,
        "confidence": msg.confidence,
        "walking_cmd": list(msg.walking_cmd),
        "walking_duration": msg.walking_duration_s,
        "catch_duration": msg.catch_duration_s,
        "keyframes": [
            {
                "t": k.t_s,
                "left_hand": list(xyz(k.left_hand)),
                "right_hand": list(xyz(k.right_hand)),
                "knee_bend": k.knee_bend,
            }
            for k in msg.keyframes
        ],
        "latency_s": msg.latency_s,
        "prompt_tokens": msg.prompt_tokens,
        "completion_tokens": msg.completion_tokens,
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


def observation_json(track, object_look: str, room: str) -> str:
    """The non-image part of an observation window (track samples are reacthuman.brain TrackSample)."""
    return json.dumps(
        {
            "track": [
                {"t_s": s.t_s, "position_m": list(s.position_m), "velocity_mps": list(s.velocity_mps)} for s in track
            ],
            "object_look": object_look,
            "room": room,
        }
    )


def freeze_state_msg(scene_id: str, stamp, position_m, velocity_mps) -> FreezeState:
    """The hazard's centre of mass and velocity at the freeze (position None: no hazard was tracked)."""
    msg = FreezeState(scene_id=scene_id, has_object=position_m is not None)
    if position_m is not None:
        msg.position = point(position_m)
        msg.velocity = Vector3(x=float(velocity_mps[0]), y=float(velocity_mps[1]), z=float(velocity_mps[2]))
    msg.header.stamp, msg.header.frame_id = stamp, graph.WORLD_FRAME
    return msg


def observation_from_msg(msg: ObservationWindow, ground_truth: dict | None = None):
    extra = json.loads(msg.observation_json or "{}")
    track = tuple(
        TrackSample(s["t_s"], tuple(s["position_m"]), tuple(s["velocity_mps"])) for s in extra.get("track", [])
    )
    return Observation(
        scene_id=msg.scene_id,
        frame_times_s=tuple(msg.frame_times_s),
        images=observation_frames(msg),
        track=track,
        object_look=extra.get("object_look", ""),
        room=extra.get("room", ""),
        observer_pose=Pose2D(*(float(v) for v in msg.observer_pose)),
        # a re-plan's truth of its moment, where the body sends one (the oracle's: nodes/body_loop.py)
        ground_truth=extra.get("ground_truth", ground_truth),
        # a re-plan's context (the closed loop, nodes/body_loop.py); the first decision's observation has none
        previous_plan=plan_from_dict(extra["previous_plan"]) if extra.get("previous_plan") else None,
        decision_index=int(msg.decision_index),
        robot_velocity_mps=tuple(extra["robot_velocity_mps"]) if "robot_velocity_mps" in extra else None,
    )


def object_at_freeze(msg: FreezeState) -> tuple[float, float, float] | None:
    return xyz(msg.position) if msg.has_object else None


LEGACY_FREEZE_KEY = "object_at_freeze_world"


def carries_legacy_freeze_point(msg: ObservationWindow) -> bool:
    """Whether the observation is from a bag recorded before FreezeState, when it carried the freeze point."""
    return LEGACY_FREEZE_KEY in json.loads(msg.observation_json or "{}")


def legacy_object_at_freeze(msg: ObservationWindow) -> tuple[float, float, float] | None:
    value = json.loads(msg.observation_json or "{}").get(LEGACY_FREEZE_KEY)
    return tuple(value) if value else None


def _nan_if_none(value: float | None) -> float:
    return math.nan if value is None else float(value)


def _none_if_nan(value: float) -> float | None:
    return value if math.isfinite(value) else None


def ground_truth_msg(spec, stamp) -> GroundTruth:
    """A labelled SceneSpec's ground truth as the message the scene generator publishes; ground_truth_dict
    reads it back into what `reacthuman.evaluation.episode.ground_truth_dict` gives in process."""
    gt = spec.ground_truth
    msg = GroundTruth(
        scene_id=spec.scene_id,
        correct_action=gt.correct_action,
        dangerous=gt.dangerous,
        has_impact_point=gt.impact_point is not None,
        time_to_floor_s=_nan_if_none(gt.time_to_floor_s),
        impact_time_s=_nan_if_none(gt.impact_time_s),
        speed_band=gt.speed_band,
        adversarial=gt.adversarial,
        has_body_reachable=gt.body_reachable is not None,
        body_reachable=bool(gt.body_reachable),
        has_intercept_point=gt.intercept_point is not None,
        intercept_time_s=_nan_if_none(gt.intercept_time_s),
        clear_step=[] if gt.clear_step is None else [float(v) for v in gt.clear_step],
    )
    if gt.impact_point is not None:
        msg.impact_point = point(gt.impact_point)
    if gt.intercept_point is not None:
        msg.intercept_point = point(gt.intercept_point)
    msg.header.stamp = stamp
    return msg


def ground_truth_dict(msg: GroundTruth) -> dict:
    return {
        "correct_action": msg.correct_action,
        "dangerous": msg.dangerous,
        "impact_point": tuple(xyz(msg.impact_point)) if msg.has_impact_point else None,
        "time_to_floor_s": _none_if_nan(msg.time_to_floor_s),
        "impact_time_s": _none_if_nan(msg.impact_time_s),
        "speed_band": msg.speed_band,
        "adversarial": msg.adversarial,
        "intercept_point": tuple(xyz(msg.intercept_point)) if msg.has_intercept_point else None,
        "intercept_time_s": _none_if_nan(msg.intercept_time_s),
        "clear_step": tuple(msg.clear_step) if len(msg.clear_step) else None,
    }


def decision_to_msg(decision, scene_id: str, msg: ReactionPlan) -> ReactionPlan:
    """A reacthuman.brain BrainDecision into a ReactionPlan message."""
    plan_to_msg(decision.plan, msg)
    msg.scene_id, msg.model, msg.raw_text = scene_id, decision.brain, decision.raw_text
    msg.modality = decision.modality or ""
    msg.parse_ok, msg.parse_error = decision.parse_ok, decision.parse_error or ""
    msg.api_error, msg.api_error_message = decision.api_error is not None, decision.api_error or ""
    msg.latency_s = float(decision.latency_s)
    msg.prompt_tokens, msg.completion_tokens = decision.prompt_tokens or 0, decision.completion_tokens or 0
    msg.truncated = decision.truncated
    return msg


def decision_from_msg(msg: ReactionPlan):
    """The brain's decision as the scorer receives it: `decision_to_msg` undone, so the scorer builds its reply
    with the core's `reply_of`, as the in-process episode does (zero tokens travel as 0 and come back None)."""

    return BrainDecision(
        brain=msg.model,
        plan=plan_from_msg(msg),
        raw_text=msg.raw_text,
        parse_ok=msg.parse_ok,
        parse_error=msg.parse_error or None,
        api_error=(msg.api_error_message or "api error") if msg.api_error else None,
        latency_s=msg.latency_s,
        prompt_tokens=msg.prompt_tokens or None,
        completion_tokens=msg.completion_tokens or None,
        modality=msg.modality,
        truncated=msg.truncated,
    )


def no_reply(reason: str):
    """The brain's answer when none arrived: scored as an unparseable decision (rule R1)."""

    return ModelReply(raw_text="", plan=None, parse_error=reason)


def executed_outcome_from_msg(msg: ExecutedOutcome):
    """What the scorer reads of the outcome, through the builder the in-process episode uses."""

    return ScoringOutcome.from_sim_outcome(
        {
            "caught": msg.caught,
            "struck": msg.struck,
            "fell": msg.fell,
            "strike_impulse_ns": msg.strike_impulse_ns,
            "final_left_hand_m": xyz(msg.final_left_hand),
            "final_right_hand_m": xyz(msg.final_right_hand),
            "min_hand_object_distance_m": msg.min_hand_object_distance_m,
        }
    )


def score_episode_msgs(
    spec, plan: ReactionPlan | None, freeze_xyz: tuple[float, float, float] | None, outcome: ExecutedOutcome, model: str
):
    """The decision record of one episode from its messages (the scorer node and `reacthuman rescore`);
    `freeze_xyz` is the hazard at the freeze (`object_at_freeze` of its FreezeState)."""

    reply = (
        reply_of(decision_from_msg(plan)) if plan is not None else no_reply("no plan arrived before the freeze timeout")
    )
    return score_episode(
        spec,
        plan.model if plan is not None else model,
        reply,
        freeze_xyz,
        executed_outcome_from_msg(outcome),
        outcome.deflected,
        (plan.modality or None) if plan is not None else None,
    )


def path_from_msg(msg) -> Track:
    """A HazardPath message (nodes/body_loop.py) as the labeller's Track, as scoring.closed_loop.path_track
    builds it in process: one sample per physics step from t = 0."""
    n, bodies = int(msg.steps), len(msg.names)

    def array(values) -> np.ndarray:
        width = len(values) // max(1, n * bodies)
        return np.asarray(values, dtype=np.float64).reshape(n, bodies, width)

    return Track(
        tuple(msg.names),
        np.arange(n, dtype=np.float64) * msg.dt_s,
        array(msg.pos_m),
        array(msg.quat_wxyz),
        array(msg.lin_vel_mps),
        array(msg.ang_vel_radps),
    )


def decision_points(freezes: dict, plans: dict, decisions: int) -> tuple[DecisionPoint, ...]:
    """The closed loop's decision points from the FreezeState and ReactionPlan of each decision index."""
    return tuple(
        DecisionPoint(
            k,
            float(freezes[k].t_s),
            Pose2D(*(float(v) for v in freezes[k].robot_pose)),
            plan_from_msg(plans[k]) if k in plans else None,
            xyz(freezes[k].position),
        )
        for k in range(decisions)
    )


def score_closed_episode_msgs(spec, plans: dict, freezes: dict, path, outcome: ExecutedOutcome, model: str):
    """A closed-loop episode's record from its messages (the scorer node and `reacthuman rescore`): the first
    decision scored as the open loop scores it, with scoring.closed_loop's fields over every decision point
    (`plans`, `freezes`: by decision index; `path`: the HazardPath, whose `decisions` says how many)."""
    record = score_episode_msgs(spec, plans.get(0), object_at_freeze(freezes[0]), outcome, model)
    points = decision_points(freezes, plans, int(path.decisions))
    record.extras.update(closed_loop_fields(judge(spec, path_from_msg(path), points), record))
    return record


def stamp_ns(stamp) -> int:
    return int(stamp.sec) * 1_000_000_000 + int(stamp.nanosec)


def robot_state_from_msgs(joints: JointState, base: BaseState, names: tuple[str, ...]):
    """The spine's RobotState from the body's JointState + BaseState of one control tick."""

    if tuple(joints.name) != names:
        index = {n: i for i, n in enumerate(joints.name)}
        missing = [n for n in names if n not in index]
        if missing:
            raise ValueError(f"joint states lack {', '.join(missing)}")
        order = [index[n] for n in names]
        q, dq = [joints.position[i] for i in order], [joints.velocity[i] for i in order]
    else:
        q, dq = list(joints.position), list(joints.velocity)
    o, w, p, v = base.pose.orientation, base.imu.angular_velocity, base.pose.position, base.twist.linear
    return RobotState(
        q=tuple(q),
        dq=tuple(dq),
        base_quat_wxyz=(o.w, o.x, o.y, o.z),
        base_ang_vel_body=(w.x, w.y, w.z),
        base_pos_world=(p.x, p.y, p.z),
        base_lin_vel_world=(v.x, v.y, v.z),
        stamp_s=stamp_ns(joints.header.stamp) / 1e9,
    )


def joint_command_to_msg(cmd, stamp) -> JointCommandMsg:
    msg = JointCommandMsg(
        mode=int(cmd.mode),
        name=list(cmd.names),
        q=list(cmd.q),
        dq=list(cmd.dq),
        kp=list(cmd.kp),
        kd=list(cmd.kd),
        tau=list(cmd.tau),
    )
    msg.header.stamp = stamp
    return msg


def joint_command_from_msg(msg: JointCommandMsg):
    """Raises ValueError for NaN/inf or mismatched lengths (the body records a controller fault)."""

    return JointCommand(
        names=tuple(msg.name),
        q=tuple(msg.q),
        dq=tuple(msg.dq),
        kp=tuple(msg.kp),
        kd=tuple(msg.kd),
        tau=tuple(msg.tau),
        mode=Mode(msg.mode),
        stamp_s=stamp_ns(msg.header.stamp) / 1e9,
    )
