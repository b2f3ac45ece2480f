"""Can the brain see the hazard? Pixel counts from a renderer's segmentation mask at the freeze frame.

A projected centre says nothing about size: a tennis ball 4 m away is "in frame" and 3 px wide. This
validator renders the scene's three cameras at the brain's frame size with every dynamic body at its
simulated pose of the freeze frame (t0 + observation window), reads MuJoCo's segmentation buffer, and
counts the pixels that belong to the primary hazard's geoms (its collision proxy and its visual mesh).
The scene passes when at least `min_views` views show at least `min_pixels` pixels of it.

MuJoCo renders here because its cameras move freely after compilation, so retried camera placements cost
a render each, not a scene build; both engines load the same MJCF, so the hazard's silhouette is the same.
"""

from __future__ import annotations

import dataclasses
import math
import random
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from reacthuman.core.config import config_with
from reacthuman.scenes.builders import quat_mul
from reacthuman.scenes.cameras import RoomBounds, closeup_on_hazard, keeps_course_in_view, place_cameras
from reacthuman.scenes.label import body_points
from reacthuman.scenes.mjcf import scene_mjcf
from reacthuman.scenes.rooms import furnishing_boxes
from reacthuman.scenes.spec import CameraSpec, SceneSpec
from reacthuman.scenes.validators import hazard_window_points


@dataclass(frozen=True)
class VisibilityConfig:
    min_pixels: int = 256  # the bar: at 640x360 about a 16x16 px patch
    min_views: int = 2
    width_px: int = 640  # the brain's frame size (body node default)
    height_px: int = 360

    def __post_init__(self) -> None:
        for name in ("min_pixels", "min_views", "width_px", "height_px"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"visibility config {name} must be a positive integer, got {value!r}")
        if self.min_views > 3:
            raise ValueError(f"visibility config min_views must be at most 3 (three views), got {self.min_views}")


def default_config(**overrides: Any) -> VisibilityConfig:
    """config/visibility.yaml with `overrides` applied."""
    return config_with(VisibilityConfig, overrides)


def freeze_step(spec: SceneSpec) -> int:
    return int(round((spec.t0_s + spec.observation_window_s) / spec.dt_s))


def _pose_at(mujoco, model, data, spec: SceneSpec, track, k: int) -> None:
    """Every dynamic body of the compiled scene at its simulated pose of step k (free joints: position and
    orientation; hinges: the angle that turns the body from its start orientation to the simulated one)."""
    for b in spec.bodies:
        if not b.dynamic:
            continue
        i = track.index(b.name)
        pos, quat = track.pos[k, i].astype(np.float64), track.quat[k, i].astype(np.float64)
        if b.joint.kind == "free":
            adr = model.jnt_qposadr[model.joint(f"{b.name}_free").id]
            data.qpos[adr : adr + 3], data.qpos[adr + 3 : adr + 7] = pos, quat
        else:
            w, x, y, z = b.quat
            rel = quat_mul((w, -x, -y, -z), tuple(quat))
            angle = 2.0 * math.atan2(
                float(np.dot(rel[1:], b.joint.axis)) / (np.linalg.norm(b.joint.axis) or 1.0), rel[0]
            )
            data.qpos[model.jnt_qposadr[model.joint(f"{b.name}_hinge").id]] = angle
    mujoco.mj_forward(model, data)


def _free_camera(mujoco, cam: CameraSpec):
    """MuJoCo's free camera looking from cam.pos at cam.lookat (world z up, as cameras.project)."""
    d = np.subtract(cam.lookat, cam.pos)
    dist = float(np.linalg.norm(d)) or 1e-6
    f = d / dist
    v = mujoco.MjvCamera()
    v.type = mujoco.mjtCamera.mjCAMERA_FREE
    v.lookat[:] = cam.lookat
    v.distance = dist
    v.azimuth = math.degrees(math.atan2(f[1], f[0]))
    v.elevation = math.degrees(math.asin(max(-1.0, min(1.0, f[2]))))
    return v


MASK_SHADOW_MAP_PX = 1  # the smallest shadow map MuJoCo allocates; masks never sample it
MASK_MULTISAMPLES = 0  # MuJoCo's default is 4; a segmentation mask is the same without them
# Room for every geom a scene draws (under 100 here); a scene of 10,000 took 14 ms to allocate per renderer. A
# full scene would drop geoms from the mask, so _draw refuses one.
MASK_MAX_GEOMS = 1_000


