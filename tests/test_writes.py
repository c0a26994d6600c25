"""One way to write a file (``fepaper.game.writes``), and the table of solved boards trusted no
further than its digests: links, FIFOs, folders and missing folders refused before any work; a
table and its sidecar valid and in step whatever instant the writer dies at; one writer at a
time; every bad row refused with its line."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fepaper.cli import main
from fepaper.experiments.complexity import solved, solvedtable
from fepaper.experiments.complexity.solvedtable import SolvedTableError, read_table, read_text, sidecar_text
from fepaper.game import writes
from fepaper.game.writes import WriteError, check_writable, write_atomic

TINY = {"width": 2, "height": 2, "bounce": "mandatory"}
OTHER = {"width": 2, "height": 2, "middle_line": False}
TINY_JSON = json.dumps(TINY)


def _files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


# -- the writer --------------------------------------------------------------------------------
def test_a_write_replaces_the_file_whole_and_keeps_its_permissions(tmp_path):
    path = tmp_path / "a.txt"
    write_atomic(path, "one\n")
    path.chmod(0o640)
    write_atomic(path, b"two\n")
    assert path.read_text() == "two\n" and path.stat().st_mode & 0o777 == 0o640
    assert _files(tmp_path) == {"a.txt"}  # no temporary file left


def test_links_fifos_folders_and_missing_folders_are_refused_naming_the_path(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link, dangling, fifo = tmp_path / "link.txt", tmp_path / "dangling.txt", tmp_path / "fifo"
    link.symlink_to(target)
    dangling.symlink_to(tmp_path / "elsewhere.txt")
    os.mkfifo(fifo)
    cases = [(link, "is a symbolic link; fepaper does not write through one"),
             (dangling, "is a symbolic link"),
             (fifo, "is not a regular file (a FIFO, socket or device)"),
             (tmp_path, "is a folder; give a file name"),
             (tmp_path / "a" / "b" / "c.txt", f"folder {tmp_path / 'a' / 'b'} does not exist (fepaper creates none)"),
             (target / "x.txt", f"{target} is not a folder")]
    for path, words in cases:
        for call in (lambda p: check_writable(p, "--out"), lambda p: write_atomic(p, "x", "--out")):
            with pytest.raises(WriteError) as info:
                call(path)
            message = str(info.value)
            assert message.startswith(f"--out {path}") and words in message and "\n" not in message
    assert target.read_text() == "keep me" and not (tmp_path / "elsewhere.txt").exists()
    assert not (tmp_path / "a").exists() and _files(tmp_path) == {"precious.txt", "link.txt", "dangling.txt", "fifo"}
    with pytest.raises(WriteError, match="exists; give --force"):
        check_writable(target, "--out", force=False)


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch):
    path = tmp_path / "a.txt"
    path.write_text("old")
    monkeypatch.setattr(writes, "os", _Faulty(at=2))  # the fsync after the write
    with pytest.raises(_Killed):
        write_atomic(path, "new")
    assert path.read_text() == "old" and _files(tmp_path) == {"a.txt"}


# -- the commands that write refuse before their work ------------------------------------------
def _fepaper(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fepaper.cli", *argv], capture_output=True, text=True,
                          timeout=timeout)


def test_commands_refuse_a_bad_output_at_once(tmp_path, capsys):
    target = tmp_path / "README.md"
    target.write_text("keep me")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    fifo = tmp_path / "fifo.md"
    os.mkfifo(fifo)
    a_file = tmp_path / "file"
    a_file.write_text("")
    cases = [(["claims-table", "--write", str(link)], "is a symbolic link"),
             (["bench", "--table", "--write", str(link)], "is a symbolic link"),
             (["bench", "turns", "--save", str(tmp_path / "a" / "b" / "c")], "does not exist (fepaper creates none)"),
             (["bench", "turns", "--save", str(a_file)], "is not a folder"),
             (["solve", "--rules", TINY_JSON, "--out", str(tmp_path / "t.json")], "is a .csv file"),
             (["solve", "--rules", TINY_JSON, "--out", str(tmp_path / "link.csv")], "is a symbolic link")]
    (tmp_path / "link.csv").symlink_to(target)
    (tmp_path / "side.json").symlink_to(target)
    cases.append((["solve", "--rules", TINY_JSON, "--out", str(tmp_path / "side.csv")], "--out's sidecar"))
    for argv, words in cases:
        start = time.perf_counter()
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"fepaper {argv[0]}: error: ") and words in err and err.count("\n") == 1, err
        assert time.perf_counter() - start < 2, argv  # refused before any measuring or solving
    assert target.read_text() == "keep me" and not (tmp_path / "a").exists()
    assert not (tmp_path / "side.csv").exists()
    done = _fepaper("claims-table", "--write", str(fifo), timeout=30)  # a FIFO read blocked forever
    assert done.returncode == 2 and "is not a regular file" in done.stderr


# -- the table of solved boards: a kill at any instant -----------------------------------------
class _Killed(BaseException):
    """A kill of the writer at one of its system calls (not an Exception: nothing catches it)."""


class _Faulty:
    """``os`` for :mod:`fepaper.game.writes`, dying at its ``at``-th write, fsync or rename."""

    def __init__(self, at: int):
        self.at, self.calls = at, 0

    def __getattr__(self, name):
        real = getattr(os, name)
        if name not in ("write", "fsync", "replace"):
            return real

        def call(*args, **kwargs):
            self.calls += 1
            if self.calls == self.at:
                raise _Killed(f"{name} #{self.calls}")
            return real(*args, **kwargs)
        return call


def _in_step(out: Path) -> bool:
    text, rows = read_text(out)
    return out.with_suffix(".json").read_text() == sidecar_text(out, text, rows)


def test_a_kill_at_any_instant_leaves_table_and_sidecar_valid_and_in_step(tmp_path, monkeypatch):
    out = tmp_path / "solved.csv"
    solved.solve_board(TINY, out, seconds=60)
    before = out.read_bytes(), out.with_suffix(".json").read_bytes()
    instants = 0
    for at in range(1, 40):
        faulty = _Faulty(at)
        monkeypatch.setattr(writes, "os", faulty)
        try:
            solved.solve_board(OTHER, out, seconds=60)
        except _Killed:
            pass
        else:
            break
        finally:
            monkeypatch.setattr(writes, "os", os)
        instants += 1
        text, rows = read_text(out)  # the table is whole: one row or two
        side = json.loads(out.with_suffix(".json").read_text())  # the sidecar is valid JSON
        assert len(rows) in (1, 2) and [r["value"] for r in rows] == ["first player wins"] * len(rows)
        if len(rows) == 1:
            assert (out.read_bytes(), out.with_suffix(".json").read_bytes()) == before
        elif not _in_step(out):  # killed between the two renames: the sidecar names the table before
            assert len(side["records"]) == 1 and side["table_sha256"] != solvedtable.hashlib.sha256(
                out.read_bytes()).hexdigest()
        again = solved.solve_board(OTHER, out, seconds=60)  # the next run puts both in step
        assert _in_step(out) and len(read_table(out)) == 2 and again["solved_now"] == (len(rows) == 1)
        out.write_bytes(before[0])
        out.with_suffix(".json").write_bytes(before[1])
        assert _files(tmp_path) == {"solved.csv", "solved.json"}
    assert instants >= 6  # write, fsync, rename, folder fsync: of the table, then of the sidecar


def _solve_slowly(out: str, barrier, results) -> None:
    real = solved._solved

    def slow(*args):
        time.sleep(0.5)  # both runs are inside the lock's window at once
        return real(*args)

    solved._solved = slow
    barrier.wait()
    try:
        results.put(solved.solve_board(TINY, out, seconds=60)["solved_now"])
    except Exception as exc:
        results.put(type(exc).__name__)


def test_two_runs_on_one_table_add_one_row(tmp_path):
    out = tmp_path / "solved.csv"
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(2), context.Queue()
    runs = [context.Process(target=_solve_slowly, args=(str(out), barrier, results)) for _ in range(2)]
    for run in runs:
        run.start()
    for run in runs:
        run.join(30)
    assert sorted(map(str, (results.get(timeout=5), results.get(timeout=5)))) == ["FileBusyError", "True"]
    assert len(read_table(out)) == 1 and _in_step(out)


# -- the table of solved boards: every row checked ---------------------------------------------
@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("table") / "solved.csv"
    solved.solve_board(TINY, out, seconds=60)
    return out


def _edit(table: Path, tmp_path: Path, edit) -> Path:
    out = tmp_path / "solved.csv"
    lines = table.read_text().split("\n")
    out.write_text("\n".join(edit(lines)))
    out.with_suffix(".json").write_text("[]\n")
    return out


def _resealed(line: str) -> str:
    """``line`` with its digest computed again: a forger's edit, which the checks behind the digest catch."""
    cells = next(solvedtable.csv.reader([line]))
    return solvedtable._line([*cells[:-1], solvedtable._digest(cells[:-1])]).rstrip("\n")


