"""rosbag2 writing and reading (ROS-free) and the bag CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rclpy.serialization import deserialize_message, serialize_message

from reacthuman.core.bag import BagError, BagWriter, bag_info, read_bag, typestore
from ros_helpers import CUSTOM_MESSAGES, filled, msg_class

VENV_SHARE = Path(sys.prefix) / "share" / "reacthuman_msgs" / "msg"


@pytest.mark.parametrize("name", CUSTOM_MESSAGES)
def test_type_hashes_equal_rosidl(name):
    generated = json.loads((VENV_SHARE / f"{name}.json").read_text())
    expected = generated["type_hashes"][0]["hash_string"]
    assert typestore().hash_rihs01(f"reacthuman_msgs/msg/{name}") == expected


def test_written_bag_reads_back_byte_identical_and_only_complete_when_closed(tmp_path):
    bag = tmp_path / "episode"
    writer = BagWriter(bag)
    sent = []
    for i, name in enumerate(CUSTOM_MESSAGES):
        raw = serialize_message(filled(msg_class(f"reacthuman_msgs/{name}"), salt=i + 1))
        writer.write(f"/t/{name}", f"reacthuman_msgs/msg/{name}", 1000 + i, raw)
        sent.append(raw)
    assert not bag.exists()
    assert (tmp_path / "episode.partial").is_dir()  # not complete yet
    with pytest.raises(BagError):
        list(read_bag(tmp_path / "episode.partial"))
    writer.close()
    assert bag.is_dir()
    assert not (tmp_path / "episode.partial").exists()
    got = list(read_bag(bag))
    assert [m.raw for m in got] == sent
    first = got[0]
    assert deserialize_message(first.raw, msg_class(first.msgtype)) == filled(msg_class(first.msgtype), salt=1)
    info = bag_info(bag)
    assert info["messages"] == len(CUSTOM_MESSAGES)
    assert info["storage"] == "mcap"


def test_aborted_bag_leaves_nothing(tmp_path):
    writer = BagWriter(tmp_path / "b")
    writer.write("/x", "reacthuman_msgs/msg/Speech", 1, serialize_message(filled(msg_class("reacthuman_msgs/Speech"))))
    writer.abort()
    assert list(tmp_path.iterdir()) == []


def test_bag_info_cli_and_its_error(tmp_path):
    writer = BagWriter(tmp_path / "b")
    writer.write("/x", "reacthuman_msgs/msg/Speech", 5, serialize_message(filled(msg_class("reacthuman_msgs/Speech"))))
    writer.close()
    out = subprocess.run(
        [sys.executable, "-m", "reacthuman.cli", "bag", "info", str(tmp_path / "b")], capture_output=True, text=True
    )
    assert out.returncode == 0
    assert "reacthuman_msgs/msg/Speech" in out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "reacthuman.cli", "bag", "info", str(tmp_path / "nope")], capture_output=True, text=True
    )
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1
    assert "not a complete rosbag2 folder" in bad.stderr
