"""Python over the compiled turn walk: iterate the distinct turns of a position, chunk by chunk.

The compiled walk (:func:`fepaper._core.turns.walk_turns`) writes turns into a buffer and
can be resumed; :func:`iter_turns` yields them as Python strings one chunk at a time, so
memory is the walk's key set plus one chunk whatever the number of turns.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .._core.bundles import CAPPED, DONE, OUT_OF_BUDGET, Budget, new_budget
from .._core.turns import new_keyset, new_turn_buffer, new_walk, unwind, walk_turns
from .board import Board
from .rules import Rules

__all__ = ["TooManyTurns", "iter_turns"]


class TooManyTurns(RuntimeError):
    """A turn walk passed the number of states, or the budget, it was allowed."""


def iter_turns(marks: np.ndarray, ball: int, board: Board, rules: Rules, max_bounces: int = -1,
               max_states: int = 0, budget: Budget | None = None,
               chunk: int = 4096) -> Iterator[tuple[str, int, int]]:
    """Yield ``(steps, kind, end node index)`` for every distinct turn from ``ball``.

    ``marks`` is not changed. A walk that passes ``max_states`` states (if > 0) or spends
    ``budget`` raises :class:`TooManyTurns` after yielding the turns it found.
    """
    marks = marks.copy()
    arrays, flags = board.arrays, rules.flags
    budget = budget if budget is not None else new_budget()
    walk = new_walk(board.n_edges, ball)
    table = new_keyset(1024)
    out = new_turn_buffer(chunk, max(1 << 16, 4 * board.n_edges))
    while True:
        out.offsets[0] = 0
        written, table = walk_turns(marks, arrays, flags, walk, table, out, max_bounces, max_states, budget,
                                    False)
        digits = (out.steps[: out.offsets[written]] + 48).tobytes().decode()
        for i in range(written):
            yield digits[out.offsets[i]:out.offsets[i + 1]], int(out.kinds[i]), int(out.ends[i])
        status = walk.ctl[1]
        if status == DONE:
            return
        if status in (CAPPED, OUT_OF_BUDGET):
            unwind(marks, board.neighbour, walk)
            why = f"more than {max_states} states" if status == CAPPED else "the budget ran out"
            raise TooManyTurns(f"the turn walk stopped: {why}")
