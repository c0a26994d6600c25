"""Compiled kernels: make/unmake a step, and walk the distinct turns of a position.

Everything here works on plain arrays derived once per :class:`~fepaper.game.board.Board`:

``marks[n]``
    bitmask of the directions at node ``n`` whose edges are marked (walls included);
``exists[n]``
    bitmask of the directions in which ``n`` has an edge at all;
``neighbour[n, d]``, ``edge_index[n, d]``, ``goal[n]``, ``edge_keys``, ``node_keys``
    as on the board.

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


class TooManyTurns(RuntimeError):
    """A turn walk passed the number of states it was allowed."""


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


# -- an open-addressing set of uint64 keys (0 = empty) -------------------------------
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
    """The resumable state of a walk from ``ball``: per level the node, the next
    direction to try, the direction taken and the key of this turn's marks."""
    levels = n_edges + 2
    walk = (
        np.zeros(levels, np.int32),   # node at each level
        np.zeros(levels, np.int8),    # next direction to try at each level
        np.zeros(levels, np.int8),    # direction taken from each level
        np.zeros(levels, np.uint64),  # key of the marks made this turn, per level
        np.zeros(2, np.int64),        # [depth, done]
    )
    walk[0][0] = ball
    return walk


@njit(cache=True)
def walk_turns(marks, exists, neighbour, edge_index, goal, edge_keys, node_keys,
               optional, max_bounces, max_states, walk, table, used,
               out_steps, out_offsets, out_kinds, out_ends, count_only):
    """Walk the distinct turns of a position, resuming ``walk`` where it stopped.

    With ``count_only`` it counts every distinct turn and returns
    ``(count, table)``. Otherwise it writes turns into ``out_*`` (the steps of turn
    ``i`` are ``out_steps[out_offsets[i]:out_offsets[i + 1]]``) until they are full
    and returns ``(written, table)``; ``walk[4][1]`` is 1 once the walk is over.
    ``marks`` is changed during the walk and restored when it is over.
    ``max_bounces`` < 0 means no limit; otherwise landings beyond that many
    bounces are not expanded further (the thesis's search explores at most 15).
    A walk that has seen ``max_states`` states (if > 0) gives up: ``walk[4][1]``
    is then 2 and ``marks`` is left as it was mid-walk (pass a copy).
    """
    node, nextdir, taken, keys, ctl = walk
    depth = ctl[0]
    if ctl[1] == 1:
        return 0, table
    written = 0
    count = 0
    cap_turns = out_kinds.shape[0]
    cap_steps = out_steps.shape[0]
    pos = out_offsets[0] if not count_only else 0
    while True:
        n = node[depth]
        d = np.int64(nextdir[depth])
        free = exists[n] & ~marks[n]
        while d < 8 and ((free >> d) & 1) == 0:
            d += 1
        if d >= 8:
            if depth == 0:
                ctl[1] = 1
                break
            depth -= 1
            unmake_step(marks, neighbour, node[depth], taken[depth])
            continue
        if max_states > 0 and used[0] >= max_states:
            ctl[1] = 2
            break
        if not count_only and (written >= cap_turns or pos + depth + 1 > cap_steps):
            nextdir[depth] = d  # the output is full: come back to this step next call
            break
        nextdir[depth] = d + 1
        m = neighbour[n, d]
        key = keys[depth] ^ edge_keys[edge_index[n, d]]
        state = key ^ node_keys[m]
        table, added = keyset_insert(table, used, state)
        if not added:
            continue
        was_marked = marks[m] != 0
        make_step(marks, neighbour, n, d)
        descend = False
        kind = -1
        if goal[m] != 0:
            kind = GOAL
        elif not was_marked:
            kind = END
        else:
            free_m = exists[m] & ~marks[m]
            if optional:
                kind = STOP
            elif free_m == 0:
                kind = BLOCKED
            if free_m != 0 and (max_bounces < 0 or depth < max_bounces):
                descend = True
        if kind >= 0 and not count_only:
            for i in range(depth):
                out_steps[pos + i] = taken[i]
            out_steps[pos + depth] = d
            pos += depth + 1
            out_kinds[written] = kind
            out_ends[written] = m
            written += 1
            out_offsets[written] = pos
        if kind >= 0:
            count += 1
        if descend:
            taken[depth] = d
            depth += 1
            node[depth] = m
            nextdir[depth] = 0
            keys[depth] = key
        else:
            unmake_step(marks, neighbour, n, d)
    ctl[0] = depth
    return (count if count_only else written), table


@njit(cache=True)
def count_turns(marks, ball, exists, neighbour, edge_index, goal, edge_keys, node_keys,
                optional, max_bounces, max_states):
    """The number of distinct turns from ``ball`` (0 if the ball cannot move), or -1
    if the walk saw more than ``max_states`` states (when ``max_states`` > 0)."""
    walk = new_walk(edge_keys.shape[0], ball)
    table = new_keyset(8192)
    used = np.zeros(1, np.int64)
    empty8 = np.zeros(0, np.int8)
    empty64 = np.zeros(1, np.int64)
    empty32 = np.zeros(0, np.int32)
    count, table = walk_turns(marks, exists, neighbour, edge_index, goal, edge_keys,
                              node_keys, optional, max_bounces, max_states, walk, table, used,
                              empty8, empty64, empty8, empty32, True)
    return -1 if walk[4][1] == 2 else count


def iter_turns(marks, ball, exists, neighbour, edge_index, goal, edge_keys, node_keys, optional,
               max_bounces=-1, max_states=0, chunk=4096):
    """Yield ``(steps, kind, end)`` for every distinct turn, a chunk at a time.

    Plain Python around :func:`walk_turns`: memory is the key set plus one chunk.
    ``marks`` is not changed.
    """
    marks = marks.copy()
    walk = new_walk(edge_keys.shape[0], ball)
    table = new_keyset(1024)
    used = np.zeros(1, np.int64)
    steps = np.zeros(max(1 << 16, 4 * edge_keys.shape[0]), np.int8)
    offsets = np.zeros(chunk + 1, np.int64)
    kinds = np.zeros(chunk, np.int8)
    ends = np.zeros(chunk, np.int32)
    while not walk[4][1]:
        written, table = walk_turns(marks, exists, neighbour, edge_index, goal, edge_keys, node_keys,
                                    optional, max_bounces, max_states, walk, table, used,
                                    steps, offsets, kinds, ends, False)
        digits = (steps[: offsets[written]] + 48).tobytes().decode()
        for i in range(written):
            yield digits[offsets[i]:offsets[i + 1]], int(kinds[i]), int(ends[i])
        offsets[0] = 0
    if walk[4][1] == 2:
        raise TooManyTurns(f"more than {max_states} states in one turn's walk")
