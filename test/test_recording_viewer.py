"""The viewer topics of a bag (/tf, /tf_static, /robot_description, scene markers), without rclpy: a synthetic
episode written through the real bag writer, decoded by the standard MCAP ROS 2 decoder, every marker and image
frame placed in the TF tree (the URDF, the type hashes and the viewers' layouts: test_recording_viewer_interop)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import yaml
from mcap.reader import make_reader
from mcap_ros2.decoder import DecoderFactory

from reacthuman import ros_contract as graph
from reacthuman.recording import ros_msgs, urdf
from reacthuman.core.bag import BagWriter, read_bag, typestore
from reacthuman.recording.tf_check import TfIndex
from reacthuman.recording.viewer_topics import ROBOT_DESCRIPTION, SCENE_MARKERS, TF, TF_STATIC, ViewerBagWriter
from reacthuman.spine.g1_assets import G1_JOINT_NAMES

M = "reacthuman_msgs/msg/"


def _spec() -> dict:
    box = {"shape": "box", "size": [0.3, 0.4, 0.02], "pos": [0, 0, 0], "quat": [1, 0, 0, 0], "rgba": [0.5, 0.3, 0.1, 1]}
    capsule = {
        "shape": "capsule",
        "size": [0.03, 0.1],
        "pos": [0, 0, 0],
        "quat": [0.7071, 0.7071, 0, 0],
        "rgba": [0.9, 0.9, 0.9, 1],
    }
    sphere = {"shape": "sphere", "size": [0.05], "rgba": [1, 0, 0, 1]}
    mug = {"shape": "cylinder", "size": [0.04, 0.05], "rgba": [1, 1, 1, 1]}
    cams = [
        {"name": v, "pos": [0.5 * k, -1.0, 1.5 + k], "lookat": [0.0, 0.0, 0.5], "fov_deg": 60.0}
        for k, v in enumerate(graph.VIEWS)
    ]
    cams[2]["pos"] = [0.0, 0.0, 4.0]  # overhead, looking straight down: the other up-vector branch
    return {
        "scene_id": "synthetic-1",
        "hazard_bodies": ["hazard"],
        "observer": {"x_m": 0.0, "y_m": 0.0, "yaw_rad": 0.0},
        "cameras": cams,
        "ground_truth": {"impact_point": [0.3, 0.0, 1.0]},
        "bodies": [
            {"name": "table", "pos": [1.0, 0.0, 0.7], "quat": [1, 0, 0, 0], "role": "support", "geoms": [box]},
            {"name": "mug", "pos": [1.0, 0.1, 0.75], "quat": [1, 0, 0, 0], "role": "prop", "geoms": [mug]},
            {
                "name": "hazard",
                "pos": [1.0, 0.0, 1.2],
                "quat": [1, 0, 0, 0],
                "role": "hazard",
                "geoms": [capsule, sphere],
            },
        ],
    }


def _mesh_parts(visual: dict) -> list:
    """Stands in for the mesh cache of the scene pipeline: two part files of the mug's model."""
    return [(f"/cache/meshes/{visual['member']}-part{k}.obj", (0.9, 0.9, 0.9, 1.0)) for k in range(2)]


def _raw(typename: str, **fields) -> bytes:
    return ros_msgs.serialize(ros_msgs.build(typename, **fields))


