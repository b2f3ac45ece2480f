"""sensor_msgs/Image (rgb8) pixels as arrays without rclpy, and the frames the brain saw read back from an
episode's bag.

An episode keeps its frames once: raw, in the bag's /reacthuman/observation (the exact pixels the brain was
given). Its folder holds brain_view PNGs only when the bag was dropped; the report reads the others here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from reacthuman import ros_contract as graph
from reacthuman.core.bag import deserialize, read_bag


def rgb8_pixels(image: Any) -> np.ndarray:
    """(height, width, 3) uint8 of an rgb8 image message (rclpy's or the bag type store's), rows unpadded."""
    if image.encoding != "rgb8":
        raise ValueError(f"expected rgb8 images, got {image.encoding!r}")
    height, width, step = int(image.height), int(image.width), int(image.step)
    rows = np.frombuffer(bytes(image.data), np.uint8).reshape(height, step)
    return rows[:, : width * 3].reshape(height, width, 3).copy()


def observation_frames_in_bag(bag_dir: Path) -> dict[str, list[np.ndarray]]:
    """Each view's frames, in order, from the episode's observation window; {} when the bag has none."""
    for message in read_bag(Path(bag_dir), {graph.OBSERVATION}):
        window = deserialize(message)
        return {view.view_name: [rgb8_pixels(f) for f in view.frames] for view in window.views}
    return {}
