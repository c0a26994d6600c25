"""perft for Aboyne: the leaves of the move tree ``depth`` moves deep (a finished game is a leaf),
and its reference counts as data.

The reference counts live in ``aboyne_perft.csv`` beside this module (columns ``moves``,
``depth``, ``count``: ``perft(Aboyne(moves), depth) == count``), as paper soccer's live in
``fepaper/search/perft_reference.csv``. :func:`write_reference` computes and writes them for
:data:`REFERENCE_CASES`; the tests check them with a second, independently written move
generator.

>>> from fepaper.games.aboyne import Aboyne
>>> [perft(Aboyne(), d) for d in range(3)]
[1, 19, 361]
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from ..game.writes import write_atomic
from .aboyne import Aboyne

__all__ = [
    "perft",
    "divide",
    "REFERENCE_FILE",
    "REFERENCE_CASES",
    "ReferenceCount",
    "reference_counts",
    "write_reference",
]

REFERENCE_FILE = Path(__file__).with_name("aboyne_perft.csv")

#: ``(record, deepest depth)``: the start to depth 5 and three positions from seeded random play
#: (:func:`fepaper.experiments.reference.aboyne.random_record`, seeds 1, 2, 3, after 10, 25 and 40 moves).
REFERENCE_CASES: tuple[tuple[str, int], ...] = (
    ("", 5),
    (
        "c1-c2 i9-h8 i5-h5 b6-c6 c2-d2 c6-d7 e2-c2 h8-g7 h5-h6 f9-i9",
        4,
    ),
    (
        "a1-b2 b6-c6 b1-a1 d8-f8 b2-c2 g9-e7 h4-h5 e8-d7 c2-d2 d7-e8 g3-h4 a5-a4 h4-h6 c7-d7 "
        "h6-g5 f8-f7 h5-h4 h9-h8 d2-c2 h8-h7 h4-g4 h7-h8 f2-f3 a4-b4 a1-b2",
        4,
    ),
    (
        "d1-f3 i9-h8 f3-d1 c7-d7 f2-f3 h9-g8 h4-h5 h8-h7 h5-h6 f9-c6 b1-b2 a5-c7 i5-i6 d8-d6 "
        "c1-c2 g9-f9 d1-d2 d6-e7 g3-g4 g8-f7 f3-f4 e8-e6 c2-d3 d7-g7 i6-g6 c7-d7 g4-h4 e7-e5 "
        "a1-a2 c6-c7 d2-e3 b6-b5 e2-d2 b5-c6 d3-f3 f7-d5 f3-f2 e6-f7 f4-g5 f7-i7",
        4,
    ),
)


def perft(state: Aboyne, depth: int) -> int:
    """Leaves of the tree of moves ``depth`` moves deep from ``state`` (a finished game is one)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be an integer >= 0, got {depth!r}")
    if depth == 0 or state.is_terminal():
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


def divide(state: Aboyne, depth: int) -> dict[str, int]:
    """``{first move: perft(depth - 1) after it}``; the values sum to ``perft(state, depth)``."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"divide needs an integer depth >= 1, got {depth!r}")
    out = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out[state.action_to_string(a)] = perft(child, depth - 1)
    return out


@dataclass(frozen=True)
class ReferenceCount:
    """One row of the reference file: ``perft(Aboyne(moves), depth) == count``."""

    moves: str
    depth: int
    count: int


def reference_counts(path: str | Path = REFERENCE_FILE) -> list[ReferenceCount]:
    """The rows of an Aboyne perft reference file."""
    path = Path(path)
    with path.open(newline="") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames != ["moves", "depth", "count"]:
            raise ValueError(f"{path}: columns must be moves, depth, count; got {reader.fieldnames}")
        rows = []
        for line, row in enumerate(reader, start=2):
            try:
                Aboyne(row["moves"])
                rows.append(ReferenceCount(row["moves"], int(row["depth"]), int(row["count"])))
            except ValueError as exc:
                raise ValueError(f"{path}, line {line}: {exc}") from None
    return rows


def write_reference(path: str | Path = REFERENCE_FILE, cases=REFERENCE_CASES) -> list[ReferenceCount]:
    """Compute perft at depths 1..deepest for each ``(record, deepest)`` of ``cases`` and write the file."""
    rows = [
        ReferenceCount(moves, d, perft(Aboyne(moves), d))
        for moves, deepest in cases
        for d in range(1, deepest + 1)
    ]
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["moves", "depth", "count"])
    for r in rows:
        writer.writerow([r.moves, r.depth, r.count])
    write_atomic(path, text.getvalue(), "Aboyne's perft reference")  # whole, never through a link
    return rows
