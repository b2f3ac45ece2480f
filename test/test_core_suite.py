"""The suite core (reacthuman/core): atomic writes, reply-JSON extraction, config validation."""

import os
import stat
import threading

import pytest

from reacthuman.core.atomic import atomic_path, atomic_write_bytes, atomic_write_text


def test_atomic_write_replaces_whole_files_with_the_usual_mode(tmp_path):
    target = tmp_path / "sub" / "a.json"
    atomic_write_text(target, "old\n")
    atomic_write_text(target, "néw\n")
    assert target.read_bytes() == "néw\n".encode() and os.listdir(target.parent) == ["a.json"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask  # not mkstemp's private 0600


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "plot.png"
    atomic_write_bytes(target, b"old")
    with pytest.raises(RuntimeError):
        with atomic_path(target, suffix=".png") as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("the encoder failed")
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["plot.png"]


def test_concurrent_writers_of_one_path_never_share_a_temporary(tmp_path):
    target = tmp_path / "manifest.json"
    texts = [f"{i}\n" * 5000 for i in range(8)]
    threads = [threading.Thread(target=atomic_write_text, args=(target, t)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert target.read_text() in texts and os.listdir(tmp_path) == ["manifest.json"]
