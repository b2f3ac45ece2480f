"""Episodes as rosbag2 folders (MCAP), like the ReactHuman episodes: speech on /interactiveworld/speech
(reacthuman_msgs/msg/Speech), first-person frames on /interactiveworld/human/eye (sensor_msgs/msg/Image),
the judge's verdict on /interactiveworld/judge (std_msgs/msg/String, JSON). Stamped with world time."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from reacthuman.core.bag import BagWriter, typestore

SPEECH_TOPIC = "/interactiveworld/speech"
EYE_TOPIC = "/interactiveworld/human/eye"
JUDGE_TOPIC = "/interactiveworld/judge"
SPEECH_TYPE = "reacthuman_msgs/msg/Speech"
IMAGE_TYPE = "sensor_msgs/msg/Image"
STRING_TYPE = "std_msgs/msg/String"


class EpisodeBag:
    def __init__(self, path: Path) -> None:
        self.store = typestore()
        self.writer = BagWriter(Path(path))
        self._last_ns = 0

    def _stamp(self, t_s: float):
        # strictly increasing stamps keep the message order when several things happen at one world time
        ns = max(int(round(t_s * 1e9)), self._last_ns + 1)
        self._last_ns = ns
        T = self.store.types
        header = T["std_msgs/msg/Header"](
            stamp=T["builtin_interfaces/msg/Time"](sec=ns // 10**9, nanosec=ns % 10**9), frame_id="human_eye"
        )
        return ns, header

    def _write(self, topic: str, msgtype: str, ns: int, msg) -> None:
        self.writer.write(topic, msgtype, ns, self.store.serialize_cdr(msg, msgtype))

    def speech(self, t_s: float, speaker: str, text: str) -> None:
        ns, header = self._stamp(t_s)
        self._write(
            SPEECH_TOPIC, SPEECH_TYPE, ns, self.store.types[SPEECH_TYPE](header=header, speaker=speaker, text=text)
        )

    def frame(self, t_s: float, image: np.ndarray) -> None:
        ns, header = self._stamp(t_s)
        h, w, _ = image.shape
        msg = self.store.types[IMAGE_TYPE](
            header=header,
            height=h,
            width=w,
            encoding="rgb8",
            is_bigendian=0,
            step=3 * w,
            data=np.ascontiguousarray(image, dtype=np.uint8).reshape(-1),
        )
        self._write(EYE_TOPIC, IMAGE_TYPE, ns, msg)

    def judge(self, t_s: float, verdict: dict) -> None:
        ns, _ = self._stamp(t_s)
        self._write(
            JUDGE_TOPIC, STRING_TYPE, ns, self.store.types[STRING_TYPE](data=json.dumps(verdict, sort_keys=True))
        )

    def close(self) -> Path:
        return self.writer.close()

    def abort(self) -> None:
        self.writer.abort()
