"""Start states of recent worlds, cloned per episode: scenes are a pure function of their spec, so one
build serves every run of a task (its oracle, silent and blind controls, or a matrix row)."""

from __future__ import annotations

import copy
from collections import OrderedDict

import mujoco

from interactiveworld.world.scene import SceneSpec
from interactiveworld.world.sim import World


WORLD_CACHE_SIZE = 4
_PRISTINE: OrderedDict[tuple[SceneSpec, str, bool], World] = OrderedDict()


def clone_world(world: World) -> World:
    """An independent copy: own model (spills repaint geoms), own data (mj_copyData copies all state,
    warm starts included), own appliance state. Stepping it gives the bits a fresh build would."""
    model = copy.copy(world.model)
    data = mujoco.MjData(model)
    mujoco.mj_copyData(data, model, world.data)
    return copy.deepcopy(world, {id(world.model): model, id(world.data): data})


def build_world(scene: SceneSpec, body: str = "capsule", meshes: bool = False) -> World:
    """A world for scene in its start state. Scenes are a pure function of their spec, so the settled
    start state of the last few scenes is kept and cloned: an oracle and a silent run of one task, or
    every assistant of a matrix row, pay for the MJCF compile and the settling once. meshes: objects drawn
    with catalogue meshes (for rendered episodes; same physics)."""
    key = (scene, body, meshes)
    if key not in _PRISTINE:
        _PRISTINE[key] = World(scene, body, meshes)
        while len(_PRISTINE) > WORLD_CACHE_SIZE:
            _PRISTINE.popitem(last=False)
    _PRISTINE.move_to_end(key)
    return clone_world(_PRISTINE[key])


def clear_world_cache() -> None:
    _PRISTINE.clear()
