"""Compiled walk over the distinct turns of a position that needs no key set (reverse search).

The walk of :mod:`fepaper._core.turns` remembers every state it has seen in a set of
64-bit keys, so its memory grows with the turns (16 to 48 bytes a state). This walk
remembers nothing: it reaches each distinct turn once, along one *canonical* path, and
its memory is a few arrays the size of the board (Avis and Fukuda's reverse search).

Why it is exact. A state during a turn is the set ``E`` of edges marked so far in the
turn plus the ball's node ``v``. Call a node a *bounce node* if it is marked at the
start of the turn (walls included) or is the ball's starting node, and not a goal. A
step path (a trail: no edge twice) is a legal sequence of steps exactly when every node
it passes through, except its last, is a bounce node: the first landing on a node that
is not one ends the turn, a goal ends the game, and a node the path leaves again has a
free edge when it lands there. So ``(E, v)`` is reached by some legal path exactly
when ``E`` is connected, touches the start, has the start and ``v`` as its only nodes
of odd degree (none when ``v`` is the start) and every node of ``E`` but ``v`` is a
bounce node (Euler: such an ``E`` has a trail from the start to ``v``, and any of them
is legal). The states reached one step before ``(E, v)`` are therefore ``(E - e, w)``
for the edges ``e = (w, v)`` of ``E`` at ``v`` whose removal leaves ``E - e``
connected with the start on it: when ``v`` was entered only once (one edge of ``E`` at
``v``) there is just the edge the walk came by; otherwise the edges at ``v`` that are
not bridges of ``E``. The *canonical parent* of a state is the one reached over the
lowest such direction (read from ``v``). Every state but the start has exactly one, and
following canonical parents leads back to the start, so they form a tree; a
depth-first walk that steps into a state only from its canonical parent visits every
state once, and each distinct turn (a state where the turn ends, or may end) once.

The test costs nothing unless the step lands on a node the path has visited before
(about one step in seven), and then a breadth-first search over this turn's edges for
each lower direction (is the edge on a cycle?).

The walk is resumable (:class:`CanonicalWalk`): :func:`next_turn` returns at each
distinct turn with its last step made, so a caller can read ``marks`` (the position
after that turn) before resuming; :func:`count_walk` counts, tallied by how each turn
ends and by its end node, in chunks of work, so a caller can show progress.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .bundles import CAPPED, DONE, OUT_OF_BUDGET, RUNNING
from .clock import CHECK_EVERY, late
from .turns import descend, landing, make_step, next_step, unmake_step

__all__ = ["CanonicalWalk", "new_canonical_walk", "reset_canonical_walk", "mark_step", "unmark_step",
           "is_canonical", "next_turn", "count_walk", "unwind_canonical", "walk_bytes",
           "DEPTH", "STATUS", "BASE", "LANDED", "STATES"]

# The slots of CanonicalWalk.ctl.
DEPTH, STATUS, PENDING, BASE, STAMP, LANDED, STATES, PENDING_DIR = range(8)
# What to do with the step a turn was returned on, when the walk resumes.
_NOTHING, _UNMAKE, _DESCEND = 0, 1, 2


class CanonicalWalk(NamedTuple):
    """The resumable state of a canonical walk (made by :func:`new_canonical_walk`).

    Per level of the step tree: ``node``, ``nextdir`` (the next direction to try),
    ``taken`` (the direction taken) and ``entry`` (the free directions when the level
    was entered, which progress estimates read); per node: ``turn_marks`` (bitmask of
    the directions marked during this turn), and the scratch of the cycle test
    (``seen``, ``queue``). ``ctl``: depth, status (``RUNNING``, ``DONE``, ``CAPPED``,
    ``OUT_OF_BUDGET``), pending action, base level (the walk never backs up past it),
    search stamp, node of the last turn returned, states visited, pending direction.
    """

    node: np.ndarray
    nextdir: np.ndarray
    taken: np.ndarray
    entry: np.ndarray
    turn_marks: np.ndarray
    seen: np.ndarray
    queue: np.ndarray
    ctl: np.ndarray


@njit(cache=True)
def new_canonical_walk(n_nodes, n_edges, ball, free):
    """A walk from node ``ball`` whose free directions are ``free`` (a turn has at most one
    step per edge, so ``n_edges + 2`` levels always suffice)."""
    levels = n_edges + 2
    walk = CanonicalWalk(np.zeros(levels, np.int32), np.zeros(levels, np.int8), np.zeros(levels, np.int8),
                         np.zeros(levels, np.uint8), np.zeros(n_nodes, np.uint8), np.zeros(n_nodes, np.int64),
                         np.zeros(n_nodes + 1, np.int32), np.zeros(8, np.int64))
    walk.node[0] = ball
    walk.entry[0] = free
    return walk


@njit(cache=True)
def reset_canonical_walk(walk, ball, free):
    """Start ``walk`` again from ``ball`` (after a walk that ended or was unwound)."""
    walk.node[0] = ball
    walk.nextdir[0] = 0
    walk.entry[0] = free
    walk.turn_marks[:] = 0
    for i in range(walk.ctl.shape[0]):
        if i != STAMP:
            walk.ctl[i] = 0
    walk.ctl[STATUS] = RUNNING


def walk_bytes(walk: CanonicalWalk) -> int:
    """The memory a walk holds (all of it, allocated once): what a count costs beyond the game."""
    return int(sum(a.nbytes for a in walk))


@njit(cache=True, inline="always")
def mark_step(marks, turn_marks, neighbour, node, d):
    """Mark the edge from ``node`` in direction ``d`` as marked and as marked this turn."""
    make_step(turn_marks, neighbour, node, d)
    return make_step(marks, neighbour, node, d)


@njit(cache=True, inline="always")
def unmark_step(marks, turn_marks, neighbour, node, d):
    """Undo :func:`mark_step`."""
    unmake_step(marks, neighbour, node, d)
    unmake_step(turn_marks, neighbour, node, d)


@njit(cache=True)
def is_canonical(turn_marks, neighbour, m, back, seen, queue, ctl):
    """Whether the step that just landed on ``m`` (arriving over direction ``back`` read from
    ``m``, already marked) is the canonical way into the state it makes: no lower direction
    at ``m`` holds a turn edge that lies on a cycle of the turn's edges (a path from its
    other end back to ``m`` that does not use it; ``seen``, ``queue`` and ``ctl[STAMP]`` are
    the search's scratch)."""
    lower = turn_marks[m] & ((1 << back) - 1)
    if lower == 0:
        return True
    for dd in range(back):
        if (lower >> dd) & 1 == 0:
            continue
        ctl[STAMP] += 1
        stamp = ctl[STAMP]
        w = neighbour[m, dd]
        skip = (dd + 4) & 7
        seen[w] = stamp
        queue[0] = w
        head, tail = 0, 1
        while head < tail:
            x = queue[head]
            head += 1
            bits = turn_marks[x]
            for e in range(8):
                if (bits >> e) & 1 == 0 or (x == w and e == skip):
                    continue
                y = neighbour[x, e]
                if y == m:
                    return False  # the lower edge is on a cycle: the state has a lower parent
                if seen[y] != stamp:
                    seen[y] = stamp
                    queue[tail] = y
                    tail += 1
    return True


