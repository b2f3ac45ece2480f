"""The body's side of a policy's graph (reacthuman.policy.graph_contract): at every policy tick it renders the
views the policy asks for and publishes them, stamped with that tick's sim time, before the lockstep
publishes the robot's state of the same tick (the policy's proprioception). The spine answers the ticks
after it only once the policy's command is in, so the body needs no wait of its own."""

from __future__ import annotations

from reacthuman.nodes import conversions as conv
from reacthuman.nodes.body_lockstep import LockstepSource, sim_stamp
from reacthuman.nodes.runtime import msg_type, qos_for
from reacthuman.policy.graph_contract import POLICY_IMAGES, policy_image_topic
from reacthuman.policy.schedule import PolicySchedule, policy_schedule


class PolicyFrames:
    """A command source: the lockstep, with the policy's frames published at its ticks."""

    def __init__(self, node, lockstep: LockstepSource, policy_hz: float, views: tuple[str, ...]) -> None:
        self.node, self.lockstep, self.policy_hz, self.views = node, lockstep, policy_hz, views
        ty = msg_type(next(iter(POLICY_IMAGES.values())))
        self.pub = {v: node.create_publisher(ty, policy_image_topic(v), qos_for(policy_image_topic(v))) for v in views}
        self.schedule: PolicySchedule | None = None

    def start(self, spec) -> None:
        """A new scene: its policy ticks."""
        self.schedule = policy_schedule(spec.t0_s, spec.dt_s, self.lockstep.decimation, self.policy_hz)

    def __call__(self, sim_time_s: float, state):
        step = round(sim_time_s / self.schedule.dt_s)
        if self.schedule.is_tick(step):
            stamp = sim_stamp(sim_time_s)
            engine = self.lockstep.body.engine
            for view in self.views:
                self.pub[view].publish(conv.array_to_image(engine.render(view), stamp, view))
        return self.lockstep(sim_time_s, state)
