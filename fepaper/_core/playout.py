"""Compiled kernels for playing: random playouts, and a position's turns chosen by priority.

Random playout
    :func:`playout` plays a random game to its end from a turn-start position: each
    step is uniform among the free directions; after a bounce under optional bounce
    the player stops with probability ``stop_probability`` *before* choosing a step
    (exactly as :func:`fepaper.experiments.randomplay.random_game` does). The random numbers are
    xorshift64* on a one-element ``uint64`` state array that the caller owns, so a
    playout is reproducible from that state. A step is one table look-up for the
    number of free directions and one for the k-th of them; nothing is allocated.

Turns by priority
    :func:`collect_turns` walks the distinct turns of a position with the compiled
    walk of :mod:`fepaper._core.turns`, classifies each (``CONTINUE``, ``WIN``,
    ``LOSS``, ``DRAW`` for the player who plays it) and keeps the ``cap`` turns of
    smallest priority in a bounded heap. The priority ``order`` is ``RANDOM``
    (winning turns first, then a uniform random sample: a reservoir),
    ``SHORTEST`` (fewest steps first, as a breadth-first generator cut after
    ``cap`` turns would give) or ``NEAREST`` (the greedy order: a goal, then a turn
    that blocks the opponent, then by the end node's distance to the goal the mover
    attacks, then draws, then losses). Ties are broken by the random state.

Each kernel has a plain-Python twin to be tested against: the playout is
:func:`fepaper.experiments.randomplay.random_game`; the classification is :class:`fepaper.game.Game`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .turns import BLOCKED, END, GOAL, make_step, new_keyset, new_walk, unmake_step, walk_turns

__all__ = [
    "CONTINUE", "WIN", "LOSS", "DRAW", "OUTCOME_NAMES", "RANDOM", "SHORTEST", "NEAREST", "ORDERS",
    "seed_state", "next_random", "playout", "many_playouts", "new_workspace", "collect_turns",
    "apply_turn", "fresh_table", "random_state", "random_playout", "playout_wins", "choose_turns",
    "turns_of",
]

# The outcome of a turn for the player who plays it.
CONTINUE, WIN, LOSS, DRAW = 0, 1, 2, 3
OUTCOME_NAMES = ("continue", "win", "loss", "draw")
# Priority orders of collect_turns.
RANDOM, SHORTEST, NEAREST = 0, 1, 2
ORDERS = {"random": RANDOM, "shortest": SHORTEST, "nearest": NEAREST}

_POPCOUNT = np.array([bin(m).count("1") for m in range(256)], dtype=np.int64)
_KTH = np.zeros(256 * 8, dtype=np.int64)  # _KTH[8 * mask + k]: the k-th set bit of mask
for _m in range(256):
    for _k, _d in enumerate(d for d in range(8) if _m >> d & 1):
        _KTH[8 * _m + _k] = _d
_STOP_CODE = 8  # in a recorded playout: the player stopped on a bounce


def seed_state(seed: int) -> np.ndarray:
    """A xorshift64* state array from an integer seed (SplitMix64 of it; never zero)."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z ^= z >> 31
    return np.array([z or 0x2545F4914F6CDD1D], dtype=np.uint64)


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
def playout(marks, ball, player, turns_played, exists, neighbour, goal, optional, blocked_loss,
            max_turns, stop_probability, state, out):
    """Play a random game to its end from a turn-start position; ``marks`` is changed.

    Parameters
    ----------
    marks : uint8 array
        The position's marks (played on: pass a copy).
    ball, player, turns_played : int
        The ball's node, the player to move (1 or 2) and the turns already played.
    optional, blocked_loss : bool
        ``bounce == "optional"`` and ``blocked == "loss"``.
    max_turns : int
        The turn limit (a draw), or <= 0 for none.
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
    record = out.shape[0] > 0
    written = 0
    steps = 0
    bouncing = False
    stop_cut = stop_probability * 9007199254740992.0  # compared with 53 random bits
    while True:
        if bouncing and optional and np.float64(next_random(state) >> np.uint64(11)) < stop_cut:
            if record:  # the player stops on the bounce
                out[written] = _STOP_CODE
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
                if not optional:
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
def many_playouts(marks, ball, player, turns_played, exists, neighbour, goal, optional, blocked_loss,
                  max_turns, stop_probability, state, n):
    """Play ``n`` random playouts from one position; return ``(wins[3], steps)`` where
    ``wins[w]`` counts the playouts won by ``w`` (0: drawn) and ``steps`` is their total."""
    wins = np.zeros(3, np.int64)
    work = marks.copy()
    none = np.zeros(0, np.int8)
    total = 0
    for _ in range(n):
        work[:] = marks
        w, s, _w = playout(work, ball, player, turns_played, exists, neighbour, goal, optional,
                           blocked_loss, max_turns, stop_probability, state, none)
        wins[w] += 1
        total += s
    return wins, total


@njit(cache=True)
def apply_turn(marks, neighbour, ball, steps, length):
    """Make the first ``length`` steps of ``steps`` from ``ball``; return the node reached."""
    for i in range(length):
        ball = make_step(marks, neighbour, ball, steps[i])
    return ball


# -- turns by priority -------------------------------------------------------------------
@njit(cache=True)
def new_workspace(n_nodes, n_edges, cap):
    """Reusable buffers for :func:`collect_turns` keeping at most ``cap`` turns."""
    longest = n_edges + 1
    chunk = 256
    return (
        new_walk(n_edges, 0),
        np.zeros(n_nodes, np.uint8),            # marks walked on
        np.zeros(n_nodes, np.uint8),            # marks a turn is replayed on
        np.zeros(max(1 << 14, 8 * longest), np.int8),  # a chunk of the walk's turns
        np.zeros(chunk + 1, np.int64),
        np.zeros(chunk, np.int8),
        np.zeros(chunk, np.int32),
        np.zeros(1, np.int64),                  # states seen by the walk
        np.zeros(cap, np.uint64),               # heap of priorities (largest on top)
        np.zeros(cap, np.int32),                # heap: the slot of each priority
        np.zeros((cap, longest), np.int8),      # slot: steps
        np.zeros(cap, np.int32),                # slot: number of steps
        np.zeros(cap, np.int32),                # slot: end node
        np.zeros(cap, np.int8),                 # slot: outcome for the mover
        np.zeros(cap, np.int32),                # result: slots by increasing priority
    )


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


@njit(cache=True)
def collect_turns(marks, ball, mover, turns_played, exists, neighbour, edge_index, goal, distance,
                  edge_keys, node_keys, optional, blocked_loss, max_turns, order, cap, max_states,
                  stop_at_win, state, ws, table):
    """Keep the ``cap`` distinct turns of smallest priority (see the module text).

    ``marks`` is not changed. ``ws`` is a :func:`new_workspace` with room for ``cap``
    turns; ``table`` a key set from :func:`~fepaper._core.turns.new_keyset` (reused,
    cleared here; a grown one is returned). A walk that passes ``max_states`` states
    (if > 0) stops and keeps the best of the turns seen so far. With ``stop_at_win``
    the walk stops at the first winning turn (kept whatever its priority).

    Returns
    -------
    kept, total, truncated, table
        ``kept`` turns are in ``ws``: the ``i``-th best is slot ``s = ws[14][i]``,
        with steps ``ws[10][s, :ws[11][s]]``, end node ``ws[12][s]`` and outcome
        ``ws[13][s]``. ``total`` is the number of distinct turns seen and
        ``truncated`` whether the walk stopped at ``max_states``.
    """
    (walk, walked, replay, c_steps, c_offsets, c_kinds, c_ends, used,
     hkey, hslot, s_steps, s_len, s_end, s_out, result) = ws
    cap = min(cap, hkey.shape[0])  # never past the workspace
    walked[:] = marks
    replay[:] = marks
    walk[0][0] = ball
    walk[1][0] = 0
    walk[4][0] = 0
    walk[4][1] = 0
    if table.shape[0] > 4096:  # a huge walk grew it: do not clear that much every time
        table = new_keyset(32)
    else:
        table[:] = 0
    used[0] = 0
    row = mover - 1
    kept = 0
    total = 0
    won = False
    while walk[4][1] == 0 and not won:
        c_offsets[0] = 0
        written, table = walk_turns(walked, exists, neighbour, edge_index, goal, edge_keys, node_keys,
                                    optional, -1, max_states, walk, table, used,
                                    c_steps, c_offsets, c_kinds, c_ends, False)
        for t in range(written):
            total += 1
            start = c_offsets[t]
            length = c_offsets[t + 1] - start
            end = c_ends[t]
            kind = c_kinds[t]
            tier = 2  # NEAREST: 0 goal, 1 blocks the opponent, 2 on, 3 draw, 4 loss
            if kind == GOAL:
                outcome = WIN if goal[end] == mover else LOSS
                tier = 0 if outcome == WIN else 4
            elif kind == BLOCKED:
                outcome = LOSS if blocked_loss else DRAW
                tier = 4 if blocked_loss else 3
            elif max_turns > 0 and turns_played + 1 >= max_turns:
                outcome = DRAW
                tier = 3
            else:
                if kind == END:
                    last = c_steps[start + length - 1]
                    free = exists[end] & ~np.uint8(1 << ((last + 4) & 7))
                else:  # STOP: replay the turn to see the marks it leaves
                    b = ball
                    for i in range(length):
                        b = make_step(replay, neighbour, b, c_steps[start + i])
                    free = exists[end] & ~replay[end]
                    b = ball
                    for i in range(length):
                        d = c_steps[start + i]
                        unmake_step(replay, neighbour, b, d)
                        b = neighbour[b, d]
                outcome = CONTINUE
                if free == 0:
                    outcome = WIN if blocked_loss else DRAW
                    tier = 1 if blocked_loss else 3
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
            if kept < cap:
                slot = kept
                i = kept
                hkey[i] = key
                hslot[i] = slot
                while i > 0 and hkey[(i - 1) // 2] < hkey[i]:
                    p = (i - 1) // 2
                    hkey[i], hkey[p] = hkey[p], hkey[i]
                    hslot[i], hslot[p] = hslot[p], hslot[i]
                    i = p
                kept += 1
            elif key < hkey[0]:
                slot = hslot[0]
                hkey[0] = key
                _sift_down(hkey, hslot, 0, kept)
            else:
                continue
            for i in range(length):
                s_steps[slot, i] = c_steps[start + i]
            s_len[slot] = length
            s_end[slot] = end
            s_out[slot] = outcome
            if won:
                break
    truncated = walk[4][1] == 2
    # the heap holds the kept priorities; list their slots in increasing order
    size = kept
    while size > 0:
        result[size - 1] = hslot[0]
        size -= 1
        hkey[0] = hkey[size]
        hslot[0] = hslot[size]
        _sift_down(hkey, hslot, 0, size)
    return kept, total, truncated, table


def fresh_table():
    """A key set for :func:`collect_turns` (it grows as needed)."""
    return new_keyset(32)


# -- Python front ends over a game ---------------------------------------------------------
# These read a game's plain attributes (board, marks, ball_index, player, history,
# rules) and import nothing from the layers above.
def random_state(seed=None) -> np.ndarray:
    """A xorshift64* state from ``seed``: an int, a numpy Generator (one draw), ``None``
    (fresh entropy) or a state array (returned as is, to be advanced in place)."""
    if isinstance(seed, np.ndarray):
        if seed.dtype != np.uint64 or seed.shape != (1,) or seed[0] == 0:
            raise ValueError("a random state is a nonzero uint64 array of one element")
        return seed
    if isinstance(seed, np.random.Generator):
        return seed_state(int(seed.integers(2**63)))
    if seed is None:
        return seed_state(int(np.random.SeedSequence().generate_state(1, np.uint64)[0]))
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, a numpy Generator or None, got {type(seed).__name__}")
    return seed_state(int(seed))


def _turn_start(game) -> None:
    if game.result is not None:
        raise ValueError(f"the game is over ({game.result})")
    if game.current:
        raise ValueError(f"a turn is in progress ({game.current!r}): call at the start of a turn")


def _rules_args(rules):
    return (rules.bounce == "optional", rules.blocked == "loss",
            -1 if rules.max_turns is None else int(rules.max_turns))


def random_playout(game, seed=None, stop_probability: float = 0.5, record: bool = False):
    """Play one random game to its end from ``game`` (not changed), in the compiled core.

    Returns ``(winner, steps)``, or ``(winner, steps, codes)`` with ``record``: ``codes``
    is the string of the playout's steps, with ``"s"`` where the player stopped on a
    bounce. ``winner`` is 1, 2 or 0 (a draw).
    """
    _turn_start(game)
    if not 0 <= stop_probability <= 1:
        raise ValueError(f"stop_probability must be in [0, 1], got {stop_probability!r}")
    b = game.board
    optional, blocked_loss, max_turns = _rules_args(game.rules)
    out = np.zeros(2 * b.n_edges + 2 if record else 0, np.int8)
    winner, steps, written = playout(game.marks.copy(), game.ball_index, game.player, len(game.history),
                                     b.exists, b.neighbour, b.goal, optional, blocked_loss, max_turns,
                                     float(stop_probability), random_state(seed), out)
    if not record:
        return int(winner), int(steps)
    codes = "".join("s" if c == _STOP_CODE else str(c) for c in out[:written])
    return int(winner), int(steps), codes


def playout_wins(game, n: int, seed=None, stop_probability: float = 0.5):
    """``(wins, steps)`` of ``n`` random playouts from ``game``: ``wins[w]`` counts the
    playouts won by player ``w`` (``wins[0]``: drawn); ``steps`` is their total."""
    _turn_start(game)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    b = game.board
    optional, blocked_loss, max_turns = _rules_args(game.rules)
    wins, steps = many_playouts(game.marks, game.ball_index, game.player, len(game.history), b.exists,
                                b.neighbour, b.goal, optional, blocked_loss, max_turns,
                                float(stop_probability), random_state(seed), int(n))
    return wins, int(steps)


def choose_turns(game, cap: int, order: str = "random", seed=None, max_states: int = 0,
                 stop_at_win: bool = False):
    """The ``cap`` best distinct turns of ``game``'s position by ``order`` (see the module).

    Returns ``(turns, total, truncated)``: ``turns`` is a list of ``(steps, end node
    index, outcome)`` best first (outcome one of :data:`OUTCOME_NAMES` as its code),
    ``total`` the distinct turns seen, ``truncated`` whether the walk stopped at
    ``max_states`` states. With ``stop_at_win`` the walk stops at the first winning turn.
    """
    _turn_start(game)
    if order not in ORDERS:
        raise ValueError(f"order must be one of {sorted(ORDERS)}, got {order!r}")
    if cap < 1:
        raise ValueError(f"cap must be >= 1, got {cap}")
    b = game.board
    optional, blocked_loss, max_turns = _rules_args(game.rules)
    ws = new_workspace(b.n_nodes, b.n_edges, int(cap))
    kept, total, truncated, _ = collect_turns(
        game.marks, game.ball_index, game.player, len(game.history), b.exists, b.neighbour,
        b.edge_index, b.goal, b.distance, b.edge_keys, b.node_keys, optional, blocked_loss, max_turns,
        ORDERS[order], int(cap), int(max_states), bool(stop_at_win), random_state(seed), ws,
        fresh_table())
    return turns_of(ws, kept), int(total), bool(truncated)


def turns_of(ws, kept: int) -> list[tuple[str, int, int]]:
    """The ``kept`` turns of a workspace filled by :func:`collect_turns`, best first."""
    s_steps, s_len, s_end, s_out, result = ws[10], ws[11], ws[12], ws[13], ws[14]
    out = []
    for i in range(kept):
        s = result[i]
        steps = (s_steps[s, : s_len[s]] + 48).tobytes().decode()
        out.append((steps, int(s_end[s]), int(s_out[s])))
    return out
