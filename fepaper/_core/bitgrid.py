"""Turn distances on a bit grid: :func:`fepaper._core.tactics.turn_distances`, a row of bits at a time.

The board's nodes are laid on the cells of their bounding box, row by row (``8 x 10`` with
its goals: 9 columns, 13 rows, 117 cells), held in two 64-bit words; a board of more than
128 cells has no grid (:attr:`Grid.usable` is 0) and keeps the node-by-node search. A
position is then eight masks, ``free[d]``: the cells whose edge in direction ``d`` is free,
and ``bounce``: the cells a step onto costs no turn (a marked node, or a goal). Stepping
every cell of a set in direction ``d`` is one shift of ``set & free[d]`` by the direction's
cell offset (a free edge never leaves the board, so no shift wraps onto a cell it should
not), so the 0-1 breadth-first search of the turn distances runs a layer at a time: the
cells a layer's cells reach through bounces join it, the fresh cells they reach start the
next. The distances are those of :func:`~fepaper._core.tactics.turn_distances`, exactly.

The search values every child of a node: :func:`fill_masks` makes the node's masks once,
and each child's are the node's with its own turn's edges taken out (:func:`play_masks`),
instead of being read again from every node's marks.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .tactics import UNREACHED, turn_distances

__all__ = ["Grid", "grid_of", "new_masks", "fill_masks", "play_masks", "bit_distances", "many_turn_distances",
           "many_bit_distances"]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


class Grid(NamedTuple):
    """The cells of a board: ``cell`` of each node, ``node`` of each cell (-1: none),
    ``offset`` (the cell step of each direction), ``goal`` (the goal cells, two words) and
    ``usable`` (1 if the board fits in 128 cells)."""

    cell: np.ndarray
    node: np.ndarray
    offset: np.ndarray
    goal: np.ndarray
    usable: int


@lru_cache(maxsize=32)
def grid_of(board) -> Grid:
    """The :class:`Grid` of a :class:`~fepaper.game.Board` (made once a board: boards are
    shared per rules)."""
    xs = [x for x, _ in board.nodes]
    ys = [y for _, y in board.nodes]
    width = max(xs) - min(xs) + 1
    cells = width * (max(ys) - min(ys) + 1)
    cell = np.array([(y - min(ys)) * width + (x - min(xs)) for x, y in board.nodes], np.int64)
    node = np.full(max(cells, 128), -1, np.int64)
    node[cell] = np.arange(board.n_nodes)
    offset = np.zeros(8, np.int64)
    a = board.arrays
    for d in range(8):
        steps = {int(cell[a.neighbour[u, d]] - cell[u])
                 for u in range(board.n_nodes) if (a.exists[u] >> d) & 1}
        if len(steps) > 1:  # never on a board of rows and columns
            raise ValueError(f"direction {d} steps by {sorted(steps)} cells")
        offset[d] = steps.pop() if steps else 0
    goal = np.zeros(2, np.uint64)
    for u in range(board.n_nodes):
        if a.goal[u] != 0 and cell[u] < 128:
            goal[cell[u] >> 6] |= np.uint64(1) << np.uint64(cell[u] & 63)
    return Grid(cell, node, offset, goal, int(cells <= 128))


def new_masks() -> tuple[np.ndarray, np.ndarray]:
    """Room for one position's masks: ``free`` (8 directions x 2 words) and ``bounce`` (2 words)."""
    return np.zeros((8, 2), np.uint64), np.zeros(2, np.uint64)


@njit(cache=True, inline="always")
def _bit(c):
    return _ONE << np.uint64(c & 63)


@njit(cache=True)
def fill_masks(marks, board, grid, free, bounce):
    """The masks of the position ``marks`` into ``free`` and ``bounce``."""
    exists, cells = board.exists, grid.cell
    free[:] = 0
    bounce[:] = grid.goal
    for u in range(marks.shape[0]):
        c = cells[u]
        w, b = c >> 6, _bit(c)
        if marks[u] != 0:
            bounce[w] |= b
        f = exists[u] & ~marks[u]
        for d in range(8):
            if (f >> d) & 1:
                free[d, w] |= b