def _episode(spec: dict, ticks: int = 6) -> list[tuple[str, str, int, bytes]]:
    """What the recorder sees: the announcement, then per control tick the hazard, base and joint states."""
    import json

    out = [
        (
            graph.SCENE,
            M + "SceneAnnouncement",
            0,
            _raw(M + "SceneAnnouncement", scene_id=spec["scene_id"], spec_json=json.dumps(spec)),
        )
    ]
    rng = np.random.default_rng(3)
    for k in range(1, ticks + 1):
        t_ns = k * 20_833_333
        h = ros_msgs.header(t_ns, graph.WORLD_FRAME)
        out.append(
            (
                graph.HAZARD_STATE,
                M + "ObjectState",
                t_ns,
                _raw(
                    M + "ObjectState",
                    header=ros_msgs.header(t_ns, graph.WORLD_FRAME),
                    name="hazard",
                    pose=ros_msgs.pose((1.0, 0.0, 1.2 - 0.01 * k), (0.0, 0.0, 0.0, 1.0)),
                ),
            )
        )
        out.append(
            (
                graph.HAND_POSITIONS,
                M + "HandPositions",
                t_ns,
                _raw(
                    M + "HandPositions",
                    header=ros_msgs.header(t_ns, graph.WORLD_FRAME),
                    left=ros_msgs.point((1.0, 0.3, 1.2 - 0.01 * k)),
                    right=ros_msgs.point((1.0, 0.0, 1.0 - 0.01 * k)),
                ),
            )
        )
        out.append(
            (
                graph.BASE_STATE,
                M + "BaseState",
                t_ns,
                _raw(
                    M + "BaseState",
                    header=h,
                    pose=ros_msgs.pose((0.01 * k, 0.0, 0.76), (0.0, 0.0, 0.0, 1.0)),
                    phase=graph.StatePhase.EXECUTION.value,
                ),
            )
        )
        out.append(
            (
                graph.JOINT_STATES,
                "sensor_msgs/msg/JointState",
                t_ns,
                _raw(
                    "sensor_msgs/msg/JointState",
                    header=ros_msgs.header(t_ns, ""),
                    name=list(G1_JOINT_NAMES),
                    position=rng.uniform(-0.3, 0.3, len(G1_JOINT_NAMES)),
                ),
            )
        )
    kf = ros_msgs.build(
        M + "HandKeyframe",
        t_s=0.5,
        left_hand=ros_msgs.point((0.1, 0.0, 0.2)),
        right_hand=ros_msgs.point((0.1, 0.0, 0.2)),
    )
    out.append(
        (
            graph.PLAN,
            M + "ReactionPlan",
            3 * 20_833_333,
            _raw(
                M + "ReactionPlan",
                scene_id=spec["scene_id"],
                walking_cmd=np.array([0.5, 0.0, 0.0]),
                walking_duration_s=1.0,
                keyframes=[kf],
            ),
        )
    )
    views = [
        ros_msgs.build(
            M + "ViewSequence",
            view_name=view,
            frames=[
                ros_msgs.build(
                    "sensor_msgs/msg/Image",
                    header=ros_msgs.header(k * 20_833_333, view),
                    height=18,
                    width=32,
                    encoding="rgb8",
                    step=96,
                    data=np.full(18 * 96, 40 * k + 10 * v, np.uint8),
                )
                for k in range(1, 4)
            ],
        )
        for v, view in enumerate(graph.VIEWS)
    ]
    out.append(
        (
            graph.OBSERVATION,
            M + "ObservationWindow",
            4 * 20_833_333,
            _raw(
                M + "ObservationWindow",
                header=ros_msgs.header(4 * 20_833_333, ""),
                scene_id=spec["scene_id"],
                views=views,
            ),
        )
    )
    for view in graph.VIEWS:
        out.append(
            (
                graph.image_topic(view),
                "sensor_msgs/msg/Image",
                10 * 20_833_333,
                _raw(
                    "sensor_msgs/msg/Image",
                    header=ros_msgs.header(10 * 20_833_333, view),
                    height=2,
                    width=2,
                    encoding="rgb8",
                    step=6,
                    data=np.zeros(12, np.uint8),
                ),
            )
        )
    return out


@pytest.fixture(scope="module")
def bag(tmp_path_factory):
    """Written as the episode recorder writes it: every message as it arrives, the viewer topics at close."""
    path = tmp_path_factory.mktemp("viewer") / "bag"
    writer = ViewerBagWriter(path)
    for topic, msgtype, stamp, raw in _episode(_spec()):
        writer.write(topic, msgtype, stamp, raw)
    return writer.close()


def test_bag_carries_the_viewer_topics_latched_where_a_viewer_needs_it(bag):
    meta = yaml.safe_load((bag / "metadata.yaml").read_text())["rosbag2_bagfile_information"]
    topics = {t["topic_metadata"]["name"]: t for t in meta["topics_with_message_count"]}
    for name, msgtype in (
        (TF, "tf2_msgs/msg/TFMessage"),
        (TF_STATIC, "tf2_msgs/msg/TFMessage"),
        (ROBOT_DESCRIPTION, "std_msgs/msg/String"),
        (SCENE_MARKERS, "visualization_msgs/msg/MarkerArray"),
    ):
        assert topics[name]["topic_metadata"]["type"] == msgtype
        assert topics[name]["topic_metadata"]["type_description_hash"] == typestore().hash_rihs01(msgtype)
    for name in (TF_STATIC, ROBOT_DESCRIPTION, SCENE_MARKERS):
        qos = topics[name]["topic_metadata"]["offered_qos_profiles"]
        assert qos, qos
        assert qos[0]["durability"] in ("transient_local", 1), qos
    assert not topics[TF]["topic_metadata"]["offered_qos_profiles"]
    assert topics[TF]["message_count"] == 1 + 6 + 6  # hazards at the announcement, then hazard + robot per tick


