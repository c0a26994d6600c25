"""Compiled count of a turn's *step sequences*: every ordered path of steps that is a turn.

Two sequences that mark the same edges and end on the same node are one distinct turn
(:mod:`fepaper._core.turns` merges them) but two sequences here; the ratio of the two
counts is how much merging saves.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .turns import landing, make_step, unmake_step

__all__ = ["count_sequences"]


@njit(cache=True)
def count_sequences(marks, ball, board, flags, max_steps):
    """Depth-first walk of every step sequence of one turn from ``ball``.

    Returns ``(sequences, steps, expanded, complete)``: the sequences that are turns, the
    steps tried (edges of the tree of sequences), the nodes of that tree a step was tried
    from, and whether the walk finished within ``max_steps`` steps. ``marks`` is restored
    unless the walk stops at ``max_steps``.
    """
    exists, neighbour, goal = board.exists, board.neighbour, board.goal
    levels = marks.shape[0] * 8 + 2
    node = np.zeros(levels, np.int64)
    nextdir = np.zeros(levels, np.int64)
    taken = np.zeros(levels, np.int64)
    node[0] = ball
    depth = 0
    sequences = 0
    steps = 0
    expanded = 1 if (exists[ball] & ~marks[ball]) != 0 else 0
    while True:
        n = node[depth]
        d = nextdir[depth]
        free = exists[n] & ~marks[n]
        while d < 8 and ((free >> d) & 1) == 0:
            d += 1
        if d >= 8:
            if depth == 0:
                return sequences, steps, expanded, True
            depth -= 1
            unmake_step(marks, neighbour, node[depth], taken[depth])
            continue
        if steps >= max_steps:
            return sequences, steps, expanded, False
        nextdir[depth] = d + 1
        m = neighbour[n, d]
        was_marked = marks[m] != 0
        make_step(marks, neighbour, n, d)
        steps += 1
        kind, more = landing(goal, exists, flags, marks, m, was_marked)
        if kind >= 0:
            sequences += 1
        if more:
            taken[depth] = d
            depth += 1
            node[depth] = m
            nextdir[depth] = 0
            expanded += 1
        else:
            unmake_step(marks, neighbour, n, d)