@njit(cache=True)
def play_masks(free, bounce, board, grid, start, steps, length):
    """Take the edges of the turn ``steps[:length]`` from ``start`` out of ``free`` and add its
    nodes to ``bounce`` (the masks after the turn, in place)."""
    neighbour, cells = board.neighbour, grid.cell
    u = start
    for i in range(length):
        d = steps[i]
        v = neighbour[u, d]
        cu, cv = cells[u], cells[v]
        free[d, cu >> 6] &= ~_bit(cu)
        free[(d + 4) & 7, cv >> 6] &= ~_bit(cv)
        bounce[cu >> 6] |= _bit(cu)
        bounce[cv >> 6] |= _bit(cv)
        u = v


@njit(cache=True, inline="always")
def _shift(lo, hi, k):
    """The 128-bit set ``(lo, hi)`` moved by ``k`` cells (``|k| < 64``)."""
    if k > 0:
        s = np.uint64(k)
        return lo << s, (hi << s) | (lo >> np.uint64(64 - k))
    if k < 0:
        s = np.uint64(-k)
        return (lo >> s) | (hi << np.uint64(64 + k)), hi >> s
    return lo, hi


@njit(cache=True, inline="always")
def _step(lo, hi, free, offset):
    """Every cell one free edge away from a cell of ``(lo, hi)``."""
    out_lo, out_hi = _ZERO, _ZERO
    for d in range(8):
        a, b = _shift(lo & free[d, 0], hi & free[d, 1], offset[d])
        out_lo |= a
        out_hi |= b
    return out_lo, out_hi


@njit(cache=True, inline="always")
def _set_layer(word, base, layer, node, dist):
    """``dist`` of the node of every cell of ``word`` (cells ``base ..``) is ``layer``."""
    while word != 0:
        dist[node[base + np.int64(trailing_zeros(word))]] = layer
        word &= word - _ONE


@njit(cache=True)
def bit_distances(free, bounce, ball, grid, dist):
    """The turn distance of every node from ``ball`` into ``dist`` (:data:`UNREACHED` if none),
    from the masks of the position; returns the largest finite distance. The same as
    :func:`~fepaper._core.tactics.turn_distances` of the position."""
    node, offset = grid.node, grid.offset
    for i in range(dist.shape[0]):
        dist[i] = UNREACHED
    c = grid.cell[ball]
    front_lo = _bit(c) if c < 64 else _ZERO
    front_hi = _bit(c) if c >= 64 else _ZERO
    seen_lo, seen_hi = front_lo, front_hi
    stay_lo, stay_hi = ~grid.goal[0], ~grid.goal[1]  # a goal cell ends the ball's way
    bounce_lo, bounce_hi = bounce[0], bounce[1]
    dist[ball] = 0
    layer = 0
    while True:
        fresh_lo, fresh_hi = _ZERO, _ZERO
        while front_lo | front_hi:  # the cells this layer reaches through bounces
            lo, hi = _step(front_lo & stay_lo, front_hi & stay_hi, free, offset)
            lo &= ~seen_lo
            hi &= ~seen_hi
            fresh_lo |= lo & ~bounce_lo
            fresh_hi |= hi & ~bounce_hi
            front_lo, front_hi = lo & bounce_lo, hi & bounce_hi
            seen_lo |= front_lo
            seen_hi |= front_hi
            _set_layer(front_lo, 0, layer, node, dist)
            _set_layer(front_hi, 64, layer, node, dist)
        front_lo, front_hi = fresh_lo & ~seen_lo, fresh_hi & ~seen_hi
        if (front_lo | front_hi) == 0:
            return layer
        layer += 1
        seen_lo |= front_lo
        seen_hi |= front_hi
        _set_layer(front_lo, 0, layer, node, dist)
        _set_layer(front_hi, 64, layer, node, dist)


@njit(cache=True)
def many_turn_distances(marks, balls, board, dist, queue, passes):
    """:func:`~fepaper._core.tactics.turn_distances` of every position (rows of ``marks``,
    ``balls``), ``passes`` times; returns the sum of their largest distances (what
    ``fepaper bench search`` times)."""
    far = 0
    for _ in range(passes):
        for i in range(marks.shape[0]):
            far += turn_distances(marks[i], balls[i], board, dist, queue)
    return far


@njit(cache=True)
def many_bit_distances(free, bounce, balls, grid, dist, passes):
    """:func:`bit_distances` of every position (masks ``free[i]``, ``bounce[i]``), ``passes``
    times; returns the sum of their largest distances (the same as
    :func:`many_turn_distances` of the same positions)."""
    far = 0
    for _ in range(passes):
        for i in range(free.shape[0]):
            far += bit_distances(free[i], bounce[i], balls[i], grid, dist)
    return far