def test_the_standard_mcap_ros2_decoder_decodes_every_message(bag):
    (mcap_file,) = bag.glob("*.mcap")
    counts: dict[str, int] = {}
    with open(mcap_file, "rb") as f:
        for _, channel, _, decoded in make_reader(f, decoder_factories=[DecoderFactory()]).iter_decoded_messages():
            counts[channel.topic] = counts.get(channel.topic, 0) + 1
            if channel.topic == ROBOT_DESCRIPTION:
                assert decoded.data.startswith("<?xml") or "<robot" in decoded.data[:400]
                assert 'filename="file:///' in decoded.data
                assert 'filename="meshes/' not in decoded.data
            if channel.topic == SCENE_MARKERS:
                kinds = sorted({m.type for m in decoded.markers})
                assert kinds == [1, 2, 3]  # cube, sphere, cylinder (and capsule ends)
    assert counts == {m_topic: n for m_topic, n in _topic_counts(bag).items()}


def test_plan_markers_show_the_planned_path_and_hands_in_world(bag):
    from reacthuman.plan.plan import REST_LEFT_HAND_M
    from reacthuman.core.bag import deserialize
    from reacthuman.recording.viewer_topics import PLAN_MARKERS

    (msg,) = [deserialize(m) for m in read_bag(bag) if m.topic == PLAN_MARKERS]
    path, left, _ = msg.markers
    assert path.header.frame_id == left.header.frame_id == "world"
    end = path.points[-1]
    assert (end.x, end.y, end.z) == pytest.approx((0.5, 0.0, 0.0))  # 0.5 m/s for 1 s from the observer at the origin
    hand = left.points[0]  # at t = 0.5 s the base has walked 0.25 m
    assert (hand.x, hand.y, hand.z) == pytest.approx(
        (0.25 + REST_LEFT_HAND_M[0] + 0.1, REST_LEFT_HAND_M[1], REST_LEFT_HAND_M[2] + 0.2)
    )


def test_a_body_drawn_by_a_catalogue_model_is_mesh_markers_of_its_part_files():
    from reacthuman.recording.markers import MESH_RESOURCE, scene_markers

    spec = _spec()
    spec["bodies"][1]["visual"] = {"member": "mug/mug.obj"}  # the rest of a VisualMeshSpec is not read here
    msg = scene_markers(spec, mesh_parts=_mesh_parts)
    mug = [m for m in msg.markers if m.header.frame_id == "scene/mug"]
    assert [m.type for m in mug] == [MESH_RESOURCE] * 2
    assert [m.id for m in mug] == [0, 1]
    assert mug[1].mesh_resource == "file:///cache/meshes/mug/mug.obj-part1.obj"
    assert (mug[0].scale.x, mug[0].pose.orientation.w, mug[0].pose.position.z) == (1.0, 1.0, 0.0)
    without = [m for m in scene_markers(spec, mesh_parts=lambda v: None).markers if m.header.frame_id == "scene/mug"]
    assert [m.type for m in without] == [3]  # no mesh pipeline: the collision cylinder


def test_viewer_config_is_validated_and_reaches_the_markers_and_frames():
    from reacthuman.recording.markers import scene_markers
    from reacthuman.recording.viewer_config import default_config
    from reacthuman.recording.viewer_topics import jpeg_frame

    with pytest.raises(ValueError, match="jpeg_quality"):
        default_config(jpeg_quality=0)
    with pytest.raises(ValueError, match="floor_margin_m"):
        default_config(floor_margin_m=-1.0)
    with pytest.raises(ValueError, match="no field 'overlay_sclae'"):
        default_config(overlay_sclae=2)
    config = default_config(impact_marker_diameter_m=0.2, floor_margin_m=1.0)
    spec = _spec()
    impact = next(m for m in scene_markers(spec, config=config).markers if m.ns == "impact_point")
    floor = [
        next(m for m in scene_markers(spec, config=c).markers if m.ns == "floor") for c in (config, default_config())
    ]
    assert impact.scale.x == 0.2
    assert floor[0].scale.x - floor[1].scale.x == pytest.approx(1.0)
    rng = np.random.default_rng(0)
    image = ros_msgs.build(
        "sensor_msgs/msg/Image",
        header=ros_msgs.header(0, "overhead"),
        height=36,
        width=64,
        encoding="rgb8",
        step=192,
        data=rng.integers(0, 255, 36 * 192, dtype=np.uint8),
    )
    assert len(jpeg_frame(image, 30).data) < len(jpeg_frame(image, default_config().jpeg_quality).data)


