"""Stage 2, seeded physical randomization: (selection, integer seed) -> an unlabelled SceneSpec.

Pure: the same selection and seed give the same spec in any process. Separate random streams (seeded
from strings, so Python's hash randomization does not enter) for the selection, the family's physics,
the room and the cameras; the speed band only scales the family's nominal speed, so the four members of a
speed group differ in nothing else. Frames and units as in spec.py.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from reacthuman.scenes.builders import BAND_FACTOR, FamilyContext, r3
from reacthuman.scenes.cameras import place_cameras
from reacthuman.scenes.catalog import get_object
from reacthuman.scenes.families import get_family
from reacthuman.scenes.material_table import load_material_table
from reacthuman.scenes.reach import clear_of_geometry
from reacthuman.scenes.rooms import ROOMS, furnish, room_shell
from reacthuman.scenes.sourcing import dress
from reacthuman.scenes.spec import (
    GRAVITY_BAND,
    SPEED_BANDS,
    BodySpec,
    ObserverSpec,
    SceneSpec,
    SourcedObjectSpec,
    SpecError,
)

DEFAULT_ADVERSARIAL_RATE = 0.13


@dataclass(frozen=True)
class Selection:
    """Stage 1's output (semantic choices only, never a number): what the planner or the caller picked."""

    family: str
    object_id: str | None = None
    room: str | None = None
    hints: dict[str, str] = field(default_factory=dict)
    planner: str = "direct"
    description: str = ""
    sourced: SourcedObjectSpec | None = None  # the object when the library lacks it (sourcing.resolve_object)

    def __post_init__(self) -> None:
        fam = get_family(self.family)
        if (
            self.object_id is not None
            and self.object_id not in fam.objects
            and not _sourced_fits(self.object_id, fam.name, self.sourced)
        ):
            raise SpecError(f"object '{self.object_id}' is not in the {self.family} catalogue")
        if self.room is not None and self.room not in ROOMS:
            raise SpecError(f"unknown room '{self.room}' (one of: {', '.join(ROOMS)})")
        for key, value in self.hints.items():
            allowed = fam.hints.get(key)
            if allowed is None or value not in allowed:
                raise SpecError(f"hint {key}={value!r} does not apply to {self.family}")


def _sourced_fits(object_id: str, family: str, sourced: SourcedObjectSpec | None) -> bool:
    """An object sourced from the installed catalogues (sourcing.py) may go into the families that take any."""
    return sourced is not None and sourced.object_id == object_id and family in load_material_table().sourcing_families


def _stream(kind: str, family: str, seed: int) -> random.Random:
    return random.Random(f"reacthuman/{kind}/{family}/{seed}")


def choose_object(family: str, seed: int, adversarial_rate: float) -> str:
    fam = get_family(family)
    rng = _stream("object", family, seed)
    adversarial = fam.adversarial_objects and rng.random() < adversarial_rate
    pool = fam.adversarial_objects if adversarial else fam.genuine_objects
    if (
        not adversarial
        and fam.danger_share is not None
        and fam.dangerous_genuine_objects
        and fam.benign_genuine_objects
    ):
        dangerous = rng.random() < fam.danger_share
        pool = fam.dangerous_genuine_objects if dangerous else fam.benign_genuine_objects
    return rng.choice(sorted(pool))


def _place_observer(rng: random.Random, layout, bodies: list[BodySpec]) -> ObserverSpec:
    if layout.observer_xy is not None:
        x, y = layout.observer_xy
    else:
        ax, ay = layout.approach_xy
        n = math.hypot(ax, ay)
        jitter = math.radians(rng.uniform(-25.0, 25.0))
        c, s = math.cos(jitter), math.sin(jitter)
        dx, dy = (ax * c - ay * s) / n, (ax * s + ay * c) / n
        d = rng.uniform(*layout.observer_distance_m)
        x, y = layout.event_target[0] + dx * d, layout.event_target[1] + dy * d
        for _ in range(40):  # step back along the approach until the floor around the feet is free
            if clear_of_geometry(bodies, x, y):
                break
            x, y = x + 0.05 * dx, y + 0.05 * dy
    yaw = math.atan2(layout.event_origin[1] - y, layout.event_origin[0] - x)
    return ObserverSpec(round(x, 4), round(y, 4), round(yaw, 5))


