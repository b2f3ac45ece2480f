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
  centre of mass, the outcome's `min_hand_object_distance_m` definition) as std_msgs/Float64, for plotting.
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

from reacthuman import ros_contract as graph
from reacthuman.plan.plan import Pose2D
from reacthuman.plan.plan_path import plan_geometry
from reacthuman.recording import markers, ros_msgs, tf_tree, urdf
from reacthuman.core.bag import BagError, BagWriter, bag_info, read_bag, typestore
from reacthuman.recording.images import rgb8_pixels
from reacthuman.recording.viewer_config import DEFAULT, ViewerConfig
from reacthuman.scenes.mass_centre import arm_world_m, geoms_centre_m
from reacthuman.scenes.spec import body_from_dict

TF = "/tf"
TF_STATIC = "/tf_static"
ROBOT_DESCRIPTION = "/robot_description"
SCENE_MARKERS = "/reacthuman/scene_markers"
PLAN_MARKERS = "/reacthuman/plan_markers"
LEFT_HAND_DISTANCE = "/reacthuman/viz/left_hand_object_distance"
RIGHT_HAND_DISTANCE = "/reacthuman/viz/right_hand_object_distance"
COMPRESSED_IMAGE_TYPE = "sensor_msgs/msg/CompressedImage"
STRING_TYPE = "std_msgs/msg/String"
FLOAT_TYPE = "std_msgs/msg/Float64"


def compressed_topic(view: str) -> str:
    return graph.image_topic(view) + "/compressed"


# What the viewer topics are computed from.
INPUT_TOPICS = frozenset(
    {
        graph.SCENE,
        graph.HAZARD_STATE,
        graph.HAND_POSITIONS,
        graph.BASE_STATE,
        graph.JOINT_STATES,
        graph.OBSERVATION,
        graph.PLAN,
    }
)
# Topics a viewer expects latched (transient local): written once, needed by a player that starts late.
LATCHED = frozenset({TF_STATIC, ROBOT_DESCRIPTION, SCENE_MARKERS, PLAN_MARKERS})
TOPIC_TYPES = {
    TF: tf_tree.TF_TYPE,
    TF_STATIC: tf_tree.TF_TYPE,
    ROBOT_DESCRIPTION: STRING_TYPE,
    SCENE_MARKERS: markers.MARKER_ARRAY,
    PLAN_MARKERS: markers.MARKER_ARRAY,
    LEFT_HAND_DISTANCE: FLOAT_TYPE,
    RIGHT_HAND_DISTANCE: FLOAT_TYPE,
} | {compressed_topic(v): COMPRESSED_IMAGE_TYPE for v in graph.VIEWS}