def test_the_frames_the_brain_got_are_compressed_images_at_their_own_stamps(bag):
    import io

    from PIL import Image as PILImage

    from reacthuman.core.bag import deserialize
    from reacthuman.recording.viewer_topics import compressed_topic

    for v, view in enumerate(graph.VIEWS):
        frames = [m for m in read_bag(bag) if m.topic == compressed_topic(view)]
        assert [m.stamp_ns for m in frames] == [k * 20_833_333 for k in range(1, 4)]
        for k, m in enumerate(frames, start=1):
            msg = deserialize(m)
            assert msg.format == "jpeg"
            assert msg.header.frame_id == view
            pixels = np.asarray(PILImage.open(io.BytesIO(bytes(msg.data))))
            assert pixels.shape == (18, 32, 3)
            assert np.abs(pixels.astype(int) - (40 * k + 10 * v)).max() <= 2


def test_the_brain_frames_read_back_from_the_bag_are_its_exact_pixels(bag):
    """Episode folders keep the frames once (in the bag's observation); the report reads them from there."""
    from reacthuman.recording.images import observation_frames_in_bag

    frames = observation_frames_in_bag(bag)
    assert list(frames) == list(graph.VIEWS)
    for v, view in enumerate(graph.VIEWS):
        assert [f.shape for f in frames[view]] == [(18, 32, 3)] * 3
        assert [(int(f.min()), int(f.max())) for f in frames[view]] == [(40 * k + 10 * v,) * 2 for k in range(1, 4)]


def test_padded_rgb8_rows_lose_their_padding_and_other_encodings_are_named():
    from types import SimpleNamespace

    from reacthuman.recording.images import rgb8_pixels

    rows = np.arange(2 * 10, dtype=np.uint8).reshape(2, 10)  # width 3 (9 bytes) + 1 byte of row padding
    pixels = rgb8_pixels(SimpleNamespace(encoding="rgb8", height=2, width=3, step=10, data=rows.tobytes()))
    assert pixels.shape == (2, 3, 3)
    assert pixels[1, 0].tolist() == [10, 11, 12]
    with pytest.raises(ValueError, match="bgr8"):
        rgb8_pixels(SimpleNamespace(encoding="bgr8", height=2, width=3, step=9, data=bytes(18)))


def test_hand_to_object_distances_per_tick(bag):
    from reacthuman.core.bag import deserialize
    from reacthuman.recording.viewer_topics import LEFT_HAND_DISTANCE, RIGHT_HAND_DISTANCE

    messages = list(read_bag(bag))
    left = [deserialize(m).data for m in messages if m.topic == LEFT_HAND_DISTANCE]
    right = [deserialize(m).data for m in messages if m.topic == RIGHT_HAND_DISTANCE]
    assert left == pytest.approx([0.3] * 6)
    assert right == pytest.approx([0.2] * 6)