class MaskRenderer:
    """Segmentation renders of one scene at one step of its track from any number of camera placements."""

    def __init__(self, spec: SceneSpec, track, cfg: VisibilityConfig, step: int | None = None) -> None:
        import mujoco

        self.mujoco, self.cfg = mujoco, cfg
        # Textures never colour a segmentation pixel; compiling and uploading them was 70% of a renderer's start.
        self.model = mujoco.MjModel.from_xml_string(scene_mjcf(spec, with_textures=False))
        self.model.vis.global_.offwidth = max(cfg.width_px, self.model.vis.global_.offwidth)
        self.model.vis.global_.offheight = max(cfg.height_px, self.model.vis.global_.offheight)
        # MuJoCo's near plane is relative to the model's extent (the 30 m floor slab makes it 0.85 m): 1 cm.
        self.model.vis.map.znear = 0.01 / self.model.stat.extent
        # Masks are drawn without shadows, but MuJoCo allocates the model's shadow map (4096^2 by default) with
        # every renderer: half of a renderer's start-up on llvmpipe, and no pixel of a mask depends on it.
        self.model.vis.quality.shadowsize = MASK_SHADOW_MAP_PX
        # Segmentation is drawn with multisampling off (one ID per pixel, from its centre, in every sample), so
        # a multisampled buffer only costs fill time: 2.5x per mask on llvmpipe, and the same mask.
        self.model.vis.quality.offsamples = MASK_MULTISAMPLES
        self.data = mujoco.MjData(self.model)
        k = min(freeze_step(spec) if step is None else step, len(track.times_s) - 1)
        _pose_at(mujoco, self.model, self.data, spec, track, k)
        body = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, spec.hazard_bodies[0])
        self.hazard_geoms = frozenset(np.flatnonzero(self.model.geom_bodyid == body).tolist())
        self._gl = _thread_gl_context(mujoco)
        self._gl.make_current()
        self._context = mujoco.MjrContext(self.model, mujoco.mjtFontScale.mjFONTSCALE_150.value)
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN.value, self._context)
        self._scene = mujoco.MjvScene(self.model, maxgeom=MASK_MAX_GEOMS)
        self._option = mujoco.MjvOption()
        self._rect = mujoco.MjrRect(0, 0, cfg.width_px, cfg.height_px)
        flags = mujoco.mjtRndFlag
        for flag in (flags.mjRND_SHADOW, flags.mjRND_REFLECTION, flags.mjRND_SKYBOX):
            self._scene.flags[flag] = False  # a mask needs none of them; each costs time on llvmpipe
        for flag in (flags.mjRND_SEGMENT, flags.mjRND_IDCOLOR):
            self._scene.flags[flag] = True  # each geom drawn in the colour of its segment id
        self._counts: dict[CameraSpec, int] = {}  # a placement asked again (the final check) is not drawn again

    def pixels(self, cam: CameraSpec) -> int:
        if cam not in self._counts:
            self._counts[cam] = self._render_pixels(cam)
        return self._counts[cam]

    def _render_pixels(self, cam: CameraSpec) -> int:
        seg_id = self._draw(cam)
        geom = int(self.mujoco.mjtObj.mjOBJ_GEOM)
        hazard = [
            g.segid + 1
            for g in self._scene.geoms[: self._scene.ngeom]
            if g.segid != -1 and g.objtype == geom and g.objid in self.hazard_geoms
        ]
        return sum(int(np.count_nonzero(seg_id == s)) for s in hazard)

    def mask(self, cam: CameraSpec) -> np.ndarray:
        """(height, width, 2): per pixel the object id and object type drawn there, (-1, -1) for none; the
        layout of mujoco.Renderer's segmentation, image rows top to bottom."""
        seg_id = self._draw(cam)
        lookup = np.full((self._scene.ngeom + 1, 2), -1, np.int32)  # segment id 0 is the background
        for g in self._scene.geoms[: self._scene.ngeom]:
            if g.segid != -1:
                lookup[g.segid + 1] = (g.objid, g.objtype)
        return np.flipud(lookup[seg_id])

    def _draw(self, cam: CameraSpec) -> np.ndarray:
        """The segment id (geom's segid + 1, 0 for none) of every pixel, rows bottom to top (OpenGL's order)."""
        mujoco = self.mujoco
        self.model.vis.global_.fovy = cam.fov_deg
        mujoco.mjv_updateScene(
            self.model,
            self.data,
            self._option,
            None,
            _free_camera(mujoco, cam),
            mujoco.mjtCatBit.mjCAT_ALL.value,
            self._scene,
        )
        if self._scene.ngeom >= self._scene.maxgeom:
            raise RuntimeError(
                f"a mask of {self.model.ngeom} geoms fills MjvScene's {self._scene.maxgeom}: raise MASK_MAX_GEOMS"
            )
        self._gl.make_current()
        mujoco.mjr_render(self._rect, self._scene, self._context)
        rgb = np.empty((self.cfg.height_px, self.cfg.width_px, 3), np.uint8)
        mujoco.mjr_readPixels(rgb, None, self._rect, self._context)
        return rgb[..., 0].astype(np.int32) | (rgb[..., 1].astype(np.int32) << 8) | (rgb[..., 2].astype(np.int32) << 16)

    def close(self) -> None:
        if self._context is not None:
            self._gl.make_current()
            self._context.free()
            self._context = None

    def __enter__(self) -> "MaskRenderer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_GL = threading.local()


