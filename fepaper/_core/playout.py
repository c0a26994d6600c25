"""Compiled random play: xorshift64* random numbers and random playouts.

:func:`playout` plays a random game to its end from a turn-start position: each step is
uniform among the free directions; after a bounce under optional bounce the player stops
with probability ``stop_probability`` *before* choosing a step (exactly as
:func:`fepaper.play.randomplay.random_game` does, its plain-Python twin). The
random numbers are xorshift64* on a one-element ``uint64`` state array that the caller
owns, so a playout is reproducible from that state
(:func:`fepaper.search.playouts.random_state` makes one). A step is one table
look-up for the number of free directions and one for the k-th of them; nothing is
allocated.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .turns import make_step

__all__ = ["STOP_CODE", "next_random", "playout", "many_playouts", "apply_turn"]

_POPCOUNT = np.array([bin(m).count("1") for m in range(256)], dtype=np.int64)
_KTH = np.zeros(256 * 8, dtype=np.int64)  # _KTH[8 * mask + k]: the k-th set bit of mask
for _m in range(256):
    for _k, _d in enumerate(d for d in range(8) if _m >> d & 1):
        _KTH[8 * _m + _k] = _d
STOP_CODE = 8  # in a recorded playout: the player stopped on a bounce


@njit(cache=True, inline="always")
def next_random(state):
    """The next 64-bit output of xorshift64* (Vigna), advancing ``state[0]``."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True)
def playout(marks, ball, player, turns_played, board, flags, stop_probability, state, out):
    """Play a random game to its end from a turn-start position; ``marks`` is changed.

    Parameters
    ----------
    marks : uint8 array
        The position's marks (played on: pass a copy).
    ball, player, turns_played : int
        The ball's node, the player to move (1 or 2) and the turns already played.
    board, flags : BoardArrays, RuleFlags
    stop_probability : float
        The chance of stopping on a bounce (optional bounce only).
    state : uint64 array of one element
        xorshift64* state, advanced.
    out : int8 array
        If not empty, the playout's steps (0..7) and stops (8) are written here; it
        needs room for twice the number of edges.

    Returns
    -------
    winner, steps, written : int
        ``winner`` is 1, 2 or 0 (a draw); ``steps`` the steps played; ``written`` the
        codes written to ``out``.
    """
    exists, neighbour, goal = board.exists, board.neighbour, board.goal
    optional, blocked_loss, max_turns = flags.optional, flags.blocked_loss, flags.max_turns
    record = out.shape[0] > 0
    written = 0
    steps = 0
    bouncing = False
    stop_cut = stop_probability * 9007199254740992.0  # compared with 53 random bits
    while True:
        if bouncing and optional and np.float64(next_random(state) >> np.uint64(11)) < stop_cut:
            if record:  # the player stops on the bounce
                out[written] = STOP_CODE
                written += 1
        else:
            free = np.int64(exists[ball] & ~marks[ball])
            r = next_random(state) >> np.uint64(32)
            k = np.int64((r * np.uint64(_POPCOUNT[free])) >> np.uint64(32))
            d = _KTH[8 * free + k]
            m = neighbour[ball, d]
            was_marked = marks[m] != 0
            marks[ball] |= np.uint8(1 << d)
            marks[m] |= np.uint8(1 << ((d + 4) & 7))
            steps += 1
            if record:
                out[written] = d
                written += 1
            ball = m
            if was_marked:
                # goal nodes are always marked (the edges between them are walls)
                if goal[m] != 0:
                    return (1 if goal[m] == 1 else 2), steps, written
                if exists[m] & ~marks[m] != 0:
                    bouncing = True
                    continue
                if flags.dead_end_blocked:
                    return (3 - player if blocked_loss else 0), steps, written
        # the turn ends: the next player may be out of turns or blocked
        bouncing = False
        player = 3 - player
        turns_played += 1
        if max_turns > 0 and turns_played >= max_turns:
            return 0, steps, written
        if exists[ball] & ~marks[ball] == 0:
            return (3 - player if blocked_loss else 0), steps, written


@njit(cache=True)
def many_playouts(marks, ball, player, turns_played, board, flags, stop_probability, state, n):
    """Play ``n`` random playouts from one position; return ``(wins[3], steps)`` where
    ``wins[w]`` counts the playouts won by ``w`` (0: drawn) and ``steps`` is their total."""
    wins = np.zeros(3, np.int64)
    work = marks.copy()
    none = np.zeros(0, np.int8)
    total = 0
    for _ in range(n):
        work[:] = marks
        w, s, _w = playout(work, ball, player, turns_played, board, flags, stop_probability, state, none)
        wins[w] += 1
        total += s
    return wins, total


@njit(cache=True)
def apply_turn(marks, neighbour, ball, steps, length):
    """Make the first ``length`` steps of ``steps`` from ``ball``; return the node reached."""
    for i in range(length):
        ball = make_step(marks, neighbour, ball, steps[i])
    return ball