def test_a_hinged_hazards_distance_is_to_its_centre_of_mass_not_its_pivot():
    """A bob 1 m below its pivot (the body's origin), the body turned a quarter round its y axis: the bob hangs
    1 m beside the pivot, and the hands are measured to it (the outcome's definition too)."""
    import json

    from reacthuman.core.bag import deserialize
    from reacthuman.recording.viewer_topics import LEFT_HAND_DISTANCE, RIGHT_HAND_DISTANCE, ViewerTopics

    spec = _spec()
    spec["bodies"][2] = {
        "name": "hazard",
        "pos": [1.0, 0.0, 2.0],
        "quat": [1, 0, 0, 0],
        "role": "hazard",
        "geoms": [{"shape": "sphere", "size": [0.1], "pos": [0.0, 0.0, -1.0], "rgba": [1, 0, 0, 1]}],
    }
    viewer = ViewerTopics()
    scene = _raw(M + "SceneAnnouncement", scene_id=spec["scene_id"], spec_json=json.dumps(spec))
    viewer.on_message(graph.SCENE, M + "SceneAnnouncement", 0, scene)
    turned = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))  # x y z w: +90 deg about y, -z -> -x
    extras = viewer.on_message(
        graph.HAZARD_STATE,
        M + "ObjectState",
        5,
        _raw(
            M + "ObjectState",
            header=ros_msgs.header(5, graph.WORLD_FRAME),
            name="hazard",
            pose=ros_msgs.pose((1.0, 0.0, 2.0), turned),
        ),
    )
    extras += viewer.on_message(
        graph.HAND_POSITIONS,
        M + "HandPositions",
        5,
        _raw(
            M + "HandPositions",
            header=ros_msgs.header(5, graph.WORLD_FRAME),
            left=ros_msgs.point((0.0, 0.3, 2.0)),
            right=ros_msgs.point((1.0, 0.0, 2.0)),
        ),
    )
    by_topic = {e.topic: deserialize(e).data for e in extras if e.topic in (LEFT_HAND_DISTANCE, RIGHT_HAND_DISTANCE)}
    assert by_topic[LEFT_HAND_DISTANCE] == pytest.approx(0.3)
    assert by_topic[RIGHT_HAND_DISTANCE] == pytest.approx(1.0)


def test_a_recorder_that_takes_the_ticks_interleaved_still_gets_every_ticks_tf_and_distances():
    """On a loaded machine the recorder may take tick t+1's base state before tick t's joint state (CI found a bag
    four /tf short): the viewer topics of an interleaved episode equal those of the ordered one."""
    from reacthuman.recording.viewer_topics import viewer_extras

    ordered = _episode(_spec(), ticks=8)
    per_tick = [
        m for m in ordered if m[0] in (graph.HAZARD_STATE, graph.HAND_POSITIONS, graph.BASE_STATE, graph.JOINT_STATES)
    ]
    rest = [m for m in ordered if m not in per_tick]
    # base states run two ticks and hazard states three ticks ahead of the joint states and hand positions
    by_topic = {
        t: [m for m in per_tick if m[0] == t]
        for t in (graph.BASE_STATE, graph.HAZARD_STATE, graph.JOINT_STATES, graph.HAND_POSITIONS)
    }
    interleaved = (
        rest[:1]
        + by_topic[graph.BASE_STATE][:2]
        + by_topic[graph.HAZARD_STATE][:3]
        + [
            m
            for k in range(8)
            for m in (by_topic[graph.JOINT_STATES][k], by_topic[graph.HAND_POSITIONS][k])
            + ((by_topic[graph.BASE_STATE][k + 2],) if k + 2 < 8 else ())
            + ((by_topic[graph.HAZARD_STATE][k + 3],) if k + 3 < 8 else ())
        ]
        + rest[1:]
    )
    assert sorted(interleaved) == sorted(ordered)

    def viewer(messages):
        return sorted((e.topic, e.raw) for e in viewer_extras(messages))

    want, got = viewer(ordered), viewer(interleaved)
    assert sum(1 for t, _ in want if t == TF) == 8 + 8 + 1
    assert got == want


def _topic_counts(bag) -> dict[str, int]:
    counts: dict[str, int] = {}
    for m in read_bag(bag):
        counts[m.topic] = counts.get(m.topic, 0) + 1
    return counts


def test_every_marker_and_image_frame_resolves_in_the_tf_tree(bag):
    messages = list(read_bag(bag))
    index = TfIndex.from_messages(messages)
    from reacthuman.core.bag import deserialize

    used = []
    for m in messages:
        if m.topic == SCENE_MARKERS:
            used += [(mk.header.frame_id, m.stamp_ns) for mk in deserialize(m).markers]
        elif m.topic.startswith("/camera/"):
            used.append((deserialize(m).header.frame_id, m.stamp_ns))
    assert {f for f, _ in used} >= {"scene/hazard", "scene/table", "scene/mug", "world", *graph.VIEWS}
    for frame, t_ns in used:
        assert index.resolves(frame, t_ns), frame
    end = max(m.stamp_ns for m in messages)
    for link in ("pelvis", "left_wrist_yaw_link", "right_rubber_hand", "head_link"):
        assert index.resolves(link, end), link
    assert not index.resolves("pelvis", 0)  # the robot is placed only once its first state arrives


