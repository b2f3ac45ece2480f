"""Scene generation through Genesis: every family simulates and labels, reproducibility bit for bit (also
across processes), validation, free-fall timing, adversarial twins, rendering. One Genesis simulator per
module; about 30 small scene builds."""

from __future__ import annotations

import collections
import dataclasses
import json
import math
import os
import struct
import subprocess
import sys

import pytest

from reacthuman.scenes import FAMILIES, SceneSpec, generate_spec, hazard_track, label_spec, sample_spec
from reacthuman.scenes.dataset import GenerateConfig, generate_dataset, read_spec, validate_scene
from reacthuman.scenes.label import body_points

G_MPS2 = 9.81


@pytest.fixture(scope="module")
def balanced(sim, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("balanced"))
    rows = generate_dataset(GenerateConfig(out=out, balanced=1, seed=5), simulator=sim)
    return out, rows


def test_every_family_generates_simulates_and_labels(balanced) -> None:
    out, rows = balanced
    assert sorted(r["family"] for r in rows) == sorted(FAMILIES)
    for r in rows:
        spec = read_spec(os.path.join(out, r["scene_id"], "spec.json"))
        gt = spec.ground_truth
        assert gt is not None
        assert len(gt.track_sha256) == 64
        assert gt.correct_action in ("CATCH", "DODGE", "NO_ACTION")
        assert (gt.impact_point is None) == (gt.correct_action == "NO_ACTION")
        if gt.correct_action == "DODGE":
            assert gt.reasons  # dangerous (intrinsic) or too fast / too much momentum / not graspable
        if gt.dangerous:
            assert set(gt.reasons) & {"sharp", "hot", "shattering", "heavy"}
        assert gt.time_to_floor_s is None or gt.time_to_floor_s > 0
    with open(os.path.join(out, "index.jsonl")) as f:
        assert [json.loads(line)["scene_id"] for line in f] == [r["scene_id"] for r in rows]


def test_label_split_of_a_balanced_set_is_reported(balanced) -> None:
    _, rows = balanced
    split = collections.Counter(r["correct_action"] for r in rows)
    print(
        f"\nbalanced set (1 per family) CATCH/DODGE/NO_ACTION: {split['CATCH']}/{split['DODGE']}/{split['NO_ACTION']}"
        " (paper, 18 per family: 141/156/9)"
    )
    assert split["CATCH"] > 0
    assert split["DODGE"] > 0


def test_labelling_keeps_no_solver_state_of_the_scenes_it_built(balanced, sim) -> None:
    """Genesis' solver autotuner kept every destroyed scene's state arrays (about 12 MiB a scene: a 10,000-scene
    run would not fit in memory, and each teardown's full collection slowed with them). release_scene leaves
    none behind, and keeps the solver's configuration per layout, under which the compiled kernels are cached."""
    import gc

    from genesis.utils.array_class import ConstraintState

    import reacthuman.scenes.genesis_sim as genesis_sim

    def solver_states() -> int:
        gc.unfreeze()  # the labeller freezes what outlives each scene (release_scene_for_good): count that too
        gc.collect()
        states = sum(type(o) is ConstraintState for o in gc.get_objects())  # isinstance would touch dead weak proxies
        gc.freeze()
        return states

    before = solver_states()
    for seed in (31, 32, 33):
        label_spec(sample_spec("object_drop", seed), sim)
    assert solver_states() <= before
    assert genesis_sim._STATIC_CONFIGS  # the object_drop layout's configurations, kept for its kernels


