"""The body's side of the closed loop through the graph (`reacthuman eval --loop closed`): after the first plan
the body executes, and at each re-plan's freeze step (reacthuman.evaluation.closed_loop.LoopRecorder, the one the
in-process loop uses) simulated time holds while it publishes the re-plan's observation and decision point
(ObservationWindow and FreezeState with that decision's index) and waits for the brain's plan for that index.
The ticks after it say the decision in BaseState.decision, so the spine takes the new plan over before it
answers them: the same step at which the in-process loop calls `Spine.take_over`. At the end the hazard's
recorded path goes out (HazardPath, with the number of decisions held) before the outcome, for the scorer and
the bag.

A re-plan the brain does not answer within the freeze's plan timeout ends the re-planning (the running plan
goes on, the decision is not counted): the in-process loop has no timeout, so an episode that needs one is
not comparable anyway, and waiting for it would hold the episode's wall time hostage."""

from __future__ import annotations

import json
import math
import queue
import time

import numpy as np
from reacthuman_msgs.msg import HazardPath, ObservationWindow, ViewSequence
from sensor_msgs.msg import CameraInfo

from reacthuman import ros_contract as graph
from reacthuman.brain.schema import plan_to_dict
from reacthuman.evaluation.closed_loop import LoopConfig, LoopRecorder, _run_until
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.body_lockstep import sim_stamp
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim_bridge.freeze import Phase


class ClosedLoop:
    """One closed-loop episode's re-plans on a loaded body whose first window has been simulated."""

    def __init__(self, node, spec: SceneSpec, recorder: LoopRecorder, config: LoopConfig) -> None:
        self.node, self.spec, self.recorder, self.config = node, spec, recorder, config
        self.decisions = 1

    def execute(self, source, first_plan) -> object:
        """Execute to the end with re-plans (`first_plan`: the accepted ReactionPlan; None: no re-plans, as no
        plan ran), publish the path, and return the body's outcome."""
        body, log = self.node.body, self.node.get_logger()
        body.begin_execution(source)
        running = conv.decision_from_msg(first_plan) if first_plan is not None else None
        for k in range(1, self.config.max_replans + 1 if running is not None else 1):
            if not _run_until(body, self.recorder.freeze_step(k)) or self.recorder.hazard_at_rest():
                break
            obs, pose = self.recorder.observation(k, running, remaining=self.node.replan_truth)
            self._publish(k, obs, pose)
            plan = self._await_plan(k)
            if plan is None:
                log.warning(f"{self.spec.scene_id}: no re-plan {k} within the plan timeout; the running plan goes on")
                break
            self.decisions += 1
            if conv.plan_from_msg(plan) is not None:
                running = conv.decision_from_msg(plan)
            self.node.lockstep.decision = k  # the ticks from here on execute decision k's plan
        while body.phase is Phase.EXECUTING and body.execute_step():
            pass
        outcome = body.outcome()
        self.node.pub[graph.HAZARD_PATH].publish(
            path_msg(
                self.spec.scene_id, self.recorder.path(), self.spec.dt_s, self.decisions, sim_stamp(body.sim_time_s)
            )
        )
        return outcome

    def _publish(self, k: int, obs, pose) -> None:
        body, spec = self.node.body, self.spec
        stamp = sim_stamp(body.sim_time_s)
        msg = ObservationWindow(
            scene_id=spec.scene_id,
            t0_s=spec.t0_s,
            frame_times_s=list(obs.frame_times_s),
            observer_pose=[pose.x_m, pose.y_m, pose.yaw_rad],
            decision_index=k,
        )
        msg.header.stamp = stamp
        cams = {c.name: c for c in spec.cameras}
        for name, frames in obs.images.items():
            images = [conv.array_to_image(f, stamp, name) for f in frames]
            info = camera_info(images[0], cams[name].fov_deg if name in cams else 60.0, stamp, name)
            msg.views.append(ViewSequence(view_name=name, camera_info=info, frames=images))
        extra = json.loads(conv.observation_json(obs.track, obs.object_look, obs.room))
        extra["robot_velocity_mps"] = list(obs.robot_velocity_mps)
        extra["previous_plan"] = plan_to_dict(obs.previous_plan) if obs.previous_plan is not None else None
        if self.node.replan_truth:  # the oracle's truth of this moment, as the in-process loop shows it
            extra["ground_truth"] = obs.ground_truth
        msg.observation_json = json.dumps(extra)
        self.node.pub[graph.OBSERVATION].publish(msg)
        position, velocity = self.recorder.samples[self.recorder.freeze_step(k)]
        freeze = conv.freeze_state_msg(spec.scene_id, stamp, position, velocity)
        freeze.decision_index, freeze.t_s = k, obs.freeze_time_s
        freeze.robot_pose = [pose.x_m, pose.y_m, pose.yaw_rad]
        self.node.pub[graph.FREEZE_STATE].publish(freeze)

    def _await_plan(self, k: int):
        """The brain's plan for decision k, or None past the freeze's plan timeout (sim time holds meanwhile)."""
        deadline = time.monotonic() + self.node.body.config.freeze.plan_timeout_s
        while time.monotonic() < deadline:
            try:
                plan = self.node.plans.get(timeout=0.05)
            except queue.Empty:
                continue
            if plan.scene_id == self.spec.scene_id and plan.decision_index == k:
                return plan
            self.node.get_logger().warning(
                f"ignoring a plan for {plan.scene_id!r} decision {plan.decision_index} (waiting for decision {k})"
            )
        return None


def camera_info(image, fov_deg: float, stamp, frame_id: str) -> CameraInfo:
    """Pinhole intrinsics from the vertical field of view (MuJoCo/Genesis cameras' convention)."""
    f = image.height / (2.0 * math.tan(math.radians(fov_deg) / 2.0))
    cx, cy = image.width / 2.0, image.height / 2.0
    info = CameraInfo(
        width=image.width,
        height=image.height,
        distortion_model="plumb_bob",
        k=[f, 0.0, cx, 0.0, f, cy, 0.0, 0.0, 1.0],
        p=[f, 0.0, cx, 0.0, 0.0, f, cy, 0.0, 0.0, 0.0, 1.0, 0.0],
    )
    info.d = [0.0] * 5
    info.r = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    info.header.stamp, info.header.frame_id = stamp, frame_id
    return info


def path_msg(scene_id: str, path, dt_s: float, decisions: int, stamp) -> HazardPath:
    """The recorded path (scoring.closed_loop.path_track's Track, one sample per step of `dt_s` from t = 0) as a
    message: arrays flattened step-major."""
    msg = HazardPath(
        scene_id=scene_id,
        names=list(path.names),
        dt_s=float(dt_s),
        steps=len(path.times_s),
        decisions=decisions,
    )
    msg.pos_m = np.ascontiguousarray(path.pos, dtype=np.float64).ravel().tolist()
    msg.quat_wxyz = np.ascontiguousarray(path.quat, dtype=np.float64).ravel().tolist()
    msg.lin_vel_mps = np.ascontiguousarray(path.vel, dtype=np.float64).ravel().tolist()
    msg.ang_vel_radps = np.ascontiguousarray(path.ang_vel, dtype=np.float64).ravel().tolist()
    msg.header.stamp, msg.header.frame_id = stamp, graph.WORLD_FRAME
    return msg
