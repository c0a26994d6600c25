"""Compiled turn picks: a position's distinct turns classified, the best ``cap`` kept by priority.

:func:`collect_turns` walks the distinct turns of a position with the compiled walk of
:mod:`fepaper._core.turns`, classifies each (``CONTINUE``, ``WIN``, ``LOSS``, ``DRAW`` for
the player who plays it) and keeps the ``cap`` turns of smallest priority in a bounded
heap. The priority ``order`` is ``RANDOM`` (winning turns first, then a uniform random
sample: a reservoir), ``SHORTEST`` (fewest steps first, as a breadth-first generator cut
after ``cap`` turns would give) or ``NEAREST`` (the greedy order: a goal, then a turn that
blocks the opponent, then by the end node's distance to the goal the mover attacks, then
draws, then losses). Ties are broken by the random state. The classification's twin is
:class:`fepaper.game.Game` itself.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .bundles import CAPPED, OUT_OF_BUDGET, RUNNING, Budget, TurnBuffer, Walk
from .clock import CHECK_EVERY
from .playout import next_random
from .turns import (
    BLOCKED,
    END,
    GOAL,
    make_step,
    new_keyset,
    new_turn_buffer,
    new_walk,
    reset_walk,
    unmake_step,
    walk_turns,
)

__all__ = ["CONTINUE", "WIN", "LOSS", "DRAW", "OUTCOME_NAMES", "RANDOM", "SHORTEST", "NEAREST", "ORDERS",
           "Picks", "new_picks", "heap_offer", "collect_turns"]

# The outcome of a turn for the player who plays it.
CONTINUE, WIN, LOSS, DRAW = 0, 1, 2, 3
OUTCOME_NAMES = ("continue", "win", "loss", "draw")
# Priority orders of collect_turns.
RANDOM, SHORTEST, NEAREST = 0, 1, 2
ORDERS = {"random": RANDOM, "shortest": SHORTEST, "nearest": NEAREST}


class Picks(NamedTuple):
    """The reusable workspace of :func:`collect_turns` and, after a call, its answer.

    The ``i``-th best kept turn is slot ``s = order[i]``: its steps are
    ``steps[s, :lengths[s]]``, it ends on ``ends[s]`` with ``outcomes[s]`` for its mover.
    ``walk``, ``walked``, ``replay``, ``chunk``, ``heap_keys`` and ``heap_slots`` are the
    walk's scratch space.
    """

    walk: Walk
    walked: np.ndarray
    replay: np.ndarray
    chunk: TurnBuffer
    heap_keys: np.ndarray
    heap_slots: np.ndarray
    steps: np.ndarray
    lengths: np.ndarray
    ends: np.ndarray
    outcomes: np.ndarray
    order: np.ndarray


@njit(cache=True)
def new_picks(n_nodes, n_edges, cap):
    """Room for :func:`collect_turns` to keep at most ``cap`` turns."""
    longest = n_edges + 1
    return Picks(new_walk(n_edges, 0), np.zeros(n_nodes, np.uint8), np.zeros(n_nodes, np.uint8),
                 new_turn_buffer(256, max(1 << 14, 8 * longest)), np.zeros(cap, np.uint64),
                 np.zeros(cap, np.int32), np.zeros((cap, longest), np.int8), np.zeros(cap, np.int32),
                 np.zeros(cap, np.int32), np.zeros(cap, np.int8), np.zeros(cap, np.int32))


@njit(cache=True, inline="always")
def _sift_down(hkey, hslot, i, size):
    while True:
        left = 2 * i + 1
        if left >= size:
            return
        big = left
        if left + 1 < size and hkey[left + 1] > hkey[left]:
            big = left + 1
        if hkey[big] <= hkey[i]:
            return
        hkey[i], hkey[big] = hkey[big], hkey[i]
        hslot[i], hslot[big] = hslot[big], hslot[i]
        i = big


@njit(cache=True, inline="always")
def heap_offer(hkey, hslot, kept, cap, key):
    """Offer ``key`` to a bounded max-heap of the ``cap`` smallest keys holding ``kept``:
    returns ``(slot, kept)``, the slot where the new item goes (-1: not kept, it is no
    better than the worst kept) and the new count. Slots ``0 .. cap - 1`` are reused as the
    worst items leave."""
    if kept < cap:
        i = kept
        hkey[i] = key
        hslot[i] = kept
        while i > 0 and hkey[(i - 1) // 2] < hkey[i]:
            p = (i - 1) // 2
            hkey[i], hkey[p] = hkey[p], hkey[i]
            hslot[i], hslot[p] = hslot[p], hslot[i]
            i = p
        return kept, kept + 1
    if key < hkey[0]:
        slot = hslot[0]
        hkey[0] = key
        _sift_down(hkey, hslot, 0, kept)
        return slot, kept
    return -1, kept


@njit(cache=True, inline="always")
def _outcome(kind, end, mover, turns_played, free_after, board, flags):
    """``(outcome, tier)`` of a turn for its mover; tier orders NEAREST (0 goal, 1 blocks the
    opponent, 2 on, 3 draw, 4 loss)."""
    if kind == GOAL:
        return (WIN, 0) if board.goal[end] == mover else (LOSS, 4)
    if kind == BLOCKED:
        return (LOSS, 4) if flags.blocked_loss else (DRAW, 3)
    if flags.max_turns > 0 and turns_played + 1 >= flags.max_turns:
        return DRAW, 3
    if free_after == 0:  # the opponent is blocked
        return (WIN, 1) if flags.blocked_loss else (DRAW, 3)
    return CONTINUE, 2


@njit(cache=True)
def collect_turns(marks, ball, mover, turns_played, board, flags, order, cap, max_states, stop_at_win,
                  state, picks, table, budget):
    """Keep the ``cap`` distinct turns of smallest priority (see the module text) in ``picks``.

    ``marks`` is not changed. ``table`` is a key set from
    :func:`~fepaper._core.turns.new_keyset` (reused, cleared here; a grown one is returned).
    A walk that passes ``max_states`` states (if > 0) or spends ``budget`` stops and keeps the
    best of the turns seen; when the budget runs out before the first turn is seen, the walk
    goes on without it until the first turn is kept (a few hundred states at most: the
    depth-first walk reaches its first turn at the end of its first path), so a listing of a
    live position never looks like a dead end to the search that reads it. With
    ``stop_at_win`` the walk stops at the first winning turn (kept whatever its priority).

    Returns ``(kept, total, truncated, table)``: ``total`` is the number of distinct turns
    seen and ``truncated`` whether the walk stopped before seeing them all.
    """
    # every array out of its bundle once: a field read inside the loop costs a reference count
    walk, walked, replay, chunk = picks.walk, picks.walked, picks.replay, picks.chunk
    hkey, hslot = picks.heap_keys, picks.heap_slots
    s_steps, s_lengths, s_ends, s_outcomes = picks.steps, picks.lengths, picks.ends, picks.outcomes
    c_steps, c_offsets, c_kinds, c_ends = chunk
    exists, neighbour, distance = board.exists, board.neighbour, board.distance
    cap = min(cap, hkey.shape[0])  # never past the workspace
    walked[:] = marks
    replay[:] = marks
    reset_walk(walk, ball)
    if table.shape[0] > 4096:  # a huge walk grew it: do not clear that much every time
        table = new_keyset(32)
    else:
        table[:] = 0
    row = mover - 1
    kept = 0
    total = 0
    won = False
    spent_early = False
    spare = Budget(np.array([0, 0, 0, CHECK_EVERY, 0], np.int64), 0.0)  # no deadline, no cap
    while not won:
        if walk.ctl[1] != RUNNING:
            if kept > 0 or walk.ctl[1] != OUT_OF_BUDGET:
                break
            walk.ctl[1] = RUNNING  # out of budget before the first turn: go on to one turn
            spent_early = True
        elif spent_early and kept > 0:
            walk.ctl[1] = OUT_OF_BUDGET
            break
        c_offsets[0] = 0
        written, table = walk_turns(walked, board, flags, walk, table, chunk, -1, max_states,
                                    spare if spent_early else budget, False)
        for t in range(written):
            total += 1
            start = c_offsets[t]
            length = c_offsets[t + 1] - start
            end = c_ends[t]
            kind = c_kinds[t]
            if kind == END:
                last = c_steps[start + length - 1]
                free = exists[end] & ~np.uint8(1 << ((last + 4) & 7))
            else:  # replay the turn to see the marks it leaves
                b = ball
                for i in range(length):
                    b = make_step(replay, neighbour, b, c_steps[start + i])
                free = exists[end] & ~replay[end]
                b = ball
                for i in range(length):
                    d = c_steps[start + i]
                    unmake_step(replay, neighbour, b, d)
                    b = neighbour[b, d]
            outcome, tier = _outcome(kind, end, mover, turns_played, free, board, flags)
            noise = next_random(state) >> np.uint64(24)
            if order == SHORTEST:
                primary = length
            elif order == NEAREST:
                primary = tier * 4096 + (distance[row, end] if tier == 2 else 0)
            else:
                primary = 0 if outcome == WIN else 1
            key = (np.uint64(primary) << np.uint64(40)) | noise
            if stop_at_win and outcome == WIN:
                won = True
                key = np.uint64(0)  # kept, and first
            slot, kept = heap_offer(hkey, hslot, kept, cap, key)
            if slot < 0:
                continue
            for i in range(length):
                s_steps[slot, i] = c_steps[start + i]
            s_lengths[slot] = length
            s_ends[slot] = end
            s_outcomes[slot] = outcome
            if won:
                break
    truncated = walk.ctl[1] >= CAPPED
    # the heap holds the kept priorities; list their slots in increasing order
    order_out = picks.order
    size = kept
    while size > 0:
        order_out[size - 1] = hslot[0]
        size -= 1
        hkey[0] = hkey[size]
        hslot[0] = hslot[size]
        _sift_down(hkey, hslot, 0, size)
    return kept, total, truncated, table
