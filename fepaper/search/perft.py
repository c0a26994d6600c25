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

__all__ = ["perft", "perft_paths", "perft_steps", "divide", "ReferenceCount", "reference_counts",
           "REFERENCE_FILE"]

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


def _check_depth(depth) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be an integer >= 0, got {depth!r}")
    return depth


def perft_paths(game: Game, depth: int) -> int:
    """Leaves of the tree of turn *paths* ``depth`` turns deep: as :func:`perft`, but two step
    orders that make the same turn are two branches (nothing merged). A stop after a bounce
    (optional bounce) ends a path like a turn that ends by itself.

    >>> perft_paths(Game("standard", "2 4 6 7 1"), 1), perft(Game("standard", "2 4 6 7 1"), 1)
    (57, 52)
    """
    _check_depth(depth)
    if game.current:
        raise ValueError("perft starts at the start of a turn, not after a bounce")
    g = game.copy()

    def turns(d: int) -> int:
        if d == 0 or g.is_over:
            return 1
        start = len(g.history)
        total = 0

        def steps() -> None:
            nonlocal total
            for s in g.legal_steps():
                g.step(s)
                if len(g.history) > start or g.is_over:
                    total += turns(d - 1)
                else:
                    if g.can_stop:
                        g.stop()
                        total += turns(d - 1)
                        g.undo()
                    steps()
                g.undo()

        steps()
        return total

    return turns(depth)


def perft_steps(game: Game, depth: int) -> int:
    """Leaves of the tree of single steps ``depth`` steps deep, across turns (a stop after a
    bounce, where allowed, is one step of the tree too; a finished game is a leaf).

    Examples
    --------
    >>> [perft_steps(Game("standard"), d) for d in range(4)]
    [1, 8, 56, 392]
    """
    _check_depth(depth)
    g = game.copy()

    def go(d: int) -> int:
        if d == 0 or g.is_over:
            return 1
        total = 0
        if g.current and g.can_stop:
            g.stop()
            total += go(d - 1)
            g.undo()
        for s in g.legal_steps():
            g.step(s)
            total += go(d - 1)
            g.undo()
        return total

    return go(depth)
