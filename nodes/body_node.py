"""body: the G1 and the announced scene in one physics engine (reacthuman.sim_bridge.Body). Simulates the
observation window in lockstep with the spine, publishes the window, freezes (sim time holds) until a plan
for that scene arrives or the timeout passes, executes, and publishes the outcome.

A scene the body refuses, or a lockstep the spine stopped answering, ends the episode at once with the reason
on graph.EPISODE_FAULT (the episode manager fails the episode and the eval retries it); a body that crashes
says so there too, then exits so that the graph is restarted.

In a policy's graph (`policy_hz` > 0) the body renders the policy's views at its ticks (nodes/body_policy.py)
and offers itself the scene's plan at the freeze: a policy acts without a frozen decision."""

from __future__ import annotations

import math
import os
import queue
import threading
import time
import traceback
from dataclasses import replace
from pathlib import Path

from rclpy.executors import SingleThreadedExecutor
from reacthuman_msgs.msg import ExecutedOutcome, ObservationWindow, ViewSequence

from reacthuman import ros_contract as graph
from reacthuman.evaluation.memory_log import release_memory, tune_allocator
from reacthuman.evaluation.episode import Window, simulate_window
from reacthuman.spine.spine import default_config as spine_config
from reacthuman.nodes import conversions as conv
from reacthuman.evaluation.closed_loop import LoopRecorder, default_config as loop_config
from reacthuman.nodes.body_lockstep import LockstepLost, LockstepSource, sim_stamp
from reacthuman.nodes.body_loop import ClosedLoop, camera_info
from reacthuman.nodes.body_policy import PolicyFrames
from reacthuman.policy.graph_contract import parse_views
from reacthuman.nodes.runtime import FAULT_EXIT_DELAY_S, ContractNode, one_of, positive, run
from reacthuman.scenes.spec import SceneSpec, SpecError
from reacthuman.sim_bridge.body import Body, graph_config
from reacthuman.sim_bridge.freeze import GateState, Verdict


