"""spine: turns the reaction plan into joint commands (walking policy for the legs, IK for the arms).

Lockstep with the body: each control tick the body publishes JointState and BaseState with the same sim
stamp; the spine answers with one JointCommand carrying that stamp. The BaseState of that stamp says the
phase (reacthuman.ros_contract.StatePhase): in execution of an accepted plan the spine answers only once it holds
that scene's plan. Same inputs, same commands, whatever the transport's latency, so episodes through the
graph are bit-for-bit reproducible. A state that does not say its phase is not answered (the body's
lockstep then reports the silence; on a robot the command watchdog damps).

The body sends a tick again when its answer is late (a state or a command lost to DDS discovery): a tick the
spine has answered already gets the same command again, never a second call of the controller, whose state
(the policy's last action, its gait phase) would otherwise advance twice. A controller that raises gives up
on the episode and says so (graph.EPISODE_FAULT).

In a policy's graph (`policy_hz` > 0, reacthuman.policy.graph_contract) the plans are the policy's commands,
one per policy tick: the spine sets each when it takes effect and answers a tick only once it holds the
command of every policy tick before it (reacthuman.policy.schedule), so the transport's timing changes wall
time only.

In the closed loop (`--loop closed`) a re-plan's ReactionPlan carries its decision index, and the ticks the
body executes under it say that index (BaseState.decision): the spine answers such a tick only once it holds
that re-plan, and takes it over (Spine.take_over, from where the hands are) right before the tick's command,
where the in-process loop takes it over."""

from __future__ import annotations

import threading

from geometry_msgs.msg import Twist, Vector3

from reacthuman import ros_contract as graph
from reacthuman.spine.spine import Spine, default_config
from reacthuman.evaluation.fault_injection import injected
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.runtime import ContractNode, msg_type, qos_for, run
from reacthuman.policy.graph_contract import POLICY_COMMAND, POLICY_NODE
from reacthuman.policy.schedule import CommandQueue, policy_schedule
from reacthuman.scenes.spec import SceneSpec
from reacthuman.spine.g1_assets import G1_JOINT_NAMES


