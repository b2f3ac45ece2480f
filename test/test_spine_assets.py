"""The G1 model and walking policy derived from their installed packages."""

from __future__ import annotations

import mujoco
import numpy as np

from reacthuman.spine import g1_assets


def test_mjcf_loads_in_mujoco_with_policy_joint_order(tmp_path):
    path = g1_assets.g1_mjcf_path(cache_dir=tmp_path)
    model = mujoco.MjModel.from_xml_path(str(path))
    names = tuple(mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_JOINT, i) for i in range(1, model.njnt))
    assert names == g1_assets.G1_JOINT_NAMES
    assert model.nq == 7 + 29
    assert model.nu == 29
    # derived once: a second call returns the same cached file, and no temp file is left behind
    assert g1_assets.g1_mjcf_path(cache_dir=tmp_path) == path
    assert [p.name for p in path.parent.iterdir()] == [path.name]
    assert "floor" not in path.read_text()


def test_policy_metadata_matches_model_and_policy_input():
    meta = g1_assets.read_policy_metadata()
    assert meta.dof_names == g1_assets.G1_JOINT_NAMES
    assert meta.obs_size == sum(meta.obs_dims[t] for t in meta.obs_terms) == 100
    assert list(meta.obs_terms) == sorted(meta.obs_terms)
    assert all(k > 0 for k in meta.kp)
    assert all(k > 0 for k in meta.kd)
    lo, hi = meta.command_ranges["lin_vel_x"]
    assert lo < 0 < hi
    model = mujoco.MjModel.from_xml_path(str(g1_assets.g1_mjcf_path()))
    low, high = model.jnt_range[1:, 0], model.jnt_range[1:, 1]
    pose = np.array(meta.default_pose_rad)
    assert np.all(pose >= low)
    assert np.all(pose <= high)


def test_default_pose_geometry_is_symmetric_and_plausible():
    geo = g1_assets.default_pose_geometry()
    assert 0.6 < geo.pelvis_height_m < 0.9
    lx, ly, lz = geo.left_hand_m
    rx, ry, rz = geo.right_hand_m
    assert abs(lx - rx) < 1e-3
    assert abs(ly + ry) < 1e-3
    assert abs(lz - rz) < 1e-3
    assert ly > 0.1
    assert 0.4 < lz < geo.pelvis_height_m + 0.3


def test_plan_rest_hands_match_forward_kinematics_of_the_installed_g1():
    from reacthuman.plan.plan import REST_LEFT_HAND_M, REST_RIGHT_HAND_M
    from reacthuman.spine.g1_assets import default_pose_geometry

    geometry = default_pose_geometry()
    assert np.allclose(geometry.left_hand_m, REST_LEFT_HAND_M, atol=0.002)
    assert np.allclose(geometry.right_hand_m, REST_RIGHT_HAND_M, atol=0.002)
