"""What an episode's bag needs for a 3D viewer, derived from the topics it records.

`viewer_extras` reads an episode's recorded messages (those on INPUT_TOPICS, in recording order) through
`ViewerTopics.on_message`, which answers with the extra messages to write into the bag (standard types,
CDR bytes); the recorder writes them when it closes the bag:
- on the scene announcement: /robot_description (the G1 URDF), /tf_static (the robot's fixed joints, the
  room and furniture, the cameras), the scene's MarkerArray, all latched, and the hazards' /tf at their
  spec pose;
- on each control tick (a /g1/base_state and /g1/joint_states pair with the same stamp): the robot's /tf;
- on each /reacthuman/hazard_state: that hazard's /tf;
- on the observation: each view's frames (the images the brain got) as JPEG sensor_msgs/CompressedImage
  on /camera/<view>/image_raw/compressed, at each frame's own stamp, so an image panel shows them even when
  the raw camera topics are not recorded (the exact frames stay in the observation message);
- on the plan: its base path and hand keyframes as a MarkerArray in `world` (latched);
- on each tick with the hands and every hazard: each hand's distance to the nearest hazard (its body
  origin, the outcome's `min_hand_object_distance_m` definition) as std_msgs/Float64, for plotting.
Everything is computed from recorded data (joint angles, base pose, hazard poses, the spec), so a bag
that lacks the extra topics (recorded before they existed) is completed afterwards through the same
function (`add_viewer_topics`, `reacthuman bag add-viewer-topics BAG`).
"""

from __future__ import annotations

import io
import json
import math
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image as PILImage

from reacthuman import graph
from reacthuman.plan import Pose2D
from reacthuman.plan_geometry import plan_geometry
from reacthuman.recording import markers, ros_msgs, tf_tree, urdf
from reacthuman.recording.bag import BagError, BagWriter, bag_info, read_bag, typestore

TF = "/tf"
TF_STATIC = "/tf_static"
ROBOT_DESCRIPTION = "/robot_description"
SCENE_MARKERS = "/reacthuman/scene_markers"
PLAN_MARKERS = "/reacthuman/plan_markers"
LEFT_HAND_DISTANCE = "/reacthuman/viz/left_hand_object_distance"
RIGHT_HAND_DISTANCE = "/reacthuman/viz/right_hand_object_distance"
COMPRESSED_IMAGE_TYPE = "sensor_msgs/msg/CompressedImage"
JPEG_QUALITY = 90  # for viewing: about 15 kB a 320x180 frame instead of 173 kB raw
STRING_TYPE = "std_msgs/msg/String"
FLOAT_TYPE = "std_msgs/msg/Float64"
def compressed_topic(view: str) -> str:
    return graph.image_topic(view) + "/compressed"


# What the viewer topics are computed from.
INPUT_TOPICS = frozenset({graph.SCENE, graph.HAZARD_STATE, graph.HAND_POSITIONS, graph.BASE_STATE, graph.JOINT_STATES,
                          graph.OBSERVATION, graph.PLAN})
# Topics a viewer expects latched (transient local): written once, needed by a player that starts late.
LATCHED = frozenset({TF_STATIC, ROBOT_DESCRIPTION, SCENE_MARKERS, PLAN_MARKERS})
TOPIC_TYPES = {TF: tf_tree.TF_TYPE, TF_STATIC: tf_tree.TF_TYPE, ROBOT_DESCRIPTION: STRING_TYPE,
               SCENE_MARKERS: markers.MARKER_ARRAY, PLAN_MARKERS: markers.MARKER_ARRAY, LEFT_HAND_DISTANCE: FLOAT_TYPE,
               RIGHT_HAND_DISTANCE: FLOAT_TYPE} | {compressed_topic(v): COMPRESSED_IMAGE_TYPE for v in graph.VIEWS}


def jpeg_frame(image: Any) -> Any:
    """A sensor_msgs/Image (rgb8) as a JPEG CompressedImage with the same header."""
    pixels = np.frombuffer(bytes(image.data), np.uint8).reshape(int(image.height), int(image.step))
    rgb = pixels[:, : int(image.width) * 3].reshape(int(image.height), int(image.width), 3)
    buf = io.BytesIO()
    PILImage.fromarray(rgb).save(buf, format="JPEG", quality=JPEG_QUALITY)
    return ros_msgs.build(COMPRESSED_IMAGE_TYPE, header=image.header, format="jpeg",
                          data=np.frombuffer(buf.getvalue(), np.uint8))


