"""What the human's eyes can see now, from the simulator: an object is visible when a point of it lies in
the head camera's view cone and the first thing a ray from the eye meets on the way there is that object.

Rays pass through the human's own body and what it carries (its own arm does not hide the room). A cloth
lying on an object, a closed cabinet door, a box's closed lid or a wall stops the ray: hidden things stay
unseen (the lid itself counts as seeing the box).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mujoco
import numpy as np

from interactiveworld.world.objects import MESH_GROUP, half_height_m
from interactiveworld.world.sim import World

EYE_CAMERA = "H:eye"
MAX_SIGHT_M = 9.0
RAY_RESTARTS = 6
RAY_RESTART_STEP_M = 0.002
# rays meet the primitives only, never a drawn mesh: sight is the same whether or not a world is rendered
RAY_GEOM_GROUPS = np.array([0 if g == MESH_GROUP else 1 for g in range(mujoco.mjNGROUP)], dtype=np.uint8)


@dataclass(frozen=True)
class SightConfig:
    """How far and how wide the human sees; the frame aspect sets the horizontal half-angle."""

    max_sight_m: float = MAX_SIGHT_M
    aspect: float = 4.0 / 3.0

    def __post_init__(self) -> None:
        if self.max_sight_m <= 0:
            raise ValueError(f"SightConfig.max_sight_m must be > 0, got {self.max_sight_m}")
        if self.aspect <= 0:
            raise ValueError(f"SightConfig.aspect must be > 0, got {self.aspect}")


def _own_bodies(world: World, cam_id: int) -> set[int]:
    """The human's bodies (everything under the camera's root body) and whatever it holds."""
    root = world.model.body_rootid[world.model.cam_bodyid[cam_id]]
    own = {b for b in range(world.model.nbody) if world.model.body_rootid[b] == root and b != 0}
    if world.held:
        held = {
            mujoco.mj_name2id(world.model, mujoco.mjtObj.mjOBJ_BODY, f"O:{name}")
            for name in [world.held, *world.carried_with(world.held)]
        }
        own |= {b for b in range(world.model.nbody) if world.model.body_rootid[b] in held}  # a box's lid too
    return own


def _first_hit_body(world: World, start: np.ndarray, target: np.ndarray, skip: set[int]) -> int:
    """Body id of the first geom on the segment start->target that is not in `skip` (-1: nothing hit)."""
    m, d = world.model, world.data
    vec = target - start
    length = float(np.linalg.norm(vec))
    unit = vec / max(length, 1e-9)
    geom = np.zeros(1, dtype=np.int32)
    travelled = 0.0
    point = start.copy()
    for _ in range(RAY_RESTARTS):
        dist = mujoco.mj_ray(m, d, point, unit * (length - travelled), RAY_GEOM_GROUPS, 1, -1, geom)
        if dist < 0 or geom[0] < 0:
            return -1
        body = int(m.geom_bodyid[geom[0]])
        hit_at = travelled + dist * (length - travelled)
        if hit_at > length + 1e-6:
            return -1
        if body not in skip:
            return body
        travelled = hit_at + RAY_RESTART_STEP_M
        point = start + unit * travelled
    return -1


def visible_objects(world: World, config: SightConfig = SightConfig()) -> set[str]:
    """Names of the objects the human sees now (none when blind)."""
    if world.blind:
        return set()
    m, d = world.model, world.data
    cam = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_CAMERA, EYE_CAMERA)
    eye = d.cam_xpos[cam].copy()
    rot = d.cam_xmat[cam].reshape(3, 3)
    right, up, back = rot[:, 0], rot[:, 1], rot[:, 2]
    tan_v = math.tan(math.radians(float(m.cam_fovy[cam])) / 2)
    tan_h = tan_v * config.aspect
    skip = _own_bodies(world, cam)
    seen = set()
    for name, spec in world.objects.items():
        if name == world.held:
            continue
        body = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, f"O:{name}")
        centre = d.xpos[body].copy()
        top = centre + np.array([0.0, 0.0, 0.8 * half_height_m(spec.category)])
        for point in (top, centre):
            rel = point - eye
            depth = -float(rel @ back)
            if depth <= 0.05 or float(np.linalg.norm(rel)) > config.max_sight_m:
                continue
            if abs(float(rel @ right)) > tan_h * depth or abs(float(rel @ up)) > tan_v * depth:
                continue
            hit = _first_hit_body(world, eye, point, skip)
            if hit >= 0 and m.body_rootid[hit] == body:  # the object or a part of it (a box's closed lid)
                seen.add(name)
                break
    return seen
