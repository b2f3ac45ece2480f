"""Stage 3a: simulate a SceneSpec in Genesis at the spec's dt (1/240 s) and record the dynamic bodies.

Frames and units: world frame (z up, floor z = 0), metres, seconds, m/s; quaternions (w, x, y, z).
Track times are seconds since t = 0 (the spec's initial state); sample k is the state after k steps.

One Genesis process serves many scenes: kernels compile once (minutes on an empty cache) and each
further scene build costs well under a second, so labelling keeps one GenesisSimulator alive. A scene's
trajectory does not depend on which scenes were simulated before it in the process (checked by the
tests); its digest (`Track.digest`) is the sha256 of the float32 arrays.
"""

from __future__ import annotations

import collections
import gc
import glob
import hashlib
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Callable

import numpy as np

from reacthuman.scenes.builders import to_body_frame
from reacthuman.scenes.mjcf import scene_mjcf
from reacthuman.scenes.spec import SceneSpec
import linecache
import sys
from reacthuman.scenes.index_rows import NumpyWithIndexRows

log = logging.getLogger(__name__)


@dataclass
class Track:
    """Recorded states of the dynamic bodies: arrays indexed [sample, body, ...]."""

    names: tuple[str, ...]
    times_s: np.ndarray  # (n,)
    pos: np.ndarray  # (n, b, 3) body-frame origin in the world (the pivot for hinged bodies)
    quat: np.ndarray  # (n, b, 4)
    vel: np.ndarray  # (n, b, 3) linear velocity of the body origin
    ang_vel: np.ndarray  # (n, b, 3)

    def index(self, name: str) -> int:
        return self.names.index(name)

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for arr in (self.times_s, self.pos, self.quat, self.vel, self.ang_vel):
            h.update(np.ascontiguousarray(arr, dtype=np.float32).tobytes())
        return h.hexdigest()

    def at(self, name: str, t_s: float) -> dict[str, tuple[float, ...]]:
        """State of one body at the recorded sample nearest to t_s (world frame)."""
        i = int(
            np.clip(
                np.rint(t_s / (self.times_s[1] - self.times_s[0])) if len(self.times_s) > 1 else 0,
                0,
                len(self.times_s) - 1,
            )
        )
        b = self.index(name)
        return {
            "t_s": float(self.times_s[i]),
            "pos": tuple(map(float, self.pos[i, b])),
            "quat": tuple(map(float, self.quat[i, b])),
            "vel": tuple(map(float, self.vel[i, b])),
            "ang_vel": tuple(map(float, self.ang_vel[i, b])),
        }


_GS_READY = False


def _quadrants_lang() -> ModuleType:
    """quadrants.lang, Genesis' kernel compiler, whose internals the speed-ups below adjust (it loads torch)."""
    import quadrants.lang

    return quadrants.lang


def import_genesis():
    """`import genesis`, about 3.5 s here instead of 12 (see _read_class_frames_fast); the one way the project
    imports it."""
    os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
    _read_class_frames_fast()
    import genesis

    return genesis


def _read_class_frames_fast() -> None:
    """quadrants asks, for each of Genesis' ~1,150 kernels and functions as it is defined, whether the
    definition is in a class body: it reads the source line of a caller's frame with inspect.getframeinfo.
    For the ~700 defined at module level that frame is the importer's (`<frozen importlib._bootstrap>`),
    which has no file, and inspect then scans every loaded module twice (inspect.getmodule) before giving up:
    about 8.5 of the 12 s `import genesis` takes here. linecache reads the same line (the frame's current
    line, empty for a file that does not exist), so the answer is the same; this replaces the reading only."""

    kernel_impl = _quadrants_lang().kernel_impl
    patterns = kernel_impl._KERNEL_CLASS_STACKFRAME_STMT_RES
    if getattr(kernel_impl._inside_class, "_reacthuman", False):
        return

    def inside_class(level_of_class_stackframe: int) -> bool:
        try:  # the same depth as quadrants' own: this frame replaces its function's frame
            frame = sys._getframe(level_of_class_stackframe)
            line = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
        except Exception:  # as quadrants' own: a frame it cannot read is not a class body
            return False
        statement = line.strip()
        return any(pattern.match(statement) for pattern in patterns)

    inside_class._reacthuman = True
    inside_class.replaces = kernel_impl._inside_class  # for the test that compares the two
    kernel_impl._inside_class = inside_class


