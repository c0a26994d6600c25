"""Compiled pieces of the estimate of a turn count: the top of the canonical tree, and its sub-trees.

Every distinct turn is one node of the tree of canonical steps
(:mod:`fepaper._core.canonical`). An estimate (:func:`fepaper.game.counts.estimate_turns`)
lists the nodes of that tree a few levels below a node (:func:`expand`: the *frontier*,
each given by its step path, plus the turns above it counted exactly), then counts the
sub-trees of a random sample of frontier nodes exactly (:func:`count_below`), going one
stage further down for a sub-tree too big to count in its work cap. Both work on a walk
made by :func:`~fepaper._core.canonical.new_canonical_walk` and leave ``marks`` as they
found them.
"""

from __future__ import annotations

from numba import njit

from .bundles import DONE, RUNNING
from .canonical import BASE, DEPTH, STATUS, count_walk, is_canonical, mark_step, unmark_step, unwind_canonical
from .turns import descend, landing, next_step

__all__ = ["expand", "count_below"]


@njit(cache=True)
def _replay(marks, board, walk, path, plen):
    """Make the steps of ``path[:plen]`` from the walk's start node (level 0)."""
    neighbour = board.neighbour
    for j in range(plen):
        d = path[j]
        m = mark_step(marks, walk.turn_marks, neighbour, walk.node[j], d)
        walk.taken[j] = d
        walk.node[j + 1] = m


@njit(cache=True)
def _take_back(marks, board, walk, plen):
    for j in range(plen - 1, -1, -1):
        unmark_step(marks, walk.turn_marks, board.neighbour, walk.node[j], walk.taken[j])


@njit(cache=True)
def expand(marks, board, flags, walk, path, plen, levels, out, max_out):
    """The canonical tree ``levels`` steps below the node reached by ``path[:plen]``.

    Returns ``(turns, frontier)``: the distinct turns at depths ``plen + 1`` to ``plen +
    levels`` (counted exactly), and the number of nodes at depth ``plen + levels`` from
    which the turn may go on (the frontier), whose full step paths are written to the
    rows of ``out`` (int8, at least ``plen + levels`` columns). When the frontier would
    pass ``max_out`` rows, returns ``frontier = -1`` (``out`` then holds the first
    ``max_out``). The node at ``path[:plen]`` must be one from which the turn goes on.
    """
    neighbour, exists = board.neighbour, board.exists
    node, nextdir, taken, tm = walk.node, walk.nextdir, walk.taken, walk.turn_marks
    seen, queue, ctl = walk.seen, walk.queue, walk.ctl
    _replay(marks, board, walk, path, plen)
    bottom = plen + levels
    depth = plen
    nextdir[depth] = 0
    turns = 0
    n_out = 0
    marked = (marks, tm)
    while True:
        depth, d = next_step(exists, neighbour, marked, node, nextdir, taken, depth, plen)
        if d >= 8:
            break
        n = node[depth]
        nextdir[depth] = d + 1
        m = neighbour[n, d]
        was_marked = marks[m] != 0
        mark_step(marks, tm, neighbour, n, d)
        if not is_canonical(tm, neighbour, m, (d + 4) & 7, seen, queue, ctl):
            unmark_step(marks, tm, neighbour, n, d)
            continue
        kind, more = landing(board.goal, board.exists, flags, marks, m, was_marked)
        if kind >= 0:
            turns += 1
        if more and depth + 1 == bottom:
            if n_out >= max_out:
                n_out = -1
                unmark_step(marks, tm, neighbour, n, d)
                for j in range(depth - 1, plen - 1, -1):
                    unmark_step(marks, tm, neighbour, node[j], taken[j])
                break
            for j in range(plen):
                out[n_out, j] = path[j]
            for j in range(plen, depth):
                out[n_out, j] = taken[j]
            out[n_out, depth] = d
            n_out += 1
            unmark_step(marks, tm, neighbour, n, d)
        elif more:
            depth = descend(node, nextdir, taken, depth, d, m)
        else:
            unmark_step(marks, tm, neighbour, n, d)
    _take_back(marks, board, walk, plen)
    return turns, n_out


@njit(cache=True)
def count_below(marks, board, flags, walk, path, plen, kinds, ends, cap, budget):
    """The distinct turns strictly below the node reached by ``path[:plen]``, counted exactly.

    Returns ``(count, done)``; ``done`` is false when the count passed ``cap`` units of
    work (steps tried; 0: no cap) or ``budget`` was spent, and the count is then only
    what was found. ``kinds`` and ``ends`` are scratch (zeroed here).
    """
    _replay(marks, board, walk, path, plen)
    kinds[:] = 0
    ctl = walk.ctl
    ctl[BASE] = plen
    ctl[DEPTH] = plen
    ctl[STATUS] = RUNNING
    walk.nextdir[plen] = 0
    counted = 0
    while ctl[STATUS] == RUNNING:
        before = budget.ctl[0]
        counted += count_walk(marks, board, flags, walk, kinds, ends, 0, cap, budget)
        if cap > 0 and ctl[STATUS] == RUNNING and budget.ctl[0] - before >= cap:
            break
    done = ctl[STATUS] == DONE
    if not done:
        unwind_canonical(marks, board, walk)
    ctl[BASE] = 0
    ctl[DEPTH] = 0
    ctl[STATUS] = RUNNING
    _take_back(marks, board, walk, plen)
    return counted, done
