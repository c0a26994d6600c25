"""Compiled kernel of the thesis's alpha-beta: the step-level search and its static versions.

The complete-turn search is in :mod:`fepaper._core.turnsearch`.

**The thesis's alpha-beta** (§4.1, :func:`thesis_search`). The unit of the tree is the
*step*: the children of a position are the free edges at the ball. A step that lands on
an unmarked node ends the turn and the other side moves next; a step that bounces calls
the same (min or max) level again without using up depth, at most ``max_bounces``
bounces deep (a landing past that is a leaf). The root player is MIN: a leaf is worth
the distance of the ball to the goal the root player attacks, its goal 0, its own goal
``INFINITO``, a blocked side to move ``+-INFINITO``. On a bounce the search never
considers stopping (the thesis's "only the longest path is considered"). Children are
tried nearest-first for MIN (by that distance) and in the reverse order for MAX.

The *static* versions keep one value per board node, written whenever a step lands on
the node and overwritten by later paths through it; the turn is then read off those
stored values (:func:`static_line`). The *dynamic* version keeps the values on the
path (the recursion) and returns its principal variation.

Nodes: one per step made.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .clock import tick as _tick

__all__ = ["INFINITO", "STATIC", "COSTS", "NOCYCLES", "DYNAMIC", "VARIANTS", "nearest_first",
           "thesis_search", "static_line"]

INFINITO = 1_000_000
STATIC, COSTS, NOCYCLES, DYNAMIC = 0, 1, 2, 3
VARIANTS = ("static", "costs", "nocycles", "dynamic")


def nearest_first(neighbour: np.ndarray, distance_row: np.ndarray) -> np.ndarray:
    """Per node, the eight directions sorted by the distance of their neighbour (nearest
    first, ties by direction; missing neighbours last): MIN's expansion order. MAX uses
    it reversed."""
    n = neighbour.shape[0]
    order = np.zeros((n, 8), np.int8)
    big = np.iinfo(np.int32).max
    for i in range(n):
        keys = [(int(distance_row[j]) if j >= 0 else big, d) for d, j in enumerate(neighbour[i])]
        order[i] = [d for _, d in sorted(keys)]
    return order


# --- the thesis's step-level alpha-beta ------------------------------------------------------
@njit(cache=True)
def _thesis_node(marks, n, mover_min, turn, bounces, alpha, beta, g, ply,
                 exists, neighbour, goal, dist, order, target, optional, level, max_bounces,
                 static, costs, nocycles, stored, visited, pv, pvlen, ctl, deadline):
    """The value of the ball at ``n`` with MIN (root player) or MAX to step, fail-hard."""
    free = exists[n] & ~marks[n]
    best = INFINITO + 1 if mover_min else -INFINITO - 1
    in_pv = turn == 0
    if in_pv:
        pvlen[ply] = 0
    tried = 0
    for k in range(8):
        d = order[n, k] if mover_min else order[n, 7 - k]
        if ((free >> d) & 1) == 0:
            continue
        m = np.int64(neighbour[n, d])
        if nocycles and visited[m] == turn + 1:
            continue
        _tick(ctl, deadline)
        if ctl[1] != 0:
            return best
        tried += 1
        was_marked = marks[m] != 0
        marks[n] |= np.uint8(1 << d)
        marks[m] |= np.uint8(1 << ((d + 4) & 7))
        gm = g + 1 if costs else g
        bounced = False
        if goal[m] != 0:
            v = gm if goal[m] == target else INFINITO
        elif not was_marked:
            if turn + 1 >= level:
                v = dist[m] + gm
            else:
                old = visited[m]
                visited[m] = turn + 2
                v = _thesis_node(marks, m, not mover_min, turn + 1, np.int64(0), alpha, beta, gm, ply + 1,
                                 exists, neighbour, goal, dist, order, target, optional, level,
                                 max_bounces, static, costs, nocycles, stored, visited, pv, pvlen,
                                 ctl, deadline)
                visited[m] = old
        elif (exists[m] & ~marks[m]) == 0:
            # a dead end: under optional bounce the mover stops and the other side is
            # blocked; under mandatory bounce the mover is blocked
            blocked_min = (not mover_min) if optional else mover_min
            v = INFINITO if blocked_min else -INFINITO
        elif max_bounces >= 0 and bounces + 1 > max_bounces:
            v = dist[m] + gm  # not explored further
        else:
            bounced = True
            old = visited[m]
            visited[m] = turn + 1
            v = _thesis_node(marks, m, mover_min, turn, bounces + 1, alpha, beta, gm, ply + 1,
                             exists, neighbour, goal, dist, order, target, optional, level,
                             max_bounces, static, costs, nocycles, stored, visited, pv, pvlen,
                             ctl, deadline)
            visited[m] = old
        marks[n] &= np.uint8(~(1 << d) & 0xFF)
        marks[m] &= np.uint8(~(1 << ((d + 4) & 7)) & 0xFF)
        if ctl[1] != 0:
            return best
        if static:
            stored[m] = v
        if (mover_min and v < best) or (not mover_min and v > best):
            best = v
            if in_pv:
                pv[ply, 0] = d
                length = 1
                if bounced:
                    for i in range(pvlen[ply + 1]):
                        pv[ply, 1 + i] = pv[ply + 1, i]
                    length += pvlen[ply + 1]
                pvlen[ply] = length
        if mover_min:
            if best <= alpha:
                break
            if best < beta:
                beta = best
        else:
            if best >= beta:
                break
            if best > alpha:
                alpha = best
    if tried == 0:
        # only under nocycles: every way on revisits a node of this turn
        if optional and turn + 1 < level:
            old = visited[n]
            visited[n] = turn + 2
            best = _thesis_node(marks, n, not mover_min, turn + 1, np.int64(0), alpha, beta, g, ply,
                                exists, neighbour, goal, dist, order, target, optional, level,
                                max_bounces, static, costs, nocycles, stored, visited, pv, pvlen,
                                ctl, deadline)
            visited[n] = old
        else:
            best = dist[n] + g
    return best


@njit(cache=True)
def thesis_search(marks, ball, exists, neighbour, goal, dist, order, target, optional, level,
                  max_bounces, variant, stored, pv, pvlen, ctl, deadline):
    """One search of the thesis's alpha-beta from ``ball`` (root player to step, MIN).

    Parameters
    ----------
    marks : uint8 array
        Changed during the search and restored (unless the search was aborted).
    dist : int32 array
        Per node, steps to the goal the root player attacks (``target``, a goal code).
    order : int8 array (n, 8)
        :func:`nearest_first` of ``dist``.
    level : int
        Turns to search (>= 1); the root's (rest of the) turn is the first.
    max_bounces : int
        Bounces explored per turn (< 0: no limit).
    variant : int
        ``STATIC``, ``COSTS``, ``NOCYCLES`` or ``DYNAMIC``.
    stored : int64 array
        The static versions' per-node values (written; read with :func:`static_line`).
    pv, pvlen : int8 (P, P), int32 (P,)
        The dynamic principal variation within the root's turn: ``pv[0, :pvlen[0]]``.
    ctl : int64 array (4,)
        ``[nodes, aborted, node budget, next check]``; nodes are added to ``ctl[0]``.
    deadline : float
        ``time.perf_counter()`` value after which the search gives up (<= 0: none).

    Returns
    -------
    int
        The root value (meaningless if ``ctl[1]`` is set).
    """
    visited = np.zeros(marks.shape[0], np.int32)
    visited[ball] = 1
    root_min = ball >= 0  # a plain bool: a literal True would give the recursion a second type
    return _thesis_node(marks, np.int64(ball), root_min, np.int64(0), np.int64(0),
                        np.int64(-INFINITO - 1), np.int64(INFINITO + 1),
                        np.int64(0), np.int64(0), exists, neighbour, goal, dist, order, target, optional,
                        level, max_bounces, variant != DYNAMIC, variant == COSTS, variant == NOCYCLES,
                        stored, visited, pv, pvlen, ctl, deadline)


@njit(cache=True)
def static_line(marks, ball, exists, neighbour, goal, order, stored, max_bounces, nocycles, out):
    """The static versions' turn: from ``ball``, step to the neighbour whose stored value
    is the smallest (nearest first on ties), while the ball bounces. Returns the number of
    steps written to ``out``; ``marks`` is not changed."""
    marks = marks.copy()
    seen = np.zeros(marks.shape[0], np.bool_)
    n = ball
    seen[n] = True
    length = 0
    bounces = 0
    while True:
        free = exists[n] & ~marks[n]
        best = np.int64(0)
        bd = -1
        for k in range(8):
            d = order[n, k]
            if ((free >> d) & 1) == 0:
                continue
            m = neighbour[n, d]
            if nocycles and seen[m]:
                continue
            if bd < 0 or stored[m] < best:
                best = stored[m]
                bd = d
        if bd < 0:
            break
        m = neighbour[n, bd]
        out[length] = bd
        length += 1
        was_marked = marks[m] != 0
        marks[n] |= np.uint8(1 << bd)
        marks[m] |= np.uint8(1 << ((bd + 4) & 7))
        n = m
        seen[n] = True
        if goal[m] != 0 or not was_marked or (exists[m] & ~marks[m]) == 0:
            break
        bounces += 1
        if max_bounces >= 0 and bounces > max_bounces:
            break
    return length


# --- the complete-turn search ------------------------------------------------------------------
