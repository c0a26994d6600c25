"""The attack on the writers and readers, kept as tests (docs/reliability.md, promises 3a, 4c, 6b):
crafted files, a run refused or killed before its first row, links, FIFOs and two writers of one
file. The interrupts are tests/test_interrupts.py; a kill at each system call of a table's update
and two runs on one table are tests/test_writes.py; crafted games files, checkpoints and networks
are tests/test_gamefile.py, tests/test_checkpoints.py and tests/test_valuenet.py.
"""

from __future__ import annotations

import json
import os
import threading

import pytest

from fepaper.cli import main
from fepaper.engines.jsonlines import appending
from fepaper.play.filelock import FileBusyError

HEADER = {"kind": "games", "names": ["a", "b"]}


def _read(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


class _Refused(Exception):
    """A run refused at start-up (a program that does not start, a bad setting)."""


def test_a_run_refused_before_its_first_row_leaves_no_file_and_the_header_goes_with_the_first_row(tmp_path):
    """A referee refused at start-up left a file holding its header alone, which then refused the
    corrected run as another run's file."""
    path = tmp_path / "games.jsonl"
    with pytest.raises(_Refused):
        with appending(path, HEADER, "games file", _read):
            assert path.read_bytes() == b""  # nothing written before a row
            raise _Refused
    assert not path.exists()
    corrected = {**HEADER, "names": ["a", "c"]}
    with appending(path, corrected, "games file", _read) as (found, append):
        assert found is None
        append({"game": 0})
        assert _read(path) == [corrected, {"game": 0}]  # header and row in one write
        append({"game": 1})
    with appending(path, corrected, "games file", _read) as (found, append):  # resumed
        assert found == [corrected, {"game": 0}, {"game": 1}]
    empty = tmp_path / "none.jsonl"
    with appending(empty, HEADER, "games file", _read):
        pass
    assert _read(empty) == [HEADER]  # a run of no rows: its header alone


def test_a_second_writer_is_refused_at_once_and_the_first_writes_whole_rows(tmp_path):
    path = tmp_path / "games.jsonl"
    inside, release, outcome = threading.Event(), threading.Event(), []

    def first():
        with appending(path, HEADER, "games file", _read) as (_, append):
            append({"game": 0})
            inside.set()
            release.wait(10)
            append({"game": 1})

    thread = threading.Thread(target=first)
    thread.start()
    inside.wait(10)
    try:
        with appending(path, HEADER, "games file", _read):
            outcome.append("entered")
    except FileBusyError as exc:
        outcome.append(str(exc))
    release.set()
    thread.join()
    assert len(outcome) == 1 and "another run is writing this file" in outcome[0]
    assert _read(path) == [HEADER, {"game": 0}, {"game": 1}]


def test_a_benchmark_record_that_is_not_its_benchmarks_is_one_line(tmp_path, capsys):
    """An empty 'figures' was a KeyError traceback; a FIFO as a record blocked the reader."""
    folder = tmp_path / "bench"
    folder.mkdir()
    cases = [({"benchmark": "turns", "command": "c", "machine": {}, "figures": {}}, "KeyError"),
             ({"benchmark": "turns", "command": "c", "machine": {}, "figures": []}, "TypeError"),
             ({"benchmark": "search", "figures": {}}, "not a record of `fepaper bench turns`")]
    for record, words in cases:
        (folder / "turns.json").write_text(json.dumps(record))
        assert main(["bench", "--table", "--data", str(folder)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err and "turns.json" in err, err
    (folder / "turns.json").unlink()
    os.mkfifo(folder / "turns.json")
    assert main(["bench", "--table", "--data", str(folder)]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_a_fixture_is_never_written_through_a_link_or_into_a_fifo(tmp_path, capsys):
    target = tmp_path / "kept.json"
    target.write_text("kept")
    (tmp_path / "link.json").symlink_to(target)
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    os.mkfifo(tmp_path / "fifo.json")
    for name, words in (("link.json", "symbolic link"), ("dangling.json", "symbolic link"),
                        ("fifo.json", "FIFO")):
        argv = ["solve", "--rules", "standard", "--fixture", str(tmp_path / name), "--force"]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err
    assert target.read_text() == "kept" and not (tmp_path / "nowhere.json").exists()
