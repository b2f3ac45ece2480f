"""Policies named on the command line: a registered name (`image_servo`) or `policy:<module>:<Class>`,
a class the user wrote (a `Policy` subclass, or any class with LeRobot's `select_action`)."""

from __future__ import annotations

import importlib

from reacthuman.brain import reference_brains
from reacthuman.core.model_spec import ModelsOption
from reacthuman.policy.base import Policy, PolicyConfig, make_policy, registered_policies
from reacthuman.policy.lerobot_adapter import LeRobotPolicy

ENTRY_PREFIX = "policy:"


class _References(dict):
    """The reference brains and registered policies, and any `policy:<module>:<Class>` entry (a user's policy:
    loaded, so checked, when its graph's launch arguments are taken)."""

    def __contains__(self, entry: object) -> bool:
        return super().__contains__(entry) or (isinstance(entry, str) and entry.startswith(ENTRY_PREFIX))


def models_option() -> ModelsOption:
    """ReactHuman's `--models` (eval, decide, loop): the suite's model grammar, with the reference brains and the
    policy slot's policies (`image_servo`, `policy:<module>:<Class>`: docs/policies.md) as its references."""
    return ModelsOption(_References(reference_brains() | registered_policies()))


def is_policy_entry(entry: str) -> bool:
    return entry.startswith(ENTRY_PREFIX) or entry in registered_policies()


def load_policy(entry: str, config: PolicyConfig | None = None) -> Policy:
    """The policy an entry names; a one-line error says what was wrong with the entry."""
    if not entry.startswith(ENTRY_PREFIX):
        policy = make_policy(entry)
        return policy if config is None else type(policy)(config)
    target = entry[len(ENTRY_PREFIX) :]
    module_name, sep, class_name = target.partition(":")
    if not sep or not module_name or not class_name:
        raise ValueError(f"policy entry {entry!r} must be policy:<module>:<Class>")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"policy entry {entry!r}: cannot import module {module_name!r}: {exc}") from exc
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise ValueError(f"policy entry {entry!r}: module {module_name!r} has no class {class_name!r}")
    if issubclass(cls, Policy):
        policy = cls(config)
        policy.name = entry  # rows and folders name the policy as the command line did
        return policy
    if callable(getattr(cls, "select_action", None)):
        return LeRobotPolicy(cls(), config, name=entry)
    raise ValueError(
        f"policy entry {entry!r}: {class_name} is neither a reacthuman Policy nor has LeRobot's select_action(batch)"
    )