BACKEND_ENV = "REACTHUMAN_GENESIS_BACKEND"
BACKENDS = ("cpu", "gpu")


def genesis_backend_name(environ: dict[str, str] | None = None) -> str:
    """The Genesis physics backend this process asks for: "cpu" (the default, and what every test, label and ledger
    of this project was made with) or "gpu" (CUDA through quadrants, an option for machines that have one; its
    kernels are not the CPU's, so its tracks are not expected to equal the CPU's to the bit). Rendering does not
    depend on it: the rasterizer draws through EGL on whatever GPU the EGL vendor library finds."""
    value = (os.environ if environ is None else environ).get(BACKEND_ENV, "cpu").strip().lower() or "cpu"
    if value not in BACKENDS:
        raise ValueError(f"{BACKEND_ENV}={value!r}: expected one of {', '.join(BACKENDS)}")
    return value


def init_genesis():
    """Genesis, initialised once per process (float32, quiet; the CPU backend unless REACTHUMAN_GENESIS_BACKEND
    says gpu); the labeller's and the body's."""
    global _GS_READY
    gs = import_genesis()
    if _GS_READY:
        return gs
    if not getattr(gs, "_initialized", False):
        backend = gs.gpu if genesis_backend_name() == "gpu" else gs.cpu
        gs.init(backend=backend, logging_level="warning", precision="32")
    # Genesis runs a full gc.collect() in every scene.destroy(); freezing the long-lived heap (torch,
    # Genesis, compiled kernels) keeps that collection to the objects of one scene (~0.5 s -> ms).
    gc.freeze()
    _clear_stale_kernel_cache_locks()
    _skip_allocation_tracebacks()
    _split_mesh_vertices_fast()
    _hash_kernel_sources_once()
    _share_support_tables()
    _GS_READY = True
    return gs


STALE_CACHE_LOCK_S = 600.0


def _clear_stale_kernel_cache_locks() -> None:
    """quadrants guards its on-disk kernel cache with lock files that it creates and deletes. One left by a process
    that died holding it stops every later process from writing compiled kernels to the cache: each warns "Lock
    ... failed" and compiles anew what the cache lacks (a CI run took 20 min instead of 14 while one was there).
    A lock is held for the moment of a read or a write, so one older than STALE_CACHE_LOCK_S is stale."""

    root = _quadrants_lang().impl.get_runtime().prog.config().offline_cache_file_path
    for path in glob.glob(os.path.join(glob.escape(root), "**", "*.lock"), recursive=True):
        if remove_stale_lock(path, STALE_CACHE_LOCK_S, time.time()):
            log.warning("removed a stale kernel cache lock left by a process that died holding it: %s", path)


def remove_stale_lock(path: str, max_age_s: float, now_s: float) -> bool:
    """Delete the lock file `path` if it was last written more than max_age_s before now_s; whether it did."""
    try:
        if now_s - os.stat(path).st_mtime <= max_age_s:
            return False
        os.remove(path)
    except FileNotFoundError:  # released meanwhile
        return False
    return True


def _skip_allocation_tracebacks() -> None:
    """Quadrants formats the whole Python stack into debug info for every array it allocates, about a third
    of a scene build here; the text only decorates its internal error messages, so leave it empty."""

    lang = _quadrants_lang()
    for module in (lang._ndarray, lang.matrix):
        if hasattr(module, "get_traceback"):
            module.get_traceback = lambda stacklevel=1: ""


def _split_mesh_vertices_fast() -> None:
    """Genesis' MJCF import splits each mesh's shared vertices with np.unique(rows, axis=0, return_inverse=True)
    on its (vertex, normal[, texcoord]) index rows, which numpy sorts as structured records: 0.3 s of every body
    scene build (the G1's meshes). Its module gets numpy with that call made from one integer key per row
    (index_rows.unique_index_rows): the same arrays, about 10x faster."""
    mjcf = import_genesis().utils.mjcf

    if mjcf.np is np:
        mjcf.np = NumpyWithIndexRows()
    elif not isinstance(mjcf.np, NumpyWithIndexRows):  # a Genesis laid out otherwise: say so rather than guess
        raise RuntimeError("genesis.utils.mjcf no longer refers to numpy as `np`")


