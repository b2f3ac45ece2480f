"""Checks shared by the config dataclasses' `__post_init__`: one message shape, naming the field."""

from __future__ import annotations

import math
from typing import Any, Iterable


def require_positive(config: Any, names: Iterable[str], what: str = "", allow_zero: bool = False) -> None:
    """Raises ValueError naming the first field of `names` that is not a finite number > 0 (>= 0 with
    `allow_zero`). `what` prefixes the message (the config's name), as in `body config dt_s must be ...` or
    `ArmIKConfig.damping must be ...`."""
    prefix = what if not what or what.endswith(".") else what + " "  # "ArmIKConfig." or "body config"
    for name in names:
        value = getattr(config, name)
        ok = (
            not isinstance(value, bool)
            and isinstance(value, (int, float))
            and math.isfinite(value)
            and (value >= 0 if allow_zero else value > 0)
        )
        if not ok:
            bound = ">= 0" if allow_zero else "> 0"
            raise ValueError(f"{prefix}{name} must be a finite number {bound}, got {value!r}")


def require_interval(config: Any, names: Iterable[str], what: str = "") -> None:
    """Raises ValueError naming the first field of `names` that is not a pair (low, high) of finite numbers
    with low < high. `what` prefixes the message as in `require_positive`."""
    prefix = what if not what or what.endswith(".") else what + " "
    for name in names:
        value = getattr(config, name)
        ok = (
            isinstance(value, (tuple, list))
            and len(value) == 2
            and all(not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v) for v in value)
            and value[0] < value[1]
        )
        if not ok:
            raise ValueError(f"{prefix}{name} must be a pair (low, high) of finite numbers, low < high, got {value!r}")
