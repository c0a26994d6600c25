"""A small value network over a turn-start position: sparse one-hot inputs, two hidden layers.

The inputs (:func:`active_inputs`) are seen from the player to move, as if it attacked the
top goal (the board is turned half a turn for player 2):

* the turn distance of every node from the ball (:func:`fepaper._core.tactics.turn_distances`),
  one-hot in ``0 .. k`` with one more slot for "farther or never";
* every marked edge that is not a wall;
* the ball's node;
* the turns left before the turn limit draws the game, one-hot in ``0 .. turn_slots - 2``
  (the last slot: that many or more, or no limit).

The network: ``h1 = relu(b1 + sum of W1's rows of the active inputs)``, ``h2 = relu(b2 +
h1 @ W2)``, ``value = tanh(b3 + h2 @ w3)``: the expected result for the player to move, in
(-1, 1). A :class:`ValueNet` bundle holds the weights and the board's maps; its weights
come from a plain ``.npz`` file (:mod:`fepaper.search.valuefile`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .tactics import turn_distances

__all__ = ["ValueNet", "Layout", "layout_of", "active_inputs", "net_value", "shared_sums", "child_net_value",
           "net_values", "orientation_maps", "encode_examples", "dense_inputs"]


class Layout(NamedTuple):
    """Where each group of inputs starts, and the maps that turn the board for player 2.

    ``node_map[o, n]`` / ``edge_map[o, e]``: the index of node ``n`` / edge ``e`` in
    orientation ``o``: ``p - 1`` as player ``p`` sees the board, ``p + 1`` the same mirrored
    left to right (a position and its mirror image are worth the same, which doubles the
    examples a network learns from); ``edge_map`` is -1 for walls, which are never inputs.
    """

    k: int
    turn_slots: int
    dist_at: int
    edge_at: int
    ball_at: int
    turn_at: int
    n_inputs: int
    node_map: np.ndarray
    edge_map: np.ndarray


class ValueNet(NamedTuple):
    """The weights (float32) and the :class:`Layout` of a value network."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: float
    layout: Layout


def orientation_maps(board) -> tuple[np.ndarray, np.ndarray, int]:
    """``(node_map, edge_map, n_inputs_edges)`` of a :class:`~fepaper.game.Board` in the four
    orientations of :class:`Layout`; non-wall edges are numbered ``0 .. n_inputs_edges - 1``,
    walls map to -1."""
    xs = [x for x, _ in board.nodes]
    ys = [y for _, y in board.nodes]
    cx, cy = min(xs) + max(xs), min(ys) + max(ys)
    n = board.n_nodes
    node_map = np.empty((4, n), np.int32)
    for i, (x, y) in enumerate(board.nodes):
        node_map[0, i] = i
        node_map[1, i] = board.index[(cx - x, cy - y)]
        node_map[2, i] = board.index[(cx - x, y)]
        node_map[3, i] = board.index[(x, cy - y)]
    number = np.full(board.n_edges, -1, np.int32)
    k = 0
    for e in range(board.n_edges):
        if not board.is_wall[e]:
            number[e] = k
            k += 1
    edge_map = np.empty((4, board.n_edges), np.int32)
    for o in range(4):
        for e, (u, v) in enumerate(board.edges):
            a, b = node_map[o, board.index[u]], node_map[o, board.index[v]]
            edge_map[o, e] = number[board.edge_between(board.nodes[a], board.nodes[b])]
    return node_map, edge_map, k


def layout_of(board, k: int = 6, turn_slots: int = 12) -> Layout:
    """The input :class:`Layout` of a value network on ``board``."""
    node_map, edge_map, n_edges = orientation_maps(board)
    n = board.n_nodes
    dist_at = 0
    edge_at = dist_at + n * (k + 2)
    ball_at = edge_at + n_edges
    turn_at = ball_at + n
    return Layout(k, turn_slots, dist_at, edge_at, ball_at, turn_at, turn_at + turn_slots, node_map, edge_map)


@njit(cache=True, inline="always")
def _distance_rows(layout, dist, nmap, out, count):
    """Append the turn distance's one-hot input of every node (``dist``, seen through ``nmap``)
    to ``out`` from ``count``; returns the new count."""
    k, dist_at = layout.k, layout.dist_at
    width = k + 2
    for i in range(dist.shape[0]):
        d = dist[i]
        out[count] = dist_at + nmap[i] * width + (d if d <= k else k + 1)
        count += 1
    return count