SUPPORT_TABLES_KEPT = 512  # least recently used first out; a table is 14,400 cells of two vertex ids


def _share_support_tables() -> None:
    """Genesis builds the collision support table of each geometry (which vertices support each cell of a grid of
    directions) anew in every scene, about 9 ms a table and 75 ms a labelled scene here, most of them boxes.
    A table depends on the vertices alone, so tables are kept across scenes: by the vertices' exact bytes, and
    for an axis-aligned box by its corners' sign pattern, since a box's faces have the axes for normals whatever
    its extents, and so the same support cells (the octants); test_scenes_genesis compares random boxes against
    Genesis' own tables. The kept tables are read-only: Genesis copies them into the solver's arrays."""
    mesh = import_genesis().engine.mesh

    if getattr(mesh._get_support_table, "_reacthuman", False):
        return
    build = mesh._get_support_table
    kept: collections.OrderedDict = collections.OrderedDict()

    def support_table(verts: np.ndarray, support_res: int):
        key = (support_res, box_corner_signs(verts) or (verts.shape, verts.dtype.str, verts.tobytes()))
        table = kept.get(key)
        if table is None:
            table = build(verts, support_res)
            for array in table:
                array.setflags(write=False)
            kept[key] = table
            if len(kept) > SUPPORT_TABLES_KEPT:
                kept.popitem(last=False)
        else:
            kept.move_to_end(key)
        return table

    support_table._reacthuman = True
    support_table.replaces = build  # for the test that compares the two
    mesh._get_support_table = support_table


def box_corner_signs(verts: np.ndarray) -> bytes | None:
    """The sign pattern of an axis-aligned box's 8 corners about its centre at the origin (one half extent per
    axis, every corner once), or None for any other vertices."""
    if verts.shape != (8, 3):
        return None
    half = np.abs(verts[0])
    if not (half > 0).all() or not np.array_equal(np.abs(verts), np.broadcast_to(half, verts.shape)):
        return None
    signs = np.sign(verts).astype(np.int8)
    if len(np.unique(signs, axis=0)) != 8:
        return None
    return b"box" + signs.tobytes()


def _hash_kernel_sources_once() -> None:
    """quadrants checks a kernel it loads from its on-disk cache against the source of every function the kernel
    calls, reading each one's lines from its file again and hashing them: a few hundred file reads for each
    scene build that meets a kernel specialisation not yet loaded in the process (about 50 ms a scene here).
    The hash of a function's lines is kept per (file, lines, modification time, size), so a file that changes
    is read again; the hashes are the same."""

    hasher = _quadrants_lang()._fast_caching.function_hasher
    if getattr(hasher._hash_function, "_reacthuman", False):
        return
    hash_lines = hasher._hash_function
    hashes: dict[tuple, str] = {}

    def hash_function(info) -> str:
        try:
            stat = os.stat(info.filepath)
        except OSError:
            return hash_lines(info)  # quadrants' own error for a file it cannot read
        key = (info.filepath, info.start_lineno, info.end_lineno, stat.st_mtime_ns, stat.st_size)
        if key not in hashes:
            hashes[key] = hash_lines(info)
        return hashes[key]

    hash_function._reacthuman = True
    hash_function.replaces = hash_lines  # for the test that compares the two
    hasher._hash_function = hash_function


def add_mjcf_entity(scene, path: str, model_armature_only: bool = True):
    """Add an MJCF file to a Genesis scene as an entity, the way the labeller and the body both load a scene's world
    (the body its robot too), so that the two simulate the same world.

    model_armature_only: keep the model's own rotor inertias. Genesis otherwise adds 0.1 kg m^2 to every hinge that
    states none (a door, a pendulum, a tipping wardrobe), which MuJoCo does not. Until 2026-12-04 the labeller
    loaded the world with that default and the body without it: a hinged hazard swung a few percent slower in its
    labels than where the robot met it.

    The SDF grids Genesis precomputes per geometry cost seconds per new size; every collision geom here is a convex
    primitive (analytic or GJK contacts; the G1's meshes are visual only), so the coarsest grid allowed changes
    nothing but the build time."""
    gs = import_genesis()

    material = gs.materials.Rigid(sdf_min_res=16, sdf_max_res=16, sdf_cell_size=1.0)
    morph = gs.morphs.MJCF(file=path, default_armature=None) if model_armature_only else gs.morphs.MJCF(file=path)
    return scene.add_entity(morph, material=material)


