"""Do Genesis and MuJoCo agree on a scene? Each engine simulates the scene (world alone, as ground truth is
computed) through the same adapter interface; the scene generator's own labeller turns each track into
ground truth; the rows say where the labels and times to floor differ and why.

The explanation is computed, not written by hand: when and where the two hazard trajectories part
(first sample at which they are `DIVERGE_M` apart), the hazard's first contact in each engine, and each
engine's labelling reasons (impact speed, momentum...).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reacthuman.scenes.genesis_sim import Track
from reacthuman.scenes.label import label
from reacthuman.scenes.spec import GroundTruth, SceneSpec
from reacthuman.sim_bridge.engine import PhysicsEngine, default_config as engine_config, make_engine
from reacthuman.sim_bridge.scene_setup import set_initial_velocities, world_for

DIVERGE_M = 0.05
TIME_TO_FLOOR_TOLERANCE_S = 0.05


@dataclass(frozen=True)
class EngineRun:
    track: Track
    truth: GroundTruth
    first_contact: tuple[float, str] | None  # (t since 0, the other body) of the primary hazard's first contact


@dataclass(frozen=True)
class AgreementRow:
    scene_id: str
    family: str
    labels: dict[str, str]
    times_to_floor_s: dict[str, float | None]
    label_agrees: bool
    time_agrees: bool
    explanation: str  # empty when both agree


def engine_track(engine: PhysicsEngine, spec: SceneSpec) -> EngineRun:
    """Build the scene alone in `engine`, run spec.n_steps steps and record every dynamic body each step."""
    track, first_contact = engine_path(engine, spec, np.float32)
    return EngineRun(track, label(spec, track), first_contact)


def engine_path(
    engine: PhysicsEngine, spec: SceneSpec, dtype: type = np.float64, steps: int | None = None
) -> tuple[Track, tuple[float, str] | None]:
    """The scene alone (no robot) built in `engine` and run `steps` steps (default spec.n_steps) from its t = 0
    state: every dynamic body's state at every step, stored as `dtype` (float64 keeps each bit the engine
    reported), and the primary hazard's first contact (t, the other body)."""
    engine.build(world_for(spec), None, ())
    set_initial_velocities(engine, spec)
    names = tuple(b.name for b in spec.bodies if b.dynamic)
    n = spec.n_steps if steps is None else steps
    arrays = {k: np.zeros((n + 1, len(names), d), dtype) for k, d in (("pos", 3), ("quat", 4), ("vel", 3), ("ang", 3))}
    primary = frozenset({spec.hazard_bodies[0]})
    first_contact = None
    for k in range(n + 1):
        if k:
            engine.step()
            if first_contact is None:
                for c in engine.contacts(primary):
                    other = c.body_b if c.body_a in primary else c.body_a
                    first_contact = (engine.time_s, other)
                    break
        for i, name in enumerate(names):
            s = engine.body_state(name)
            arrays["pos"][k, i], arrays["quat"][k, i] = s.pos_m, s.quat_wxyz
            arrays["vel"][k, i], arrays["ang"][k, i] = s.lin_vel_mps, s.ang_vel_radps
    times = (np.arange(n + 1, dtype=np.float64) * spec.dt_s).astype(dtype)
    return Track(names, times, arrays["pos"], arrays["quat"], arrays["vel"], arrays["ang"]), first_contact


def compare(spec: SceneSpec, runs: dict[str, EngineRun]) -> AgreementRow:
    (a, ra), (b, rb) = sorted(runs.items())
    labels = {a: ra.truth.correct_action, b: rb.truth.correct_action}
    ttf = {a: ra.truth.time_to_floor_s, b: rb.truth.time_to_floor_s}
    label_agrees = labels[a] == labels[b]
    if ttf[a] is None or ttf[b] is None:
        time_agrees = ttf[a] is None and ttf[b] is None
    else:
        time_agrees = abs(ttf[a] - ttf[b]) <= TIME_TO_FLOOR_TOLERANCE_S
    explanation = "" if label_agrees and time_agrees else _explain(spec, a, ra, b, rb)
    return AgreementRow(spec.scene_id, spec.family, labels, ttf, label_agrees, time_agrees, explanation)


def _explain(spec: SceneSpec, a: str, ra: EngineRun, b: str, rb: EngineRun) -> str:
    i = ra.track.index(spec.hazard_bodies[0])
    gap = np.linalg.norm(ra.track.pos[:, i].astype(np.float64) - rb.track.pos[:, i].astype(np.float64), axis=1)
    apart = np.flatnonzero(gap >= DIVERGE_M)
    if len(apart):
        k = int(apart[0])
        parts = [
            f"hazard paths part ({DIVERGE_M * 100:.0f} cm) at t={ra.track.times_s[k]:.3f} s, "
            f"{gap.max():.2f} m apart at most"
        ]
    else:
        parts = [f"hazard paths stay within {gap.max() * 100:.1f} cm of each other"]
    for name, run in ((a, ra), (b, rb)):
        t = run.truth
        contact = (
            f"first contact t={run.first_contact[0]:.3f} s with '{run.first_contact[1]}'"
            if run.first_contact
            else "no contact"
        )
        parts.append(
            f"{name}: {t.correct_action}, {contact}, impact t={t.impact_time_s} s at {t.impact_speed_mps} m/s, "
            f"time to floor {t.time_to_floor_s} s, reasons {list(t.reasons) or 'none'}"
        )
    return "; ".join(parts)


def compare_engines(specs: list[SceneSpec], engines: tuple[str, str] = ("genesis", "mujoco")) -> list[AgreementRow]:
    rows = []
    for spec in specs:
        runs = {}
        for name in engines:
            engine = make_engine(name, engine_config(dt_s=spec.dt_s))
            try:
                runs[name] = engine_track(engine, spec)
            finally:
                engine.close()
        rows.append(compare(spec, runs))
    return rows


def format_rows(rows: list[AgreementRow]) -> str:
    lines = []
    for r in rows:
        status = "agree" if r.label_agrees and r.time_agrees else "DISAGREE"
        ttf = ", ".join(f"{k} {v}" for k, v in r.times_to_floor_s.items())
        labels = ", ".join(f"{k} {v}" for k, v in r.labels.items())
        lines.append(f"{status:8s} {r.scene_id} [{r.family}] labels: {labels}; time to floor: {ttf}")
        if r.explanation:
            lines.append(f"         why: {r.explanation}")
    agree = sum(r.label_agrees for r in rows)
    lines.append(
        f"labels agree on {agree}/{len(rows)} scenes; times to floor on {sum(r.time_agrees for r in rows)}/{len(rows)}"
    )
    return "\n".join(lines)