def jpeg_frame(image: Any, quality: int = DEFAULT.jpeg_quality) -> Any:
    """A sensor_msgs/Image (rgb8) as a JPEG CompressedImage with the same header."""
    buf = io.BytesIO()
    PILImage.fromarray(rgb8_pixels(image)).save(buf, format="JPEG", quality=quality)
    return ros_msgs.build(
        COMPRESSED_IMAGE_TYPE, header=image.header, format="jpeg", data=np.frombuffer(buf.getvalue(), np.uint8)
    )


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
    """Per-episode state. The streams of one control tick arrive on different topics, and a loaded recorder
    may take them interleaved with the next tick's (base of t+1 before joints of t): each tick's parts are
    kept by tick stamp until all are in, so no tick loses its /tf or its hand distances."""

    # ticks still waiting for a part; a part that never comes (a lost sample) must not grow the state forever
    MAX_PENDING_TICKS = 256

    def __init__(self, config: ViewerConfig = DEFAULT) -> None:
        self.config = config
        self._robot_parts: dict[int, dict[str, Any]] = {}
        self._hazard_names: tuple[str, ...] = ()
        self._centres: dict[str, np.ndarray] = {}
        self._tick_points: dict[int, dict[str, Any]] = {}
        self._observer: Pose2D | None = None

    def on_message(self, topic: str, msgtype: str, stamp_ns: int, raw: bytes) -> list[Extra]:
        if topic == graph.SCENE:
            return self._on_scene(stamp_ns, typestore().deserialize_cdr(raw, msgtype))
        if topic == graph.HAZARD_STATE:
            msg = typestore().deserialize_cdr(raw, msgtype)
            pos, quat = _pose(msg.pose)
            tick_ns = ros_msgs.stamp_ns(msg.header)
            t = urdf.Transform(tf_tree.WORLD_FRAME, tf_tree.scene_frame(msg.name), pos, quat)
            centre = np.asarray(pos) + arm_world_m(self._centres.get(msg.name, np.zeros(3)), (quat[3], *quat[:3]))
            return [_extra(TF, stamp_ns, tf_tree.tf_message([t], tick_ns))] + self._distances(
                stamp_ns, tick_ns, msg.name, tuple(centre)
            )
        if topic == graph.HAND_POSITIONS:
            msg = typestore().deserialize_cdr(raw, msgtype)
            return self._distances(stamp_ns, ros_msgs.stamp_ns(msg.header), _HANDS, (_xyz(msg.left), _xyz(msg.right)))
        if topic == graph.OBSERVATION:
            msg = typestore().deserialize_cdr(raw, msgtype)
            return [
                _extra(
                    compressed_topic(v.view_name), ros_msgs.stamp_ns(f.header), jpeg_frame(f, self.config.jpeg_quality)
                )
                for v in msg.views
                if v.view_name in graph.VIEWS
                for f in v.frames
            ]
        if topic == graph.PLAN and self._observer is not None:
            msg = typestore().deserialize_cdr(raw, msgtype)
            plan = {
                "walking_cmd": [float(c) for c in msg.walking_cmd],
                "walking_duration": float(msg.walking_duration_s),
                "keyframes": [
                    {"t": float(k.t_s), "left_hand": _xyz(k.left_hand), "right_hand": _xyz(k.right_hand)}
                    for k in msg.keyframes
                ],
            }
            return [
                _extra(PLAN_MARKERS, stamp_ns, markers.plan_markers(plan_geometry(plan, self._observer), self.config))
            ]
        if topic in (graph.BASE_STATE, graph.JOINT_STATES):
            msg = typestore().deserialize_cdr(raw, msgtype)
            return self._robot(stamp_ns, ros_msgs.stamp_ns(msg.header), topic, msg)
        return []

    def _on_scene(self, stamp_ns: int, msg: Any) -> list[Extra]:
        spec = json.loads(msg.spec_json)
        self._hazard_names = tuple(spec.get("hazard_bodies", ()))
        self._centres = {
            b["name"]: geoms_centre_m(body_from_dict(b).geoms)
            for b in spec.get("bodies", ())
            if b.get("name") in self._hazard_names
        }
        obs = spec.get("observer") or {}
        self._observer = Pose2D(float(obs.get("x_m", 0.0)), float(obs.get("y_m", 0.0)), float(obs.get("yaw_rad", 0.0)))
        static = tf_tree.robot_static_transforms() + tf_tree.scene_static_transforms(spec)
        description = ros_msgs.build(STRING_TYPE, data=urdf.g1_robot_description())
        return [
            _extra(ROBOT_DESCRIPTION, stamp_ns, description),
            _extra(TF_STATIC, stamp_ns, tf_tree.tf_message(static, stamp_ns)),
            _extra(SCENE_MARKERS, stamp_ns, markers.scene_markers(spec, config=self.config)),
            _extra(TF, stamp_ns, tf_tree.tf_message(tf_tree.hazard_initial_transforms(spec), stamp_ns)),
        ]

    def _robot(self, stamp_ns: int, tick_ns: int, topic: str, msg: Any) -> list[Extra]:
        parts = _gather(self._robot_parts, tick_ns, topic, msg)
        if len(parts) < 2:
            return []
        del self._robot_parts[tick_ns]
        pos, quat = _pose(parts[graph.BASE_STATE].pose)
        joints = parts[graph.JOINT_STATES]
        positions = dict(zip(joints.name, (float(q) for q in joints.position)))
        return [_extra(TF, stamp_ns, tf_tree.tf_message(tf_tree.robot_transforms(pos, quat, positions), tick_ns))]

    def _distances(self, stamp_ns: int, tick_ns: int, part: str, value: Any) -> list[Extra]:
        """Once per tick, when the hands and every hazard of that tick have arrived (in any order)."""
        if not self._hazard_names:
            return []
        parts = _gather(self._tick_points, tick_ns, part, value)
        if _HANDS not in parts or any(name not in parts for name in self._hazard_names):
            return []
        del self._tick_points[tick_ns]
        out = []
        for topic, hand in zip((LEFT_HAND_DISTANCE, RIGHT_HAND_DISTANCE), parts[_HANDS]):
            d = min(math.dist(hand, parts[name]) for name in self._hazard_names)
            out.append(_extra(topic, stamp_ns, ros_msgs.build(FLOAT_TYPE, data=d)))
        return out