def _thread_gl_context(mujoco):
    """One GL context per thread, kept for every scene it labels. A fresh context (as each mujoco.Renderer
    makes) costs about 0.2 s on llvmpipe before its first draw, a sixth of labelling a scene; a further
    model's MjrContext in a kept one costs about 0.035 s. Per thread, since a context is current on one."""
    context = getattr(_GL, "context", None)
    if context is None:
        context = _GL.context = mujoco.GLContext(1, 1)  # the size is unused: masks draw offscreen
    return context


def hazard_pixels(spec: SceneSpec, track, cfg: VisibilityConfig | None = None) -> dict[str, int]:
    """Pixels of the primary hazard per view at the freeze frame, at the brain's frame size."""
    cfg = cfg or default_config()
    with MaskRenderer(spec, track, cfg) as r:
        return {cam.name: r.pixels(cam) for cam in spec.cameras}


def visible_enough(counts: dict[str, int], cfg: VisibilityConfig) -> bool:
    return sum(n >= cfg.min_pixels for n in counts.values()) >= cfg.min_views


def check_hazard_visible(spec: SceneSpec, track, cfg: VisibilityConfig | None = None) -> list[str]:
    cfg = cfg or default_config()
    counts = hazard_pixels(spec, track, cfg)
    if visible_enough(counts, cfg):
        return []
    shown = ", ".join(f"{v} {n}" for v, n in counts.items())
    return [
        f"hazard covers fewer than {cfg.min_pixels} px in {cfg.min_views} views at the freeze frame ({shown} px "
        f"at {cfg.width_px}x{cfg.height_px})"
    ]


ZOOM_STEPS = (0.85, 0.7, 0.55, 0.45)  # close-up dolly factors / egocentric fov factors tried in turn
OVERHEAD_SHIFT_M = 3.0  # the overhead slides sideways by (1 - factor) x this: it can look under a ceiling mount
CEILING_CLEARANCE_M = 0.15
PLACEMENT_RETRIES = 4


def _zoomed(cam: CameraSpec, factor: float, ceiling_z: float = math.inf) -> CameraSpec:
    """The close-up moves towards what it looks at; the head camera cannot move, so it narrows its lens."""
    if cam.name == "closeup":
        pos = tuple(look + (p - look) * factor for p, look in zip(cam.pos, cam.lookat))
        return dataclasses.replace(cam, pos=tuple(round(v, 4) for v in pos))
    if cam.name == "egocentric":
        return dataclasses.replace(cam, fov_deg=round(max(40.0, cam.fov_deg * factor), 3))
    # The overhead moves away from the spot straight above what it looks at (where a mount may hide a fall),
    # comes down under the room's ceiling and narrows its lens.
    dx, dy = cam.pos[0] - cam.lookat[0], cam.pos[1] - cam.lookat[1]
    n = math.hypot(dx, dy) or 1.0
    shift = (1.0 - factor) * OVERHEAD_SHIFT_M
    z = min(cam.pos[2], ceiling_z - CEILING_CLEARANCE_M)
    return dataclasses.replace(
        cam,
        pos=(round(cam.pos[0] + dx / n * shift, 4), round(cam.pos[1] + dy / n * shift, 4), round(z, 4)),
        fov_deg=round(max(30.0, cam.fov_deg * factor), 3),
    )


def _aimed_at_freeze(cam: CameraSpec, factor: float, freeze_point) -> CameraSpec:
    """The close-up turned (1 - factor) of the way from what it looks at towards the hazard's freeze position."""
    look = tuple(round(q + (1.0 - factor) * (p - q), 4) for q, p in zip(cam.lookat, freeze_point))
    return dataclasses.replace(cam, lookat=look)


