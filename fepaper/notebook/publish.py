"""The timing-noise policy: a rerun that changes only timings leaves the committed files alone.

``fepaper reproduce`` executes a notebook, then compares what it wrote with what was there:

* a sidecar that differs only by the library version it records is put back, unless its table
  changed (a version is not a result);
* a result file is compared by its :func:`~fepaper.notebook.results.material` part: a table
  without the timing columns its sidecar declares, a sidecar without its timing keys, a
  figure saved with ``timing=True`` not at all (its tables are compared), any other file
  byte for byte;
* the executed notebook is compared with the committed report's copy by
  :func:`material_outputs`: the cells' sources and outputs, with the numbers and verdicts of
  the cells tagged ``timing`` masked and their images left out (and, in every cell, what differs by
  chance: memory addresses, the random ids of pandas' styled tables).

If nothing material changed, every file the run modified is put back as it was, and the
report is not rewritten: the committed data, figures and report stay those of one run.
If anything material changed (or ``refresh``, or the page itself changed, as a new source does),
everything the run wrote is kept and the report is rewritten. Either way :class:`Outcome` lists
what happened, for the summary.

Examples
--------
>>> import nbformat
>>> cell = nbformat.v4.new_code_cell("t", metadata={"tags": ["timing"]}, outputs=[
...     nbformat.v4.new_output("stream", text="0.52 s at depth 4\\n")])
>>> a = nbformat.v4.new_notebook(cells=[cell])
>>> b = nbformat.from_dict(a)
>>> b.cells[0].outputs[0].text = "0.61 s at depth 4\\n"
>>> material_outputs(a) == material_outputs(b)
True
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..game.writes import write_atomic
from .results import material

__all__ = ["TIMING_TAG", "Snapshot", "Outcome", "compare", "material_outputs", "restore"]

#: The cell tag that says a cell's printed numbers and images are timings of this machine.
TIMING_TAG = "timing"
# Files larger than this are remembered by hash only (a change to one is always material).
_KEEP_BYTES = 32 * 2**20
_NUMBER = re.compile(r"(?<![A-Za-z_])[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
# The random id a pandas Styler gives its table (``T_36af2``, ``T_36af2_level0_col0``, ``#T_36af2 td``).
_LIST = re.compile(r"#(?:[\s,;]+(?:and\s+)?#)+")
_SPACES = re.compile(r"[ \t]+")
_STYLER_ID = re.compile(r"(?<![A-Za-z0-9_])T_[0-9a-f]{5}(?![0-9a-f])")
# A verdict printed in a timing cell rests on the timings (claims.VERDICTS: "alpha-beta slower than
# minimax" is confirmed in one run, not decided in the next).
_VERDICT = re.compile(r"\b(?:confirmed|refuted|not decided|not testable here)\b")


@dataclass(frozen=True)
class _File:
    digest: str
    data: bytes | None  # None when too large to keep


class Snapshot:
    """Every file under some folders: its hash, and its bytes when small enough to put back."""

    def __init__(self, files: dict[Path, _File]) -> None:
        self.files = files

    @classmethod
    def take(cls, folders) -> Snapshot:
        files: dict[Path, _File] = {}
        for folder in folders:
            folder = Path(folder)
            if not folder.is_dir():
                continue
            for path in sorted(folder.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    data = path.read_bytes()
                    files[path] = _File(hashlib.sha256(data).hexdigest(),
                                        data if len(data) <= _KEEP_BYTES else None)
        return cls(files)

    def data(self, path: Path) -> bytes | None:
        entry = self.files.get(path)
        return None if entry is None else entry.data


@dataclass
class Outcome:
    """What one notebook's run did to the result files."""

    created: list[Path] = field(default_factory=list)
    modified: list[Path] = field(default_factory=list)  # materially
    noise: list[Path] = field(default_factory=list)  # modified by timings only
    version: list[Path] = field(default_factory=list)  # only the library version a sidecar records
    deleted: list[Path] = field(default_factory=list)

    @property
    def material(self) -> bool:
        return bool(self.created or self.modified or self.deleted)


