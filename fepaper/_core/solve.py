"""Compiled exact solver: the game value of a position by a full-depth search over complete turns.

:func:`solve_root` searches every line to the end of the game (no depth limit, no
evaluation): each ply is one distinct turn (:func:`fepaper._core.turnsearch.generate_turns`),
ordered as the turn search orders them (the table's move, then a goal the mover scores, then
the ends nearest the goal it attacks, blocked and own goals last). Values are from the side
to move: +1 win, 0 draw (a blocked player under ``blocked="draw"``, or the turn limit), -1
loss; alpha-beta over these three values (fail-soft).

**The table** holds proven bounds only: every entry is ``lower <= value <= upper`` of one
position, established by a search to the end of the game, so an entry is never stale and
never depends on the window it was found with (an exact win or loss is ``lower == upper``).
A position is (marked edges, ball, player to move, and the turn number when a turn limit
makes it matter); the entry keeps the full bitset of marked edges, the ball, the player and
the turn, and a probe compares all of them, so two positions never share an entry whatever
their 64-bit Zobrist hashes (the hash only picks the bucket of :data:`BUCKET` slots). When a
bucket is full the entry that cost the fewest nodes is replaced: that only loses work.

Every edge a turn marks stays marked, so the game graph has no cycles and a position's value
does not depend on the path to it: the table is sound.

The budget is the :class:`~fepaper._core.bundles.Budget` (time and nodes, looked at every
:data:`~fepaper._core.clock.CHECK_EVERY` units of work) plus a cap on the process's peak
resident memory looked at every :data:`MEMORY_EVERY` nodes and a cap on the states one
listing may walk; whichever is passed first, the search stops and the root's value is what is
proven so far (often nothing: "unknown").
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, objmode

from . import interrupt
from .clock import spent, tick_node
from .turns import BLOCKED, GOAL
from .turnsearch import TurnSearch, _child_order, _play, _unplay, generate_turns

__all__ = ["BUCKET", "MEMORY_EVERY", "STOP_NONE", "STOP_BUDGET", "STOP_MEMORY", "STOP_LISTING",
           "SolveTable", "Solver", "new_solve_table", "entry_bytes", "peak_rss_kb", "solve_root"]

#: Slots per bucket of the table.
BUCKET = 4
#: Search nodes between two looks at the process's peak memory (getrusage, about a microsecond).
MEMORY_EVERY = 1 << 12
#: Why a search stopped (``Solver.ctl[_STOP]``).
STOP_NONE, STOP_BUDGET, STOP_MEMORY, STOP_LISTING = 0, 1, 2, 3

# Solver.ctl fields
_STOP, _DEEPEST, _MEM_CAP, _MEM_LEFT, _STORED, _WRITES, _HITS = 0, 1, 2, 3, 4, 5, 6
_CTL = 7
_UNKNOWN = -9  # a value no search returns: the budget ran out below


class SolveTable(NamedTuple):
    """The transposition table: per slot the 64-bit hash (0: empty), the marked edges as a
    bitset (``edges[slot, word]``), ``tag`` = ball + player << 20 + turn << 22, the proven
    ``lower``/``upper`` bounds, ``work`` (bit length of the nodes it cost) and ``move``, the
    best turn's index in walk order plus one (0: none)."""

    hash: np.ndarray
    edges: np.ndarray
    tag: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    work: np.ndarray
    move: np.ndarray


class Solver(NamedTuple):
    """What :func:`solve_root` reads: ``search`` is the turn search's bundle (board, rules,
    budget, ``max_states`` per listing, ``turns_played`` before the root), ``table`` the
    :class:`SolveTable`; ``ctl`` int64 ``[stop reason, deepest ply, peak-memory cap in KB
    (0: none), nodes to the next memory look, slots in use, entries written, probes that
    hit]``."""

    search: TurnSearch
    table: SolveTable
    ctl: np.ndarray