class SpineNode(ContractNode):
    def __init__(self) -> None:
        self._joints = self._base = None
        super().__init__(
            "spine",
            {
                graph.SCENE: self._on_scene,
                graph.PLAN: self._on_plan,
                graph.JOINT_STATES: self._on_joints,
                graph.BASE_STATE: self._on_base,
            },
        )
        self.spine = Spine(
            self.declare_config(
                default_config(),
                {
                    "state_timeout_s": "robot-state silence (sim s) that drops to damping",
                    "policy_decimation": "physics steps per control tick (240 Hz physics)",
                    "base_position_feedback": "walk to the planned displacement using the base's world position (off on a "
                    "robot without odometry: the plan's command is passed through)",
                },
            )
        )
        self.scene_id, self.plan_scene = "", ""
        # the closed loop: re-plans by decision index until their tick (BaseState.decision) takes them over
        self._replans: dict[int, object] = {}
        self.decision = 0  # the decision whose plan the spine holds
        self._answered: tuple[int, object] | None = None  # (stamp ns, JointCommand) of the last tick answered
        self._ticks = 0  # ticks answered in this scene
        self._inject = injected("spine")  # off unless a fault campaign sets it (reacthuman.evaluation.fault_injection)
        self.policy_hz = self.declare(
            "policy_hz",
            0.0,
            "a policy's graph: the policy's rate (its commands come on "
            f"{POLICY_COMMAND}); 0: a brain's graph (one plan per episode)",
        )
        self.commands: CommandQueue | None = None  # the policy's commands of the current scene
        if self.policy_hz > 0:
            ty = POLICY_NODE.publishes[POLICY_COMMAND]
            self.subs.append(
                self.create_subscription(msg_type(ty), POLICY_COMMAND, self._on_command, qos_for(POLICY_COMMAND))
            )

    def _on_scene(self, msg) -> None:
        self.scene_id, self.plan_scene = msg.scene_id, ""
        self._answered, self._ticks = None, 0
        self._replans, self.decision = {}, 0
        self.spine.reset(None)  # stand until the plan arrives
        if self.policy_hz > 0:
            spec = SceneSpec.from_json(msg.spec_json)
            self.commands = CommandQueue(
                policy_schedule(spec.t0_s, spec.dt_s, self.spine.config.policy_decimation, self.policy_hz)
            )

    def _on_command(self, msg) -> None:
        if self.commands is None or msg.scene_id != self.scene_id:
            return
        plan = conv.plan_from_msg(msg)
        step = round(conv.stamp_ns(msg.header.stamp) * 1e-9 / self.commands.schedule.dt_s)
        try:
            self.commands.add(step, msg.latency_s, plan)
        except ValueError as exc:
            self.report_fault(self.scene_id, f"policy command refused: {exc}")
            return
        self._tick()  # a state may be waiting for this command

    def _on_plan(self, msg) -> None:
        if self.policy_hz > 0:
            return  # a policy's plan is the one its body executed, published for the scorer once it is over
        if msg.scene_id != self.scene_id:
            self.get_logger().warning(f"ignoring a plan for scene {msg.scene_id!r} (current: {self.scene_id!r})")
            return
        if msg.decision_index > 0:  # a re-plan: taken over at the first tick that says its decision
            self._replans[msg.decision_index] = msg
            self._tick()
            return
        self.plan_scene = msg.scene_id
        try:
            plan = conv.plan_from_msg(msg)
        except ValueError as exc:  # NaN/inf or malformed: a controller fault, the robot keeps standing
            self.spine.reject_plan(str(exc))
            plan = None
        if plan is not None and self.spine.set_plan(plan):
            vx, vy, wz = plan.walking_cmd
            self.pub[graph.CMD_VEL].publish(Twist(linear=Vector3(x=vx, y=vy), angular=Vector3(z=wz)))
        elif self.spine.status().fault:
            self.get_logger().error(f"plan rejected: {self.spine.status().fault}")
        self._tick()  # a state may be waiting for this plan

    def _on_joints(self, msg) -> None:
        self._joints = msg
        self._tick()

    def _on_base(self, msg) -> None:
        self._base = msg
        self._tick()

    def _tick(self) -> None:
        joints, base = self._joints, self._base
        if joints is None or base is None or joints.header.stamp != base.header.stamp:
            return  # a tick is the pair of one stamp, so the phase below is this tick's, never a neighbour's
        try:
            phase = graph.StatePhase.parse(base.phase)
        except ValueError as exc:
            self._joints = self._base = None
            self.get_logger().error(f"robot state not answered: {exc}", throttle_duration_sec=5.0)
            return
        stamp_ns = conv.stamp_ns(joints.header.stamp)
        if self._answered is not None and self._answered[0] == stamp_ns:
            self._joints = self._base = None
            self.pub[graph.JOINT_COMMAND].publish(self._answered[1])  # the tick sent again: the same answer
            return
        if self.commands is not None:
            step = round(stamp_ns * 1e-9 / self.commands.schedule.dt_s)
            if not self.commands.ready(step):
                return  # a policy command this tick depends on is on its way
            for plan in self.commands.due(step):
                self.spine.set_plan(plan)
        elif phase.waits_for_plan and self.plan_scene != self.scene_id:
            return  # execution follows the plan: answer once it is here (it is on its way from the brain)
        elif base.decision > self.decision and not self._take_over(base.decision):
            return  # a re-plan this tick executes is on its way from the brain
        self._joints = self._base = None
        self._ticks += 1
        try:
            if self._ticks == self._inject.get("crash_at_tick"):
                raise RuntimeError(f"injected controller crash at tick {self._ticks} (REACTHUMAN_INJECT)")
            state = conv.robot_state_from_msgs(joints, base, G1_JOINT_NAMES)
            command = self.spine.command(state.stamp_s, state)
        except Exception as exc:  # noqa: BLE001 (any controller failure ends the episode, said at once)
            self.report_fault(
                self.scene_id, f"the controller raised at t={stamp_ns / 1e9:.3f} s: {type(exc).__name__}: {exc}"
            )
            return
        msg = conv.joint_command_to_msg(command, joints.header.stamp)
        self._answered = (stamp_ns, msg)
        self._send(msg)

    def _take_over(self, decision: int) -> bool:
        """The closed loop: take over every re-plan up to `decision`, in order, once all are here (the body asks
        for one at a time, so there is one); False while one is missing. As in process (Spine.take_over), a plan
        that did not parse leaves the running one going."""
        wanted = range(self.decision + 1, decision + 1)
        if any(k not in self._replans for k in wanted):
            return False
        for k in wanted:
            try:
                plan = conv.plan_from_msg(self._replans.pop(k))
            except ValueError as exc:  # NaN/inf or malformed: a controller fault, as for a first plan
                self.spine.reject_plan(str(exc))
                plan = None
            if plan is not None and self.spine.take_over(plan):
                vx, vy, wz = plan.walking_cmd
                self.pub[graph.CMD_VEL].publish(Twist(linear=Vector3(x=vx, y=vy), angular=Vector3(z=wz)))
            self.decision = k
        return True

    def _send(self, msg) -> None:
        if self._ticks <= self._inject.get("drop_commands", 0):
            return  # injected: a command lost on its way to the body
        if self._ticks == 1 and self._inject.get("delay_command_s"):
            threading.Timer(self._inject["delay_command_s"], self.pub[graph.JOINT_COMMAND].publish, (msg,)).start()
            return
        self.pub[graph.JOINT_COMMAND].publish(msg)


def main(args: list[str] | None = None) -> int:
    return run(SpineNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
