"""`image_servo`: the reference policy of the slot. It sees only the egocentric frames (no simulator state,
no track) and reacts to what moves in them: a region that grows fast (looms) is dodged sideways, away from
the side it comes from; one that approaches slowly near the middle of the view is reached for; nothing that
moves, nothing done. It shows that the slot works and gives a floor a learned policy should beat.

Why these cues: with a fixed camera an object on a collision course grows in the image while its bearing
stays put (time to contact ~ area / (d area / dt) / 2); its bearing says which side to step to. While the
robot itself moves the whole image changes, so the policy judges motion only while its base is nearly still
and keeps a committed dodge for `commit_s` once it has chosen one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reacthuman.policy.base import Policy, PolicyAction, PolicyConfig, PolicyObservation, register_policy


@dataclass(frozen=True)
class ImageServoConfig:
    """Thresholds of the reference policy (image fractions, seconds, metres)."""

    work_width_px: int = 160  # frames are reduced to this width before differencing
    diff_threshold: int = 18  # grey levels: a pixel moved when it changed by more than this
    min_area_fraction: float = 0.002  # smaller moving regions are noise
    dodge_time_to_contact_s: float = 1.2  # looming faster than this is dodged
    reach_centre_fraction: float = 0.35  # a region within this fraction of the width from the centre is reached for
    still_speed_mps: float = 0.15  # the policy judges motion only below this base speed
    commit_s: float = 1.0
    dodge_speed_mps: float = 0.6
    reach_offset_m: tuple[float, float, float] = (0.25, 0.0, 0.1)


@dataclass(frozen=True)
class Blob:
    area_fraction: float
    centre_x: float  # -1 (left edge) .. +1 (right edge)
    centre_y: float  # -1 (top) .. +1 (bottom)


def moving_region(previous: np.ndarray, current: np.ndarray, config: ImageServoConfig) -> Blob | None:
    """The largest region that changed between two frames, or None when nothing moved."""
    import cv2  # OpenCV is not in the light install, where the policy is registered but never run

    scale = config.work_width_px / current.shape[1]
    size = (config.work_width_px, max(1, round(current.shape[0] * scale)))
    a = cv2.cvtColor(cv2.resize(previous, size, interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY)
    b = cv2.cvtColor(cv2.resize(current, size, interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY)
    mask = (cv2.absdiff(a, b) > config.diff_threshold).astype(np.uint8)
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    count, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    area = float(stats[largest, cv2.CC_STAT_AREA]) / float(mask.size)
    if area < config.min_area_fraction:
        return None
    cx, cy = centroids[largest]
    return Blob(area, 2.0 * cx / size[0] - 1.0, 2.0 * cy / size[1] - 1.0)


@register_policy(
    "image_servo",
    "reference policy: dodges what looms, reaches for what approaches slowly (images only)",
    PolicyConfig(views=("egocentric",), frame_history=2),
)
class ImageServo(Policy):
    def __init__(self, config: PolicyConfig | None = None, servo: ImageServoConfig | None = None) -> None:
        super().__init__(config)
        self.servo = servo or ImageServoConfig()
        self.reset()

    def reset(self) -> None:
        self._last_area: tuple[float, float] | None = None  # (t_s, area fraction)
        self._committed: tuple[float, PolicyAction] | None = None  # (until t_s, action)

    def act(self, observation: PolicyObservation) -> PolicyAction:
        t = observation.t_s
        if self._committed is not None and t < self._committed[0]:
            return self._committed[1]
        speed = float(np.hypot(*observation.proprioception.base_velocity_mps[:2]))
        frames = observation.images.get("egocentric", ())
        if len(frames) < 2 or speed > self.servo.still_speed_mps:
            return PolicyAction()
        blob = moving_region(frames[-2], frames[-1], self.servo)
        if blob is None:
            self._last_area = None
            return PolicyAction()
        action = self._react(t, blob)
        self._last_area = (t, blob.area_fraction)
        if action.base_velocity != (0.0, 0.0, 0.0):  # a step is committed; a reach is judged again each period
            self._committed = (t + self.servo.commit_s, action)
        return action

    def _react(self, t_s: float, blob: Blob) -> PolicyAction:
        s = self.servo
        if self._last_area is not None and t_s > self._last_area[0]:
            growth = (blob.area_fraction - self._last_area[1]) / (t_s - self._last_area[0])
            if growth > 0 and blob.area_fraction / growth / 2.0 < s.dodge_time_to_contact_s:
                # step to the side the object is not on (image right is the robot's -y)
                vy = s.dodge_speed_mps if blob.centre_x > 0 else -s.dodge_speed_mps
                return PolicyAction(base_velocity=(-0.2, vy, 0.0))
        if abs(blob.centre_x) < s.reach_centre_fraction:
            dx, dy, dz = s.reach_offset_m
            lift = -dz * blob.centre_y  # above the image centre: raise the hands; below: lower them
            knee = 0.25 if blob.centre_y > 0.5 else 0.0
            return PolicyAction(left_hand_m=(dx, dy + 0.04, lift), right_hand_m=(dx, dy - 0.04, lift), knee_bend=knee)
        return PolicyAction()
