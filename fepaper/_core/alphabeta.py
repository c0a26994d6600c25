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
tried nearest-first for MIN (by that distance) and in the reverse order for MAX (the thesis's
expansion order, §4.1: "the nearest states first"); the bundle carries each side's order, so a
search may try them in another (:func:`fixed_order`: directions 0 to 7 for both).

The *static* versions keep one value per board node, written whenever a step lands on
the node and overwritten by later paths through it; the turn is then read off those
stored values (:func:`static_line`). The *dynamic* version keeps the values on the
path (the recursion) and returns its principal variation.

Nodes: one per step made.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from .bundles import Budget, RuleFlags
from .clock import spent, tick_node
from .paths import astar_distance
from .programs import Program, evaluate

__all__ = ["INFINITO", "PROGRAM_OFFSET", "STATIC", "COSTS", "NOCYCLES", "DYNAMIC", "VARIANTS", "ThesisSearch",
           "nearest_first",
           "fixed_order", "thesis_search", "static_line", "astar_distance"]

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


def fixed_order(n_nodes: int) -> np.ndarray:
    """Per node, the eight directions in their fixed order 0 to 7: the expansion order of a search
    without nearest-first ordering (both players, no reversal for MAX)."""
    return np.tile(np.arange(8, dtype=np.int8), (n_nodes, 1))


class ThesisSearch(NamedTuple):
    """Everything one search of the thesis's alpha-beta reads, besides the marks.

    ``exists``, ``neighbour``, ``goal``: the three board arrays the search reads (from
    :class:`~fepaper._core.bundles.BoardArrays`; a recursion passes its bundle at every
    call, so it carries no array it does not read); ``dist``: per node, steps to the goal
    the root player attacks (``target``, a goal code); ``order``: MIN's expansion order per
    node (the thesis's: :func:`nearest_first` of ``dist``) and ``max_order``: MAX's (the
    thesis's: ``order`` reversed; both :func:`fixed_order` for a search in the fixed order);
    ``level``: turns to search (the root's turn is the first); ``max_bounces``: bounces
    explored per turn (< 0: no limit);
    ``variant``: ``STATIC``, ``COSTS``, ``NOCYCLES`` or ``DYNAMIC``; ``cost_end`` and
    ``cost_bounce``: what a step that ends the turn and a step that bounces add to the
    path's cost (the costs version; 0 and 0 otherwise); ``cost_max_sign``: +1 when MAX's
    steps add their cost as MIN's do (every step costs whoever makes it), -1 when a cost
    counts against its mover (MAX's are subtracted from MIN's value); ``stored``: the static versions'
    per-node values (written); ``visited``: per node, the turn (+1) that last put the ball
    there (the no-cycles check); ``pv``, ``pvlen``: the dynamic principal variation within
    the root's turn, ``pv[0, :pvlen[0]]``.

    ``cycle_scan``: the no-cycles check scans the path of the current turn (``path_node``,
    ``path_turn``: per ply of the recursion, the node the ball stands on and its turn) instead
    of reading ``visited``; the same steps are refused, in more time. ``astar``: a leaf is worth
    the A* path distance over the free edges (:func:`astar_distance`, with ``heuristic``, the
    plain distance, and its work arrays ``scratch`` and ``heap``) instead of ``dist``.
    ``program``: a compiled evaluation (:mod:`fepaper._core.programs`; its features for the
    root player) in place of either, or the empty tuple for none (a search without one is compiled
    without its arrays, which its recursion would carry at every call): a leaf is worth :data:`PROGRAM_OFFSET`
    plus the program's cost in thousandths, which keeps every leaf between the root's goal (0)
    and its own goal (``INFINITO``), as the distance is.
    """

    exists: np.ndarray
    neighbour: np.ndarray
    goal: np.ndarray
    flags: RuleFlags
    dist: np.ndarray
    order: np.ndarray
    max_order: np.ndarray
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
    cycle_scan: bool
    path_node: np.ndarray
    path_turn: np.ndarray
    astar: bool
    heuristic: np.ndarray
    scratch: np.ndarray
    heap: np.ndarray
    program: Program | tuple = ()


#: Where a program's leaf values are centred: a cost ``c`` (in thousandths, within +-(this - 1))
#: is worth ``PROGRAM_OFFSET + c``.
PROGRAM_OFFSET = INFINITO // 2


# --- the two checks and evaluations a version may swap ---------------------------------------
@njit(cache=True, _nrt=False)
def _on_path(s, ply, turn, m):
    """Whether the ball has stood on node ``m`` in the current turn: the path of the recursion
    scanned back from ``ply`` over the nodes of turn ``turn`` (the thesis's "checking if the
    node already is in the path")."""
    i = ply
    while i >= 0 and s.path_turn[i] == turn:
        if s.path_node[i] == m:
            return True
        i -= 1
    return False


def _program_leaf(marks, m, s):
    """A leaf's value by the bundle's program, or -1 without one (compiled only, through its
    overload)."""
    raise NotImplementedError("compiled only")


@overload(_program_leaf, jit_options={"cache": True, "_nrt": False})
def _program_leaf_typed(marks, m, s):
    """A bundle whose ``program`` is the empty tuple compiles a search without it: the recursion
    passes its bundle at every call, and a program's arrays in it cost every node about a tenth
    of the plain search's speed."""
    field = s.types[s.fields.index("program")]
    if isinstance(field, types.BaseTuple) and len(field) == 0:
        return lambda marks, m, s: np.int64(-1)
    return lambda marks, m, s: PROGRAM_OFFSET + evaluate(marks, m, s.target, s.exists, s.neighbour,
                                                         s.goal, s.program, PROGRAM_OFFSET - 1)


@njit(cache=True, _nrt=False)
def _leaf(marks, m, s):
    """A leaf's value before its path's cost: the program's (at least 1), the A* path distance, or
    the plain distance."""
    value = _program_leaf(marks, m, s)
    if value >= 0:
        return value
    if s.astar:
        return np.int64(astar_distance(s.exists, s.neighbour, s.goal, marks, m, s.target, s.heuristic,
                                       s.scratch, s.heap))
    return np.int64(s.dist[m])


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
    if s.cycle_scan:
        s.path_node[ply] = n
        s.path_turn[ply] = turn
    tried = 0
    for k in range(8):
        d = s.order[n, k] if mover_min else s.max_order[n, k]
        if ((free >> d) & 1) == 0:
            continue
        m = np.int64(b.neighbour[n, d])
        if s.variant == NOCYCLES:
            if s.cycle_scan:
                if _on_path(s, ply, turn, m):
                    continue
            elif s.visited[m] == turn + 1:
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
                v = _leaf(marks, m, s) + gm
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
            v = _leaf(marks, m, s) + gm  # not explored further
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
            best = _leaf(marks, n, s) + g
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
    (``s.stored``) is the smallest (the first in MIN's order, ``s.order``, on ties), while the
    ball bounces. Returns the number of steps written to ``out``; ``marks`` is not changed."""
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
