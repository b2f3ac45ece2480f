"""Where a scene body's mass is: its centre in the body's own frame, and the arm from the body's origin to it in
the world. A free object's centre is about its origin; a hinged one's origin is its pivot (a bob's mount, a
door's hinge), which does not move while the centre does, so what is measured of a hazard (the brain's track,
the scorer's freeze point, the executed hand distance, the viewer's distance plots) is measured at its centre."""

from __future__ import annotations

import numpy as np

from reacthuman.scenes.builders import rotate
from reacthuman.scenes.mjcf import geom_volume_m3
from reacthuman.scenes.spec import GeomSpec, SceneSpec


def centre_local_m(spec: SceneSpec, name: str) -> np.ndarray:
    """The volume-weighted centre of the body's geoms, in its own frame (the body's mass is spread over its
    geoms by volume)."""
    return geoms_centre_m(spec.body(name).geoms)


def geoms_centre_m(geoms: tuple[GeomSpec, ...]) -> np.ndarray:
    volumes = np.array([geom_volume_m3(g) for g in geoms])
    return (volumes[:, None] * np.array([g.pos for g in geoms], dtype=np.float64)).sum(axis=0) / volumes.sum()


def arm_world_m(centre_local: np.ndarray, quat_wxyz) -> np.ndarray:
    """The world vector from the body's origin to its centre, for the body at orientation `quat_wxyz`."""
    return np.asarray(rotate(tuple(float(q) for q in quat_wxyz), tuple(float(c) for c in centre_local)))