class BodyNode(ContractNode):
    def __init__(self) -> None:
        self._scenes: "queue.Queue" = queue.Queue()
        self.plans: "queue.Queue" = queue.Queue()
        self._started_ns = time.time_ns()
        super().__init__(
            "body",
            {
                graph.SCENE: self._on_scene,
                graph.PLAN: self.plans.put,
                graph.JOINT_COMMAND: lambda m: self.lockstep.on_command(m),
            },
        )
        d = self.declare
        g = graph_config()
        engine = d("engine", g.engine, "physics engine: genesis or mujoco", one_of("genesis", "mujoco"))
        body = self.declare_config(
            g,
            {
                "observation_window_s": "seconds simulated from t0 before time freezes",
                "frame_width_px": "brain-view frame width (the scenes' cameras render 1280x720 at most)",
                "frame_height_px": "brain-view frame height",
                "frame_count": "frames per view over the window",
                "horizon_s": "execution ends at rest or this many sim seconds after the freeze",
            },
        )
        freeze = self.declare_config(g.freeze, {"plan_timeout_s": "wall seconds to wait for a plan while frozen"})
        decimation = self.declare_config(
            spine_config(),
            {
                "policy_decimation": "physics steps per control tick (must match the spine's policy_decimation)",
            },
            names={"policy_decimation": "control_decimation"},
        ).policy_decimation
        self.video_dir = d("video_dir", "", "write execution videos here (third-person and egocentric); empty: none")
        lockstep_timeout_s = d(
            "lockstep_timeout_s",
            60.0,
            "wall seconds a control tick waits for the spine's command "
            "(resent every 2 s meanwhile) before the episode fails",
            positive,
        )
        self.body = Body(
            replace(body, engine=engine, freeze=freeze, video=replace(g.video, enabled=bool(self.video_dir)))
        )
        self.lockstep = LockstepSource(self, self.body, decimation, reply_timeout_s=lockstep_timeout_s)
        policy_hz = d("policy_hz", 0.0, "a policy's graph: render the policy's views at its rate; 0: a brain's graph")
        views = d("policy_views", "egocentric", "a policy's graph: the views it asks for (comma-separated)")
        self.policy = PolicyFrames(self, self.lockstep, policy_hz, parse_views(views)) if policy_hz > 0 else None
        self.loop = d(
            "loop", "open", "open: one freeze, one plan (the paper's); closed: re-plans", one_of("open", "closed")
        )
        self.loop_config = self.declare_config(
            loop_config(),
            {
                "replan_interval_s": "closed loop: simulated seconds between decisions",
                "max_replans": "closed loop: decisions after the first, at most",
            },
        )
        self.replan_images = d(
            "replan_images",
            True,
            "closed loop: render the views of each re-plan's window (false for brains that never look: the "
            "reference brains; rendering is most of a re-plan's cost)",
        )
        self.replan_truth = d(
            "replan_truth",
            False,
            "closed loop: add to each re-plan's observation the truth of its moment (the labeller's rule on the "
            "hazard's free run, evaluation.remaining_truth) for a brain that reads the truth: the oracle",
        )
        if self.loop == "closed" and self.policy is not None:
            raise ValueError("loop=closed is for brains: a policy acts all along, without a freeze")
        tune_allocator()  # frames and observations get their own mappings, returned when freed: see memory_log
        threading.Thread(target=self._episodes, daemon=True).start()

    def _on_scene(self, msg, info) -> None:
        # The announcement is latched: a body respawned between episodes (the eval restarts it when Genesis
        # cannot free its scenes) is handed the last episode's scene on discovery; that one is not for it.
        if info["source_timestamp"] < self._started_ns:
            self.get_logger().info(f"ignoring {msg.scene_id}: announced before this body started (a respawned body)")
            return
        self._scenes.put(msg)

    def _episodes(self) -> None:
        # Genesis' import and init (about 4 s) overlap the rest of the graph starting and the first goal's way
        # here; a scene announced meanwhile waits in the queue.
        started_s = time.monotonic()
        try:
            self.body.prepare()
        except Exception:
            self.get_logger().fatal(f"the physics engine did not start:\n{traceback.format_exc()}")
            os._exit(70)
        self.get_logger().info(f"physics engine ready in {time.monotonic() - started_s:.1f} s")
        while True:
            msg = self._scenes.get()
            try:
                self._run(SceneSpec.from_json(msg.spec_json))
            except SpecError as exc:
                self.report_fault(msg.scene_id, f"scene refused: {exc}")
            except ValueError as exc:
                self.report_fault(msg.scene_id, f"episode abandoned: {exc}")
            except LockstepLost as exc:
                self.report_fault(msg.scene_id, f"lockstep lost: {exc}")
            except Exception as exc:  # a broken body must not sit silent: say why, then die so the graph is restarted
                self.get_logger().fatal(f"episode {msg.scene_id} crashed:\n{traceback.format_exc()}")
                self.report_fault(msg.scene_id, f"crashed: {type(exc).__name__}: {exc}")
                time.sleep(FAULT_EXIT_DELAY_S)
                os._exit(70)

    def _run(self, spec: SceneSpec) -> None:
        body, log = self.body, self.get_logger()
        body.load(spec)
        source = self.lockstep
        if self.policy is not None:
            self.policy.start(spec)
            source = self.policy
        self.lockstep.phase, self.lockstep.decision = graph.StatePhase.WINDOW, 0
        # the closed loop's recorder hooks every step from the first (the path and the later windows)
        recorder = LoopRecorder(body, spec, self.loop_config, self.replan_images) if self.loop == "closed" else None
        self._publish_window(spec, simulate_window(body, source))
        if self.policy is not None:  # no freeze: the policy acts all along (its executed plan comes at the end)
            while not self.plans.empty():
                self.plans.get_nowait()
            log.info(f"plan for {spec.scene_id!r}: {body.offer_plan(spec.scene_id).value} (a policy)")
        first = None  # the accepted plan (the closed loop's first decision)
        while body.poll() is GateState.WAITING:  # sim time holds here: nothing steps, /clock stays
            try:
                plan = self.plans.get(timeout=0.05)
            except queue.Empty:
                continue
            verdict = body.offer_plan(plan.scene_id)
            log.info(f"plan for {plan.scene_id!r}: {verdict.value}")
            first = plan if verdict is Verdict.ACCEPTED else None
        self.lockstep.phase = graph.StatePhase.execution(plan_accepted=body.gate.record.plan_received)
        if recorder is None:
            outcome = body.execute(source)
        else:
            outcome = ClosedLoop(self, spec, recorder, self.loop_config).execute(source, first)
        if self.video_dir:
            body.save_videos(Path(self.video_dir) / spec.scene_id)
        stamp = sim_stamp(body.sim_time_s)
        # Free the scene before the outcome goes out, not at the next load: the eval samples every node's
        # memory once the episode is scored, and the body's should then say what the episodes left behind,
        # not how large the last scene was or how far its teardown had got (1.3-1.9 GiB before).
        body.close()
        release_memory()  # the episode's frames and messages were freed into the allocator's arenas
        self.pub[graph.OUTCOME].publish(outcome_msg(outcome, stamp))
        log.info(f"{spec.scene_id}: caught={outcome.caught} struck={outcome.struck} fell={outcome.fell}")

    def _publish_window(self, spec: SceneSpec, window: Window) -> None:
        stamp = sim_stamp(self.body.sim_time_s)
        msg = ObservationWindow(
            scene_id=spec.scene_id,
            t0_s=spec.t0_s,
            frame_times_s=[f.t_s for f in window.frames],
            observer_pose=[spec.observer.x_m, spec.observer.y_m, spec.observer.yaw_rad],
        )
        msg.header.stamp = stamp
        cams = {c.name: c for c in spec.cameras}
        for name in window.frames[0].images if window.frames else ():
            images = [conv.array_to_image(f.images[name], sim_stamp(f.sim_time_s), name) for f in window.frames]
            for image in images:
                self.pub[graph.image_topic(name)].publish(image)
            info = camera_info(images[0], cams[name].fov_deg if name in cams else 60.0, stamp, name)
            self.pub[graph.camera_info_topic(name)].publish(info)
            msg.views.append(ViewSequence(view_name=name, camera_info=info, frames=images))
        obs = window.observation(with_images=False)
        msg.observation_json = conv.observation_json(obs.track, obs.object_look, obs.room)
        self.pub[graph.OBSERVATION].publish(msg)
        freeze = conv.freeze_state_msg(spec.scene_id, stamp, window.freeze_position_m, window.freeze_velocity_mps)
        # the first decision point: the scene's observer at the window's last frame time (decision_index 0)
        freeze.t_s, freeze.robot_pose = obs.freeze_time_s, [spec.observer.x_m, spec.observer.y_m, spec.observer.yaw_rad]
        self.pub[graph.FREEZE_STATE].publish(freeze)


