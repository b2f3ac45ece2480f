"""The append-only ledger: one line per decision, torn last lines, malformed rows, secrets."""

import json

import pytest

from reacthuman.scoring.ledger import DecisionRecord, LedgerError, LedgerWriter, decided_keys, ledger_path, read_ledger


def _rec(scene="s1", model="m", **kw):
    base = dict(
        scene_id=scene,
        family="object_drop",
        model=model,
        object="plate",
        correct_action="CATCH",
        action="CATCH",
        saa=1,
        safe=1,
    )
    base.update(kw)
    return DecisionRecord(**base)


def test_append_and_read_back_in_order(tmp_path):
    with LedgerWriter(tmp_path) as w:
        w.append(_rec("s1"))
        w.append(_rec("s2", d_end=0.5, rules_broken=[]))
    with LedgerWriter(tmp_path) as w:  # reopening appends, never truncates
        w.append(_rec("s3"))
    rows = read_ledger(tmp_path)
    assert [r.scene_id for r in rows] == ["s1", "s2", "s3"]
    assert rows[1].d_end == 0.5
    lines = ledger_path(tmp_path).read_text().splitlines()
    assert len(lines) == 3
    assert all(json.loads(line)["record_version"] == 1 for line in lines)


def test_torn_last_line_is_ignored_on_read_and_moved_out_on_append(tmp_path, caplog):
    with LedgerWriter(tmp_path) as w:
        w.append(_rec("s1"))
        w.append(_rec("s2"))
    path = ledger_path(tmp_path)
    complete = path.read_bytes()
    path.write_bytes(complete + b'{"scene_id": "s3", "fam')  # a crash mid-write
    rows = read_ledger(tmp_path)
    assert [r.scene_id for r in rows] == ["s1", "s2"]
    assert "torn" in caplog.text
    with LedgerWriter(tmp_path) as w:
        w.append(_rec("s3"))
    assert path.read_bytes().startswith(complete)  # complete rows untouched
    assert [r.scene_id for r in read_ledger(tmp_path)] == ["s1", "s2", "s3"]
    assert (tmp_path / "ledger.jsonl.torn").read_bytes() == b'{"scene_id": "s3", "fam\n'


def test_complete_last_line_missing_its_newline_is_kept(tmp_path):
    path = ledger_path(tmp_path)
    path.write_text(json.dumps(_rec("s1").to_dict()))
    assert [r.scene_id for r in read_ledger(tmp_path)] == ["s1"]
    with LedgerWriter(tmp_path) as w:
        w.append(_rec("s2"))
    assert [r.scene_id for r in read_ledger(tmp_path)] == ["s1", "s2"]
    assert not (tmp_path / "ledger.jsonl.torn").exists()


def test_malformed_inner_line_is_an_error_naming_the_line(tmp_path):
    path = ledger_path(tmp_path)
    good = json.dumps(_rec("s1").to_dict())
    path.write_text(good + "\nnot json\n" + good + "\n")
    with pytest.raises(LedgerError, match=r"line 2"):
        read_ledger(tmp_path)
    path.write_text(good + "\n" + json.dumps({"scene_id": "x"}) + "\n")
    with pytest.raises(LedgerError, match=r"line 2: missing field"):
        read_ledger(tmp_path)
    path.write_text(json.dumps({**_rec("s1").to_dict(), "saa": 7}) + "\n")
    with pytest.raises(LedgerError, match=r"line 1: saa must be"):
        read_ledger(tmp_path)


def test_missing_and_empty_ledgers(tmp_path):
    with pytest.raises(LedgerError, match="does not exist"):
        read_ledger(tmp_path / "nope")
    with pytest.raises(LedgerError, match="no ledger"):
        read_ledger(tmp_path)
    ledger_path(tmp_path).write_text("\n")
    with pytest.raises(LedgerError, match="no decisions"):
        read_ledger(tmp_path)


def test_unknown_fields_survive_a_round_trip(tmp_path):
    path = ledger_path(tmp_path)
    path.write_text(json.dumps({**_rec("s1").to_dict(), "future_metric": 3.5}) + "\n")
    (row,) = read_ledger(tmp_path)
    assert row.extras == {"future_metric": 3.5}
    assert row.to_dict()["future_metric"] == 3.5


def test_secrets_are_scrubbed_before_writing(tmp_path):
    with LedgerWriter(tmp_path) as w:
        w.append(
            _rec(
                api_error="HTTP 401: Authorization: Bearer abcdEFGH12345678 api_key=sk-ABCDEFGH12345678",
                correct_action=None,
                action=None,
                saa=None,
                safe=None,
            )
        )
    text = ledger_path(tmp_path).read_text()
    assert "abcdEFGH12345678" not in text
    assert "sk-ABCDEFGH" not in text
    assert "[REDACTED]" in text


def test_record_validation():
    with pytest.raises(ValueError, match="rule"):
        _rec(rule="R9")
    with pytest.raises(ValueError, match="aia"):
        _rec(aia=0.3)
    with pytest.raises(ValueError, match="action"):
        _rec(action="JUMP")
    with pytest.raises(ValueError, match="scene_id"):
        _rec(scene="")


def test_decided_keys_for_resuming(tmp_path):
    assert decided_keys(tmp_path) == set()
    with LedgerWriter(tmp_path) as w:
        w.append(_rec("s1", "A"))
        w.append(_rec("s2", "A", api_error="HTTP 500", correct_action=None, action=None, saa=None, safe=None))
        w.append(_rec("s1", "B"))
    assert decided_keys(tmp_path) == {("s1", "A"), ("s1", "B")}
