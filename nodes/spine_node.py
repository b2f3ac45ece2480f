"""spine: turns the reaction plan into joint commands (walking policy for the legs, IK for the arms).

Lockstep with the body: each control tick the body publishes JointState and BaseState with the same sim
stamp; the spine answers with one JointCommand carrying that stamp. The BaseState of that stamp says the
phase (reacthuman.graph.StatePhase): in execution of an accepted plan the spine answers only once it holds
that scene's plan. Same inputs, same commands, whatever the transport's latency, so episodes through the
graph are bit-for-bit reproducible. A state that does not say its phase is not answered (the body's
lockstep then reports the silence; on a robot the command watchdog damps)."""

from __future__ import annotations

from geometry_msgs.msg import Twist, Vector3

from reacthuman import graph
from reacthuman.control.spine import Spine, default_config
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.runtime import ContractNode, run
from reacthuman.g1_assets import G1_JOINT_NAMES


class SpineNode(ContractNode):
    def __init__(self) -> None:
        self._joints = self._base = None
        super().__init__("spine", {graph.SCENE: self._on_scene, graph.PLAN: self._on_plan,
                                   graph.JOINT_STATES: self._on_joints, graph.BASE_STATE: self._on_base})
        self.spine = Spine(self.declare_config(default_config(), {
            "state_timeout_s": "robot-state silence (sim s) that drops to damping",
            "policy_decimation": "physics steps per control tick (240 Hz physics)",
            "base_position_feedback": "walk to the planned displacement using the base's world position (off on a "
                                      "robot without odometry: the plan's command is passed through)",
        }))
        self.scene_id, self.plan_scene = "", ""

    def _on_scene(self, msg) -> None:
        self.scene_id, self.plan_scene = msg.scene_id, ""
        self.spine.reset(None)  # stand until the plan arrives

    def _on_plan(self, msg) -> None:
        if msg.scene_id != self.scene_id:
            self.get_logger().warning(f"ignoring a plan for scene {msg.scene_id!r} (current: {self.scene_id!r})")
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
        if phase.waits_for_plan and self.plan_scene != self.scene_id:
            return  # execution follows the plan: answer once it is here (it is on its way from the brain)
        self._joints = self._base = None
        state = conv.robot_state_from_msgs(joints, base, G1_JOINT_NAMES)
        command = self.spine.command(state.stamp_s, state)
        self.pub[graph.JOINT_COMMAND].publish(conv.joint_command_to_msg(command, joints.header.stamp))


def main(args: list[str] | None = None) -> int:
    return run(SpineNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