@njit(cache=True, inline="always")
def _edge_rows(layout, marks, board, emap, out, count):
    """Append the input of every edge marked in ``marks`` but the walls (seen through ``emap``)
    to ``out`` from ``count``; returns the new count."""
    # the arrays out of their bundle once: a field read in a loop costs a reference count
    initial, neighbour, edge_index = board.initial_marks, board.neighbour, board.edge_index
    edge_at = layout.edge_at
    for u in range(marks.shape[0]):
        m = marks[u] & ~initial[u]
        if m == 0:
            continue
        for d in range(8):
            if (m >> d) & 1:
                if neighbour[u, d] > u:
                    e = emap[edge_index[u, d]]
                    if e >= 0:
                        out[count] = edge_at + e
                        count += 1
    return count


@njit(cache=True, inline="always")
def _ball_and_turn_rows(layout, ball, turns_left, nmap, out, count):
    """Append the ball's input and the turns-left input to ``out`` from ``count``; returns the
    new count."""
    out[count] = layout.ball_at + nmap[ball]
    t = layout.turn_slots - 1 if turns_left < 0 else min(turns_left, layout.turn_slots - 1)
    out[count + 1] = layout.turn_at + t
    return count + 2


@njit(cache=True)
def active_inputs(marks, ball, mover, turns_left, board, layout, dist, queue, out, mirror=False):
    """Write the indices of the active inputs of the position into ``out``; return how many.

    ``turns_left``: turns before the limit draws the game (< 0: no limit). ``dist`` and
    ``queue`` are the workspace of :func:`~fepaper._core.tactics.turn_distances`; ``out``
    needs room for ``n_nodes * 2 + n_edges + 1`` indices. ``mirror``: the inputs of the
    position mirrored left to right.
    """
    turn_distances(marks, ball, board, dist, queue)
    o = mover - 1 + (2 if mirror else 0)
    nmap = layout.node_map[o]
    count = _distance_rows(layout, dist, nmap, out, 0)
    count = _edge_rows(layout, marks, board, layout.edge_map[o], out, count)
    return _ball_and_turn_rows(layout, ball, turns_left, nmap, out, count)


@njit(cache=True, inline="always")
def _add_rows(w1, rows, count, h1):
    """``h1 += w1[rows[j]]`` for ``j < count``, four rows a pass (``h1`` is read and written
    once per four rows instead of once per row)."""
    n1 = h1.shape[0]
    j = 0
    while j + 3 < count:
        r0, r1, r2, r3 = w1[rows[j]], w1[rows[j + 1]], w1[rows[j + 2]], w1[rows[j + 3]]
        for i in range(n1):
            h1[i] += (r0[i] + r1[i]) + (r2[i] + r3[i])
        j += 4
    while j < count:
        r0 = w1[rows[j]]
        for i in range(n1):
            h1[i] += r0[i]
        j += 1


@njit(cache=True, inline="always")
def _output(net, h1, h2):
    """The value from the first layer's sums ``h1`` (not changed): ``h2 = relu(b2 + relu(h1) @ W2)``,
    four rows of ``W2`` a pass over ``h2`` (``h2`` is only 32 wide: a pass per row, skipping the
    zeros, cost more than its arithmetic)."""
    w2, w3 = net.w2, net.w3  # out of the bundle once: a field read in a loop costs a reference count
    n1, n2 = h1.shape[0], h2.shape[0]
    zero = np.float32(0.0)
    h2[:] = net.b2
    i = 0
    while i + 3 < n1:
        a0, a1, a2, a3 = max(h1[i], zero), max(h1[i + 1], zero), max(h1[i + 2], zero), max(h1[i + 3], zero)
        for j in range(n2):
            h2[j] += (a0 * w2[i, j] + a1 * w2[i + 1, j]) + (a2 * w2[i + 2, j] + a3 * w2[i + 3, j])
        i += 4
    while i < n1:
        a = max(h1[i], zero)
        for j in range(n2):
            h2[j] += a * w2[i, j]
        i += 1
    s = net.b3
    for j in range(n2):
        if h2[j] > 0:
            s += h2[j] * w3[j]
    return np.tanh(s)


@njit(cache=True)
def net_value(net, active, count, h1, h2):
    """The network's value of a position from its active inputs (``h1``, ``h2``: workspace)."""
    h1[:] = net.b1
    _add_rows(net.w1, active, count, h1)
    return _output(net, h1, h2)