def _candidates(cam: CameraSpec, points, ceiling_z: float) -> list[CameraSpec]:
    out = [cam] + [_zoomed(cam, f, ceiling_z) for f in ZOOM_STEPS]
    if cam.name == "closeup":
        out += [_zoomed(_aimed_at_freeze(cam, f, points[-1]), f, ceiling_z) for f in ZOOM_STEPS]
    return out


def _best_variant(
    r: MaskRenderer, cams: tuple[CameraSpec, ...], points, cfg: VisibilityConfig, ceiling_z: float = math.inf
):
    """cams, or per camera the first variant (zoomed, turned towards the freeze position) that shows the
    hazard well enough while keeping its observed course in view; None when fewer than min_views do."""
    counts: dict[str, int] = {}
    for c in cams:  # views drawn until enough show it: more views can only add to a count that already suffices
        counts[c.name] = r.pixels(c)
        if visible_enough(counts, cfg):
            return cams
    chosen = []
    for cam in cams:
        pick = cam
        if counts[cam.name] < cfg.min_pixels:
            for trial in _candidates(cam, points, ceiling_z)[1:]:
                if keeps_course_in_view(trial, points) and r.pixels(trial) >= cfg.min_pixels:
                    pick = trial
                    break
        chosen.append(pick)
    chosen_counts = {c.name: r.pixels(c) for c in chosen}
    return tuple(chosen) if visible_enough(chosen_counts, cfg) else None


def hazard_radius_m(spec: SceneSpec, track, points) -> float:
    """How far the primary hazard's surface reaches from its window centre at the freeze (its bounding radius)."""
    pts, radii = body_points(spec, track, spec.hazard_bodies[0])
    k = min(freeze_step(spec), len(track.times_s) - 1)
    return float(np.max(np.linalg.norm(pts[k] - np.asarray(points[-1]), axis=-1) + radii))


def with_hazard_closeup(
    rng, spec: SceneSpec, cams: tuple[CameraSpec, ...], points, radius_m: float
) -> tuple[CameraSpec, ...]:
    """cams with the close-up framing the hazard object over its observed course (cameras.closeup_on_hazard);
    cams unchanged when no such placement fits in the room."""
    old = next(c for c in cams if c.name == "closeup")
    room = RoomBounds.of(spec.params, furnishing_boxes(spec.furnishings))
    new = closeup_on_hazard(rng, tuple(points), radius_m, old.width, old.height, room, spec.observer)
    return cams if new is None else tuple(new if c.name == "closeup" else c for c in cams)


def place_visible_cameras(spec: SceneSpec, track, cfg: VisibilityConfig | None = None) -> SceneSpec:
    """The spec with cameras that show its hazard well enough at the freeze frame: its own when they do,
    else a zoomed variant, else seeded re-placements (as for the in-frame retry). Raises RuntimeError."""

    cfg = cfg or default_config()
    points = tuple(hazard_window_points(spec, track))
    radius = hazard_radius_m(spec, track, points)
    # The close-up frames the object where it is around the freeze (from this scene's own track), not the
    # event origin: the origin view leaves a knife on its ramp a few pixels wide.
    framed = with_hazard_closeup(
        random.Random(f"reacthuman/closeup/{spec.family}/{spec.seed}"), spec, spec.cameras, points, radius
    )
    with MaskRenderer(spec, track, cfg) as r:
        ceiling_z = float(spec.params.get("room_height_m", math.inf))
        cams = _best_variant(r, framed, points, cfg, ceiling_z)
        rng = random.Random(f"reacthuman/camera-visibility/{spec.family}/{spec.seed}")
        ego = spec.camera("egocentric")
        for _ in range(PLACEMENT_RETRIES if cams is None else 0):
            try:
                fresh = place_cameras(
                    rng,
                    spec.observer,
                    tuple(spec.params["event_origin"]),
                    tuple(spec.params["event_target"]),
                    ego.width,
                    ego.height,
                    max_tries=200,
                    also_see=points,
                )
            except RuntimeError:
                break
            fresh = with_hazard_closeup(rng, spec, fresh, points, radius)
            cams = _best_variant(r, fresh, points, cfg, ceiling_z)
            if cams is not None:
                break
        if cams is None:
            counts = ", ".join(f"{c.name} {r.pixels(c)}" for c in spec.cameras)
            raise RuntimeError(
                f"no camera placement shows the hazard with {cfg.min_pixels} px in {cfg.min_views} "
                f"views at the freeze frame (first placement: {counts} px)"
            )
    return spec if cams == spec.cameras else dataclasses.replace(spec, cameras=cams)
