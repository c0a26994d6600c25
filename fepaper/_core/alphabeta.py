"""Compiled kernel of the thesis's alpha-beta: the step-level search and its static versions.

The complete-turn search is in :mod:`fepaper._core.turnsearch`.

**The thesis's alpha-beta** (§4.1, :func:`thesis_search` over a :class:`ThesisSearch`). The
unit of the tree is the *step*: the children of a position are the free edges at the ball.
A step that lands on an unmarked node ends the turn and the other side moves next; a step that bounces calls
the same (min or max) level again without using up depth, at most ``max_bounces``
bounces deep (a landing past that is a leaf). The root player is MIN: a leaf is worth
the distance of the ball to the goal the root player attacks, its goal 0, its own goal
``INFINITO``, a blocked side ``+-INFINITO`` (§4.1: "If the child is a blocked position its
value is INFINITO if the method is minValor and -INFINITO otherwise"). On a bounce the
search never considers stopping (the thesis's "only the longest path is considered"). Children are
tried nearest-first for MIN (by that distance) and in the reverse order for MAX.

The *static* versions keep one value per board node, written whenever a step lands on
the node and overwritten by later paths through it; the turn is then read off those
stored values (:func:`static_line`). The *dynamic* version keeps the values on the
path (the recursion) and returns its principal variation.

Nodes: one per step made.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .bundles import Budget, RuleFlags
from .clock import spent, tick_node

__all__ = ["INFINITO", "STATIC", "COSTS", "NOCYCLES", "DYNAMIC", "VARIANTS", "ThesisSearch", "nearest_first",
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


class ThesisSearch(NamedTuple):
    """Everything one search of the thesis's alpha-beta reads, besides the marks.

    ``exists``, ``neighbour``, ``goal``: the three board arrays the search reads (from
    :class:`~fepaper._core.bundles.BoardArrays`; a recursion passes its bundle at every
    call, so it carries no array it does not read); ``dist``: per node, steps to the goal
    the root player attacks (``target``, a goal code); ``order``: :func:`nearest_first` of
    ``dist``; ``level``: turns to search (the root's turn is the first); ``max_bounces``:
    bounces explored per turn (< 0: no limit);
    ``variant``: ``STATIC``, ``COSTS``, ``NOCYCLES`` or ``DYNAMIC``; ``cost_end`` and
    ``cost_bounce``: what a step that ends the turn and a step that bounces add to the
    path's cost (the costs version; 0 and 0 otherwise); ``cost_max_sign``: +1 when MAX's
    steps add their cost as MIN's do (every step costs whoever makes it), -1 when a cost
    counts against its mover (MAX's are subtracted from MIN's value); ``stored``: the static versions'
    per-node values (written); ``visited``: per node, the turn (+1) that last put the ball
    there (the no-cycles check); ``pv``, ``pvlen``: the dynamic principal variation within
    the root's turn, ``pv[0, :pvlen[0]]``.
    """

    exists: np.ndarray
    neighbour: np.ndarray
    goal: np.ndarray
    flags: RuleFlags
    dist: np.ndarray
    order: np.ndarray
    target: int
    level: int
    max_bounces: int
    variant: int
    cost_end: int
    cost_bounce: int
    cost_max_sign: int
    stored: np.ndarray
    visited: np.ndarray
    pv: np.ndarray
    pvlen: np.ndarray
    budget: Budget


# --- the thesis's step-level alpha-beta ------------------------------------------------------
# Without the runtime's reference counting (_nrt=False): the node allocates nothing, and
# counting references to the bundle's arrays at every call costs more than the node's work.
@njit(cache=True, _nrt=False)
def _thesis_node(marks, n, mover_min, turn, bounces, alpha, beta, g, ply, s):
    """The value of the ball at ``n`` with MIN (root player) or MAX to step, fail-hard."""
    b = s
    static = s.variant != DYNAMIC
    free = b.exists[n] & ~marks[n]
    best = INFINITO + 1 if mover_min else -INFINITO - 1
    in_pv = turn == 0
    if in_pv:
        s.pvlen[ply] = 0
    tried = 0
    for k in range(8):
        d = s.order[n, k] if mover_min else s.order[n, 7 - k]
        if ((free >> d) & 1) == 0:
            continue
        m = np.int64(b.neighbour[n, d])
        if s.variant == NOCYCLES and s.visited[m] == turn + 1:
            continue
        if tick_node(s.budget):
            return best
        tried += 1
        was_marked = marks[m] != 0
        marks[n] |= np.uint8(1 << d)
        marks[m] |= np.uint8(1 << ((d + 4) & 7))
        cost = s.cost_bounce if was_marked else s.cost_end
        gm = g + (cost if mover_min else s.cost_max_sign * cost)
        bounced = False
        if b.goal[m] != 0:
            v = gm if b.goal[m] == s.target else INFINITO
        elif not was_marked:
            if turn + 1 >= s.level:
                v = s.dist[m] + gm
            else:
                old = s.visited[m]
                s.visited[m] = turn + 2
                v = _thesis_node(marks, m, not mover_min, turn + 1, np.int64(0), alpha, beta, gm, ply + 1, s)
                s.visited[m] = old
        elif (b.exists[m] & ~marks[m]) == 0:
            # a dead end: the mover is blocked there, or (dead_end="stop") stops and leaves
            # the other side blocked
            blocked_min = mover_min if s.flags.dead_end_blocked else not mover_min
            v = INFINITO if blocked_min else -INFINITO
        elif s.max_bounces >= 0 and bounces + 1 > s.max_bounces:
            v = s.dist[m] + gm  # not explored further
        else:
            bounced = True
            old = s.visited[m]
            s.visited[m] = turn + 1
            v = _thesis_node(marks, m, mover_min, turn, bounces + 1, alpha, beta, gm, ply + 1, s)
            s.visited[m] = old
        marks[n] &= np.uint8(~(1 << d) & 0xFF)
        marks[m] &= np.uint8(~(1 << ((d + 4) & 7)) & 0xFF)
        if spent(s.budget):
            return best
        if static:
            s.stored[m] = v
        if (mover_min and v < best) or (not mover_min and v > best):
            best = v
            if in_pv:
                s.pv[ply, 0] = d
                length = 1
                if bounced:
                    for i in range(s.pvlen[ply + 1]):
                        s.pv[ply, 1 + i] = s.pv[ply + 1, i]
                    length += s.pvlen[ply + 1]
                s.pvlen[ply] = length
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
        if s.flags.optional and turn + 1 < s.level:
            old = s.visited[n]
            s.visited[n] = turn + 2
            best = _thesis_node(marks, n, not mover_min, turn + 1, np.int64(0), alpha, beta, g, ply, s)
            s.visited[n] = old
        else:
            best = s.dist[n] + g
    return best


@njit(cache=True)
def thesis_search(marks, ball, s):
    """One search of the thesis's alpha-beta from ``ball`` (the root player to step, MIN).

    ``s`` is a :class:`ThesisSearch`; ``marks`` is changed during the search and restored
    (unless the budget stopped it). Returns the root value (meaningless if the budget
    stopped the search); nodes, one per step made, are counted in ``s.budget.ctl[4]``.
    """
    s.visited[:] = 0
    s.visited[ball] = 1
    root_min = ball >= 0  # a plain bool: a literal True would give the recursion a second type
    return _thesis_node(marks, np.int64(ball), root_min, np.int64(0), np.int64(0), np.int64(-INFINITO - 1),
                        np.int64(INFINITO + 1), np.int64(0), np.int64(0), s)


@njit(cache=True)
def static_line(marks, ball, s, out):
    """The static versions' turn: from ``ball``, step to the neighbour whose stored value
    (``s.stored``) is the smallest (nearest first on ties), while the ball bounces. Returns
    the number of steps written to ``out``; ``marks`` is not changed."""
    b = s
    marks = marks.copy()
    seen = np.zeros(marks.shape[0], np.bool_)
    n = ball
    seen[n] = True
    length = 0
    bounces = 0
    while True:
        free = b.exists[n] & ~marks[n]
        best = np.int64(0)
        bd = -1
        for k in range(8):
            d = s.order[n, k]
            if ((free >> d) & 1) == 0:
                continue
            m = b.neighbour[n, d]
            if s.variant == NOCYCLES and seen[m]:
                continue
            if bd < 0 or s.stored[m] < best:
                best = s.stored[m]
                bd = d
        if bd < 0:
            break
        m = b.neighbour[n, bd]
        out[length] = bd
        length += 1
        was_marked = marks[m] != 0
        marks[n] |= np.uint8(1 << bd)
        marks[m] |= np.uint8(1 << ((bd + 4) & 7))
        n = m
        seen[n] = True
        if b.goal[m] != 0 or not was_marked or (b.exists[m] & ~marks[m]) == 0:
            break
        bounces += 1
        if s.max_bounces >= 0 and bounces > s.max_bounces:
            break
    return length
