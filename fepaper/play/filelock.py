"""One writer per file: an exclusive lock on every file a run appends to as it goes.

A games file (:mod:`~fepaper.play.gamefile`), a search values file
(:mod:`~fepaper.engines.searchvalues`) and a referee's games file
(:mod:`fepaper.engines.referee`) are read, repaired (a partial last line cut) and extended
by the run that owns them. Two runs on one file would interleave their rows and each
repair the other's line in flight, so :func:`exclusive` takes an ``fcntl.flock`` lock on the
file before the run reads it and holds it until the run's last row is written; a second
writer is refused at once with :class:`FileBusyError`. The lock is the kernel's: it ends with
the process that holds it, a killed run included, so no stale lock file is ever left.
A process forked while a lock is held (a pool's worker) closes its copy of the lock's file at
once, so the lock ends with the run, not with its pool. Readers take no lock (they never write).

A file replaced whole at each update (a table written by :func:`fepaper.game.writes.write_atomic`)
gets a new inode at each rename, so a lock on the file would not outlive its first update: its
writer holds :func:`exclusive_folder`, the same lock on the folder that holds it.

Examples
--------
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.csv"
>>> with exclusive(path, "--out"):  # doctest: +ELLIPSIS
...     with exclusive(path, "--out"):
...         pass
Traceback (most recent call last):
...
fepaper.play.filelock.FileBusyError: --out ...games.csv: another run is writing this file ...
"""

from __future__ import annotations

import fcntl
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["FileBusyError", "exclusive", "exclusive_folder"]


class FileBusyError(ValueError):
    """Another run (this process or another) holds the lock of the file."""


#: The descriptors of the locks this process holds.
_HELD: set[int] = set()


def _close_in_child() -> None:
    """After a fork: drop the child's copies of the lock descriptors (the parent keeps its locks)."""
    for fd in list(_HELD):
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


os.register_at_fork(after_in_child=_close_in_child)


@contextmanager
def exclusive(path: str | Path, what: str = "file") -> Iterator[Path]:
    """Hold the exclusive lock of ``path`` (created empty if missing) for the ``with`` block.

    A file this call created is removed again if the block raises while it is still empty,
    so a run refused before its first row leaves nothing behind.

    Raises
    ------
    FileBusyError
        At once, if another open file holds the lock (another run, or this process).
    """
    path = Path(path)
    created = not path.exists()
    fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{what} {path}: not a regular file (a FIFO or device)")
        _lock(fd, f"{what} {path}: another run is writing this file (it holds its lock); wait for it to "
              "end or use another file")
        try:
            yield path
        except BaseException:
            if created and os.fstat(fd).st_size == 0:
                path.unlink(missing_ok=True)
            raise
    finally:
        _HELD.discard(fd)
        os.close(fd)


def _lock(fd: int, busy: str) -> None:
    """Take the exclusive lock of the open file ``fd`` at once, or raise FileBusyError(``busy``)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise FileBusyError(busy) from None
    _HELD.add(fd)


@contextmanager
def exclusive_folder(path: str | Path, what: str = "file") -> Iterator[Path]:
    """Hold the exclusive lock of the folder of ``path`` for the ``with`` block: one writer of the
    files of that folder that are replaced whole (nothing is created).

    Raises
    ------
    FileBusyError
        At once, if another open file of that folder holds its lock (another run, or this process).
    """
    path = Path(path)
    folder = path.parent
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        _lock(fd, f"{what} {path}: another run is updating a file of folder {folder} (it holds the "
              "folder's lock); wait for it to end")
        yield path
    finally:
        _HELD.discard(fd)
        os.close(fd)