#: Steps between two updates of the budget's work count (a walk step costs about 20 ns; an
#: update of the shared count in memory would cost as much again).
BATCH = 64


@njit(cache=True, inline="always")
def _spend(budget, units):
    """Count ``units`` of work at once; as :func:`fepaper._core.clock.tick`, look at the node cap
    and the clock every ``CHECK_EVERY`` units. Returns whether the budget is spent."""
    ctl = budget.ctl
    ctl[0] += units
    if ctl[0] >= ctl[3]:
        ctl[3] = ctl[0] + CHECK_EVERY
        if (ctl[2] > 0 and ctl[4] >= ctl[2]) or late(budget.deadline):
            ctl[1] = 1
    return ctl[1] != 0


@njit(cache=True)
def _advance(marks, board, flags, walk, kinds, ends, limit, chunk, budget, one):
    """The walk itself: with ``one``, go to the next distinct turn and return its kind;
    else count turns (see :func:`count_walk`) and return how many. One function for both,
    because a call that passes the bundles costs about a microsecond: counting must not
    make one call per turn."""
    neighbour, exists = board.neighbour, board.exists
    node, nextdir, taken, entry, tm = walk.node, walk.nextdir, walk.taken, walk.entry, walk.turn_marks
    seen, queue, ctl = walk.seen, walk.queue, walk.ctl
    depth = ctl[DEPTH]
    counted = 0
    total = kinds.sum()
    start = budget.ctl[0]
    unspent = 0
    if ctl[PENDING] != _NOTHING:
        n, d = node[depth], ctl[PENDING_DIR]
        if ctl[PENDING] == _DESCEND:
            m = neighbour[n, d]
            depth = descend(node, nextdir, taken, depth, d, m)
            entry[depth] = exists[m] & ~marks[m]
        else:
            unmark_step(marks, tm, neighbour, n, d)
        ctl[PENDING] = _NOTHING
    marked, base = (marks, tm), ctl[BASE]
    while ctl[STATUS] == RUNNING:
        depth, d = next_step(exists, neighbour, marked, node, nextdir, taken, depth, base)
        if d >= 8:
            ctl[STATUS] = DONE
            break
        n = node[depth]
        unspent += 1
        if unspent == BATCH:
            unspent = 0
            if _spend(budget, BATCH):
                ctl[STATUS] = OUT_OF_BUDGET
                nextdir[depth] = d
                break
            if chunk > 0 and budget.ctl[0] - start >= chunk:
                nextdir[depth] = d
                break
        nextdir[depth] = d + 1
        m = neighbour[n, d]
        was_marked = marks[m] != 0
        mark_step(marks, tm, neighbour, n, d)
        if not is_canonical(tm, neighbour, m, (d + 4) & 7, seen, queue, ctl):
            unmark_step(marks, tm, neighbour, n, d)
            continue
        ctl[STATES] += 1
        kind, more = landing(board.goal, board.exists, flags, marks, m, was_marked)
        if kind >= 0:
            if one:
                budget.ctl[0] += unspent
                ctl[DEPTH] = depth
                ctl[PENDING] = _DESCEND if more else _UNMAKE
                ctl[PENDING_DIR] = d
                ctl[LANDED] = m
                return kind
            kinds[kind] += 1
            ends[m] += 1
            counted += 1
            total += 1
            if limit > 0 and total > limit:
                ctl[STATUS] = CAPPED
                ctl[PENDING] = _DESCEND if more else _UNMAKE
                ctl[PENDING_DIR] = d
                break
        if more:
            depth = descend(node, nextdir, taken, depth, d, m)
            entry[depth] = exists[m] & ~marks[m]
        else:
            unmark_step(marks, tm, neighbour, n, d)
    budget.ctl[0] += unspent
    ctl[DEPTH] = depth
    return -1 if one else counted


