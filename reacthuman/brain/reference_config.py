"""What the reference brains assume (`reacthuman.brain.reference`) and how their motor plans reach and dodge
(`reacthuman.brain.motion`): `ReferenceBrainConfig`, read from config/reference_brains.yaml. Its own module so
that both read it without importing each other."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from reacthuman.core.config import config_with
from reacthuman.core.validate import require_interval, require_positive

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class ReferenceBrainConfig:
    """What the reference brains assume (config/reference_brains.yaml). Their plans, and so their ledger
    rows, follow from these values."""

    moving_min_mps: float = 0.05  # below this the object is taken to be at rest (tracking noise)
    predict_dt_s: float = 0.01  # step of the ballistic prediction
    predict_horizon_s: float = 3.0  # how far ahead the prediction (and the swing's arc) is followed
    body_band_m: tuple[float, float] = (0.3, 1.8)  # heights at which an object strikes the body or can be caught
    near_m: float = 2.5  # a predicted path that stays farther than this (planar) passes the observer by
    # how far left or right of the chest the oracle's hands meet a swinging object (how far ahead and how high
    # is the body's workspace, scenes/envelope.py)
    swing_meet_half_width_m: float = 0.3
    default_target_m: Vec3 = (1.0, 0.0, 1.0)  # nothing tracked: assume the event is ahead (the observer faces it)
    # Looks that suggest sharp, hot, shattering or heavy objects. The heuristic judges by appearance, as the
    # paper finds models do, so adversarial objects fool it by design.
    danger_words: tuple[str, ...] = (
        "knife",
        "scissors",
        "blade",
        "glass",
        "mirror",
        "vase",
        "pan",
        "pot",
        "kettle",
        "iron",
        "steel",
        "anvil",
        "brick",
        "hammer",
        "fan",
        "chandelier",
        "shelf",
        "bookshelf",
        "cabinet",
        "wardrobe",
        "ladder",
        "door",
        "tv",
        "television",
        "monitor",
        "dumbbell",
        "bowling",
        "cricket",
        "sandbag",
        "lamp",
        "stone",
        "rock",
    )
    # How the motor plans are built (brain/motion.py).
    # (where the hands can go, the crouch and the arms' travel time are the body's: scenes/envelope.py)
    catch_hand_spread_m: float = 0.04  # hands either side of the target, as when cupping an object
    catch_hold_s: float = 1.0  # a catch holds the hands this long after the object's arrival
    dodge_walk_speed_mps: float = 0.7  # walking speed of a dodge
    dodge_clearance_m: float = 1.2  # distance from the hazard point a dodge aims to reach
    # a hazard moving faster than this across the floor has a path: the dodge steps off that line, to the side the
    # robot is already on, path_clearance_m from it (walking away from the impact point would walk along the path)
    path_min_speed_mps: float = 0.3
    path_clearance_m: float = 1.0

    def __post_init__(self) -> None:
        require_positive(
            self,
            (
                "predict_dt_s",
                "predict_horizon_s",
                "near_m",
                "swing_meet_half_width_m",
                "dodge_walk_speed_mps",
                "dodge_clearance_m",
                "path_clearance_m",
            ),
            "ReferenceBrainConfig.",
        )
        require_positive(
            self,
            ("moving_min_mps", "catch_hand_spread_m", "catch_hold_s", "path_min_speed_mps"),
            "ReferenceBrainConfig.",
            allow_zero=True,
        )
        require_interval(self, ("body_band_m",), "ReferenceBrainConfig.")
        target = self.default_target_m
        if not (isinstance(target, tuple) and len(target) == 3 and all(math.isfinite(v) for v in target)):
            raise ValueError(f"ReferenceBrainConfig.default_target_m must be three finite numbers (m), got {target!r}")
        words = self.danger_words
        if not (isinstance(words, tuple) and words and all(isinstance(w, str) and w.strip() for w in words)):
            raise ValueError(f"ReferenceBrainConfig.danger_words must be a non-empty list of words, got {words!r}")


def default_config(**overrides: Any) -> ReferenceBrainConfig:
    return config_with(ReferenceBrainConfig, overrides)