class GenesisSimulator:
    """Builds each spec as a fresh Genesis scene (in a process that keeps its compiled kernels)."""

    def __init__(self, workdir: str | None = None) -> None:
        init_genesis()
        self._workdir = workdir or tempfile.mkdtemp(prefix="reacthuman_scenes_")
        self.timings_s: dict[str, float] = collections.defaultdict(float)  # where the time goes (benchmark)

    def build(self, spec: SceneSpec, cameras: bool = False, resolution: tuple[int, int] | None = None):
        """A built Genesis scene of the spec at t = 0; returns (scene, entity, dynamic links, camera dict)."""
        gs = import_genesis()

        path = os.path.join(self._workdir, "scene.xml")
        with open(path, "w") as f:
            f.write(scene_mjcf(spec, with_floor=True, with_furnishings=cameras))  # furniture: drawn only
        scene = gs.Scene(
            sim_options=gs.options.SimOptions(dt=spec.dt_s),
            show_viewer=False,
            vis_options=gs.options.VisOptions(show_world_frame=False, lights=_lights(spec)),
            renderer=gs.renderers.Rasterizer(),
        )
        entity = add_mjcf_entity(scene, path)
        cams = {}
        if cameras:
            for c in spec.cameras:
                res = resolution or (c.width, c.height)
                cams[c.name] = scene.add_camera(res=res, pos=c.pos, lookat=c.lookat, fov=c.fov_deg, GUI=False)
        scene.build()
        links = [entity.get_link(b.name) for b in spec.bodies if b.dynamic]
        _set_initial_velocities(spec, entity)
        return scene, entity, links, cams

    def run(
        self,
        spec: SceneSpec,
        stop: Callable[[int, np.ndarray, np.ndarray], bool] | None = None,
        on_step: Callable[[int], None] | None = None,
        cameras: bool = False,
        resolution: tuple[int, int] | None = None,
    ) -> Track:
        """Simulate and record every step: spec.n_steps steps, ending early once everything has come to rest
        after the observation window (see at_rest; nothing a label reads can change after that), or when
        stop(k, pos, vel) says so."""
        t_start = time.perf_counter()
        scene, entity, links, cams = self.build(spec, cameras=cameras, resolution=resolution)
        self.timings_s["build"] += time.perf_counter() - t_start
        self.cameras = cams  # valid inside on_step only: the scene is destroyed when run returns
        try:
            idx = [lk.idx_local for lk in links]
            names = tuple(b.name for b in spec.bodies if b.dynamic)
            n = spec.n_steps
            pos = np.zeros((n + 1, len(idx), 3), np.float32)
            quat = np.zeros((n + 1, len(idx), 4), np.float32)
            vel = np.zeros((n + 1, len(idx), 3), np.float32)
            ang = np.zeros((n + 1, len(idx), 3), np.float32)
            last = n
            quiet = 0
            window_end = int(round((spec.t0_s + spec.observation_window_s) / spec.dt_s))
            read_links = link_state_reader(entity, idx)
            clock = time.perf_counter
            for k in range(n + 1):
                t0 = clock()
                if k:
                    scene.step()
                t1 = clock()
                pos[k], quat[k], vel[k], ang[k] = read_links()
                t2 = clock()
                self.timings_s["step"] += t1 - t0
                self.timings_s["read_state"] += t2 - t1
                if on_step is not None:
                    on_step(k)
                    self.timings_s["on_step"] += clock() - t2
                quiet = quiet + 1 if _still(vel[k], ang[k]) else 0
                if (k >= window_end and quiet >= REST_STEPS) or (
                    stop is not None and stop(k, pos[: k + 1], vel[: k + 1])
                ):
                    last = k
                    break
            times = (np.arange(last + 1, dtype=np.float64) * spec.dt_s).astype(np.float32)
            return Track(names, times, pos[: last + 1], quat[: last + 1], vel[: last + 1], ang[: last + 1])
        finally:
            self.cameras = {}
            t_end = time.perf_counter()
            last_reference = [scene]
            del scene, entity, links, cams
            release_scene_for_good(last_reference)
            self.timings_s["teardown"] += time.perf_counter() - t_end