def entry_bytes(n_words: int) -> int:
    """Bytes of one table slot with ``n_words`` 64-bit words of edge bits."""
    return 8 + 8 * n_words + 8 + 1 + 1 + 1 + 4


def new_solve_table(slots: int, n_words: int) -> SolveTable:
    """A table of ``slots`` slots (a power of two, at least :data:`BUCKET`); numpy's zeroed
    arrays take memory page by page as slots are written."""
    if slots < BUCKET or slots & (slots - 1):
        raise ValueError(f"slots must be a power of two >= {BUCKET}, got {slots}")
    return SolveTable(np.zeros(slots, np.uint64), np.zeros((slots, n_words), np.uint64),
                      np.zeros(slots, np.int64), np.zeros(slots, np.int8), np.zeros(slots, np.int8),
                      np.zeros(slots, np.int8), np.zeros(slots, np.int32))


def new_ctl(memory_cap_kb: int) -> np.ndarray:
    ctl = np.zeros(_CTL, np.int64)
    ctl[_MEM_CAP] = memory_cap_kb
    ctl[_MEM_LEFT] = MEMORY_EVERY
    return ctl


@njit(cache=True)
def peak_rss_kb():
    """The process's peak resident memory so far, in KB (Linux's ``ru_maxrss``)."""
    with objmode(kb="int64"):
        kb = interrupt.peak_rss_kb()
    return kb


@njit(cache=True, inline="always")
def _node(sv):
    """Count a node against the budget and, every :data:`MEMORY_EVERY` nodes, the memory cap;
    whether the search must stop."""
    ctl = sv.ctl
    if tick_node(sv.search.budget):
        if ctl[_STOP] == STOP_NONE:
            ctl[_STOP] = STOP_BUDGET
        return True
    ctl[_MEM_LEFT] -= 1
    if ctl[_MEM_LEFT] <= 0:
        ctl[_MEM_LEFT] = MEMORY_EVERY
        if ctl[_MEM_CAP] > 0 and peak_rss_kb() > ctl[_MEM_CAP]:
            ctl[_STOP] = STOP_MEMORY
            sv.search.budget.ctl[1] = 1
            return True
    return False


@njit(cache=True, inline="always")
def _flip(bits, board, ball, steps, lo, hi):
    """Toggle the bits of the edges a turn marks (played or taken back)."""
    n = ball
    for i in range(lo, hi):
        d = steps[i]
        e = board.edge_index[n, d]
        bits[e >> 6] ^= np.uint64(1) << np.uint64(e & 63)
        n = board.neighbour[n, d]


@njit(cache=True, inline="always")
def _hash(key, ball, player, turn, board):
    h = key ^ board.node_keys[ball] ^ np.uint64(player)
    if turn >= 0:
        h ^= np.uint64(turn + 1) * np.uint64(0x9E3779B97F4A7C15)
    return h if h != 0 else np.uint64(1)


@njit(cache=True)
def _find(table, h, bits, tag):
    """The slot holding this position, or -1."""
    base = np.int64(h & np.uint64(table.hash.shape[0] - 1)) & ~np.int64(BUCKET - 1)
    for j in range(BUCKET):
        i = base + j
        if table.hash[i] == h and table.tag[i] == tag:
            same = True
            for w in range(bits.shape[0]):
                if table.edges[i, w] != bits[w]:
                    same = False
                    break
            if same:
                return i
    return -1


@njit(cache=True)
def _claim(table, ctl, h, bits, tag):
    """A slot for a position not in the table: an empty one of its bucket, else the one that cost
    the fewest nodes (its entry is given up); the position's keys are written in it."""
    base = np.int64(h & np.uint64(table.hash.shape[0] - 1)) & ~np.int64(BUCKET - 1)
    i = base
    for j in range(BUCKET):
        k = base + j
        if table.hash[k] == 0:
            i = k
            ctl[_STORED] += 1
            break
        if table.work[k] < table.work[i]:
            i = k
    table.hash[i] = h
    table.tag[i] = tag
    for w in range(bits.shape[0]):
        table.edges[i, w] = bits[w]
    return i


