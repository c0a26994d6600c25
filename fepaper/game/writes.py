"""One way to write a file: whole, atomically, never through a link, never a folder made.

:func:`write_atomic` writes the new content to a temporary file in the target's folder
(``.NAME.XXXXXXXXXXXXXXXX.tmp``), ``fsync``\\ s it, renames it onto the target and ``fsync``\\ s the
folder: whatever instant the process is killed at, the target holds either the old file or the
whole new one (a kill may leave the hidden temporary file beside it). A rename replaces a link
itself and never writes into its target, so even a link put in place after the check is not
followed.

:func:`check_writable` is what :func:`write_atomic` refuses, checked without writing, so that a
command refuses its output file before any work: a symbolic link (dangling or not), a folder, a
FIFO, socket or device, a missing folder (none is ever created), a folder that is not one, a
folder or file that may not be written, and (``force=False``) a file that exists. Each refusal is
one :class:`WriteError` naming the path and what was expected.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(folder / "a.txt", "one\\n").read_text()
'one\\n'
>>> check_writable(folder / "no" / "b.txt", "--out")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fepaper.game.writes.WriteError: --out .../no/b.txt: folder .../no does not exist (fepaper creates none)
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

__all__ = ["WriteError", "check_writable", "write_atomic"]


class WriteError(ValueError):
    """A file fepaper will not write: a link, not a regular file, in a missing or unwritable folder."""


def _lstat(path: Path, what: str) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a component that is a file, a name too long, a folder not searchable
        raise WriteError(f"{what} {path}: cannot write: {exc.strerror or exc}") from None


def check_writable(path: str | Path, what: str = "output", *, force: bool | None = None) -> Path:
    """``path`` as a :class:`~pathlib.Path` if fepaper can write it whole; else a :class:`WriteError`.

    ``force``: ``False`` also refuses a file that exists (it may be a file fepaper did not write),
    ``True`` or ``None`` accept it (``None``: a file fepaper owns, such as a table it extends).
    """
    path = Path(path)
    if not path.name or path.name in (".", ".."):
        raise WriteError(f"{what} {str(path)!r}: give a file name")
    folder = path.parent
    try:
        folder_info = os.stat(folder)
    except FileNotFoundError:
        raise WriteError(f"{what} {path}: folder {folder} does not exist (fepaper creates none)") from None
    except NotADirectoryError:
        raise WriteError(f"{what} {path}: folder {folder} does not exist (a file is named as one)") from None
    except OSError as exc:
        raise WriteError(f"{what} {path}: folder {folder}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(folder_info.st_mode):
        raise WriteError(f"{what} {path}: {folder} is not a folder")
    info = _lstat(path, what)
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise WriteError(f"{what} {path} is a symbolic link; fepaper does not write through one")
        if stat.S_ISDIR(info.st_mode):
            raise WriteError(f"{what} {path} is a folder; give a file name")
        if not stat.S_ISREG(info.st_mode):
            raise WriteError(f"{what} {path} is not a regular file (a FIFO, socket or device)")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise WriteError(f"{what} {path}: folder {folder} is not writable")
    if info is not None and not os.access(path, os.W_OK):
        raise WriteError(f"{what} {path}: not writable")
    if force is False and info is not None:
        raise WriteError(f"{what} {path} exists; give --force to overwrite it")
    return path


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a folder; the rename is done either way
        pass
    finally:
        os.close(fd)


def write_atomic(path: str | Path, data: str | bytes, what: str = "output") -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` whole: a temporary file in its folder, ``fsync``,
    rename. An existing file keeps its permissions; a new one gets the process's defaults.

    Raises
    ------
    WriteError
        What :func:`check_writable` refuses, or a failed write (a full disk), naming ``path``;
        the target is then as it was and the temporary file removed.
    """
    path = check_writable(path, what)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    old = _lstat(path, what)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = -1
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        if old is not None:
            os.fchmod(fd, stat.S_IMODE(old.st_mode))
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException as exc:
        if fd >= 0:
            os.close(fd)
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise WriteError(f"{what} {path}: cannot write: {exc.strerror or exc}") from None
        raise
    _fsync_folder(path.parent)
    return path
