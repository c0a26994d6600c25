"""perft: the number of leaves of the tree of distinct turns, as chess engines count moves.

A finished game is a leaf. The reference counts of ``docs/rules.md`` live in the data
file ``perft_reference.csv`` beside this module (python-chess keeps its perft suites the
same way); the tests and ``fepaper perft --check`` read it. On a mismatch,
:func:`divide` gives the count under each first turn so a bug is found quickly.

Examples
--------
>>> from fepaper.game import Game
>>> perft(Game("thesis"), 3)
2034
>>> perft(Game("standard"), 2)
56
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._core.bundles import new_budget
from .._core.turns import BLOCKED, GOAL, count_turns, make_step
from ..game import Board, Game, Rules
from ..game.walks import iter_turns

__all__ = ["perft", "divide", "ReferenceCount", "reference_counts", "REFERENCE_FILE"]

#: The reference counts: ``rules`` (a preset name or JSON), ``moves``, ``depth``, ``count``.
REFERENCE_FILE = Path(__file__).with_name("perft_reference.csv")


@dataclass(frozen=True)
class ReferenceCount:
    """One row of the reference file: ``perft(Game(rules, moves), depth) == count``."""

    rules: Rules
    moves: str
    depth: int
    count: int


def reference_counts(path: str | Path = REFERENCE_FILE) -> list[ReferenceCount]:
    """The rows of a perft reference file (CSV with columns rules, moves, depth, count)."""
    path = Path(path)
    with path.open(newline="") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames != ["rules", "moves", "depth", "count"]:
            raise ValueError(f"{path}: columns must be rules, moves, depth, count; got {reader.fieldnames}")
        rows = []
        for line, row in enumerate(reader, start=2):
            try:
                rows.append(ReferenceCount(Rules.from_spec(row["rules"]), row["moves"], int(row["depth"]),
                                           int(row["count"])))
            except ValueError as exc:
                raise ValueError(f"{path}, line {line}: {exc}") from None
    return rows


def _perft(board: Board, rules: Rules, marks: np.ndarray, ball: int, depth: int, turns_played: int) -> int:
    if depth == 1:
        return count_turns(marks, ball, board.arrays, rules.flags, 0, new_budget())[0]
    total = 0
    for steps, kind, end in iter_turns(marks, ball, board, rules):
        finished = kind in (GOAL, BLOCKED)
        finished = finished or (rules.max_turns is not None and turns_played + 1 >= rules.max_turns)
        child = marks.copy()
        node = ball
        for c in steps:
            node = make_step(child, board.neighbour, node, ord(c) - 48)
        if finished or not int(board.exists[end] & ~child[end]):
            total += 1
        else:
            total += _perft(board, rules, child, end, depth - 1, turns_played + 1)
    return total


def perft(game: Game, depth: int) -> int:
    """Leaves of the tree of distinct turns ``depth`` turns deep from ``game``'s position.

    The position must be at the start of a turn. A finished game counts as one leaf.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be an integer >= 0, got {depth!r}")
    if game.current:
        raise ValueError("perft starts at the start of a turn, not after a bounce")
    if depth == 0 or game.is_over:
        return 1
    return _perft(game.board, game.rules, game.marks.copy(), game.ball_index, depth, len(game.history))


def divide(game: Game, depth: int) -> dict[str, int]:
    """``{first turn: perft(depth - 1) after it}``; the values sum to ``perft(game, depth)``."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"divide needs an integer depth >= 1, got {depth!r}")
    out = {}
    for turn in game.turns():
        child = game.copy()
        child.push(turn.steps)
        out[turn.steps] = perft(child, depth - 1)
    return out
