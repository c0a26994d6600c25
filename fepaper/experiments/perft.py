"""perft: the number of leaves of the tree of distinct turns, as chess engines count moves.

A finished game is a leaf. The counts of RULES.md are tests; on a mismatch,
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

from .. import _core
from ..game.game import Game

__all__ = ["perft", "divide"]


def _free(board, marks, node) -> int:
    return int(board.exists[node] & ~marks[node])


def _perft(board, marks, ball, depth, turns_played, optional, max_turns) -> int:
    args = (*board.walk_arrays, optional)
    if depth == 1:
        return _core.count_turns(marks, ball, *args, -1, 0)
    total = 0
    for steps, kind, end in _core.iter_turns(marks, ball, *args):
        finished = kind in (_core.GOAL, _core.BLOCKED)
        finished = finished or (max_turns is not None and turns_played + 1 >= max_turns)
        child = marks.copy()
        node = ball
        for c in steps:
            node = _core.make_step(child, board.neighbour, node, ord(c) - 48)
        if finished or not _free(board, child, end):
            total += 1
        else:
            total += _perft(board, child, end, depth - 1, turns_played + 1, optional, max_turns)
    return total


def perft(game: Game, depth: int) -> int:
    """Leaves of the tree of distinct turns ``depth`` turns deep from ``game``'s position.

    The position must be at the start of a turn. A finished game counts as one leaf.
    """
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if game.current:
        raise ValueError("perft starts at the start of a turn, not after a bounce")
    if depth == 0 or game.is_over:
        return 1
    b = game.board
    return _perft(b, game.marks.copy(), game.ball_index, depth, len(game.history),
                  game.rules.bounce == "optional", game.rules.max_turns)


def divide(game: Game, depth: int) -> dict[str, int]:
    """``{first turn: perft(depth - 1) after it}``; the values sum to ``perft(game, depth)``."""
    if depth < 1:
        raise ValueError(f"divide needs depth >= 1, got {depth}")
    out = {}
    for turn in game.turns():
        child = game.copy()
        child.push(turn.steps)
        out[turn.steps] = perft(child, depth - 1)
    return out
