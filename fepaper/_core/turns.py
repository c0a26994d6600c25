"""Compiled kernels: make/unmake a step, and walk the distinct turns of a position.

Everything here works on the bundles of :mod:`fepaper._core.bundles`: ``marks[n]`` is the
bitmask of the directions at node ``n`` whose edges are marked (walls included), the
board is a :class:`~fepaper._core.bundles.BoardArrays`, the rules a
:class:`~fepaper._core.bundles.RuleFlags`.

A position during a turn is the ball's node plus ``marks``. Two turns are the same
turn when they end on the same node with the same marked edges; the walk keys a
state by the XOR of the Zobrist keys of the edges marked during the turn and the
key of the ball's node, and never expands a state twice. Whether a landing
bounces is a function of that state (the landing node has another marked edge),
so pruning repeated states loses no turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bundles import CAPPED, DONE, OUT_OF_BUDGET, RUNNING, TurnBuffer, Walk
from .clock import CHECK_EVERY, countdown, look, now, settle

__all__ = ["END", "STOP", "GOAL", "BLOCKED", "KIND_NAMES", "make_step", "unmake_step", "new_keyset",
           "keyset_insert", "KEYSET_GROW_RATE", "grow_in_time", "new_walk", "reset_walk", "unwind",
           "new_turn_buffer", "landing", "next_step", "descend", "walk_turns", "count_turns"]

# What ends a distinct turn.
END, STOP, GOAL, BLOCKED = 0, 1, 2, 3
KIND_NAMES = ("end", "stop", "goal", "blocked")


@njit(cache=True, inline="always")
def make_step(marks, neighbour, node, d):
    """Mark the edge from ``node`` in direction ``d``; return the node reached."""
    m = neighbour[node, d]
    marks[node] |= np.uint8(1 << d)
    marks[m] |= np.uint8(1 << ((d + 4) & 7))
    return m


@njit(cache=True, inline="always")
def unmake_step(marks, neighbour, node, d):
    """Undo :func:`make_step` (``node`` is where the step started)."""
    m = neighbour[node, d]
    marks[node] &= np.uint8(~(1 << d) & 0xFF)
    marks[m] &= np.uint8(~(1 << ((d + 4) & 7)) & 0xFF)


@njit(cache=True, inline="always")
def landing(goal, exists, flags, marks, m, was_marked):
    """How a step that just landed on ``m`` (marks already made) goes on: ``(kind, more)``.

    ``kind`` is the way the turn can end here (:data:`END`, :data:`STOP`, :data:`GOAL`,
    :data:`BLOCKED`, or -1 when the player must go on) and ``more`` whether the player may
    step again. This is docs/rules.md's landing rule, in the one place the kernels read it.
    ``goal`` and ``exists`` are the board's arrays (taken out of the bundle once, before a
    hot loop: each access to a bundle's field inside a loop costs a reference count).
    """
    if goal[m] != 0:
        return GOAL, False
    if not was_marked:
        return END, False
    free = exists[m] & ~marks[m]
    if free == 0:
        return (BLOCKED if flags.dead_end_blocked else STOP), False
    return (STOP if flags.optional else -1), True


# -- the step of a depth-first walk over a turn's steps -------------------------------------
# Every walk of the turns (the key-set walk below, the canonical walk of ``canonical.py``, the
# estimate's expansion in ``estimate.py``) keeps, per level of the step tree, the node it
# stands on (``node``), the next direction to try there (``nextdir``) and the direction it
# took to go one level up (``taken``); these two functions move it.
@njit(cache=True, inline="always")
def next_step(exists, neighbour, marked, node, nextdir, taken, depth, base):
    """The next step to try: ``(depth, d)``, direction ``d`` from ``node[depth]``.

    ``d`` is the first free direction at ``node[depth]`` from ``nextdir[depth]`` on. A level
    with none left is done: the walk backs up a level, taking back the step that entered it
    on every array of ``marked`` (a tuple: ``marks`` first, then any array the walk marks
    alike), until a direction is found or level ``base`` is done: then ``d`` is 8 and
    ``depth`` is ``base``. The caller records the try (``nextdir[depth] = d + 1``) once it
    makes it.
    """
    marks = marked[0]
    while True:
        n = node[depth]
        d = np.int64(nextdir[depth])
        free = exists[n] & ~marks[n]
        while d < 8 and ((free >> d) & 1) == 0:
            d += 1
        if d < 8 or depth <= base:
            return depth, d
        depth -= 1
        for a in marked:
            unmake_step(a, neighbour, node[depth], taken[depth])


@njit(cache=True, inline="always")
def descend(node, nextdir, taken, depth, d, m):
    """Go on from the step ``d`` (made) that landed on ``m``: a level up, from ``m``, every
    direction to try. Returns the new depth."""
    taken[depth] = d
    node[depth + 1] = m
    nextdir[depth + 1] = 0
    return depth + 1


# -- an open-addressing set of uint64 keys (0 = empty) -------------------------------
#: Bytes a second of the bigger table a key set grows into, low: the growth writes fresh memory and
#: rehashes every key without looking at the clock (doubling to 4 MB took 1.3 to 2.7 ms, to 16 MB 5 to
#: 19 ms, on a shared machine). See :func:`grow_in_time`.
KEYSET_GROW_RATE = 1e9


@njit(cache=True)
def new_keyset(capacity):
    size = 16
    while size < 2 * capacity:
        size *= 2
    return np.zeros(size, dtype=np.uint64)


@njit(cache=True, inline="always")
def _fix_key(key):
    return key if key != 0 else np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _grow(table):
    bigger = np.zeros(table.shape[0] * 2, dtype=np.uint64)
    mask = bigger.shape[0] - 1
    for k in table:
        if k != 0:
            i = np.int64(k & np.uint64(mask))
            while bigger[i] != 0:
                i = (i + 1) & mask
            bigger[i] = k
    return bigger


@njit(cache=True, inline="always")
def grow_in_time(table, used, budget):
    """A walk's key set before it adds a state: ``(table, fits)``. When one more key would grow the
    set, it grows now, unless ``budget`` has a deadline that the growth (:data:`KEYSET_GROW_RATE`)
    would end past: the budget is then spent and ``fits`` False, and the walk stops as at a look at
    the clock. A growth is work the walk's clock never sees: the listing of a heavy position that
    MCTS's expansions walk answered up to 3.1 ms past its deadline when its set grew from 2 to 4 MB
    there (at most 0.07 ms with the set sized beforehand)."""
    if 2 * (used[0] + 1) <= table.shape[0]:
        return table, True
    if budget.deadline > 0.0 and now() + 2 * table.nbytes / KEYSET_GROW_RATE > budget.deadline:
        budget.ctl[1] = 1
        return table, False
    return _grow(table), True


@njit(cache=True, inline="always")
def keyset_insert(table, used, key):
    """Add ``key`` unless present; return ``(table, added)``. The table may grow
    (a new array is returned); ``used[0]`` counts the keys."""
    key = _fix_key(key)
    mask = table.shape[0] - 1
    i = np.int64(key & np.uint64(mask))
    while True:
        k = table[i]
        if k == key:
            return table, False
        if k == 0:
            break
        i = (i + 1) & mask
    used[0] += 1
    if 2 * used[0] > table.shape[0]:
        table = _grow(table)
        mask = table.shape[0] - 1
        i = np.int64(key & np.uint64(mask))
        while table[i] != 0:
            i = (i + 1) & mask
    table[i] = key
    return table, True


# -- the walk --------------------------------------------------------------------------
@njit(cache=True)
def new_walk(n_edges, ball):
    """A :class:`~fepaper._core.bundles.Walk` from ``ball`` (a turn has at most one step per edge)."""
    levels = n_edges + 2
    walk = Walk(np.zeros(levels, np.int32), np.zeros(levels, np.int8), np.zeros(levels, np.int8),
                np.zeros(levels, np.uint64), np.zeros(2, np.int64), np.zeros(1, np.int64))
    walk.node[0] = ball
    return walk


@njit(cache=True)
def reset_walk(walk, ball):
    """Start ``walk`` again from ``ball`` (its key set must be cleared by the caller)."""
    walk.node[0] = ball
    walk.nextdir[0] = 0
    walk.keys[0] = 0
    walk.ctl[0] = 0
    walk.ctl[1] = RUNNING
    walk.used[0] = 0


@njit(cache=True)
def unwind(marks, neighbour, walk):
    """Take back the steps of a walk stopped part-way, so ``marks`` is as it was before it."""
    for k in range(walk.ctl[0] - 1, -1, -1):
        unmake_step(marks, neighbour, walk.node[k], walk.taken[k])
    walk.ctl[0] = 0


@njit(cache=True)
def new_turn_buffer(turns, steps):
    """A :class:`~fepaper._core.bundles.TurnBuffer` with room for ``turns`` turns of ``steps`` steps."""
    return TurnBuffer(np.zeros(steps, np.int8), np.zeros(turns + 1, np.int64), np.zeros(turns, np.int8),
                      np.zeros(turns, np.int32))


@njit(cache=True)
def walk_turns(marks, board, flags, walk, table, out, max_bounces, max_states, budget, count_only):
    """Walk the distinct turns of a position, resuming ``walk`` where it stopped.

    With ``count_only`` it counts every distinct turn and returns ``(count, table)``.
    Otherwise it writes turns into ``out`` (a :class:`~fepaper._core.bundles.TurnBuffer`
    whose ``offsets[0]`` is where to start writing steps) until it is full and returns
    ``(written, table)``; call again to go on. ``walk.ctl[1]`` becomes ``DONE`` when the
    walk is over, ``CAPPED`` once the key set holds ``max_states`` states (if > 0), or
    ``OUT_OF_BUDGET`` when ``budget`` is spent (one unit of work per state). ``marks`` is
    changed during the walk and restored when it is over; after a cut-off it holds the
    walk's path (:func:`unwind` takes it back). ``max_bounces`` >= 0 leaves landings past
    that many bounces unexpanded (the thesis's search explores at most 15).
    """
    # every array out of its bundle once: a field read inside the loop costs a reference count
    exists, neighbour, edge_index, goal = board.exists, board.neighbour, board.edge_index, board.goal
    edge_keys, node_keys = board.edge_keys, board.node_keys
    out_steps, out_offsets, out_kinds, out_ends = out
    node, nextdir, taken, keys, ctl, used = walk
    depth = ctl[0]
    if ctl[1] != RUNNING:
        return 0, table
    written = 0
    count = 0
    cap_turns = out_kinds.shape[0]
    cap_steps = out_steps.shape[0]
    pos = out_offsets[0]
    if budget.ctl[1] != 0:
        ctl[1] = OUT_OF_BUDGET
        return 0, table
    # the budget is looked at every CHECK_EVERY states, counted down in a register; the
    # countdown goes on from call to call (a listing fills its buffer in many short calls)
    left = countdown(budget)
    marked = (marks,)
    while True:
        depth, d = next_step(exists, neighbour, marked, node, nextdir, taken, depth, 0)
        if d >= 8:
            ctl[1] = DONE
            break
        n = node[depth]
        if max_states > 0 and used[0] >= max_states:
            ctl[1] = CAPPED
            break
        if not count_only and (written >= cap_turns or pos + depth + 1 > cap_steps):
            nextdir[depth] = d  # the output is full: come back to this step next call
            break
        left -= 1
        if left == 0:
            left = CHECK_EVERY
            if look(budget):
                nextdir[depth] = d
                ctl[1] = OUT_OF_BUDGET
                break
        table, fits = grow_in_time(table, used, budget)
        if not fits:
            nextdir[depth] = d
            ctl[1] = OUT_OF_BUDGET
            break
        nextdir[depth] = d + 1
        m = neighbour[n, d]
        key = keys[depth] ^ edge_keys[edge_index[n, d]]
        table, added = keyset_insert(table, used, key ^ node_keys[m])
        if not added:
            continue
        was_marked = marks[m] != 0
        make_step(marks, neighbour, n, d)
        kind, more = landing(goal, exists, flags, marks, m, was_marked)
        if kind >= 0:
            count += 1
            if not count_only:
                for i in range(depth):
                    out_steps[pos + i] = taken[i]
                out_steps[pos + depth] = d
                pos += depth + 1
                out_kinds[written] = kind
                out_ends[written] = m
                written += 1
                out_offsets[written] = pos
        if more and (max_bounces < 0 or depth < max_bounces):
            depth = descend(node, nextdir, taken, depth, d, m)
            keys[depth] = key
        else:
            unmake_step(marks, neighbour, n, d)
    settle(budget, left)
    ctl[0] = depth
    return (count if count_only else written), table


@njit(cache=True)
def count_turns(marks, ball, board, flags, max_states, budget):
    """``(count, status)``: the distinct turns from ``ball`` (0 if the ball cannot move) and the
    walk's status (``DONE``: the count is exact; ``CAPPED`` or ``OUT_OF_BUDGET``: it is a
    lower bound). ``marks`` is left as it was."""
    walk = new_walk(board.edge_keys.shape[0], ball)
    table = new_keyset(8192 if max_states <= 0 else min(max_states, 8192))
    none = new_turn_buffer(0, 0)
    count, table = walk_turns(marks, board, flags, walk, table, none, -1, max_states, budget, True)
    if walk.ctl[1] != DONE:
        unwind(marks, board.neighbour, walk)
    return count, walk.ctl[1]
