"""Thresholds of the ground-truth labeller (`reacthuman.scenes.label`), with units in their names.

`load_label_config()` reads config/ground_truth.yaml (the values shipped with the repository) through
`reacthuman.core.config`; tests and experiments override single fields with `default_config(**overrides)`.
The reach fields describe what the G1 can do (body execution measures the envelope and may update them
here, in one place).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from reacthuman.core.config import config_with, load_config
from reacthuman.core.validate import require_positive


@dataclass(frozen=True)
class LabelConfig:
    heavy_mass_kg: float = 2.0  # at or above: dangerous (intrinsic)
    fast_speed_mps: float = 8.0  # arriving at or above: DODGE (not dangerous)
    dodge_momentum_kgmps: float = 5.0  # mass x arrival speed at or above: DODGE (not dangerous)
    # Too hard to catch: the kinetic energy the hands can take, the lower of the G1's and a person's
    # (docs/too-fast-to-catch.md derives both).
    g1_catch_energy_j: float = 11.9
    person_catch_energy_j: float = 42.0
    moving_mps: float = 0.3  # slower points do not count as arriving
    floor_contact_tol_m: float = 0.002
    shoulder_height_m: float = 1.049
    shoulder_half_width_m: float = 0.100
    arm_reach_m: float = 0.50
    crouch_drop_m: float = 0.30
    walk_speed_mps: float = 1.0
    max_step_m: float = 1.0

    def __post_init__(self) -> None:
        strict = (
            "heavy_mass_kg",
            "fast_speed_mps",
            "dodge_momentum_kgmps",
            "g1_catch_energy_j",
            "person_catch_energy_j",
            "shoulder_height_m",
            "arm_reach_m",
        )
        require_positive(self, [f.name for f in fields(self) if f.name not in strict], "label config", allow_zero=True)
        require_positive(self, strict, "label config")
        if self.crouch_drop_m >= self.shoulder_height_m:
            raise ValueError(
                f"label config crouch_drop_m ({self.crouch_drop_m}) must be below shoulder_height_m "
                f"({self.shoulder_height_m})"
            )

    @property
    def catch_energy_limit_j(self) -> float:
        """At or above: too hard to catch (the weaker of the two catchers sets the label)."""
        return min(self.g1_catch_energy_j, self.person_catch_energy_j)

    def step_m(self, time_after_freeze_s: float) -> float:
        """How far the base can have moved (any direction) this long after the freeze."""
        return min(self.max_step_m, self.walk_speed_mps * max(0.0, time_after_freeze_s))


def default_config(**overrides: Any) -> LabelConfig:
    return config_with(LabelConfig, overrides)


def load_label_config(path: Path | None = None) -> LabelConfig:
    """The config file's values (config/ground_truth.yaml unless `path` is given); unknown keys are an error
    naming them."""
    return load_config(LabelConfig, path)
