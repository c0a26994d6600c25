"""Strict JSON for what users hand to fepaper: specs, configs, records, sidecars, checkpoints.

Python's :mod:`json` takes the last of two equal keys without a word, reads ``NaN``
and ``Infinity``, turns ``1e999`` into infinity and recurses until the interpreter
gives up. Here each of these is refused with one :class:`JSONInputError` naming the
input, so a typo in a config cannot silently change a run.

Examples
--------
>>> loads('{"games": 2, "seed": 1}', "config")
{'games': 2, 'seed': 1}
>>> loads('{"games": 2, "games": 4}', "config")
Traceback (most recent call last):
...
fepaper.game.jsonio.JSONInputError: config: duplicate key 'games' in one object
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "JSONInputError", "loads", "load", "read_bytes", "read_text",
           "decode"]

#: Deepest nesting accepted; fepaper's own files nest four levels at most.
MAX_DEPTH = 64
#: The largest file fepaper reads whole (games, values and referee files, configs): 256 MiB.
MAX_FILE_BYTES = 1 << 28


class JSONInputError(ValueError):
    """JSON that fepaper refuses: unreadable, malformed, ambiguous (duplicate keys) or absurd."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JSONInputError(f"duplicate key {key!r} in one object")
        out[key] = value
    return out


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONInputError(f"number {text} is out of range")
    return value


def _constant(name: str) -> None:
    raise JSONInputError(f"{name} is not JSON (numbers must be finite)")


def _depth(value: Any) -> int:
    """The nesting depth of a parsed value (0 for a scalar), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level + 1)
            stack.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def loads(text: str, what: str) -> Any:
    """Parse ``text`` strictly; ``what`` names the input in the error.

    Raises
    ------
    JSONInputError
        For malformed JSON (with line and column), a duplicate key, ``NaN`` or
        ``Infinity``, a number out of range, or nesting deeper than :data:`MAX_DEPTH`.
    """
    if "\x00" in text:
        raise JSONInputError(f"{what}: contains a NUL character at offset {text.index(chr(0))}")
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys, parse_float=_finite,
                           parse_constant=_constant)
    except JSONInputError as exc:
        raise JSONInputError(f"{what}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"{what}: not valid JSON: {exc.msg} at line {exc.lineno}, "
                             f"column {exc.colno}") from None
    except RecursionError:
        raise JSONInputError(f"{what}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # the only one left: an integer longer than Python converts
        limit = sys.get_int_max_str_digits()
        raise JSONInputError(f"{what}: an integer of more than {limit} digits") from None
    if _depth(value) > MAX_DEPTH:
        raise JSONInputError(f"{what}: nested deeper than {MAX_DEPTH} levels")
    return value


def read_bytes(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them: a FIFO, a device or a
    folder is refused at once (reading one blocks forever or never ends), a larger file before
    it is read.

    Raises
    ------
    JSONInputError
        Naming ``what`` and the file (an ``OSError`` too).
    """
    import stat

    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once, without a writer
    except OSError as exc:
        raise JSONInputError(f"{what} {path}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise JSONInputError(f"{what} {path}: cannot read: not a regular file (a folder, FIFO or device)")
        if info.st_size > limit:
            raise JSONInputError(f"{what} {path}: {info.st_size:,} bytes, more than the {limit:,} fepaper "
                                 "reads")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise JSONInputError(f"{what} {path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise JSONInputError(f"{what} {path}: more than the {limit:,} bytes fepaper reads")
    return data


def read_text(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file ``path`` (:func:`read_bytes`), refused unless it is UTF-8
    without NUL bytes.

    Raises
    ------
    JSONInputError
        Naming ``what``, the file and the line of the first bad byte; ``OSError``
        is turned into the same one-line error.
    """
    return decode(read_bytes(path, what, limit), f"{what} {path}")


def decode(data: bytes, where: str) -> str:
    """``data`` as UTF-8 text; a NUL byte or invalid UTF-8 raises naming ``where`` and the line."""
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise JSONInputError(f"{where}, line {line}: NUL byte (damaged file?)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise JSONInputError(f"{where}, line {line}: not UTF-8 text (byte {data[exc.start]:#04x})") from None


def load(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> Any:
    """Read ``path`` (a regular file of at most ``limit`` bytes, UTF-8, no NUL) and parse it with
    :func:`loads`; ``what`` names it in errors."""
    return loads(read_text(path, what, limit), f"{what} {path}")

