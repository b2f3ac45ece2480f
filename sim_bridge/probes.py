"""Probe scenes: minimal, hand-laid SceneSpecs that exercise one physical fact of the body each (an object
dropped on the G1's head, a ball dropped into its reach). They are specs like any other and go through the
same validation; the body's tests and benchmarks use them where a generated scene's randomness would blur
what is checked.
"""

from __future__ import annotations

from reacthuman.scenes.spec import BodySpec, CameraSpec, GeomSpec, JointSpec, LightSpec, ObserverSpec, SceneSpec

PROBE_FAMILY = "probe_drop"


def _cameras(ox: float, oy: float) -> tuple[CameraSpec, ...]:
    return (
        CameraSpec("egocentric", (ox + 0.12, oy, 1.25), (ox + 1.5, oy, 0.8), 70.0),
        CameraSpec("closeup", (ox + 2.2, oy + 1.2, 1.6), (ox + 0.4, oy, 1.0), 60.0),
        CameraSpec("overhead", (ox + 0.3, oy, 4.0), (ox + 0.3, oy + 0.01, 0.0), 70.0),
    )


def drop_probe(
    scene_id: str,
    *,
    drop_pos: tuple[float, float, float],
    mass_kg: float,
    radius_m: float,
    shape: str = "sphere",
    lin_vel: tuple[float, float, float] = (0.0, 0.0, 0.0),
    duration_s: float = 3.0,
) -> SceneSpec:
    """An object released at `drop_pos` (world frame) next to a G1 standing at the origin facing +x."""
    size = (radius_m,) if shape == "sphere" else (radius_m, radius_m, radius_m)
    hazard = BodySpec(
        name="hazard",
        pos=drop_pos,
        geoms=(GeomSpec(shape, size, rgba=(0.8, 0.3, 0.2, 1.0)),),
        joint=JointSpec("free"),
        mass_kg=mass_kg,
        lin_vel=lin_vel,
        role="hazard",
        object_id=f"probe_{shape}",
    )
    wall = BodySpec(name="back_wall", pos=(-3.0, 0.0, 1.5), geoms=(GeomSpec("box", (0.05, 4.0, 1.5)),), role="static")
    return SceneSpec(
        scene_id=scene_id,
        family=PROBE_FAMILY,
        object_id=hazard.object_id,
        room="probe",
        seed=0,
        speed_band="gravity",
        speed_group=None,
        adversarial=False,
        observer=ObserverSpec(0.0, 0.0, 0.0),
        hazard_bodies=("hazard",),
        cameras=_cameras(0.0, 0.0),
        bodies=(hazard, wall),
        lights=(LightSpec((0.0, 0.0, 3.0), (0.3, 0.2, -1.0)),),
        t0_s=0.0,
        observation_window_s=0.3,
        duration_s=duration_s,
        description="probe: an object dropped next to the G1",
    )


def heavy_overhead_probe() -> SceneSpec:
    """An 8 kg box released 8 m above a point just behind the G1's head: standing still, it strikes the
    head and torso (~1.2 s after release); walking forward at 0.8 m/s from the freeze clears it."""
    return drop_probe("probe_heavy_overhead", drop_pos=(-0.1, 0.0, 8.0), mass_kg=8.0, radius_m=0.12, shape="box")


def light_in_reach_probe() -> SceneSpec:
    """A 0.15 kg ball released 3 m up, 0.47 m in front of the G1: it passes chest height ~0.64 s after
    release, where hands raised forward meet it."""
    return drop_probe("probe_light_in_reach", drop_pos=(0.47, 0.02, 3.0), mass_kg=0.15, radius_m=0.05)
