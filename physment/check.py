"""`physment check DIR`: lint a scene folder in the paper's format, one line per problem naming the scene.

Problems found: metadata that does not parse (JSON, or a Python-literal string field), MJCF that does not
compile, listed objects without an `object_N` body, bodies that start interpenetrating (contact depth beyond
`penetration_tol_m`) or explode in the first `settle_s` of passive simulation (non-finite state or a speed
above `explode_speed_m_s`), answer keys that do not parse for their problem type, and permissions naming an
attribute the object's MJCF element lacks (`geom_radius` on a box written with `size`)."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

import mujoco
import numpy as np

from physment.lab import Lab, LabError
from physment.scene import ALIAS_TO_ATTR, Scene, SceneError, load_scene, problem_line, scene_folders
from physment.scoring import as_list, as_number, normalize_text
from reacthuman.core.validate import require_positive

# permission keys the loader understands without looking at the MJCF (physical quantities, not attributes)
_SEMANTIC_KEYS = set(ALIAS_TO_ATTR) | {"hidden", "visible"}
_XML_TAGS = ("body", "geom", "joint", "site", "inertial")


@dataclasses.dataclass
class CheckConfig:
    settle_s: float = 1.0  # passive simulation to catch explosions
    explode_speed_m_s: float = 100.0
    penetration_tol_m: float = 0.005  # deeper initial contacts are interpenetration, not resting contact

    def __post_init__(self) -> None:
        require_positive(self, ("settle_s", "explode_speed_m_s"))
        require_positive(self, ("penetration_tol_m",), allow_zero=True)


def default_config(**overrides: object) -> CheckConfig:
    return CheckConfig(**overrides)  # type: ignore[arg-type]


def _answer_problems(scene: Scene) -> list[str]:
    a = scene.answer
    if a is None or (isinstance(a, str) and not a.strip()):
        return ["answer is empty"]
    if isinstance(a, str) and a.strip().startswith("[") and as_list(a) is None:
        return [f"answer {a!r} looks like a list but does not parse"]
    if scene.problem_type == "comparison" and scene.problem_type_declared:
        n = as_number(a)
        if n is None or not float(n).is_integer():
            return [f"comparison answer {a!r} is not an object id"]
        if str(int(n)) not in {o.object_id for o in scene.objects}:
            return [f"comparison answer {a!r} names no listed object"]
    if scene.problem_type in ("calculation", "computation") and scene.problem_type_declared:
        parts = as_list(a)
        values = parts if parts is not None else [a]
        bad = [v for v in values if as_number(v) is None]
        if bad:
            return [f"{scene.problem_type} answer has non-numeric part(s) {bad!r}"]
    if scene.problem_type == "observation" and not normalize_text(a):
        return ["observation answer is empty after normalisation"]
    return []


def _bodies(xml_text: str) -> dict[str, ET.Element]:
    root = ET.fromstring(xml_text)
    return {b.get("name", ""): b for b in root.iter("body") if b.get("name")}


def _permission_problems(scene: Scene, bodies: dict[str, ET.Element]) -> list[str]:
    out = []
    for obj in scene.objects:
        body = bodies.get(f"object_{obj.object_id}")
        if body is None:
            continue  # reported once as a missing body
        for key in obj.raw_permissions:
            k = str(key).strip().lower()
            if k in _SEMANTIC_KEYS:
                continue
            tag, _, attr = k.partition("_")
            if tag not in _XML_TAGS or not attr:
                out.append(f"object {obj.object_id}: permission {key!r} names no known attribute")
                continue
            elems = [body] if tag == "body" else body.findall(tag)
            if not any(attr in e.attrib for e in elems):
                out.append(f"object {obj.object_id}: permission {key!r} names an attribute its <{tag}> lacks")
    return out


def _simulation_problems(lab: Lab, cfg: CheckConfig) -> list[str]:
    out = []
    m, d = lab.model, lab.data
    deepest: dict[tuple[str, str], float] = {}  # one line per pair of bodies, at its deepest contact
    for i in range(d.ncon):
        c = d.contact[i]
        if c.dist < -cfg.penetration_tol_m:
            b1, b2 = m.geom_bodyid[c.geom1], m.geom_bodyid[c.geom2]
            pair = (
                mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b1) or f"body {b1}",
                mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b2) or f"body {b2}",
            )
            deepest[pair] = max(deepest.get(pair, 0.0), -c.dist)
    out += [f"{a} and {b} start interpenetrating by {depth * 1000:.1f} mm" for (a, b), depth in deepest.items()]
    steps = max(1, int(round(cfg.settle_s / m.opt.timestep)))
    for k in range(steps):
        mujoco.mj_step(m, d)
        if (
            not (np.all(np.isfinite(d.qpos)) and np.all(np.isfinite(d.qvel)))
            or d.warning[mujoco.mjtWarning.mjWARN_BADQACC].number > 0
        ):
            out.append(f"explodes: non-finite state after {(k + 1) * m.opt.timestep:.3g} s")
            return out
    speed = np.abs(d.qvel).max() if m.nv else 0.0
    if speed > cfg.explode_speed_m_s:
        out.append(f"explodes: a joint speed of {speed:.3g} after {cfg.settle_s:g} s of passive simulation")
    return out


def check_folder_scene(folder: Path, cfg: CheckConfig) -> list[str]:
    try:
        scene = load_scene(folder)
    except SceneError as exc:
        return [str(exc)]
    problems = _answer_problems(scene)
    try:
        bodies = _bodies(scene.xml_text)
    except ET.ParseError as exc:
        return problems + [f"scene{scene.number}.xml is not XML ({exc})"]
    for obj in scene.objects:
        if f"object_{obj.object_id}" not in bodies:
            problems.append(f'object {obj.object_id} ({obj.name}) has no <body name="object_{obj.object_id}">')
    problems += _permission_problems(scene, bodies)
    try:
        lab = Lab(scene.xml_text, assets_dir=str(scene.folder))
    except LabError as exc:
        return problems + [f"scene{scene.number}.xml: {exc}"]
    return problems + _simulation_problems(lab, cfg)


def check(root: str | Path, cfg: CheckConfig | None = None) -> tuple[int, list[str]]:
    """(scenes checked, 'Scene<N>: problem' lines)."""
    cfg = cfg or default_config()
    folders = scene_folders(root)
    if not folders:
        raise SceneError(f"{root}: no Scene<N> folders")
    lines = []
    for folder in folders:
        lines += [problem_line(folder, p) for p in check_folder_scene(folder, cfg)]
    return len(folders), lines
