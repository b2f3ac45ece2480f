"""The suite core (reacthuman/core): atomic writes, reply-JSON extraction, config validation."""

import json
import os
import stat
import subprocess
import sys
import threading

import pytest

from reacthuman.core.atomic import atomic_path, atomic_write_bytes, atomic_write_text


def test_atomic_write_replaces_whole_files_with_the_usual_mode(tmp_path):
    target = tmp_path / "sub" / "a.json"
    atomic_write_text(target, "old\n")
    atomic_write_text(target, "néw\n")
    assert target.read_bytes() == "néw\n".encode()
    assert os.listdir(target.parent) == ["a.json"]
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
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["plot.png"]


def test_concurrent_writers_of_one_path_never_share_a_temporary(tmp_path):
    target = tmp_path / "manifest.json"
    texts = [f"{i}\n" * 5000 for i in range(8)]
    threads = [threading.Thread(target=atomic_write_text, args=(target, t)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert target.read_text() in texts
    assert os.listdir(tmp_path) == ["manifest.json"]


from reacthuman.core.reply_json import first_json_object, json_candidates, response_format  # noqa: E402
from reacthuman.core.validate import require_positive  # noqa: E402


def test_reply_json_reads_fenced_blocks_first_then_the_text():
    reply = 'I think {"action": "DODGE"} fits.\n```json\n{"action": "CATCH", "keyframes": [{"t": 0.3}]}\n```'
    assert json_candidates(reply)[0] == {"action": "CATCH", "keyframes": [{"t": 0.3}]}
    assert json_candidates(reply)[1:] == [[{"t": 0.3}], {"t": 0.3}]  # nested values follow their container
    assert first_json_object('Sure! {"say": "hi"} and {"say": "bye"}') == {"say": "hi"}
    assert first_json_object('{"plan": {"ok": 1}') == {"ok": 1}  # a wrapper cut off still yields its inside
    assert first_json_object("no json") is None
    assert first_json_object(None) is None
    assert json_candidates("[1, 2]", openers="{") == []


def test_reply_json_takes_a_stricter_decoder_and_a_scan_limit():
    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) < len(keys):
            raise ValueError("duplicate key")
        return dict(pairs)

    import json

    strict = json.JSONDecoder(object_pairs_hook=no_duplicates)
    assert json_candidates('{"a": 1, "a": 2} {"b": 3}', decoder=strict) == [{"b": 3}]
    assert json_candidates("{}" * 10, max_starts=3) == [{}, {}, {}]
    fmt = response_format("reply", {"type": "object"})
    assert fmt == {
        "type": "json_schema",
        "json_schema": {"name": "reply", "strict": True, "schema": {"type": "object"}},
    }


def test_require_positive_names_the_field():
    class Config:
        dt_s, gain, offset_m = 0.01, 0.0, -1.0

    require_positive(Config(), ("dt_s",), "body config")
    require_positive(Config(), ("gain",), allow_zero=True)
    with pytest.raises(ValueError, match=r"^body config gain must be a finite number > 0, got 0.0$"):
        require_positive(Config(), ("dt_s", "gain"), "body config")
    with pytest.raises(ValueError, match="offset_m must be a finite number >= 0"):
        require_positive(Config(), ("offset_m",), allow_zero=True)
    for bad in (float("nan"), float("inf"), True, "1"):
        Config.dt_s = bad
        with pytest.raises(ValueError, match="dt_s"):
            require_positive(Config(), ("dt_s",))


from reacthuman.core.jsonl import append_jsonl  # noqa: E402


def test_all_three_systems_append_their_rows_through_one_jsonl_appender(tmp_path, caplog):
    """PhysMent's and InteractiveWorld's results files get ReactHuman's ledger repair: a torn last line is moved
    out to `.torn` before the next row, complete rows are never rewritten, and rows keep their old bytes."""
    from interactiveworld.bench.runner import _append
    from physment.runner import RESULTS_FILE, append_row

    physment_rows = tmp_path / RESULTS_FILE
    physment_rows.write_bytes(b'{"scene": 1}\n{"scene": 2, "corr')
    with caplog.at_level("WARNING"):
        append_row(tmp_path, {"scene": 3, "score": float("nan"), "name": "caf\u00e9"})
    assert physment_rows.read_bytes() == b'{"scene": 1}\n{"scene": 3, "score": NaN, "name": "caf\\u00e9"}\n'
    assert (tmp_path / (RESULTS_FILE + ".torn")).read_bytes() == b'{"scene": 2, "corr\n'
    assert "torn last line" in caplog.text

    iw_rows = tmp_path / "iw.jsonl"
    iw_rows.write_bytes(b'{"task": 1}')  # complete JSON without its newline: closed, kept
    _append(iw_rows, {"task": 2, "b": 0, "a": 1})
    assert iw_rows.read_bytes() == b'{"task": 1}\n{"a": 1, "b": 0, "task": 2}\n'

    plain = tmp_path / "sub" / "plain.jsonl"
    append_jsonl(plain, {"x": "\u00e9"})
    assert plain.read_text(encoding="utf-8") == '{"x": "\u00e9"}\n'
    with pytest.raises(ValueError):
        append_jsonl(plain, {"x": float("inf")})  # ledgers refuse NaN/inf unless a system asks for them


def test_physment_and_interactiveworld_ledgers_are_read_as_typed_records(tmp_path, caplog):
    """Both results files go through the suite's typed reader: a row comes back as its system's record with
    the same fields it was written with (unknown ones kept), a torn last line (an interrupted write) is
    skipped with a warning, and a bad row elsewhere is an error naming the file, the line and the field."""
    from interactiveworld.bench.record import TaskRecord
    from interactiveworld.bench.runner import _append
    from interactiveworld.bench.scoring import read_results as read_tasks
    from physment.runner import RESULTS_FILE, append_row, read_results as read_episodes
    from reacthuman.core.records import LedgerError

    episode = {
        "scene": "Scene1",
        "budget": 5,
        "correct": True,
        "answered": True,
        "agent": "oracle",
        "prompting": "zero-shot",
        "efficiency": 0.6,
        "newer_field": [1, 2],
    }
    append_row(tmp_path, episode)
    (record,) = read_episodes(tmp_path)
    assert record.correct
    assert record.key == ("Scene1", "oracle", 5, "zero-shot", "strict", "ours", "strict", "ours")
    assert record.correct_paper is False  # a row without it is upgraded: the paper's verdict recomputed
    assert record.to_dict()["newer_field"] == [1, 2]
    assert record.to_dict()["efficiency"] == 0.6
    with open(tmp_path / RESULTS_FILE, "ab") as fh:
        fh.write(b'{"scene": "Scene2", "bud')
    with caplog.at_level("WARNING"):
        assert len(read_episodes(tmp_path)) == 1
    assert "torn last line" in caplog.text
    (tmp_path / RESULTS_FILE).write_text(json.dumps({**episode, "budget": 0}) + "\n" + json.dumps(episode) + "\n")
    with pytest.raises(LedgerError, match=r"results.jsonl line 1: budget must be a positive integer, got 0"):
        read_episodes(tmp_path)

    task = TaskRecord(
        task_id="guidance-store-0", family="guidance", assistant="oracle", human="scripted", passed=True, completion=1.0
    )
    iw = tmp_path / "iw"
    _append(iw / "results.jsonl", {**task.to_dict(), "passed": False, "completion": 0.5})
    _append(iw / "results.jsonl", task.to_dict())  # a resumed run's later row of the same task wins
    assert read_tasks(iw) == [task]
    _append(iw / "results.jsonl", {**task.to_dict(), "family": ""})
    _append(iw / "results.jsonl", task.to_dict())
    with pytest.raises(LedgerError, match=r"line 3: family must be a non-empty string"):
        read_tasks(iw)


def _program(body: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", body], capture_output=True, text=True, timeout=60)


def test_a_program_ends_with_its_command_though_a_thread_would_hold_the_interpreter():
    """A thread left running (as a middleware's can be) does not keep a finished command alive; its atexit
    handlers still run and its output is flushed."""
    import time

    started = time.monotonic()
    done = _program(
        "import atexit, threading, time\n"
        "from reacthuman.core.program_exit import exit_program\n"
        "threading.Thread(target=time.sleep, args=(300,)).start()\n"
        "atexit.register(print, 'handlers ran')\n"
        "print('work done', end='')\n"
        "exit_program(3)\n"
    )
    assert done.returncode == 3 and done.stdout == "work donehandlers ran\n", done
    assert time.monotonic() - started < 30


def test_an_exit_handler_that_hangs_is_shown_and_ended():
    done = _program(
        "import atexit, time\n"
        "from reacthuman.core.program_exit import exit_program\n"
        "atexit.register(time.sleep, 300)\n"
        "exit_program(0, grace_s=1.0)\n"
    )
    # every thread's traceback, where it hangs: in the exit handlers
    assert done.returncode == 1 and "Timeout (0:00:01)!" in done.stderr and "exit_program" in done.stderr, done