@njit(cache=True)
def _store(sv, h, bits, tag, lower, upper, work, move):
    """Record ``lower <= value <= upper`` (merged with what the slot knew of the same position)."""
    table, ctl = sv.table, sv.ctl
    i = _find(table, h, bits, tag)
    if i >= 0:
        lower = max(lower, table.lower[i])
        upper = min(upper, table.upper[i])
        work = max(work, table.work[i])
    else:
        i = _claim(table, ctl, h, bits, tag)
    table.lower[i] = lower
    table.upper[i] = upper
    table.work[i] = work
    table.move[i] = move + 1
    ctl[_WRITES] += 1


@njit(cache=True, inline="always")
def _turn_value(kind, end, board, flags, player):
    """The value for the mover of a turn that ends the game, and whether it does."""
    if kind == GOAL:
        return (1 if (board.goal[end] == 1) == (player == 1) else -1), True
    if kind == BLOCKED:
        return (-1 if flags.blocked_loss else 0), True
    return 0, False


@njit(cache=True, inline="always")
def _work_bits(nodes):
    b = 0
    while nodes > 0 and b < 127:
        nodes >>= 1
        b += 1
    return b


@njit(cache=True)
def _negamax(marks, bits, ball, key, player, ply, alpha, beta, sv):
    """The value of the position for ``player`` (to move), fail-soft within (alpha, beta), or
    :data:`_UNKNOWN` when the budget ran out below."""
    s = sv.search
    b, flags = s.board, s.flags
    if (b.exists[ball] & ~marks[ball]) == 0:  # blocked at the start of the turn
        return -1 if flags.blocked_loss else 0
    if ply > sv.ctl[_DEEPEST]:
        sv.ctl[_DEEPEST] = ply
    turn = s.turns_played + ply if flags.max_turns > 0 else -1
    h = _hash(key, ball, player, turn, b)
    tag = np.int64(ball) + (np.int64(player) << 20) + (np.int64(max(turn, 0)) << 22)
    slot = _find(sv.table, h, bits, tag)
    tt_move = -1
    if slot >= 0:
        sv.ctl[_HITS] += 1
        lo, hi = np.int64(sv.table.lower[slot]), np.int64(sv.table.upper[slot])
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        tt_move = sv.table.move[slot] - 1
    buf, count, complete = generate_turns(marks, ball, player, s)
    if not complete:
        if sv.ctl[_STOP] == 0:
            sv.ctl[_STOP] = STOP_BUDGET if spent(s.budget) else STOP_LISTING
        s.budget.ctl[1] = 1
        return _UNKNOWN
    if tt_move >= count:
        tt_move = -1
    nodes0 = s.budget.ctl[4]
    # goals in one first: a turn into the goal the mover attacks wins at once
    for i in range(count):
        if buf.kinds[i] == GOAL and _turn_value(GOAL, buf.ends[i], b, flags, player)[0] == 1:
            if _node(sv):
                return _UNKNOWN
            _store(sv, h, bits, tag, 1, 1, 1, i)
            return 1
    order = _child_order(buf.kinds, buf.ends, count, b, player, tt_move, True)
    alpha0 = alpha
    best = -2
    bi = -1
    for j in range(count):
        i = order[j]
        if _node(sv):
            return _UNKNOWN
        v, over = _turn_value(buf.kinds[i], buf.ends[i], b, flags, player)
        if not over and flags.max_turns > 0 and s.turns_played + ply + 1 >= flags.max_turns:
            v, over = 0, True
        if not over:
            lo_, hi_ = buf.offsets[i], buf.offsets[i + 1]
            end = np.int64(buf.ends[i])
            k2 = _play(marks, b, ball, key, buf.steps, lo_, hi_)
            _flip(bits, b, ball, buf.steps, lo_, hi_)
            v = _negamax(marks, bits, end, k2, 3 - player, ply + 1, np.int64(-beta),
                         np.int64(-max(alpha, best)), sv)
            _flip(bits, b, ball, buf.steps, lo_, hi_)
            _unplay(marks, b.neighbour, end, buf.steps, lo_, hi_)
            if v == _UNKNOWN:
                return _UNKNOWN
            v = -v
        if v > best:
            best = v
            bi = i
            if best >= beta:
                break
    work = _work_bits(s.budget.ctl[4] - nodes0)
    if best <= alpha0:
        _store(sv, h, bits, tag, -1, best, work, bi)
    elif best >= beta:
        _store(sv, h, bits, tag, best, 1, work, bi)
    else:
        _store(sv, h, bits, tag, best, best, work, bi)
    return best