def _sidecar(path: Path, snapshot: Snapshot | None) -> bytes | None:
    side = path.with_suffix(".json")
    if snapshot is None:
        return side.read_bytes() if side.is_file() else None
    return snapshot.data(side)


def compare(before: Snapshot, after: Snapshot) -> Outcome:
    """Sort the files that differ between two snapshots into created, modified, noise, deleted."""
    out = Outcome()
    for path, new in after.files.items():
        old = before.files.get(path)
        if old is None:
            out.created.append(path)
        elif old.digest != new.digest:
            if old.data is None or new.data is None:
                out.modified.append(path)
            elif _without_version(path, old.data) == _without_version(path, new.data):
                out.version.append(path)
            elif (material(path, old.data, _sidecar(path, before))
                  == material(path, new.data, _sidecar(path, after))):
                out.noise.append(path)
            else:
                out.modified.append(path)
    out.deleted = [p for p in before.files if p not in after.files]
    changed = {p.with_suffix("") for p in out.modified + out.created}
    out.noise += [p for p in out.version if p.with_suffix("") in changed]  # a new table's sidecar
    out.version = [p for p in out.version if p.with_suffix("") not in changed]
    return out


#: What a sidecar records of the library that wrote it: its version, and (a claims file's) its commit.
PROVENANCE = ("fepaper", "library_commit")


def _without_version(path: Path, data: bytes):
    """A sidecar's content without the library version or commit it records (:data:`PROVENANCE`; the
    library that wrote it is not a result: a new version that reproduces a table leaves its files
    alone)."""
    if path.suffix.lower() != ".json":
        return data
    try:
        value = json.loads(data)
    except ValueError:  # not JSON (or not UTF-8): compared byte for byte
        return data
    if isinstance(value, dict) and any(isinstance(value.get(k), str) for k in PROVENANCE):
        return {k: v for k, v in value.items() if k not in PROVENANCE}
    return data


def restore(paths, before: Snapshot) -> None:
    """Put the files ``paths`` back as ``before`` holds them."""
    for path in paths:
        data = before.data(path)
        if data is None:
            raise ValueError(f"cannot restore {path}: its old content was not kept")
        write_atomic(path, data, "restore")


def _mask(text: str, numbers: bool) -> str:
    text = _STYLER_ID.sub("T_…", _ADDRESS.sub("0x…", text))
    if not numbers:
        return text
    # Timings decide how many numbers a list holds ("faster at depths 2, 3, 4") and how wide a
    # printed table's columns are: a list of numbers is one mark, a run of spaces one space.
    text = _LIST.sub("#", _NUMBER.sub("#", _VERDICT.sub("‹verdict›", text)))
    return _SPACES.sub(" ", text)


def material_outputs(nb) -> str:
    """The part of an executed notebook that two runs of the same code must reproduce exactly:
    every cell's source and outputs, with hexadecimal addresses and styled tables' random ids
    masked and, in cells tagged
    :data:`TIMING_TAG`, every number and verdict masked and the images left out."""
    cells = []
    for cell in nb.get("cells", []):
        timing = TIMING_TAG in cell.get("metadata", {}).get("tags", [])
        outputs = []
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            kind = out.get("output_type")
            if kind == "stream":
                outputs.append(["stream", out.get("name"), _mask(out.get("text", ""), timing)])
            elif kind == "error":
                outputs.append(["error", out.get("ename"), _mask(out.get("evalue", ""), timing)])
            else:
                data = {}
                for mime, value in sorted(out.get("data", {}).items()):
                    if mime == "application/vnd.jupyter.widget-view+json":
                        continue
                    if mime.startswith("image/") and mime != "image/svg+xml":
                        if not timing:
                            data[mime] = hashlib.sha256(str(value).encode()).hexdigest()
                        continue
                    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
                    data[mime] = _mask(text, timing)
                outputs.append([kind, data])
        cells.append([cell.get("cell_type"), cell.get("source", ""), outputs])
    return json.dumps(cells, sort_keys=True)
