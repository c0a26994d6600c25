"""Result files of the notebooks, and which part of each is timing noise.

A notebook writes its tables with :func:`save_table`: the CSV, and a JSON sidecar with
the run's settings (rules, seed, budget, sample sizes) and the fepaper version. Columns
that measure this machine's speed (seconds, nodes per second, memory) are named in
``timing=``; the sidecar lists them under ``"timing_columns"`` (and settings that are
measurements, such as a speed, under ``"timing_keys"``). A table whose rows measure different
things (a claims file) names its timed cells instead, row by row, under ``"timing_cells"``:
``{"row": column naming the rows, "cells": {row name: [columns]}}``. A table whose number of
rows is decided by timings (pairs timed until a sequential test stops) says so with
``timing_rows=True``: the sidecar's ``"timing_rows"``, and its row count a timing key.

That declaration is what lets ``fepaper reproduce`` keep the committed files when a second
run differs only by timing noise (:mod:`fepaper.notebook.publish`): :func:`material`
gives the part of a file that must not change between two runs of the same code: a
table without its timing columns and timed cells (with timing rows, its distinct rows only), a
sidecar without its timing keys, nothing of a figure saved with ``timing=True`` (its data are
checked through its tables), and every byte of any other file.

Examples
--------
>>> import pandas as pd, tempfile
>>> folder = tempfile.mkdtemp()
>>> table = pd.DataFrame({"depth": [1, 2], "nodes": [7, 49], "seconds": [0.001, 0.004]})
>>> csv, sidecar = save_table(table, folder, "demo", {"seed": 1}, timing=["seconds"])
>>> other = table.assign(seconds=[0.002, 0.003]).to_csv(index=False).encode()
>>> material(csv, other, sidecar.read_bytes()) == material(csv, csv.read_bytes(), sidecar.read_bytes())
True
"""

from __future__ import annotations

import csv
import io
import json
import struct
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from ..game.writes import write_atomic

__all__ = ["save_table", "save_json", "material", "png_text", "timing_columns", "timing_cells"]

#: The key of a PNG text chunk that marks a figure drawn from timings (``"1"``).
PNG_TIMING_KEY = "fepaper:timing"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fepaper")
    except PackageNotFoundError:
        return "unknown"