_HANDS = "/hands"  # the key of a tick's hand positions beside its hazards' names (a topic, never a body name)


def _gather(pending: dict[int, dict[str, Any]], tick_ns: int, part: str, value: Any) -> dict[str, Any]:
    """Adds one part of a tick to `pending` and returns that tick's parts; drops the oldest incomplete ticks."""
    parts = pending.setdefault(tick_ns, {})
    parts[part] = value
    while len(pending) > ViewerTopics.MAX_PENDING_TICKS:
        del pending[min(pending)]
    return parts


def viewer_extras(messages: Iterable[tuple[str, str, int, bytes]], config: ViewerConfig = DEFAULT) -> Iterator[Extra]:
    """The viewer topics of an episode from its recorded (topic, type, log stamp, raw) messages, in order."""
    viewer = ViewerTopics(config)
    for topic, msgtype, stamp_ns, raw in messages:
        if topic in INPUT_TOPICS:
            yield from viewer.on_message(topic, msgtype, stamp_ns, raw)


class ViewerBagWriter(BagWriter):
    """A bag writer that, when closed, adds the viewer topics computed from what was written into it: the
    episode recorder's bag. Only the input topics' raw bytes are kept until then."""

    def __init__(self, path: Path, *, viewer_config: ViewerConfig = DEFAULT, **kwargs: Any) -> None:
        super().__init__(path, **kwargs)
        self._viewer_config = viewer_config
        self._inputs: list[tuple[str, str, int, bytes]] = []

    def write(self, topic: str, msgtype: str, stamp_ns: int, raw: bytes, latched: bool = False) -> None:
        super().write(topic, msgtype, stamp_ns, raw, latched=latched)
        if topic in INPUT_TOPICS:
            self._inputs.append((topic, msgtype, int(stamp_ns), bytes(raw)))

    def close(self) -> Path:
        inputs, self._inputs = self._inputs, []
        try:
            for extra in viewer_extras(inputs, self._viewer_config):
                super().write(extra.topic, extra.msgtype, extra.stamp_ns, extra.raw, latched=extra.latched)
        except BaseException:
            self.abort()
            raise
        return super().close()

    def abort(self) -> None:
        self._inputs = []
        super().abort()


def add_viewer_topics(bag: Path, config: ViewerConfig = DEFAULT) -> int:
    """Rewrite a complete bag recorded without the viewer topics through a ViewerBagWriter, as the recorder
    writes one; returns how many messages were added. The new bag is written in a scratch folder beside the
    old one and swapped in only once complete."""
    bag = Path(bag)
    info = bag_info(bag)
    if set(info["topics"]) & set(TOPIC_TYPES):
        raise BagError(f"{bag} already has the viewer topics")
    scratch = bag.parent / f".{bag.name}.viewer"
    shutil.rmtree(scratch, ignore_errors=True)
    writer = ViewerBagWriter(scratch / bag.name, viewer_config=config)
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
