"""Files of JSON lines after a header: the one reader and writer of the referee's games files
(:mod:`~fepaper.engines.matchfile`) and of the search values files
(:mod:`~fepaper.engines.searchvalues`).

The first line is a JSON object naming the file's format and what made it; each later line is
one JSON object, appended as it is made, so a run killed at any moment loses at most the line it
was writing, and a run started again with the same header resumes the file.

:func:`read_lines` reads a file: its header and every row, each with where it stands
(``PATH line N``) for the caller's own checks. A last line without its newline (cut by a kill) is
left out with a warning, and the file is left as it is: only a writer changes it.
:func:`appending` opens a file to write or resume under its lock (:func:`exclusive`): a new
file gets its header; an existing one is read and checked by the caller first, its cut last line
is cut off (with a warning: its row is made again); rows are then appended, each flushed as it
comes.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..game.jsonio import JSONInputError, decode, loads, read_bytes
from ..play.filelock import exclusive

__all__ = ["read_lines", "appending"]


def read_lines(path: str | Path, what: str, error: type[ValueError] = ValueError
               ) -> tuple[Any, list[tuple[str, Any]]]:
    """The header of the file ``path`` and its rows, each as ``(where, value)``; ``what`` names the
    kind of file in errors, raised as ``error``.

    Raises
    ------
    error
        For a file that cannot be read, is not UTF-8, is empty (no header) or holds a line that is
        not strict JSON, naming the file and the line.
    """
    path = Path(path)
    try:
        raw = read_bytes(path, what)
        if raw and not raw.endswith(b"\n"):
            warnings.warn(f"{path}: skipping a partial last line (a row being written when the run stopped; "
                          "the file is left as it is)", stacklevel=3)
            raw = raw[: raw.rfind(b"\n") + 1]
        lines = decode(raw, str(path)).splitlines()
        if not lines:
            raise error(f"{path}: empty (no header line)")
        header = loads(lines[0], f"{path} line 1")
        rows = [(where, loads(line, where)) for where, line in
                ((f"{path} line {number}", line) for number, line in enumerate(lines[1:], start=2))]
    except JSONInputError as exc:
        raise error(str(exc)) from None
    return header, rows


@contextmanager
def appending(path: str | Path, header: dict, what: str,
              read: Callable[[Path], Any]) -> Iterator[tuple[Any, Callable[[dict], None]]]:
    """Open ``path`` to append rows after ``header``, under its lock; yields what ``read(path)``
    returned for an existing file (``None`` for a new one, which gets ``header`` with its first row)
    and ``append(row)``, which writes one row and flushes it.

    ``read`` must check the existing file's header against ``header`` and its rows, and raise if it
    belongs to another run: the file is not changed then.

    Raises
    ------
    FileBusyError
        If another run holds the file's lock.
    """
    path = Path(path)
    with exclusive(path, what):
        if path.stat().st_size > 0:
            found = read(path)
            raw = path.read_bytes()
            if not raw.endswith(b"\n"):  # the writer cuts it off, and makes its row again
                os.truncate(path, raw.rfind(b"\n") + 1)
                warnings.warn(f"{path}: cut off the partial last line; its row is made again", stacklevel=3)
            unwritten = ""
        else:
            found = None
            # The header goes out with the first row, in one write: a run refused or killed before
            # it leaves an empty file (removed by ``exclusive`` on a refusal), never a header alone
            # that would refuse the corrected run as another run's file.
            unwritten = json.dumps(header) + "\n"
        with path.open("a", encoding="utf-8") as fh:
            def append(row: dict) -> None:
                nonlocal unwritten
                fh.write(unwritten + json.dumps(row) + "\n")
                fh.flush()
                unwritten = ""

            yield found, append
            fh.write(unwritten)  # a run of no rows: its header alone