def outcome_msg(o, stamp) -> ExecutedOutcome:
    nan = math.nan
    msg = ExecutedOutcome(
        scene_id=o.scene_id,
        plan_received=o.plan_received,
        plan_late=o.plan_late,
        controller_fault=o.controller_fault is not None,
        caught=o.caught,
        deflected=o.deflected,
        hand_contact=o.hand_contact,
        catch_time_s=float(o.catch_time_s) if o.catch_time_s is not None else nan,
        struck=o.struck,
        strike_impulse_ns=float(o.strike_impulse_ns),
        strike_link=o.strike_link or "",
        min_hand_object_distance_m=float(o.min_hand_object_distance_m),
        min_distance_time_s=float(o.min_distance_time_s),
        clearance_from_impact_m=float(o.clearance_from_impact_m) if o.clearance_from_impact_m is not None else nan,
        fell=o.fell,
        final_left_hand=conv.point(o.final_left_hand_m),
        final_right_hand=conv.point(o.final_right_hand_m),
        sim_duration_s=float(o.end_time_s),
    )
    msg.header.stamp = stamp
    return msg


def main(args: list[str] | None = None) -> int:
    # the Python executor: the announcement's callback reads the message info (see runtime.default_executor)
    return run(BodyNode, args, executor_factory=SingleThreadedExecutor)


if __name__ == "__main__":
    raise SystemExit(main())
