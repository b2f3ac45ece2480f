"""The slot for policies that act without a freeze (VLA-style): see `base` for the contract,
`image_servo` for the reference policy, `lerobot_adapter` for policies written to LeRobot's interface and
`loading` for `--models policy:<module>:<Class>` entries."""

from reacthuman.policy.base import (
    Policy,
    PolicyAction,
    PolicyConfig,
    PolicyObservation,
    Proprioception,
    action_to_plan,
    default_config,
    make_policy,
    register_policy,
    registered_policies,
)

__all__ = [
    "Policy",
    "PolicyAction",
    "PolicyConfig",
    "PolicyObservation",
    "Proprioception",
    "action_to_plan",
    "default_config",
    "make_policy",
    "register_policy",
    "registered_policies",
]

from reacthuman.policy import image_servo  # noqa: E402,F401  (registers the reference policy)