def link_state_reader(entity, idx: list[int]) -> Callable[[], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """A function reading the links `idx` of `entity` (position, quaternion, velocity of the origin, angular
    velocity; world frame) as the entity's get_links_pos/quat/vel/ang would, at each call.

    The four getters cost about 0.25 ms a step here (each one checks its arguments, views the solver's state
    and copies all links), about a tenth of labelling a scene. Where Genesis shares the solver's state with
    torch without copies (its CPU backend) and the entity is the scene's only one with identity link offsets,
    the state is viewed once per scene and each call computes the origin velocity with the getter's own torch
    operations on the same arrays (cd_vel + cd_ang x (pos - root_COM)), so every value is the same to the bit
    (test_scenes_genesis checks it against the getters at every step). Elsewhere it calls the getters."""
    gs = import_genesis()
    qd_to_torch = gs.utils.misc.qd_to_torch

    solver = entity._solver
    if not (
        gs.use_zerocopy
        and solver.n_envs == 0
        and entity._link_start == 0
        and entity.n_links == solver.n_links
        and bool(solver._links_offset_pos_is_identity.all())
        and bool(solver._links_offset_quat_is_identity.all())
    ):
        return lambda: (
            entity.get_links_pos().cpu().numpy()[idx],
            entity.get_links_quat().cpu().numpy()[idx],
            entity.get_links_vel().cpu().numpy()[idx],
            entity.get_links_ang().cpu().numpy()[idx],
        )
    links = solver.dyn_state.links
    pos, quat, cd_vel, cd_ang, root_com = (
        qd_to_torch(field, transpose=True)
        for field in (links.pos, links.quat, links.cd_vel, links.cd_ang, links.root_COM)
    )

    def read() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        vel = cd_vel + cd_ang.cross(pos - root_com, dim=-1)
        return pos[0].numpy()[idx], quat[0].numpy()[idx], vel[0].numpy()[idx], cd_ang[0].numpy()[idx]

    return read


REST_SPEED_MPS = 0.005
REST_ANG_RPS = 0.05
REST_STEPS = 24  # 0.1 s of stillness of every dynamic body ends the run


def _still(vel: np.ndarray, ang: np.ndarray) -> bool:
    return bool(np.abs(vel).max(initial=0.0) < REST_SPEED_MPS and np.abs(ang).max(initial=0.0) < REST_ANG_RPS)


def _lights(spec: SceneSpec) -> list[dict]:
    return [
        {"type": "directional", "dir": light.dir, "color": light.color, "intensity": 5.0 * light.intensity}
        for light in spec.lights
    ]


def _set_initial_velocities(spec: SceneSpec, entity) -> None:
    """Free bodies: world linear and angular velocity; hinges: their initial rate."""
    import torch

    dofs, values = [], []
    for b in spec.bodies:
        if not b.dynamic:
            continue
        joint = entity.get_joint(f"{b.name}_free" if b.joint.kind == "free" else f"{b.name}_hinge")
        start = joint.dof_start
        if b.joint.kind == "free":
            dofs += list(range(start, start + 6))
            values += list(b.lin_vel) + list(to_body_frame(b.quat, b.ang_vel))  # dofs in the body frame
        else:
            dofs.append(start)
            values.append(b.joint.initial_rate)
    if dofs:
        local = [d - entity.dof_start for d in dofs]
        entity.set_dofs_velocity(torch.tensor(values, dtype=torch.float32), dofs_idx_local=local)


def release_scene(scene) -> None:
    """Destroy a built scene and drop what Genesis keeps of it, so that a process building one scene after
    another (the labeller, the body) neither grows with them nor collects garbage slower at each teardown.

    Genesis 1.4.5 keeps, of every destroyed scene:
    - the rigid solver's state arrays, held by the constraint solver's autotuner, which keys its choice of
      implementation on the solve's arguments themselves (see _forget_solver_trials);
    - texture arrays in module-level caches (up to 512 MiB), keyed by texture object, so no later scene hits them.
    Measured labelling 100 scenes in one process: the process grew 12 MiB per scene and each teardown's full
    gc.collect took 2.3 ms longer per scene built before it; with this, about 1.1 MiB and 0.8 ms (what is left
    is held inside the kernel compiler, out of reach). The labelled specs are the same, byte for byte.

    The caches are dropped before the scene, so that the full collection Genesis runs in `destroy` takes what
    they held too.
    """
    import_genesis().utils.cache.clear_caches()
    _forget_solver_trials()
    _keep_static_configs(scene)
    try:
        scene.destroy()
    except Exception as exc:  # a failed teardown must not hide the result
        log.debug("scene teardown: %s", exc)


def release_scene_for_good(last_reference: list) -> None:
    """release_scene for a process that keeps nothing of a scene (the labeller), given the scene's last reference
    in a one-item list; afterwards what is left on the heap is moved out of the collector's sight (gc.freeze).

    Every collection traverses the objects not frozen. The kernels and tables each new scene layout adds live for
    the process, and each later teardown's full collection traversed them again: 72 -> 18 ms a scene here. The
    freeze comes after the scene object itself has gone and a collection has taken the cycles it left (its
    meshes' trimesh caches: about 800 objects a scene), since a frozen cycle is never collected; frozen objects
    are still freed when their last reference goes."""
    release_scene(last_reference.pop())
    gc.collect()
    gc.freeze()


# One static configuration object (the rigid solver's, the collider's) per distinct value, kept for the life of
# the process (see below).
_STATIC_CONFIGS: dict = {}


def _keep_static_configs(scene) -> None:
    """Keep the rigid solver's, the collider's and GJK's static configurations per combination of values, as
    _forget_solver_trials keeps the solver's: the step's kernels (collider clear, detection, inequality constraints) take them as
    template arguments, cached under weak references that compare by value only while they live. Without them
    each scene loaded those kernels again from quadrants' disk cache, a layout seen before included."""
    solver = getattr(scene.sim, "rigid_solver", None) if scene.sim is not None else None
    collider = getattr(solver, "collider", None)
    if collider is None:
        return
    # Kept together: a kernel's key holds several of them, and a collider configuration equal to one kept for
    # another layout (another solver configuration) is not the object that layout's kernels were cached under.
    configs = (solver.rigid_config, collider.collider_config, collider.gjk.gjk_config)
    _STATIC_CONFIGS.setdefault(configs, configs)


def _forget_solver_trials() -> None:
    """Empty the constraint solver autotuner's per-argument tables, keeping one configuration object per value.

    The tables key on the solve's arguments (the scene's state arrays), so they kept every scene alive. A new
    scene's arguments are new objects, so it is dispatched afresh whether the old keys stay or not (on the CPU
    one implementation is eligible, so the choice is the same). The solver's static configuration among the
    arguments is what the compiled kernels are cached under, through a weak reference that compares by value
    while it lives: keeping one configuration object per value lets a later scene of the same layout reuse the
    kernels without keeping any arrays. Without it each build loaded its kernels again (0.34 -> 0.56 s per
    labelled scene here)."""
    solver = import_genesis().engine.solvers.rigid.constraint.solver

    tuner = solver.func_solve_body
    tables = [
        value
        for name, value in vars(tuner).items()
        if name.endswith("_by_geometry_hash") or name == "_first_eval_completed"
    ]
    if len(tables) < 6:  # a Genesis whose autotuner is laid out otherwise: find where it keeps scenes
        raise RuntimeError(f"Genesis' solver autotuner has no per-argument tables to empty (found {len(tables)})")
    for key in tuner._last_check_time_by_geometry_hash:
        config = key[SOLVER_CONFIG_ARG]
        _STATIC_CONFIGS.setdefault(config, config)
    for table in tables:
        table.clear()
    tuner._cached_args = tuner._cached_kwargs = tuner._cached_impl = None


SOLVER_CONFIG_ARG = 4  # func_solve_body(dyn_state, constraint_state, dyn_info, rigid_info, rigid_config, n_iterations)
