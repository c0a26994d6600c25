"""Compiled random step sequences of one turn, and whether each closes a cycle.

From a turn-start position, a sequence steps to a uniformly random free direction, goes on
after every bounce (it never stops voluntarily) and ends when the turn ends (the ball lands
on an unmarked node), in a goal, on a dead end, or at the bounce limit; it *closes a cycle*
when it lands on a node the ball already stood on in that turn, the start included (§4.1.2:
"when there are a lot of possible rebounds the most possibilities imply useless cycles").

The random numbers come in from the caller, one uniform in [0, 1) per step of a sequence
(``uniforms[i, k]``, the k-th step of sequence i picks the ``floor(u x free)``-th free
direction in the order 0 to 7), so that a plain-Python walk over a ``Game`` with the same
numbers draws the same sequences
(:func:`fepaper.experiments.thesis.searchshape.closing_sequences_reference`, the twin the tests
compare it with).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .turns import landing, make_step, unmake_step

__all__ = ["closing_sequences"]


@njit(cache=True)
def closing_sequences(marks, ball, board, flags, max_bounces, uniforms):
    """Per row of ``uniforms``, one random step sequence of the turn from ``ball``: whether it
    closes a cycle (a bool array, one per row).

    A sequence ends at the first landing on a node of its turn (a cycle closed), or when the
    turn ends, in a goal, on a dead end, or once it has bounced ``max_bounces`` times; it takes
    at most ``uniforms.shape[1]`` steps (``max_bounces`` + 1 is room enough). ``marks`` is
    changed during the walk and restored.
    """
    exists, neighbour, goal = board.exists, board.neighbour, board.goal
    n_sequences, width = uniforms.shape
    closed = np.zeros(n_sequences, np.bool_)
    stamp = np.zeros(marks.shape[0], np.int64)  # the sequence (+1) that last stood on a node
    path_node = np.zeros(width, np.int64)
    path_dir = np.zeros(width, np.int64)
    for i in range(n_sequences):
        n = np.int64(ball)
        stamp[n] = i + 1
        bounces = 0
        k = 0
        while k < width:
            free = exists[n] & ~marks[n]
            count = 0
            for d in range(8):
                count += (free >> d) & 1
            if count == 0:
                break
            pick = min(np.int64(uniforms[i, k] * count), count - 1)
            d = 0
            for c in range(8):
                if (free >> c) & 1:
                    if pick == 0:
                        d = c
                        break
                    pick -= 1
            m = np.int64(neighbour[n, d])
            was_marked = marks[m] != 0
            make_step(marks, neighbour, n, d)
            path_node[k] = n
            path_dir[k] = d
            k += 1
            if stamp[m] == i + 1:
                closed[i] = True
                break
            stamp[m] = i + 1
            _, more = landing(goal, exists, flags, marks, m, was_marked)
            if not more:
                break
            bounces += 1
            if bounces >= max_bounces:
                break
            n = m
        for j in range(k - 1, -1, -1):
            unmake_step(marks, neighbour, path_node[j], path_dir[j])
    return closed