def test_camera_optical_frame_matches_the_scene_projection():
    """A point the camera projects to pixel (u, v) lies along +z of its optical frame at the same offset."""
    from reacthuman.recording.tf_tree import scene_static_transforms
    from reacthuman.scenes.cameras import project
    from reacthuman.scenes.spec import CameraSpec

    spec = _spec()
    for cam in spec["cameras"]:
        t = next(t for t in scene_static_transforms(spec) if t.child == cam["name"])
        cs = CameraSpec(cam["name"], tuple(cam["pos"]), tuple(cam["lookat"]), cam["fov_deg"], 320, 180)
        p_opt = (0.2, -0.1, 2.0)  # right, up (y down), forward in the optical frame
        world = tuple(a + b for a, b in zip(t.translation, urdf.quat_rotate(t.rotation, p_opt)))
        u, v, depth = project(cs, world)
        f = 90 / math.tan(math.radians(60.0) / 2)
        assert abs(depth - 2.0) < 1e-9
        assert abs(u - (160 + f * 0.1)) < 1e-6
        assert abs(v - (90 - f * 0.05)) < 1e-6


def test_the_egocentric_frame_is_static_at_the_standing_g1s_eyes():
    """The images are rendered only in the window, from the spec's fixed head-camera pose: /tf_static holds
    it in `world` exactly, and it sits just ahead of the head of the G1 standing at the observer pose."""
    from reacthuman.recording.tf_tree import robot_static_transforms, scene_static_transforms
    from reacthuman.scenes import sample_spec
    from reacthuman.spine.g1_assets import default_pose_geometry, read_policy_metadata

    spec = sample_spec("object_drop", 3, object_id="chefs_knife", width=64, height=36).to_dict()
    cam = next(c for c in spec["cameras"] if c["name"] == "egocentric")
    ego = next(t for t in scene_static_transforms(spec) if t.child == "egocentric")
    assert ego.parent == "world"
    assert ego.translation == tuple(cam["pos"])
    obs = spec["observer"]
    yaw = float(obs["yaw_rad"])
    root = urdf.Transform(
        "world",
        "pelvis",
        (obs["x_m"], obs["y_m"], default_pose_geometry().pelvis_height_m),
        urdf.axis_angle_quat((0.0, 0.0, 1.0), yaw),
    )
    stand = dict(zip(G1_JOINT_NAMES, read_policy_metadata().default_pose_rad))
    head = urdf.link_poses(root, robot_static_transforms() + urdf.moving_transforms(urdf.g1_joints(), stand))[
        "head_link"
    ]
    # The head's centre: its mass centre in head_link, read from the URDF (head_link's origin is at the waist).
    link = urdf.g1_robot_description().split('<link name="head_link">')[1].split("</link>")[0]
    com = tuple(float(c) for c in link.split('<origin xyz="')[1].split('"')[0].split())
    centre = np.add(head.translation, urdf.quat_rotate(head.rotation, com))
    offset = np.subtract(ego.translation, centre)
    ahead = offset[0] * math.cos(yaw) + offset[1] * math.sin(yaw)
    assert 0.05 < ahead < 0.2, offset
    assert abs(offset[2]) < 0.1, offset
    assert np.linalg.norm(offset) < 0.2, offset


def test_an_old_bag_completed_afterwards_equals_one_recorded_with_the_viewer_topics(bag, tmp_path):
    from reacthuman.evaluation.bag_cli import main as bag_main

    old = tmp_path / "old"
    writer = BagWriter(old)
    for topic, msgtype, stamp, raw in _episode(_spec()):
        writer.write(topic, msgtype, stamp, raw)
    writer.close()
    assert bag_main(["add-viewer-topics", str(old)]) == 0
    assert [(m.topic, m.stamp_ns, m.raw) for m in read_bag(old)] == [
        (m.topic, m.stamp_ns, m.raw) for m in read_bag(bag)
    ]

    def topics(path):
        meta = yaml.safe_load((path / "metadata.yaml").read_text())["rosbag2_bagfile_information"]
        return sorted(
            (t["topic_metadata"]["name"], t["message_count"], str(t["topic_metadata"]["offered_qos_profiles"]))
            for t in meta["topics_with_message_count"]
        )

    assert topics(old) == topics(bag)  # latched QoS included
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old"]  # no scratch folder left
    assert bag_main(["add-viewer-topics", str(old)]) == 2  # a second time: one line, nothing rewritten
