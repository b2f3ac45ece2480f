"""The reaction plan a brain commits while time is frozen: its types and frame (`plan.py`), its exact path
(`plan_path.py`, what is scored and drawn) and the rule that says which action it performs (`classifier.py`, tuned in
config/classifier.yaml).

Deprecated import paths: `reacthuman.plan` was a module; its names (`from reacthuman.plan import X`) are
`reacthuman.plan.plan`'s now, reached from here with a deprecation warning for one release."""

import importlib
import warnings

DEPRECATED_NAMES = frozenset(
    {
        "Action",
        "Keyframe",
        "Plan",
        "Pose2D",
        "REST_LEFT_HAND_M",
        "REST_RIGHT_HAND_M",
        "planned_hand_path_robot",
    }
)
ALIAS_OF = "reacthuman.plan.plan"


def __getattr__(name: str) -> object:
    if name not in DEPRECATED_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"{__name__}.{name} is a deprecated import path: import it from {ALIAS_OF}", DeprecationWarning, stacklevel=2
    )
    return getattr(importlib.import_module(ALIAS_OF), name)