def test_labelling_freezes_nothing_of_a_scene_it_built(sim) -> None:
    """The labeller moves what outlives a scene out of the collector's sight (gc.freeze), so a cycle of the scene
    frozen by mistake would never be freed: a reference to the scene kept past its teardown froze about 800 of
    its objects (meshes, their trimesh caches), 10-20 MiB a scene. Collected with everything unfrozen, one more
    simulated scene leaves no Genesis or trimesh object as garbage."""
    import gc

    sim.run(sample_spec("ceiling_drop", 41))
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    sim.run(sample_spec("ceiling_drop", 42))
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        left = collections.Counter(type(o).__module__.split(".")[0] for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.freeze()
    assert left["genesis"] == 0, left
    assert left["trimesh"] == 0, left


@pytest.mark.parametrize(
    "family,seed", [("multi_object", 3), ("pendulum_swing", 2), ("door_swing", 1), ("stair_tumble", 4)]
)
def test_the_labellers_link_reads_equal_genesis_getters_to_the_bit(sim, family, seed) -> None:
    """link_state_reader views the solver's state once and computes the origin velocity as the getter does; at
    every step of free, hinged and bouncing bodies its reads are the getters' own, byte for byte."""
    from reacthuman.scenes.genesis_sim import link_state_reader, release_scene

    spec = sample_spec(family, seed)
    scene, entity, links, _ = sim.build(spec)
    try:
        idx = [lk.idx_local for lk in links]
        read = link_state_reader(entity, idx)
        assert read.__name__ == "read"  # the fast reader, not the getters' fallback
        for _ in range(240):
            scene.step()
            getters = (entity.get_links_pos(), entity.get_links_quat(), entity.get_links_vel(), entity.get_links_ang())
            for fast, slow in zip(read(), getters):
                assert fast.tobytes() == slow.cpu().numpy()[idx].tobytes()
    finally:
        del entity, links
        release_scene(scene)


def test_a_scene_layout_built_before_loads_no_kernel_again(sim, monkeypatch) -> None:
    """The step's kernels are cached under the solver's, the collider's and GJK's static configurations, through
    weak references that compare by value while they live; release_scene keeps one of each value, so a second
    build of a layout materializes nothing (without them, three kernels loaded from the disk cache per scene)."""
    import importlib

    kernel = importlib.import_module("quadrants.lang.kernel")
    spec = sample_spec("object_drop", 44)
    sim.run(spec)
    loaded = []
    materialize = kernel.Kernel.materialize

    def counted(self, key, py_args, arg_features=None):
        if key is None or key not in self.materialized_kernels:
            loaded.append(self.func.__name__)
        return materialize(self, key, py_args, arg_features)

    monkeypatch.setattr(kernel.Kernel, "materialize", counted)
    sim.run(spec)
    assert loaded == []


def test_a_kernel_cache_lock_left_by_a_dead_process_is_removed_and_a_fresh_one_kept(tmp_path) -> None:
    from reacthuman.scenes.genesis_sim import STALE_CACHE_LOCK_S, remove_stale_lock

    stale, fresh = tmp_path / "stale.lock", tmp_path / "fresh.lock"
    stale.touch()
    fresh.touch()
    now_s = stale.stat().st_mtime + STALE_CACHE_LOCK_S + 1.0
    os.utime(fresh, (now_s - 1.0, now_s - 1.0))
    assert remove_stale_lock(str(stale), STALE_CACHE_LOCK_S, now_s)
    assert not stale.exists()
    assert not remove_stale_lock(str(fresh), STALE_CACHE_LOCK_S, now_s)
    assert fresh.exists()
    assert not remove_stale_lock(str(tmp_path / "gone.lock"), STALE_CACHE_LOCK_S, now_s)


def test_the_genesis_backend_is_cpu_unless_asked_and_a_wrong_name_is_refused_by_name() -> None:
    from reacthuman.scenes.genesis_sim import BACKEND_ENV, genesis_backend_name

    assert genesis_backend_name({}) == "cpu"
    assert genesis_backend_name({BACKEND_ENV: " GPU "}) == "gpu"
    with pytest.raises(ValueError, match=f"{BACKEND_ENV}='cuda'"):
        genesis_backend_name({BACKEND_ENV: "cuda"})


def test_kept_support_tables_equal_genesis_own_for_boxes_of_any_extents(sim) -> None:
    """Support tables are kept across scenes by vertices, and boxes by their corners' sign pattern alone: for random
    boxes from 3 mm to 30 m, with equal extents among them, and in two corner orders, Genesis' own table of each
    box equals the kept one; other vertices are kept by their exact bytes."""
    import numpy as np
    import trimesh

    import genesis.engine.mesh as mesh
    from reacthuman.scenes.genesis_sim import box_corner_signs

    kept = mesh._get_support_table
    assert getattr(kept, "_reacthuman", False)
    own = kept.replaces
    rng = np.random.default_rng(7)
    for corners in (
        trimesh.creation.box(extents=(1, 1, 1)).vertices,
        trimesh.creation.box(extents=(1, 1, 1)).vertices[::-1],
    ):
        signs = np.sign(corners)
        for i in range(40):
            extents = np.exp(rng.uniform(np.log(0.003), np.log(30.0), 3))
            if i % 4 == 0:
                extents[i % 3] = extents[(i + 1) % 3]
            verts = (signs * extents / 2).astype(np.float32)
            assert box_corner_signs(verts) == box_corner_signs(signs.astype(np.float32))
            assert all(np.array_equal(a, b) for a, b in zip(kept(verts, 120), own(verts, 120)))
    sphere = trimesh.creation.icosphere(subdivisions=1).vertices.astype(np.float32)
    assert box_corner_signs(sphere) is None
    assert box_corner_signs(sphere[:8]) is None
    assert kept(sphere, 120) is kept(sphere.copy(), 120)  # the same vertices: the table kept
    assert all(np.array_equal(a, b) for a, b in zip(kept(sphere, 120), own(sphere, 120)))
    assert kept(sphere * 2, 120) is not kept(sphere, 120)


def test_kernel_source_hashes_are_read_once_and_equal_quadrants_own(sim, tmp_path) -> None:
    """quadrants validates a cached kernel by hashing the source lines of each function it calls, read from their
    files each time; the kept hashes (genesis_sim._hash_kernel_sources_once) are quadrants' own, read once, and
    read again when the file changes."""
    import quadrants.lang._fast_caching.function_hasher as hasher
    from quadrants.lang._wrap_inspect import FunctionSourceInfo

    kept = hasher._hash_function
    assert getattr(kept, "_reacthuman", False)
    source = tmp_path / "kernels.py"
    source.write_text("def f():\n    return 1\n\n\ndef g():\n    return 2\n")
    infos = [
        FunctionSourceInfo(function_name=n, filepath=str(source), start_lineno=a, end_lineno=b)
        for n, a, b in (("f", 0, 1), ("g", 4, 5))
    ]
    reads = []
    read_file = hasher._read_file
    hasher._read_file = lambda info: reads.append(info) or read_file(info)
    try:
        first = [kept(i) for i in infos]
        assert first == [kept.replaces(i) for i in infos]
        assert first[0] != first[1]
        reads.clear()
        assert [kept(i) for i in infos] == first
        assert not reads  # kept, not read again
        source.write_text("def f():\n    return 10\n\n\ndef g():\n    return 2\n")
        changed = [kept(i) for i in infos]
        assert changed == [kept.replaces(i) for i in infos]
        assert changed[0] != first[0]
        assert changed[1] == first[1]
    finally:
        hasher._read_file = read_file


def _probe(check):
    """Ask `check` about the frame that called _probe, as quadrants asks about a decorated definition's."""
    return check(level_of_class_stackframe=2)


def test_genesis_imports_with_a_class_frame_check_that_answers_as_quadrants_own(sim, tmp_path) -> None:
    import quadrants.lang.kernel_impl as kernel_impl

    fast = kernel_impl._inside_class
    assert getattr(fast, "_reacthuman", False), "genesis was imported without genesis_sim.import_genesis"
    own = fast.replaces
    answers = {}
    for check in (own, fast):
        # the class statement must be the probed line: one line, as the formatter is told
        class InAClass: here = _probe(check)  # noqa: E701  # fmt: skip

        namespace = {"_probe": _probe, "check": check}
        exec(compile("class FromAString: here = _probe(check)", "<string>", "exec"), namespace)
        module = tmp_path / f"probe_{check.__name__}.py"
        module.write_text("class InAFile: here = _probe(check)\nat_module_level = _probe(check)\n")
        loaded = {"_probe": _probe, "check": check}
        exec(compile(module.read_text(), str(module), "exec"), loaded)  # a source file's frames
        answers[check] = (
            InAClass.here,
            namespace["FromAString"].here,
            loaded["InAFile"].here,
            loaded["at_module_level"],
            check(level_of_class_stackframe=10_000),
        )
    assert answers[own] == answers[fast] == (True, False, True, False, False)


def test_validate_reproduces_and_catches_a_single_bit(balanced, sim, tmp_path) -> None:
    out, rows = balanced
    for r in rows[:3]:
        assert validate_scene(read_spec(os.path.join(out, r["scene_id"], "spec.json")), sim) == []
    spec = next(
        read_spec(os.path.join(out, r["scene_id"], "spec.json")) for r in rows if r["time_to_floor_s"] is not None
    )
    bits = struct.unpack("<q", struct.pack("<d", spec.ground_truth.time_to_floor_s))[0] ^ 1
    flipped = struct.unpack("<d", struct.pack("<q", bits))[0]
    bad = dataclasses.replace(spec, ground_truth=dataclasses.replace(spec.ground_truth, time_to_floor_s=flipped))
    problems = validate_scene(SceneSpec.from_json(bad.to_json()), sim)
    assert problems
    assert "time_to_floor_s" in problems[0]
    tampered = dataclasses.replace(spec, ground_truth=dataclasses.replace(spec.ground_truth, track_sha256="0" * 64))
    assert any("trajectory" in p for p in validate_scene(tampered, sim))


def test_determinism_across_two_processes(balanced) -> None:
    out, rows = balanced
    chosen = [rows[i]["scene_id"] for i in (len(rows) - 1, 0, 7)]  # another order than the generation's
    code = (
        "import sys, json; from reacthuman.scenes.genesis_sim import GenesisSimulator;"
        "from reacthuman.scenes.dataset import read_spec; sim = GenesisSimulator();"
        "print(json.dumps([sim.run(read_spec(p)).digest for p in sys.argv[1:]]))"
    )
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    res = subprocess.run(
        [sys.executable, "-c", code, *[os.path.join(out, s, "spec.json") for s in chosen]],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    digests = json.loads(res.stdout.strip().splitlines()[-1])
    stored = [read_spec(os.path.join(out, s, "spec.json")).ground_truth.track_sha256 for s in chosen]
    assert digests == stored


def test_free_fall_time_to_floor_matches_sqrt_2h_over_g(sim) -> None:
    spec = sample_spec("ceiling_drop", 21, object_id="smoke_detector")
    still = dataclasses.replace(spec.hazard, lin_vel=(0.0, 0.0, 0.0))
    spec = dataclasses.replace(spec, bodies=tuple(still if b.name == "hazard" else b for b in spec.bodies))
    labelled = label_spec(spec, sim, check=False)
    h = spec.hazard.pos[2] - spec.hazard.geoms[0].size[1]  # lowest point of the upright cylinder
    expected = math.sqrt(2 * h / G_MPS2)
    assert abs(labelled.ground_truth.time_to_floor_s - expected) <= spec.dt_s, (
        labelled.ground_truth.time_to_floor_s,
        expected,
    )


@pytest.mark.parametrize(
    "genuine,adversarial", [("house_brick", "foam_anvil"), ("apple", "steel_apple"), ("tin_can", "solid_steel_can")]
)
def test_adversarial_twins_get_the_label_of_their_physics(sim, genuine, adversarial) -> None:
    labels = {}
    for oid in (genuine, adversarial):
        spec = generate_spec("object_drop", 4, simulator=sim, object_id=oid, speed_band="slow")
        assert spec.ground_truth.impact_point is not None, oid
        labels[oid] = spec.ground_truth.correct_action
        assert spec.adversarial == (oid == adversarial)
    heavy_one = genuine if genuine == "house_brick" else adversarial
    light_one = adversarial if heavy_one == genuine else genuine
    assert labels[heavy_one] == "DODGE", labels
    assert labels[light_one] == "CATCH", labels


def test_hazard_track_reads_simulator_state(sim) -> None:
    spec = sample_spec("rolling_ball", 2)
    track = sim.run(spec)
    states = hazard_track(spec, [0.0, 0.3], track=track)
    assert states[0]["pos"] == pytest.approx(spec.hazard.pos, abs=1e-5)
    assert states[0]["vel"] == pytest.approx(spec.hazard.lin_vel, abs=0.05)
    assert states[1]["t_s"] == pytest.approx(0.3, abs=1e-6)
    assert states[1]["pos"][0] > states[0]["pos"][0]  # it rolled towards +x
    pts, _ = body_points(spec, track, "hazard")
    assert pts.shape[0] == len(track.times_s)


def test_render_writes_frames_and_videos_with_unchanged_physics(sim, tmp_path) -> None:
    from reacthuman.scenes.render import RenderConfig, contact_sheet, render_window

    spec = generate_spec("object_drop", 9, simulator=sim, width=160, height=90)
    written = render_window(spec, str(tmp_path), sim, RenderConfig(0.15, 160, 90))
    pngs = [w for w in written if w.endswith(".png")]
    assert len(pngs) == 15
    assert sum(w.endswith(".mp4") for w in written) == 3
    import imageio.v3 as iio

    img = iio.imread(tmp_path / "egocentric_t0000.png")
    assert img.shape[:2] == (90, 160)
    assert img.std() > 1.0  # a picture, not a blank
    assert os.path.getsize(contact_sheet(str(tmp_path), str(tmp_path / "sheet.png"))) > 0


def test_genesis_reads_the_g1_meshes_the_same_with_the_fast_vertex_split(sim) -> None:
    """init_genesis gives Genesis' MJCF import a faster exact np.unique (index_rows): every G1 mesh it reads,
    collision and visual, has the same vertices, faces, normals and texture coordinates as with numpy's own."""
    import genesis as gs
    import genesis.utils.mjcf as mjcf
    import mujoco
    import numpy as np

    from reacthuman.spine.g1_assets import g1_mjcf_path
    from reacthuman.scenes.index_rows import NumpyWithIndexRows

    fast = mjcf.np
    assert isinstance(fast, NumpyWithIndexRows), "init_genesis did not install the fast vertex split"
    path = g1_mjcf_path()
    m = mujoco.MjModel.from_xml_path(str(path))
    geoms = [i for i in range(m.ngeom) if m.geom_type[i] == mujoco.mjtGeom.mjGEOM_MESH]
    assert len(geoms) > 20

    def read(numpy_module) -> list:
        mjcf.np = numpy_module
        try:
            infos = [info for i in geoms for info in mjcf.parse_geom(m, i, 1.0, gs.surfaces.Default(), str(path))]
        finally:
            mjcf.np = fast
        out = []
        for info in infos:
            tm = (info.get("mesh") or info["vmesh"]).trimesh
            uv = getattr(tm.visual, "uv", None)
            out.append((tm.vertices, tm.faces, tm.vertex_normals, np.zeros(0) if uv is None else uv))
        return out

    own, quick = read(np), read(fast)
    assert len(own) == len(quick) >= len(geoms)
    for a, b in zip(own, quick):
        assert all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b))
