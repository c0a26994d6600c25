"""The file of solved boards: its format, every row checked on reading, and its update.

A table (``data/solved_boards.csv``) is a CSV file of :data:`COLUMNS`, one row per solve, written
only by :func:`append`: the whole table with the new row, through
:func:`fepaper.game.writes.write_atomic` (a temporary file, ``fsync``, a rename), then its sidecar
(the same name, ``.json``) the same way. The sidecar is derived from the table alone (one record
per row, and the SHA-256 of the table it was derived from), so the table is the one truth: a kill
at any instant leaves both files whole; a kill between the two renames leaves a sidecar that names
the table before the new row, and :func:`sync_sidecar` (the first thing ``solve`` does) derives it
again. The caller holds :func:`locked`, so one process at a time reads, checks and appends.

Every row is checked when the table is read (:func:`read_table`): the number of fields, each
field's type, range and length, its quoting (the bytes are those fepaper writes), the rules
column against the columns that repeat it, and the ``digest``: a SHA-256 of :data:`FORMAT` and
the row's other fields, which the solver writes. A row edited by hand (a value changed from "first
player wins" to "second player wins") no longer matches its digest. The digest detects edits and
damage, not a forger: anyone can compute it again, so it is not a security boundary. Any bad row
is refused with :class:`SolvedTableError` naming the file and the line; nothing is skipped.

Examples
--------
>>> sidecar_path("data/solved_boards.csv").name
'solved_boards.json'
>>> sidecar_path("t.json")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fepaper.experiments.complexity.solvedtable.SolvedTableError: table t.json: a solved-boards table is a .csv ...
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
from contextlib import contextmanager
from pathlib import Path

from ...game.jsonio import JSONInputError, loads, read_bytes
from ...game.rules import Rules
from ...game.writes import write_atomic
from ...play.filelock import exclusive_folder

__all__ = ["FORMAT", "COLUMNS", "VALUE_NAMES", "SolvedTableError", "rules_key", "sidecar_path", "row_cells",
           "typed_row", "read_table", "read_text", "locked", "append", "sync_sidecar", "sidecar_text",
           "MAX_LINE", "MAX_TABLE_BYTES"]

#: The name of the table's format, in each row's digest and in the sidecar.
FORMAT = "fepaper-solved-boards/3"
#: The format before rows said which solver made them and their certificate: read, and written
#: again as :data:`FORMAT` (every row checked against its own digest first) by the next append.
FORMAT_2 = "fepaper-solved-boards/2"
#: The value of the kick-off, as the table writes it (by the winner: 1, 2, 0 a draw, None unknown).
VALUE_NAMES = {1: "first player wins", 2: "second player wins", 0: "draw", None: "unknown"}
_STOPPED = ("budget", "memory", "listing")
#: Each column and its kind: ``int``/``float`` (non-negative; ``?``: empty for none), ``bool``
#: (``True``/``False``; ``?``: empty), ``turns`` (turns separated by spaces), or a named check.
_KINDS = {
    "rules": "rules", "width": "int", "height": "int", "middle_line": "bool", "bounce": "word",
    "dead_end": "word", "blocked": "word", "max_turns": "int?", "free_edges": "int", "value": "value",
    "winning_first_turns": "turns", "all_winning_turns": "bool?", "first_turns": "int",
    "proven_first_turns": "int", "nodes": "int", "positions": "int", "deepest": "int", "seconds": "float",
    "peak_rss_mb": "float", "budget_seconds": "float?", "memory_cap_gb": "float", "stopped": "stopped",
    "commit": "commit", "best_first_turns": "turns", "first_turns_won": "int", "first_turns_not_won": "int",
    "table_slots": "int", "table_mb": "float", "writes": "int", "hits": "int", "method": "method",
    "certificate": "certificate", "certificate_bytes": "int", "digest": "digest",
}
COLUMNS = tuple(_KINDS)
#: What a row of :data:`FORMAT_2` holds in the columns it did not have.
_FORMAT_2_DEFAULTS = {"method": "alphabeta", "certificate": "", "certificate_bytes": "0"}
_COLUMNS_2 = tuple(c for c in COLUMNS if c not in _FORMAT_2_DEFAULTS)
_HEADER_2 = ",".join(_COLUMNS_2) + "\n"
#: The longest line of a table, checked before the CSV reader sees it.
MAX_LINE = 65_536
#: The largest table read.
MAX_TABLE_BYTES = 1 << 26
_HEADER = ",".join(COLUMNS) + "\n"
#: The columns of the tables written before rows carried a digest.
_FORMAT_1 = COLUMNS[:23]
_INT = re.compile(r"0|[1-9][0-9]{0,18}")
_TURNS = re.compile(r"(?:[0-7]+(?: [0-7]+)*)?")
_COMMIT = re.compile(r"[0-9a-f]{4,40}(?:\+modified)?|unknown")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_CERTIFICATE = re.compile(r"(?:[0-9a-z-]{1,200}\.proof\.gz)?")


class SolvedTableError(ValueError):
    """A solved-boards table, or a row of it, that fepaper did not write as it stands."""


def rules_key(rules) -> str:
    """The rules as compact JSON with sorted keys: the identity of a row."""
    return json.dumps(Rules.from_spec(rules).to_dict(), sort_keys=True, separators=(",", ":"))


def sidecar_path(path: str | Path, what: str = "table") -> Path:
    """The sidecar of the table ``path`` (``x.csv`` -> ``x.json``); a table is a ``.csv`` file."""
    path = Path(path)
    if path.suffix != ".csv":
        raise SolvedTableError(f"{what} {path}: a solved-boards table is a .csv file (its sidecar is the "
                               "same name with .json)")
    return path.with_suffix(".json")


# -- one row: typed values <-> the cells written ------------------------------------------------
def _cell(kind: str, value) -> str:
    optional = kind.endswith("?")
    if optional and value is None:
        return ""
    base = kind.rstrip("?")
    if base == "int":
        return str(int(value))
    if base == "float":
        return repr(float(value))
    if base == "bool":
        return str(bool(value))
    return str(value)


def _digest(cells: list[str], fmt: str = FORMAT) -> str:
    text = json.dumps([fmt, *cells], ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def row_cells(record: dict) -> list[str]:
    """The cells of one row of :data:`COLUMNS` from the solver's typed ``record`` (every column but
    ``digest``), its digest last."""
    cells = [_cell(kind, record[column]) for column, kind in _KINDS.items() if column != "digest"]
    return [*cells, _digest(cells)]


def _value(kind: str, cell: str, column: str):
    """The typed value of ``cell``; a ValueError saying what the column takes."""
    optional = kind.endswith("?")
    base = kind.rstrip("?")
    if optional and cell == "":
        return None
    if base == "int":
        if not _INT.fullmatch(cell):
            raise ValueError(f"{column} must be a non-negative integer{' or empty' if optional else ''}")
        return int(cell)
    if base == "float":
        try:
            value = float(cell)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value >= 0 and repr(value) == cell):
            raise ValueError(f"{column} must be a non-negative number as Python writes it"
                             f"{' or empty' if optional else ''}")
        return value
    if base == "bool":
        if cell not in ("True", "False"):
            raise ValueError(f"{column} must be True or False{' or empty' if optional else ''}")
        return cell == "True"
    checks = {"turns": lambda: _TURNS.fullmatch(cell), "commit": lambda: _COMMIT.fullmatch(cell),
              "digest": lambda: _DIGEST.fullmatch(cell), "value": lambda: cell in VALUE_NAMES.values(),
              "stopped": lambda: cell in ("", *_STOPPED), "word": lambda: re.fullmatch(r"[a-z]{1,16}", cell),
              "rules": lambda: cell.startswith("{"), "method": lambda: cell in ("alphabeta", "dfpn"),
              "certificate": lambda: _CERTIFICATE.fullmatch(cell)}
    expected = {"turns": "turns of step digits 0-7 separated by single spaces", "commit": "a commit hash",
                "digest": "sha256: and 64 hexadecimal digits",
                "value": " or ".join(repr(v) for v in VALUE_NAMES.values()),
                "stopped": f"empty or one of {', '.join(_STOPPED)}", "word": "a rules word",
                "rules": "the rules as a JSON object", "method": "alphabeta or dfpn",
                "certificate": "empty or a certificate's file name (ending .proof.gz)"}
    if not checks[base]():
        raise ValueError(f"{column} must be {expected[base]}")
    return cell


def typed_row(cells: list[str]) -> dict:
    """The row of ``cells`` (all of :data:`COLUMNS`) with each value typed: numbers, booleans,
    ``None`` for an empty optional field; ValueError naming the column that is wrong."""
    row = {column: _value(kind, cell, column) for (column, kind), cell in zip(_KINDS.items(), cells)}
    try:
        rules = Rules.from_spec(loads(row["rules"], "rules"))
    except (ValueError, TypeError) as exc:
        raise ValueError(f"rules: {exc}") from None
    if rules_key(rules) != row["rules"]:
        raise ValueError("rules must be every field of the rules, keys sorted, compact JSON")
    for column in ("width", "height", "middle_line", "bounce", "dead_end", "blocked", "max_turns"):
        if row[column] != getattr(rules, column):
            raise ValueError(f"{column} {row[column]!r} is not the rules' {getattr(rules, column)!r}")
    first = row["value"] == VALUE_NAMES[1]
    if first != (row["all_winning_turns"] is not None) or (not first and row["winning_first_turns"]):
        raise ValueError("winning_first_turns and all_winning_turns are given when, and only when, the "
                         "first player wins")
    if row["proven_first_turns"] > row["first_turns"] or (
            row["first_turns_won"] + row["first_turns_not_won"] > row["first_turns"]):
        raise ValueError("more first turns proven, won or not won than first turns")
    return row


def _line(cells: list[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(cells)
    return out.getvalue()


# -- the table ---------------------------------------------------------------------------------
def read_text(path: str | Path, what: str = "solved-boards table") -> tuple[str, list[dict]]:
    """The text of the table ``path`` and its rows, every row checked (``""`` and no rows if there
    is no file, or an empty one: a table about to get its first row).

    Raises
    ------
    SolvedTableError
        Naming the file and the line of the first row fepaper would not write as it stands.
    """
    path = Path(path)
    where = f"{what} {path}"
    try:
        data = read_bytes(path, what, MAX_TABLE_BYTES)
    except JSONInputError as exc:
        if not path.exists() and not path.is_symlink():
            return "", []
        raise SolvedTableError(str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SolvedTableError(f"{where}, line {line}: not UTF-8 text") from None
    if not text:
        return "", []
    lines = text.split("\n")
    if lines[-1]:
        raise SolvedTableError(f"{where}, line {len(lines)}: no line ending (cut short?)")
    fmt = FORMAT_2 if lines[0] + "\n" == _HEADER_2 else FORMAT
    if lines[0] + "\n" not in (_HEADER, _HEADER_2):
        old = lines[0].split(",") == list(_FORMAT_1)
        raise SolvedTableError(
            f"{where}, line 1: " + ("a table written before its rows carried a digest; solve its boards "
                                    "again into a new table" if old else
                                    f"not the header of a solved-boards table ({FORMAT}: "
                                    f"{len(COLUMNS)} columns from {COLUMNS[0]} to {COLUMNS[-1]})"))
    rows = [_row(line, number, where, fmt) for number, line in enumerate(lines[1:-1], start=2)]
    return text, rows


def _row(line: str, number: int, where: str, fmt: str = FORMAT) -> dict:
    at = f"{where}, line {number}"
    if len(line) > MAX_LINE:
        raise SolvedTableError(f"{at}: {len(line):,} characters, more than the {MAX_LINE:,} of a row")
    if "\x00" in line or "\r" in line:
        raise SolvedTableError(f"{at}: a NUL byte or a carriage return (fepaper writes neither)")
    try:
        cells = next(csv.reader([line], strict=True))
    except (csv.Error, StopIteration) as exc:
        raise SolvedTableError(f"{at}: not one CSV row ({exc or 'empty'}; an open quote?)") from None
    columns = COLUMNS if fmt == FORMAT else _COLUMNS_2
    if len(cells) != len(columns):
        raise SolvedTableError(f"{at}: {len(cells)} fields, expected {len(columns)} ({columns[0]} to "
                               f"{columns[-1]})")
    if _line(cells) != line + "\n":
        raise SolvedTableError(f"{at}: quoted otherwise than fepaper writes it (edited by hand?)")
    if cells[-1] != _digest(cells[:-1], fmt):
        raise SolvedTableError(f"{at}: its digest does not match its fields (edited by hand or damaged); "
                               "delete the line, or solve the board again into a new table")
    if fmt == FORMAT_2:  # the columns it did not have, then sealed as a row of today's format
        named = dict(zip(_COLUMNS_2, cells[:-1]))
        cells = [named.get(c, _FORMAT_2_DEFAULTS.get(c)) for c in COLUMNS[:-1]]
        cells.append(_digest(cells))
    try:  # a digest computed again over an impossible row does not make it possible
        return typed_row(cells)
    except ValueError as exc:
        raise SolvedTableError(f"{at}: {exc}") from None


def read_table(path: str | Path) -> list[dict]:
    """The rows of the table ``path``, typed and checked (:func:`read_text`); empty if no file."""
    return read_text(path)[1]


def sidecar_text(path: str | Path, text: str, rows: list[dict]) -> str:
    """The sidecar of the table ``path`` whose content is ``text`` (rows ``rows``): its format, the
    SHA-256 of the table and one record per row (the rules as an object, the turns as lists)."""
    records = []
    for row in rows:
        record = {k: v for k, v in row.items() if k != "digest"}
        record["rules"] = json.loads(row["rules"])
        record["best_first_turns"] = row["best_first_turns"].split()
        records.append(record)
    side = {"format": FORMAT, "table": Path(path).name,
            "table_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "records": records}
    return json.dumps(side, indent=1) + "\n"


def sync_sidecar(path: str | Path, text: str, rows: list[dict], what: str = "table") -> bool:
    """Write the sidecar of ``path`` again if it is not the one ``text`` gives (missing, damaged, or
    left a row behind by a kill between the two writes of :func:`append`); whether it was written."""
    side = sidecar_path(path, what)
    want = sidecar_text(path, text, rows)
    try:
        if read_bytes(side, f"{what}'s sidecar", MAX_TABLE_BYTES * 4) == want.encode("utf-8"):
            return False
    except JSONInputError:
        pass  # missing or unreadable: written again (a link or a FIFO is refused by the write)
    write_atomic(side, want, f"{what}'s sidecar")
    return True


@contextmanager
def locked(path: str | Path, what: str = "table"):
    """Hold the lock of the table ``path`` (its folder's: a table is replaced at each update)."""
    with exclusive_folder(path, what):
        yield Path(path)


def append(path: str | Path, text: str, rows: list[dict], record: dict, what: str = "table") -> dict:
    """Write the table ``path`` (content ``text``, rows ``rows``, as :func:`read_text` gave them under
    :func:`locked`) with the row of ``record`` added, then its sidecar; returns the new row, typed
    as a row read back."""
    cells = row_cells(record)
    row = typed_row(cells)  # the row as a reader will see it: the same types, fresh or read back
    if text.startswith(_HEADER_2):  # every row (each checked against its digest) in today's format
        text = _HEADER + "".join(_line(row_cells(r)) for r in rows)
    new = (text or _HEADER) + _line(cells)
    write_atomic(path, new, what)
    sync_sidecar(path, new, [*rows, row], what)
    return row