@njit(cache=True)
def solve_root(marks, bits, ball, key, player, all_wins, sv):
    """Solve the root (``player`` to move; not finished, not blocked).

    Returns ``(buffer, count, complete, lower, upper)``: the root's turns in walk order
    (``complete``: the listing holds them all) and, per turn, proven bounds of its value
    for ``player`` (int8; ``lower == upper``: exact). The root's value is proven when the
    best lower bound reaches every upper bound. The turns are searched in the turn
    search's order, each with the window that decides whether it beats the best so far;
    the search stops at the first win unless ``all_wins``, which then asks of every other
    turn whether it wins too (window (0, 1)). ``sv.ctl[0]`` says why it stopped early.
    """
    # (every argument of the recursive call is typed int64 at both call sites: a cached recursive
    # kernel called with two type signatures crashes when loaded from the cache: numba/numba#6713)
    s = sv.search
    b, flags = s.board, s.flags
    buf, count, complete = generate_turns(marks, ball, player, s)
    lower = np.full(count, -1, np.int8)
    upper = np.full(count, 1, np.int8)
    if not complete:
        if sv.ctl[_STOP] == 0:
            sv.ctl[_STOP] = STOP_BUDGET if spent(s.budget) else STOP_LISTING
        return buf, count, complete, lower, upper
    s.budget.ctl[4] += 1  # the root
    order = _child_order(buf.kinds, buf.ends, count, b, player, -1, True)
    best = -2
    for phase in range(2 if all_wins else 1):
        for j in range(count):
            i = order[j]
            if lower[i] == upper[i]:
                continue
            if phase == 0:
                if best == 1:
                    break
                alpha, beta = max(best, -2), 2
            else:
                if lower[i] == 1 or upper[i] <= 0:
                    continue
                alpha, beta = 0, 1
            if _node(sv):
                return buf, count, complete, lower, upper
            v, over = _turn_value(buf.kinds[i], buf.ends[i], b, flags, player)
            if not over and flags.max_turns > 0 and s.turns_played + 1 >= flags.max_turns:
                v, over = 0, True
            if over:
                lower[i] = upper[i] = v
            else:
                lo_, hi_ = buf.offsets[i], buf.offsets[i + 1]
                end = np.int64(buf.ends[i])
                k2 = _play(marks, b, ball, key, buf.steps, lo_, hi_)
                _flip(bits, b, ball, buf.steps, lo_, hi_)
                v = _negamax(marks, bits, end, k2, 3 - player, np.int64(1), np.int64(-beta),
                             np.int64(-alpha), sv)
                _flip(bits, b, ball, buf.steps, lo_, hi_)
                _unplay(marks, b.neighbour, end, buf.steps, lo_, hi_)
                if v == _UNKNOWN:
                    return buf, count, complete, lower, upper
                v = -v
                if v <= alpha:
                    upper[i] = min(upper[i], max(v, -1))
                elif v >= beta:
                    lower[i] = max(lower[i], min(v, 1))
                else:
                    lower[i] = upper[i] = v
            if phase == 0 and lower[i] > best:
                best = lower[i]
    return buf, count, complete, lower, upper