def sample_spec(
    family: str,
    seed: int,
    *,
    object_id: str | None = None,
    room: str | None = None,
    hints: dict[str, str] | None = None,
    speed_band: str | None = None,
    adversarial_rate: float = DEFAULT_ADVERSARIAL_RATE,
    planner: str = "direct",
    description: str = "",
    width: int = 1280,
    height: int = 720,
    sourced: SourcedObjectSpec | None = None,
) -> SceneSpec:
    """The unlabelled spec of (selection, seed). Unset choices are drawn from the seed; `sourced` records an
    object the library lacks (Selection.sourced)."""
    sel = Selection(family, object_id, room, dict(hints or {}), planner, description, sourced)
    fam = get_family(family)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SpecError(f"seed must be a non-negative integer, got {seed!r}")
    if not 0.0 <= adversarial_rate <= 1.0:
        raise SpecError(f"adversarial_rate must be in [0, 1], got {adversarial_rate}")
    band = speed_band or ("normal" if fam.speed_swept else GRAVITY_BAND)
    if fam.speed_swept and band not in SPEED_BANDS:
        raise SpecError(f"{family} sweeps speed: speed_band must be one of {SPEED_BANDS}, got {band!r}")
    if not fam.speed_swept and band != GRAVITY_BAND:
        raise SpecError(f"{family} is gravity-paced: speed_band must be '{GRAVITY_BAND}', got {band!r}")
    obj_id = sel.object_id or choose_object(family, seed, adversarial_rate)
    sel_rng = _stream("select", family, seed)
    room_name = sel.room or sel_rng.choice(sorted(fam.rooms))
    hint_values = {k: sel.hints.get(k) or sel_rng.choice(v) for k, v in sorted(fam.hints.items())}
    ctx = FamilyContext(
        _stream("physics", family, seed),
        get_object(obj_id, sourced),
        room_name,
        hint_values,
        BAND_FACTOR.get(band, 1.0),
        ROOMS[room_name],
    )
    layout = fam.sampler(ctx)
    scene_rng = _stream("scene", family, seed)
    observer = _place_observer(scene_rng, layout, layout.bodies)
    walls, lights, room_params = room_shell(scene_rng, room_name, layout.bodies, observer, layout.back_wall_x)
    furnishings, dressed = furnish(
        _stream("furnish", family, seed),
        room_name,
        walls + layout.bodies,
        observer,
        {**room_params, "hints": hint_values},
    )
    cameras = place_cameras(
        _stream("camera", family, seed), observer, r3(layout.event_origin), r3(layout.event_target), width, height
    )
    params = {
        **layout.params,
        **room_params,
        "hints": hint_values,
        "support": layout.support,
        "event_origin": list(r3(layout.event_origin)),
        "event_target": list(r3(layout.event_target)),
    }
    spec = SceneSpec(
        scene_id=f"{family}-s{seed}-{band}",
        family=family,
        object_id=obj_id,
        room=room_name,
        seed=seed,
        speed_band=band,
        speed_group=f"{family}-s{seed}" if fam.speed_swept else None,
        adversarial=get_object(obj_id, sourced).adversarial,
        observer=observer,
        hazard_bodies=tuple(layout.hazards),
        cameras=cameras,
        bodies=tuple(walls + layout.bodies),
        lights=lights,
        furnishings=furnishings,
        dressed_bodies=dressed,
        params=params,
        duration_s=layout.duration_s,
        planner=planner,
        description=description,
    )
    if obj_id not in fam.objects:  # sourced from a catalogue: the spec records it and draws its mesh
        spec = dress(spec, sourced)
    return spec
