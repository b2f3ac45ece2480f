"""Tunables of what an episode shows a viewer: the bag's JPEG frames and markers, and the report's plan
overlay. One frozen dataclass so a run (or a test) changes them in one place (config/viewer.yaml),
validated on construction.

Sizes are what a viewer draws, not physics: they change no label, score or ledger field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reacthuman.core.config import config_with

_POSITIVE_M = (
    "floor_thickness_m",
    "floor_margin_m",
    "impact_marker_diameter_m",
    "plan_path_width_m",
    "plan_hand_diameter_m",
)
_POSITIVE_PX = ("overlay_scale", "overlay_path_width_px", "overlay_hand_width_px", "overlay_mark_radius_px")


@dataclass(frozen=True)
class ViewerConfig:
    # JPEG of the frames the brain got, for viewing only (the exact frames stay in the observation message):
    # 90 is about 15 kB a 320x180 frame instead of 173 kB raw.
    jpeg_quality: int = 90
    floor_thickness_m: float = 0.002  # the floor marker: a thin box just under z = 0
    floor_margin_m: float = 0.5  # floor extent beyond the outermost body and the observer
    impact_marker_diameter_m: float = 0.06
    plan_path_width_m: float = 0.03  # line width of the plan's base path marker
    plan_hand_diameter_m: float = 0.05  # the plan's hand keyframe spheres
    # The 320x180 frames are small: the overlay is drawn on a canvas this many times larger so lines and
    # labels stay legible.
    overlay_scale: int = 3
    overlay_path_width_px: int = 6
    overlay_hand_width_px: int = 3
    overlay_mark_radius_px: int = 6

    def __post_init__(self) -> None:
        q = self.jpeg_quality
        if isinstance(q, bool) or not isinstance(q, int) or not 1 <= q <= 95:
            raise ValueError(f"viewer config jpeg_quality must be an integer in [1, 95], got {q!r}")
        for name in _POSITIVE_M:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 10:
                raise ValueError(f"viewer config {name} must be a length in (0, 10] m, got {value!r}")
        for name in _POSITIVE_PX:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 64:
                raise ValueError(f"viewer config {name} must be an integer in [1, 64], got {value!r}")


def default_config(**overrides: Any) -> ViewerConfig:
    """config/viewer.yaml with `overrides` applied; an unknown name is an error naming it."""
    return config_with(ViewerConfig, overrides)


DEFAULT = default_config()  # the default argument of the drawing functions