@dataclass(frozen=True)
class Extra:
    topic: str
    msgtype: str
    stamp_ns: int
    raw: bytes

    @property
    def latched(self) -> bool:
        return self.topic in LATCHED


def _extra(topic: str, stamp_ns: int, msg: Any) -> Extra:
    return Extra(topic, TOPIC_TYPES[topic], int(stamp_ns), ros_msgs.serialize(msg))


def _xyz(p: Any) -> tuple[float, float, float]:
    return (float(p.x), float(p.y), float(p.z))


def _pose(msg_pose: Any) -> tuple[tuple[float, float, float], urdf.Quat]:
    p, q = msg_pose.position, msg_pose.orientation
    return (float(p.x), float(p.y), float(p.z)), (float(q.x), float(q.y), float(q.z), float(q.w))


class ViewerTopics:
    """Per-episode state: the latest base state waits for the joint state of the same tick."""

    def __init__(self) -> None:
        self._base: tuple[int, Any] | None = None
        self._joints: tuple[int, Any] | None = None
        self._done_ns = -1
        self._hazard_names: tuple[str, ...] = ()
        self._hazards: dict[str, tuple[int, tuple[float, float, float]]] = {}
        self._hands: tuple[int, tuple[float, float, float], tuple[float, float, float]] | None = None
        self._distance_done_ns = -1
        self._observer: Pose2D | None = None

    def on_message(self, topic: str, msgtype: str, stamp_ns: int, raw: bytes) -> list[Extra]:
        if topic == graph.SCENE:
            return self._on_scene(stamp_ns, typestore().deserialize_cdr(raw, msgtype))
        if topic == graph.HAZARD_STATE:
            msg = typestore().deserialize_cdr(raw, msgtype)
            pos, quat = _pose(msg.pose)
            tick_ns = ros_msgs.stamp_ns(msg.header)
            self._hazards[msg.name] = (tick_ns, pos)
            t = urdf.Transform(tf_tree.WORLD_FRAME, tf_tree.scene_frame(msg.name), pos, quat)
            return [_extra(TF, stamp_ns, tf_tree.tf_message([t], tick_ns))] + self._distances(stamp_ns)
        if topic == graph.HAND_POSITIONS:
            msg = typestore().deserialize_cdr(raw, msgtype)
            self._hands = (ros_msgs.stamp_ns(msg.header), _xyz(msg.left), _xyz(msg.right))
            return self._distances(stamp_ns)
        if topic == graph.OBSERVATION:
            msg = typestore().deserialize_cdr(raw, msgtype)
            return [_extra(compressed_topic(v.view_name), ros_msgs.stamp_ns(f.header), jpeg_frame(f))
                    for v in msg.views if v.view_name in graph.VIEWS for f in v.frames]
        if topic == graph.PLAN and self._observer is not None:
            msg = typestore().deserialize_cdr(raw, msgtype)
            plan = {"walking_cmd": [float(c) for c in msg.walking_cmd], "walking_duration": float(msg.walking_duration_s),
                    "keyframes": [{"t": float(k.t_s), "left_hand": _xyz(k.left_hand), "right_hand": _xyz(k.right_hand)}
                                  for k in msg.keyframes]}
            return [_extra(PLAN_MARKERS, stamp_ns, markers.plan_markers(plan_geometry(plan, self._observer)))]
        if topic in (graph.BASE_STATE, graph.JOINT_STATES):
            msg = typestore().deserialize_cdr(raw, msgtype)
            tick = (ros_msgs.stamp_ns(msg.header), msg)
            if topic == graph.BASE_STATE:
                self._base = tick
            else:
                self._joints = tick
            return self._robot(stamp_ns)
        return []

    def _on_scene(self, stamp_ns: int, msg: Any) -> list[Extra]:
        spec = json.loads(msg.spec_json)
        self._hazard_names = tuple(spec.get("hazard_bodies", ()))
        obs = spec.get("observer") or {}
        self._observer = Pose2D(float(obs.get("x_m", 0.0)), float(obs.get("y_m", 0.0)), float(obs.get("yaw_rad", 0.0)))
        static = tf_tree.robot_static_transforms() + tf_tree.scene_static_transforms(spec)
        description = ros_msgs.build(STRING_TYPE, data=urdf.g1_robot_description())
        return [_extra(ROBOT_DESCRIPTION, stamp_ns, description),
                _extra(TF_STATIC, stamp_ns, tf_tree.tf_message(static, stamp_ns)),
                _extra(SCENE_MARKERS, stamp_ns, markers.scene_markers(spec)),
                _extra(TF, stamp_ns, tf_tree.tf_message(tf_tree.hazard_initial_transforms(spec), stamp_ns))]

    def _robot(self, stamp_ns: int) -> list[Extra]:
        if self._base is None or self._joints is None or self._base[0] != self._joints[0] or self._base[0] == self._done_ns:
            return []
        tick_ns, base, joints = self._base[0], self._base[1], self._joints[1]
        self._done_ns = tick_ns
        pos, quat = _pose(base.pose)
        positions = dict(zip(joints.name, (float(q) for q in joints.position)))
        return [_extra(TF, stamp_ns, tf_tree.tf_message(tf_tree.robot_transforms(pos, quat, positions), tick_ns))]


    def _distances(self, stamp_ns: int) -> list[Extra]:
        """Once per tick, when the hands and every hazard of that tick have arrived (in any order)."""
        if self._hands is None or not self._hazard_names or self._hands[0] == self._distance_done_ns:
            return []
        tick_ns = self._hands[0]
        if any(self._hazards.get(name, (None,))[0] != tick_ns for name in self._hazard_names):
            return []
        self._distance_done_ns = tick_ns
        out = []
        for topic, hand in ((LEFT_HAND_DISTANCE, self._hands[1]), (RIGHT_HAND_DISTANCE, self._hands[2])):
            d = min(math.dist(hand, self._hazards[name][1]) for name in self._hazard_names)
            out.append(_extra(topic, stamp_ns, ros_msgs.build(FLOAT_TYPE, data=d)))
        return out


