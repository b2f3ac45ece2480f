"""The viewer topics as other tools read them, without rclpy: the URDF's forward kinematics against MuJoCo's on
the same G1, the type hashes the bag writer records against rosidl's own, and the Foxglove layout and RViz
config naming only topics and fields the bags carry."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
import yaml

from reacthuman import ros_contract as graph
from reacthuman.core.bag import typestore
from reacthuman.spine.g1_assets import G1_JOINT_NAMES, g1_mjcf_path
from reacthuman.recording import urdf


def test_urdf_forward_kinematics_equals_mujoco_on_the_same_g1():
    model = mujoco.MjModel.from_xml_path(str(g1_mjcf_path()))
    data = mujoco.MjData(model)
    rng = np.random.default_rng(0)
    q = rng.uniform(-0.6, 0.6, len(G1_JOINT_NAMES))
    quat_wxyz = np.array([0.9, 0.1, -0.2, 0.3]) / np.linalg.norm([0.9, 0.1, -0.2, 0.3])
    data.qpos[:3], data.qpos[3:7], data.qpos[7:] = (0.3, -0.2, 0.8), quat_wxyz, q
    mujoco.mj_kinematics(model, data)
    joints = urdf.g1_joints()
    w, x, y, z = quat_wxyz
    root = urdf.Transform("world", urdf.root_link(joints), (0.3, -0.2, 0.8), (x, y, z, w))
    poses = urdf.link_poses(
        root, urdf.static_transforms(joints) + urdf.moving_transforms(joints, dict(zip(G1_JOINT_NAMES, q)))
    )
    compared = 0
    for b in range(1, model.nbody):
        name = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, b)
        assert name in poses, f"MuJoCo body {name} is not a URDF link"
        assert np.linalg.norm(np.array(poses[name].translation) - data.xpos[b]) < 1e-5, name
        mq = data.xquat[b]
        assert abs(abs(np.dot([mq[1], mq[2], mq[3], mq[0]], poses[name].rotation)) - 1.0) < 1e-9, name
        compared += 1
    assert compared >= 30  # pelvis, the 29 jointed links (and fixed ones the MJCF keeps as bodies)


def test_a_missing_joint_is_named():
    with pytest.raises(urdf.UrdfError, match="left_knee_joint"):
        urdf.moving_transforms(urdf.g1_joints(), {n: 0.0 for n in G1_JOINT_NAMES if n != "left_knee_joint"})


def _rosidl_hash(typename: str, workdir) -> str:
    """RIHS01 computed by rosidl's own generator: installed interface packages' type descriptions where they
    exist, the others converted from the standard .msg text (rosidl_adapter -> IDL -> rosidl_parser)."""
    import contextlib
    import io
    import json
    import sys
    from pathlib import Path

    from rosidl_adapter.msg import convert_msg_to_idl
    from rosidl_generator_type_description import (
        calculate_type_hash,
        extract_full_type_description,
        serialize_individual_type_description,
    )
    from rosidl_parser.definition import IdlLocator, Message
    from rosidl_parser.parser import parse_idl_file

    share = Path(sys.prefix) / "share"  # the ROS 2 wheels install their interfaces into the venv
    type_map = {}
    for f in share.glob("*/msg/*.json"):
        desc = json.loads(f.read_text())["type_description_msg"]
        for td in [desc["type_description"], *desc["referenced_type_descriptions"]]:
            type_map[td["type_name"]] = td
    pending = [typename]
    while pending:
        name = pending.pop()
        if name in type_map:
            continue
        package, _, msg = name.split("/")
        text = typestore().generate_msgdef(name, ros_version=2)[0].split("=" * 80)[0]
        pkg_dir = Path(workdir) / package
        (pkg_dir / "msg").mkdir(parents=True, exist_ok=True)
        (pkg_dir / "msg" / f"{msg}.msg").write_text(text)
        with contextlib.redirect_stdout(io.StringIO()):
            idl = convert_msg_to_idl(pkg_dir, package, Path("msg") / f"{msg}.msg", pkg_dir / "msg")
        content = parse_idl_file(IdlLocator(pkg_dir, idl.relative_to(pkg_dir))).content
        structure = content.get_elements_of_type(Message)[0].structure
        td = serialize_individual_type_description(structure.namespaced_type, structure.members)
        type_map[name] = td
        pending += [f["type"]["nested_type_name"] for f in td["fields"] if f["type"]["nested_type_name"]]
    return calculate_type_hash(extract_full_type_description(typename, type_map))


@pytest.mark.parametrize(
    "typename",
    [
        "tf2_msgs/msg/TFMessage",
        "visualization_msgs/msg/MarkerArray",
        "geometry_msgs/msg/TransformStamped",
        "std_msgs/msg/String",
        "std_msgs/msg/Float64",
    ],
)
def test_written_type_hashes_equal_rosidls(typename, tmp_path):
    assert typestore().hash_rihs01(typename) == _rosidl_hash(typename, tmp_path)


def _graph_topics() -> dict[str, str]:
    from reacthuman.recording.viewer_topics import TOPIC_TYPES

    topics = dict(TOPIC_TYPES)
    for node in graph.NODES.values():
        topics.update(node.publishes)
    return topics


def _field_path_exists(msgtype: str, path: list[str]) -> bool:
    for name in path:
        fields = dict(typestore().fielddefs[msgtype][1])
        if name not in fields:
            return False
        kind, arg = fields[name]
        msgtype = arg if int(kind) == 2 else ""
    return True


def test_the_foxglove_layout_and_rviz_config_name_only_recorded_topics_and_fields():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "config"
    topics = _graph_topics()
    layout = json.loads((root / "foxglove" / "episode_layout.json").read_text())
    refs = []

    def walk(node, key=""):
        if isinstance(node, dict):
            for k, v in node.items():
                if k.startswith("/") and key == "topics":
                    refs.append(k)
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif (
            isinstance(node, str)
            and node.startswith("/")
            and key in ("topic", "imageTopic", "calibrationTopic", "cameraTopic", "value")
        ):
            refs.append(node)

    walk(layout["configById"])
    assert len(refs) >= 12
    assert sum(r.endswith("/image_raw/compressed") for r in refs) == 6  # image + camera topic per panel
    for ref in refs:
        topic, *path = ref.split(".")
        assert topic in topics, ref
        assert _field_path_exists(topics[topic], path), ref
    panels = set(layout["configById"])
    assert {p.split("!")[0] for p in panels} == {"3D", "Image", "Plot"}

    def leaves(node):
        if isinstance(node, str):
            return [node]
        return leaves(node["first"]) + leaves(node["second"])

    assert set(leaves(layout["layout"])) == panels  # every configured panel is placed, and only those
    rviz = yaml.safe_load((root / "rviz" / "episode.rviz").read_text())["Visualization Manager"]
    assert rviz["Global Options"]["Fixed Frame"] == "world"
    rviz_topics = [d["Topic"]["Value"] for d in rviz["Displays"] if "Topic" in d]
    rviz_topics += [d["Description Topic"]["Value"] for d in rviz["Displays"] if "Description Topic" in d]
    assert len(rviz_topics) == 6, rviz_topics
    assert all(t in topics for t in rviz_topics), rviz_topics