@pytest.mark.parametrize("edit, words", [
    (lambda ls: [ls[0], ls[1].replace("first player wins", "second player wins"), ""],
     "line 2: its digest does not match its fields"),
    (lambda ls: [*ls[:2], "a,b", ""], "line 3: 2 fields, expected 34"),
    (lambda ls: [ls[0], ls[1].replace(",mandatory,", "," + "x" * 131_073 + ","), ""],
     "line 2: 131,"),
    (lambda ls: [ls[0], '"' + ls[1], ls[1], ""], "line 2: not one CSV row"),
    (lambda ls: [ls[0], ls[1].replace(",17 71,", ',"17 71",', 1), ""], "line 2: quoted otherwise"),
    (lambda ls: [ls[0], ls[1].replace(",True,", ",yes,", 1), ""], "line 2: its digest does not match"),
    (lambda ls: [ls[0], _resealed(ls[1].replace(",True,", ",yes,", 1)), ""],
     "line 2: middle_line must be True or False"),
    (lambda ls: [ls[0], _resealed(ls[1].replace("first player wins,17 71,True", "first player wins,,")), ""],
     "line 2: winning_first_turns and all_winning_turns are given when, and only when, the first player wins"),
    (lambda ls: [ls[0], ls[1], ls[1][:40]], "line 3: no line ending"),
    (lambda ls: [",".join(solvedtable.COLUMNS[:23]), ""], "line 1: a table written before its rows carried a digest"),
])
def test_a_bad_row_is_refused_with_its_line_never_skipped(table, tmp_path, capsys, edit, words):
    out = _edit(table, tmp_path, edit)
    before = out.read_bytes(), out.with_suffix(".json").read_bytes()
    with pytest.raises(SolvedTableError, match=words):
        read_table(out)
    start = time.perf_counter()
    assert main(["solve", "--rules", TINY_JSON, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"fepaper solve: error: solved-boards table {out}, line ") and words in err
    assert err.count("\n") == 1 and len(err) < 700 and time.perf_counter() - start < 2  # nothing solved
    assert (out.read_bytes(), out.with_suffix(".json").read_bytes()) == before


def test_json_gives_numbers_for_a_fresh_row_and_a_row_read_back(tmp_path, capsys):
    out = tmp_path / "solved.csv"
    rows = []
    for _ in range(2):
        assert main(["solve", "--rules", TINY_JSON, "--out", str(out), "--json"]) == 0
        rows.append(json.loads(capsys.readouterr().out))
    fresh, back = rows
    assert fresh.pop("solved_now") and not back.pop("solved_now") and fresh == back
    assert isinstance(back["nodes"], int) and isinstance(back["seconds"], float)
    assert back["middle_line"] is True and back["max_turns"] is None and back["value"] == "first player wins"


def test_a_missing_or_damaged_sidecar_is_derived_again_from_the_table(tmp_path, capsys):
    out = tmp_path / "solved.csv"
    solved.solve_board(TINY, out, seconds=60)
    side = out.with_suffix(".json")
    for damage in ("{", None):
        side.unlink() if damage is None else side.write_text(damage)
        assert not solved.solve_board(TINY, out, seconds=60)["solved_now"]
        assert _in_step(out)


def test_the_committed_table_reads_in_its_format():
    root = Path(__file__).resolve().parents[1]
    out = root / "data" / "solved_boards.csv"
    rows = read_table(out)
    assert len(rows) == 95 and _in_step(out)
    assert sum(r["method"] == "dfpn" for r in rows) == 60
    for r in rows:  # every certificate a row names is in data/proofs, of the size it says
        if r["certificate"]:
            assert (root / "data" / "proofs" / r["certificate"]).stat().st_size == r["certificate_bytes"]
    two = [r for r in rows if r["width"] == 2 and r["height"] == 2 and not r["middle_line"]]
    assert {r["value"] for r in two} == {"first player wins"}