@njit(cache=True)
def next_turn(marks, board, flags, walk, budget):
    """The next distinct turn of the walk, or -1 when it stops.

    Returns the way the turn ends (:data:`~fepaper._core.turns.END`, ``STOP``, ``GOAL``,
    ``BLOCKED``) with the turn's last step made, so ``marks`` is the position after the
    turn and ``walk.ctl[LANDED]`` its end node; the next call takes that step back (or
    goes on from it, after a bounce where the player may stop). Returns -1 when the walk
    is over (``ctl[STATUS]`` = ``DONE``; ``marks`` is as before) or ``budget`` is spent
    (``OUT_OF_BUDGET``; ``marks`` holds the walk's path until :func:`unwind_canonical`).
    """
    none = np.zeros(1, np.int64)
    return _advance(marks, board, flags, walk, none, none, 0, 0, budget, True)


@njit(cache=True)
def count_walk(marks, board, flags, walk, kinds, ends, limit, chunk, budget):
    """Count distinct turns, resuming ``walk``; returns the turns counted in this call.

    Each turn adds 1 to ``kinds[kind]`` and to ``ends[end node]``. The call returns when
    the walk is over (``DONE``: ``marks`` is as before), when the turns in ``kinds`` pass
    ``limit`` (if > 0; the status becomes ``CAPPED``: the count is a lower bound,
    ``limit + 1``), when ``budget`` is spent (``OUT_OF_BUDGET``) or after about ``chunk``
    units of work (if > 0; the status stays ``RUNNING``: call again to go on). After a
    cut, :func:`unwind_canonical` restores ``marks``.
    """
    return _advance(marks, board, flags, walk, kinds, ends, limit, chunk, budget, False)


@njit(cache=True)
def unwind_canonical(marks, board, walk):
    """Take back every step a stopped walk holds (its pending step and its path down to its
    base level), so ``marks`` is as it was when the walk started from its base."""
    neighbour, tm, ctl = board.neighbour, walk.turn_marks, walk.ctl
    depth = ctl[DEPTH]
    if ctl[PENDING] != _NOTHING:
        unmark_step(marks, tm, neighbour, walk.node[depth], ctl[PENDING_DIR])
        ctl[PENDING] = _NOTHING
    for k in range(depth - 1, ctl[BASE] - 1, -1):
        unmark_step(marks, tm, neighbour, walk.node[k], walk.taken[k])
    ctl[DEPTH] = ctl[BASE]