def save_table(table: pd.DataFrame, folder, name: str, meta: dict, *, timing: Iterable[str] = (),
               timing_keys: Iterable[str] = (), timing_rows: bool = False) -> tuple[Path, Path]:
    """Write ``table`` to ``folder/name.csv`` and its sidecar ``folder/name.json``.

    Parameters
    ----------
    table : pandas.DataFrame
        Written without its index.
    folder : path
        Created if missing.
    name : str
        The file name without extension, e.g. ``"02_search_scaling"``.
    meta : dict
        The run's settings (rules, seed, budget, sample sizes, ...), JSON-able (other
        values are written as text).
    timing : iterable of str
        The columns that measure this machine (seconds, speeds, memory): two runs of the
        same code may differ there and nowhere else.
    timing_keys : iterable of str
        Keys of ``meta`` that are measurements of this machine (e.g. a speed).
    timing_rows : bool
        Whether the number of rows measures this machine (pairs timed until a sequential test
        stops): two runs may then repeat the rows of the other columns a different number of times.

    Returns
    -------
    (Path, Path)
        The CSV and the sidecar.

    Raises
    ------
    ValueError
        If a timing column is not a column of ``table`` or a timing key not a key of ``meta``.
    """
    timing, timing_keys = list(timing), list(timing_keys)
    missing = [c for c in timing if c not in table.columns]
    if missing:
        raise ValueError(f"save_table {name}: timing column(s) {missing} are not columns of the table "
                         f"{list(table.columns)}")
    missing = [k for k in timing_keys if k not in meta]
    if missing:
        raise ValueError(f"save_table {name}: timing key(s) {missing} are not keys of meta {sorted(meta)}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path, sidecar = folder / f"{name}.csv", folder / f"{name}.json"
    write_atomic(path, table.to_csv(index=False), name)
    side = {"fepaper": _version(), "rows": len(table), **meta}
    if timing:
        side["timing_columns"] = timing
    if timing_rows:
        side["timing_rows"] = True
        timing_keys = [*timing_keys, "rows"]
    if timing_keys:
        side["timing_keys"] = timing_keys
    write_atomic(sidecar, json.dumps(side, indent=2, default=str) + "\n", f"{name}'s sidecar")
    return path, sidecar


def save_json(value: Any, folder, name: str, *, timing_keys: Iterable[str] = ()) -> Path:
    """Write a JSON object to ``folder/name.json``; ``timing_keys`` are top-level keys that
    measure this machine (listed in the file under ``"timing_keys"``)."""
    timing_keys = list(timing_keys)
    if not isinstance(value, dict):
        raise ValueError(f"save_json {name}: expected a JSON object (dict), got {type(value).__name__}")
    missing = [k for k in timing_keys if k not in value]
    if missing:
        raise ValueError(f"save_json {name}: timing key(s) {missing} are not keys of the object")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    out = {**value, **({"timing_keys": timing_keys} if timing_keys else {})}
    write_atomic(path, json.dumps(out, indent=2, default=str) + "\n", name)
    return path


# -- what must not change -----------------------------------------------------------------------
def timing_columns(sidecar: bytes | None) -> list[str]:
    """The ``"timing_columns"`` a sidecar declares (none if it is missing or unreadable)."""
    value = _json(sidecar)
    columns = value.get("timing_columns", []) if isinstance(value, dict) else []
    return [c for c in columns if isinstance(c, str)]


def timing_cells(sidecar: bytes | None) -> tuple[str, dict[str, list[str]]] | None:
    """The ``"timing_cells"`` a sidecar declares: the column naming each row, and per row the
    columns that measure this machine (a table whose rows measure different things, as a claims
    file's); None if it declares none or is unreadable."""
    value = _json(sidecar)
    spec = value.get("timing_cells") if isinstance(value, dict) else None
    if not (isinstance(spec, dict) and isinstance(spec.get("row"), str)
            and isinstance(spec.get("cells"), dict)):
        return None
    cells = {k: [c for c in v if isinstance(c, str)] for k, v in spec["cells"].items() if isinstance(v, list)}
    return (spec["row"], cells) if cells else None


def _json(data: bytes | None) -> Any:
    if data is None:
        return None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def _csv_without(data: bytes, drop: list[str]) -> bytes:
    """The CSV with the columns ``drop`` removed (the bytes unchanged if it cannot be read)."""
    try:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    except (UnicodeDecodeError, csv.Error):
        return data
    if not rows:
        return data
    keep = [i for i, c in enumerate(rows[0]) if c not in drop]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([row[i] for i in keep if i < len(row)])
    return out.getvalue().encode()


def _csv_distinct(data: bytes) -> bytes:
    """The CSV's header and its distinct lines, sorted (the bytes unchanged if it cannot be read)."""
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return data
    return "\n".join(lines[:1] + sorted(set(lines[1:]))).encode()


def _csv_masked(data: bytes, row: str, cells: dict[str, list[str]]) -> bytes:
    """The CSV with the cells ``cells[name]`` of the row whose column ``row`` is ``name`` emptied (the
    bytes unchanged if it cannot be read or has no column ``row``)."""
    try:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    except (UnicodeDecodeError, csv.Error):
        return data
    if not rows or row not in rows[0]:
        return data
    head, at = rows[0], rows[0].index(row)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    for line in rows[1:]:
        masked = set(cells.get(line[at], ())) if at < len(line) else set()
        writer.writerow(["" if c in masked else v for c, v in zip(head, line)] + line[len(head):])
    return out.getvalue().encode()


def png_text(data: bytes) -> dict[str, str]:
    """The text chunks (``tEXt``, ``iTXt``, ``zTXt``) of a PNG file, as a dict ({} if not a PNG).

    >>> png_text(b"not a png")
    {}
    """
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return {}
    out, at = {}, 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        at += 12 + length
        try:
            if kind == b"tEXt":
                key, _, value = body.partition(b"\0")
                out[key.decode("latin-1")] = value.decode("latin-1")
            elif kind == b"zTXt":
                key, _, rest = body.partition(b"\0")
                out[key.decode("latin-1")] = zlib.decompress(rest[1:]).decode("latin-1")
            elif kind == b"iTXt":
                key, _, rest = body.partition(b"\0")
                compressed = rest[:1] == b"\1"
                _lang, _, rest = rest[2:].partition(b"\0")
                _translated, _, text = rest.partition(b"\0")
                out[key.decode("latin-1")] = (zlib.decompress(text) if compressed else text).decode("utf-8")
            elif kind == b"IEND":
                break
        except (UnicodeDecodeError, zlib.error):
            continue
    return out


def material(path, data: bytes, sidecar: bytes | None = None) -> bytes:
    """The part of a result file that two runs of the same code must reproduce exactly.

    Parameters
    ----------
    path : path
        The file's name (its suffix says how to read it).
    data : bytes
        Its content.
    sidecar : bytes, optional
        For a CSV, the content of its ``.json`` sidecar (which names its timing columns).
    """
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        drop = timing_columns(sidecar)
        data = _csv_without(data, drop) if drop else data
        cells = timing_cells(sidecar)
        data = _csv_masked(data, *cells) if cells else data
        side = _json(sidecar)
        return _csv_distinct(data) if isinstance(side, dict) and side.get("timing_rows") is True else data
    if suffix == ".json":
        value = _json(data)
        if isinstance(value, dict) and isinstance(value.get("timing_keys"), list):
            keep = {k: v for k, v in value.items() if k not in value["timing_keys"]}
            return json.dumps(keep, sort_keys=True).encode()
        return data
    if suffix == ".png" and png_text(data).get(PNG_TIMING_KEY) == "1":
        return b"a figure drawn from timings"
    return data
