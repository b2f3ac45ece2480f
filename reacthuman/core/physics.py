"""Physical constants, one definition each. Thresholds that decide a label live in config/ground_truth.yaml
(`reacthuman.scenes.label_config`); everything that needs one of them reads it from there.

Gravity is the simulators' own: MuJoCo scenes are written with it (`<option gravity>`), Genesis' default
is the same 9.81 m/s^2, and the scene samplers, the reference brains' ballistic predictions and the body's
accelerometer model must all agree with it or their predictions drift from the simulated tracks.

"Reaches the floor" has two tolerances because it is measured on two different things: the labeller's
`floor_contact_tol_m` (config/ground_truth.yaml, 2 mm) bounds the lowest point of the object's geometry in
the simulated track, while the body's `floor_contact_height_m` (config/outcome.yaml, 3 cm) bounds the height
of a contact point the engine reports, which sits inside the penetration and differs between MuJoCo and
Genesis.
One number for both would move either the stored labels or the executed outcomes.
"""

from __future__ import annotations

GRAVITY_MPS2 = 9.81


def mjcf_gravity_attr(gravity_mps2: float = GRAVITY_MPS2) -> str:
    """The MJCF `<option gravity=...>` value for gravity along -z (`0 0 -9.81`)."""
    return f"0 0 -{gravity_mps2!r}"