@njit(cache=True)
def shared_sums(net, marks, mover, board, rows, base):
    """``base`` = the first layer's bias plus the rows of the edges marked in ``marks`` (walls
    excepted) as ``mover`` sees the board: the part of the first layer that every position
    one turn from ``marks`` with ``mover`` to move shares, but for its own turn's edges
    (:func:`child_net_value`). ``rows``: workspace of ``n_edges`` indices."""
    count = _edge_rows(net.layout, marks, board, net.layout.edge_map[mover - 1], rows, 0)
    base[:] = net.b1
    _add_rows(net.w1, rows, count, base)


@njit(cache=True)
def child_net_value(net, base, dist, ball, mover, turns_left, board, start, steps, length, rows, h1, h2):
    """The network's value of the position (``mover`` to move at ``ball``, the turn distances
    ``dist`` from it) reached by the turn ``steps[:length]`` from ``start`` in a position whose
    :func:`shared_sums` for ``mover`` are ``base``: the same as :func:`net_value` of its
    :func:`active_inputs` (up to the order of the float sums) without adding the rows of the
    edges it shares. ``rows``: workspace of ``2 * n_nodes + n_edges + 2`` indices."""
    layout = net.layout
    neighbour, edge_index = board.neighbour, board.edge_index
    nmap = layout.node_map[mover - 1]
    emap = layout.edge_map[mover - 1]
    count = _distance_rows(layout, dist, nmap, rows, 0)
    u = start
    for i in range(length):  # the turn's own edges (never walls: a turn steps on free edges only)
        rows[count] = layout.edge_at + emap[edge_index[u, steps[i]]]
        count += 1
        u = neighbour[u, steps[i]]
    count = _ball_and_turn_rows(layout, ball, turns_left, nmap, rows, count)
    h1[:] = base
    _add_rows(net.w1, rows, count, h1)
    return _output(net, h1, h2)


@njit(cache=True)
def net_values(net, marks, ball, mover, played, max_turns, board):
    """The network's value of each of ``n`` positions (rows of ``marks``, ``ball``, ``mover``,
    ``played``) for its player to move, as the search asks it (``max_turns`` <= 0: no limit)."""
    n_nodes = board.neighbour.shape[0]
    dist = np.empty(n_nodes, np.int32)
    queue = np.empty(2 * n_nodes + 2, np.int32)
    active = np.empty(2 * n_nodes + board.edge_keys.shape[0] + 2, np.int64)
    h1 = np.empty(net.b1.shape[0], np.float32)
    h2 = np.empty(net.b2.shape[0], np.float32)
    out = np.empty(marks.shape[0], np.float64)
    for i in range(marks.shape[0]):
        left = -1 if max_turns <= 0 else max_turns - played[i]
        count = active_inputs(marks[i], ball[i], mover[i], left, board, net.layout, dist, queue, active)
        out[i] = net_value(net, active, count, h1, h2)
    return out


@njit(cache=True)
def encode_examples(marks, ball, mover, played, max_turns, board, layout, mirror, dist, queue, scratch):
    """The active inputs of ``n`` examples (rows of ``marks``, ``ball``, ``mover``, ``played``) in one
    flat int16 array, and ``offsets``: example ``i`` holds ``out[offsets[i]:offsets[i + 1]]``."""
    n = marks.shape[0]
    offsets = np.zeros(n + 1, np.int64)
    out = np.empty(n * scratch.shape[0], np.int16)
    pos = 0
    for i in range(n):
        left = -1 if max_turns <= 0 else max_turns - played[i]
        count = active_inputs(marks[i], ball[i], mover[i], left, board, layout, dist, queue, scratch, mirror)
        out[pos : pos + count] = scratch[:count]
        pos += count
        offsets[i + 1] = pos
    return out[:pos].copy(), offsets


@njit(cache=True)
def dense_inputs(indices, offsets, rows, n_inputs):
    """The examples ``rows`` of a flat encoding as a dense 0/1 float32 matrix (one row each)."""
    x = np.zeros((rows.shape[0], n_inputs), np.float32)
    for j in range(rows.shape[0]):
        i = rows[j]
        for p in range(offsets[i], offsets[i + 1]):
            x[j, indices[p]] = 1.0
    return x
