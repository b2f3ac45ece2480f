"""Pinhole projection for the three scene cameras, and their seeded placement.

Frames and units: world frame, metres. A camera looks from `pos` at `lookat` with world z as up (world +x
when it looks straight down); `fov_deg` is the vertical field of view; pixel (0, 0) is the top-left corner.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from reacthuman.core.config import config_with
from reacthuman.core.validate import require_positive
from reacthuman.scenes.spec import CameraSpec, ObserverSpec

Vec3 = tuple[float, float, float]
# The standing G1's head spans z 1.08-1.29 m and reaches x +0.074 m ahead of the pelvis axis: the eyes sit
# at head height just in front of its face, so the camera never sees the inside of the robot's own head.
EYE_HEIGHT_M = (1.17, 1.23)
EYE_FORWARD_M = 0.12
FRAME_MARGIN = 0.06  # fraction of the half-image kept clear around a point that must be in frame


def _norm(v: Vec3) -> Vec3:
    n = math.sqrt(sum(c * c for c in v)) or 1.0
    return (v[0] / n, v[1] / n, v[2] / n)


def _cross(a: Vec3, b: Vec3) -> Vec3:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def project(cam: CameraSpec, p: Vec3) -> tuple[float, float, float] | None:
    """(u, v) in pixels and depth (m) of a world point; None when it is behind the camera."""
    f = _norm(tuple(look - c for look, c in zip(cam.lookat, cam.pos)))  # type: ignore[arg-type]
    up = (0.0, 0.0, 1.0) if abs(f[2]) < 0.99 else (1.0, 0.0, 0.0)
    r = _norm(_cross(f, up))
    u = _cross(r, f)
    d = tuple(pc - cc for pc, cc in zip(p, cam.pos))
    depth = sum(a * b for a, b in zip(d, f))
    if depth <= 1e-6:
        return None
    fy = (cam.height / 2) / math.tan(math.radians(cam.fov_deg) / 2)
    x = sum(a * b for a, b in zip(d, r)) / depth
    y = sum(a * b for a, b in zip(d, u)) / depth
    return (cam.width / 2 + fy * x, cam.height / 2 - fy * y, depth)


def in_frame(cam: CameraSpec, p: Vec3, margin: float = FRAME_MARGIN) -> bool:
    uv = project(cam, p)
    if uv is None:
        return False
    mx, my = cam.width * margin / 2, cam.height * margin / 2
    return mx <= uv[0] <= cam.width - mx and my <= uv[1] <= cam.height - my


EGO_NEAR_M = 0.6  # an object this close to the observer's eyes may leave the egocentric view (it is arriving)


def keeps_in_view(cam: CameraSpec, p: Vec3) -> bool:
    """The in-frame rule validators apply: inside the image, except that the egocentric camera need not
    hold what is closer than EGO_NEAR_M (the hazard reaching the observer leaves a head camera's view)."""
    if cam.name == "egocentric":
        uv = project(cam, p)
        if uv is None or uv[2] < EGO_NEAR_M:
            return True
    return in_frame(cam, p, margin=0.0)


# The close-up is the object's portrait: it must hold the hazard from this fraction of the observation window
# to the freeze (the egocentric and overhead views hold the whole window), so it can come close enough for the
# object to be recognised rather than frame a fast object's whole course at a few pixels.
CLOSEUP_HOLDS_FROM = 0.75


def held_course(view: str, course: tuple[Vec3, ...] | list[Vec3]) -> tuple[Vec3, ...]:
    """The window samples (first at t0, last at the freeze) a view must keep in frame."""
    if view == "closeup":
        return tuple(course[int(math.floor(CLOSEUP_HOLDS_FROM * (len(course) - 1))) :])
    return tuple(course)


def keeps_course_in_view(cam: CameraSpec, course: tuple[Vec3, ...] | list[Vec3]) -> bool:
    return all(keeps_in_view(cam, p) for p in held_course(cam.name, course))


def _side_view(rng: random.Random, course: tuple[Vec3, ...], side: float, width: int, height: int) -> CameraSpec:
    """A close-up from beside the whole observed course (start and window samples), far enough to hold it."""
    centre = tuple(sum(p[i] for p in course) / len(course) for i in range(3))
    extent = max(math.dist(a, b) for a in course for b in course)
    fov = rng.uniform(55.0, 70.0)
    half_w = math.tan(math.radians(fov) / 2) * width / height
    dist = max(1.2, rng.uniform(0.75, 1.0) * extent / half_w + 0.4)
    dx, dy = course[-1][0] - course[0][0], course[-1][1] - course[0][1]
    n = math.hypot(dx, dy) or 1.0
    px, py = -dy / n * side, dx / n * side  # perpendicular to the course, on the chosen side
    pos = (centre[0] + px * dist, centre[1] + py * dist, centre[2] + rng.uniform(0.2, 0.6))
    return CameraSpec("closeup", pos, centre, fov, width, height)


def place_cameras(
    rng: random.Random,
    observer: ObserverSpec,
    origin: Vec3,
    target: Vec3,
    width: int,
    height: int,
    max_tries: int = 50,
    also_see: tuple[Vec3, ...] = (),
) -> tuple[CameraSpec, ...]:
    """Egocentric (the G1's head camera, looking towards the event), close-up (beside the event origin)
    and overhead cameras, resampled until the event's start and early course are inside all three images
    (and its target in the overhead)."""
    early = tuple(origin[i] + 0.4 * (target[i] - origin[i]) for i in range(3))
    # The egocentric and close-up views must hold the event's start and its early course; the overhead the whole.
    must_see = {"egocentric": (origin, early), "closeup": (origin, early), "overhead": (origin, target)}
    for attempt in range(max_tries):
        wide = attempt >= max_tries // 2  # second half of the tries: wider lenses
        eye_z = rng.uniform(*EYE_HEIGHT_M)
        c, s = math.cos(observer.yaw_rad), math.sin(observer.yaw_rad)
        eye = (observer.x_m + EYE_FORWARD_M * c, observer.y_m + EYE_FORWARD_M * s, eye_z)
        if also_see:  # aim at the middle of the observed course still in front of the eyes, a wider lens
            ahead = [p for p in also_see if (p[0] - eye[0]) * c + (p[1] - eye[1]) * s > EGO_NEAR_M] or [origin]
            centre = tuple(sum(p[i] for p in ahead) / len(ahead) for i in range(3))
            look = tuple(c + rng.uniform(-0.1, 0.1) for c in centre)
            fov = rng.uniform(80.0, 100.0)
        elif attempt >= 3 * max_tries // 4:  # last resort: look straight at the event's start
            look, fov = origin, rng.uniform(95.0, 110.0)
        else:
            look = tuple(0.7 * a + 0.3 * b + rng.uniform(-0.1, 0.1) for a, b in zip(origin, target))
            fov = rng.uniform(90.0, 110.0) if wide else rng.uniform(70.0, 85.0)
        ego = CameraSpec("egocentric", eye, look, fov, width, height)
        side = rng.choice((-1.0, 1.0))
        if also_see:
            close = _side_view(rng, (origin,) + tuple(also_see), side, width, height)
        else:
            dist = rng.uniform(1.2, 1.8)
            ang = rng.uniform(0.6, 1.2)
            close_pos = (
                origin[0] + dist * math.cos(ang) * 0.5,
                origin[1] + side * dist * math.sin(ang),
                origin[2] + rng.uniform(0.1, 0.5),
            )
            close = CameraSpec(
                "closeup",
                close_pos,
                tuple(origin[i] + 0.3 * (target[i] - origin[i]) for i in range(3)),
                rng.uniform(55.0, 70.0),
                width,
                height,
            )
        mid = tuple((origin[i] + target[i] + (observer.x_m, observer.y_m, 0.0)[i]) / 3 for i in range(3))
        over = CameraSpec(
            "overhead",
            (mid[0] - rng.uniform(0.3, 0.7), mid[1] + rng.uniform(-0.3, 0.3), rng.uniform(3.6, 4.4)),
            (mid[0], mid[1], 0.5),
            rng.uniform(65.0, 80.0),
            width,
            height,
        )
        cams = (ego, close, over)
        if attempt >= 3 * max_tries // 4 and not also_see:
            must_see["egocentric"] = (origin,)
        if all(in_frame(cam, p) for cam in cams for p in must_see[cam.name]) and all(
            keeps_course_in_view(cam, also_see) for cam in cams
        ):
            return cams
    raise RuntimeError("could not place the three cameras with the event in frame")


@dataclass(frozen=True)
class CloseupConfig:
    """How the close-up frames the hazard object (see closeup_on_hazard); read from config/closeup.yaml."""

    fov_deg: tuple[float, float] = (40.0, 55.0)  # a narrow lens: little perspective distortion of the object
    elevation_deg: tuple[float, float] = (12.0, 35.0)  # looking down at the object, as a person bending over
    azimuth_jitter_deg: float = 30.0  # around the side view, perpendicular to the object's course
    max_object_fraction: float = 0.8  # the object's bounding diameter at most this fraction of the frame height
    min_distance_m: float = 0.4  # the camera no nearer the middle of the held course than this
    margin: float = 0.08  # fraction of the half-image kept clear around the course and the object
    room_clearance_m: float = 0.15  # the camera stays this far inside the walls and under the ceiling

    def __post_init__(self) -> None:
        for name in ("fov_deg", "elevation_deg"):
            pair = getattr(self, name)
            if not (isinstance(pair, tuple) and len(pair) == 2 and 0.0 < pair[0] <= pair[1] < 90.0):
                raise ValueError(f"CloseupConfig.{name} must be an increasing pair in (0, 90), got {pair!r}")
        require_positive(self, ("azimuth_jitter_deg", "room_clearance_m"), "CloseupConfig.", allow_zero=True)
        if not 0.05 <= self.max_object_fraction <= 1.0:
            raise ValueError(f"CloseupConfig.max_object_fraction must be in [0.05, 1], got {self.max_object_fraction}")
        if not self.min_distance_m > 0.05:
            raise ValueError(f"CloseupConfig.min_distance_m must exceed 0.05 m, got {self.min_distance_m}")
        if not 0.0 <= self.margin < 0.5:
            raise ValueError(f"CloseupConfig.margin must be in [0, 0.5), got {self.margin}")


def default_config(**overrides: Any) -> CloseupConfig:
    """config/closeup.yaml with `overrides` applied."""
    return config_with(CloseupConfig, overrides)


@dataclass(frozen=True)
class RoomBounds:
    """Where a camera may stand: in front of the back wall, inside the side wall, under the ceiling (m)."""

    back_wall_x_m: float = -math.inf
    side_wall_y_m: float = math.inf  # signed: the side wall is at this y; the other side is open
    ceiling_z_m: float = math.inf
    furniture: tuple[tuple[float, ...], ...] = ()  # (x0, x1, y0, y1, z0, z1) boxes a camera must stay out of

    @staticmethod
    def of(params: dict, furniture: tuple[tuple[float, ...], ...] = ()) -> "RoomBounds":
        return RoomBounds(
            float(params.get("back_wall_x_m", -math.inf)),
            float(params.get("side_wall_y_m", math.inf)),
            float(params.get("room_height_m", math.inf)),
            furniture,
        )

    def inside(self, p: Vec3, clearance_m: float) -> bool:
        side_ok = abs(p[1]) < abs(self.side_wall_y_m) - clearance_m or p[1] * self.side_wall_y_m < 0.0
        in_furniture = any(
            b[0] - clearance_m < p[0] < b[1] + clearance_m
            and b[2] - clearance_m < p[1] < b[3] + clearance_m
            and p[2] < b[5] + clearance_m
            for b in self.furniture
        )
        return (
            p[0] > self.back_wall_x_m + clearance_m
            and side_ok
            and p[2] < self.ceiling_z_m - clearance_m
            and not in_furniture
        )


def _distance_to_hold(
    f: Vec3, lookat: Vec3, points: tuple[Vec3, ...], radius_m: float, fov_deg: float, aspect: float, margin: float
) -> float:
    """The smallest camera distance along -f from lookat at which every point, grown by radius_m, is in frame."""
    up = (0.0, 0.0, 1.0) if abs(f[2]) < 0.99 else (1.0, 0.0, 0.0)
    r = _norm(_cross(f, up))
    u = _cross(r, f)
    tan_v = math.tan(math.radians(fov_deg) / 2) * (1.0 - margin)
    tan_h = tan_v * aspect
    need = 0.0
    for p in points:
        d = tuple(a - b for a, b in zip(p, lookat))
        x, y, z = (sum(a * b for a, b in zip(d, axis)) for axis in (r, u, f))
        need = max(need, (abs(x) + radius_m) / tan_h - z, (abs(y) + radius_m) / tan_v - z)
    return need


def closeup_on_hazard(
    rng: random.Random,
    course: tuple[Vec3, ...],
    radius_m: float,
    width: int,
    height: int,
    room: RoomBounds = RoomBounds(),
    observer: ObserverSpec | None = None,
    cfg: CloseupConfig | None = None,
    tries: int = 12,
) -> CameraSpec | None:
    """A close-up of the hazard object itself: from beside its observed course (window samples, the last one
    the freeze), looking down a little at the middle of the part it must hold (held_course: the last quarter of
    the window), as near as holds that part (radius_m around each sample) in frame, but no nearer than shows the
    object at max_object_fraction of the frame height. None when no sampled placement stays inside the room."""
    cfg = cfg or default_config()
    whole, course = course, held_course("closeup", course)
    lo = [min(p[i] for p in course) for i in range(3)]
    hi = [max(p[i] for p in course) for i in range(3)]
    lookat = tuple(0.5 * (lo[i] + hi[i]) for i in range(3))
    dx, dy = whole[-1][0] - whole[0][0], whole[-1][1] - whole[0][1]
    if math.hypot(dx, dy) < 0.05:  # a fall straight down: the course direction is the observer's line of sight
        ox, oy = (observer.x_m, observer.y_m) if observer is not None else (lookat[0] + 1.0, lookat[1])
        dx, dy = ox - lookat[0], oy - lookat[1]
    heading = math.atan2(dy, dx)
    for attempt in range(tries):
        fov = rng.uniform(*cfg.fov_deg)
        side = rng.choice((-1.0, 1.0))
        if attempt < tries // 2:
            az = (
                heading
                + side * math.pi / 2
                + math.radians(rng.uniform(-cfg.azimuth_jitter_deg, cfg.azimuth_jitter_deg))
            )
        else:  # beside the course is taken (the table it fell from, a wall): from ahead of it, turned aside
            az = heading + side * math.radians(rng.uniform(20.0, 70.0))
        el = math.radians(rng.uniform(*cfg.elevation_deg))
        f = (-math.cos(el) * math.cos(az), -math.cos(el) * math.sin(az), -math.sin(el))  # camera -> lookat
        tan_v = math.tan(math.radians(fov) / 2)
        dist = max(
            cfg.min_distance_m,
            2.0 * radius_m / (cfg.max_object_fraction * 2.0 * tan_v),
            _distance_to_hold(f, lookat, course, radius_m, fov, width / height, cfg.margin),
        )
        pos = tuple(round(lookat[i] - f[i] * dist, 4) for i in range(3))
        cam = CameraSpec("closeup", pos, tuple(round(v, 4) for v in lookat), round(fov, 3), width, height)
        if room.inside(pos, cfg.room_clearance_m) and all(in_frame(cam, p, margin=0.0) for p in course):
            return cam
    return None