def viewer_extras(messages: Iterable[tuple[str, str, int, bytes]]) -> Iterator[Extra]:
    """The viewer topics of an episode from its recorded (topic, type, log stamp, raw) messages, in order."""
    viewer = ViewerTopics()
    for topic, msgtype, stamp_ns, raw in messages:
        if topic in INPUT_TOPICS:
            yield from viewer.on_message(topic, msgtype, stamp_ns, raw)


class ViewerBagWriter(BagWriter):
    """A bag writer that, when closed, adds the viewer topics computed from what was written into it: the
    episode recorder's bag. Only the input topics' raw bytes are kept until then."""

    def __init__(self, path: Path, **kwargs: Any) -> None:
        super().__init__(path, **kwargs)
        self._inputs: list[tuple[str, str, int, bytes]] = []

    def write(self, topic: str, msgtype: str, stamp_ns: int, raw: bytes, latched: bool = False) -> None:
        super().write(topic, msgtype, stamp_ns, raw, latched=latched)
        if topic in INPUT_TOPICS:
            self._inputs.append((topic, msgtype, int(stamp_ns), bytes(raw)))

    def close(self) -> Path:
        inputs, self._inputs = self._inputs, []
        try:
            for extra in viewer_extras(inputs):
                super().write(extra.topic, extra.msgtype, extra.stamp_ns, extra.raw, latched=extra.latched)
        except BaseException:
            self.abort()
            raise
        return super().close()

    def abort(self) -> None:
        self._inputs = []
        super().abort()


def add_viewer_topics(bag: Path) -> int:
    """Rewrite a complete bag recorded without the viewer topics through a ViewerBagWriter, as the recorder
    writes one; returns how many messages were added. The new bag is written in a scratch folder beside the
    old one and swapped in only once complete."""
    bag = Path(bag)
    info = bag_info(bag)
    if set(info["topics"]) & set(TOPIC_TYPES):
        raise BagError(f"{bag} already has the viewer topics")
    scratch = bag.parent / f".{bag.name}.viewer"
    shutil.rmtree(scratch, ignore_errors=True)
    writer = ViewerBagWriter(scratch / bag.name)
    try:
        for m in read_bag(bag):
            writer.write(m.topic, m.msgtype, m.stamp_ns, m.raw)
        new = writer.close()
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    old = scratch / f"{bag.name}.old"
    bag.rename(old)
    new.rename(bag)
    shutil.rmtree(scratch)
    return bag_info(bag)["messages"] - info["messages"]
