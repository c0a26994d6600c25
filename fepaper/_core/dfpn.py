"""Compiled depth-first proof-number search (df-pn) over complete distinct turns.

Each ply is one distinct turn (:func:`fepaper._core.turnsearch.generate_turns`, the listing the
alpha-beta solver of :mod:`fepaper._core.solve` stands on). df-pn answers a yes/no question:
does the **attacker** (``Dfpn.attacker``) win? A draw counts against it, so under rules without
draws (``blocked="loss"``, no turn limit) one search decides the game, and with draws two do
(one for each player; the front, :func:`fepaper.search.solve.solve`, runs them).

Numbers are kept from the side to move (the negamax form of df-pn): ``phi`` is the proof
number of "the mover wins", ``delta`` that of "the mover does not win"; a position the mover
wins is ``(0, INF)``, one it loses ``(INF, 0)``. A position's ``phi`` is the least ``delta`` of
its turns, and its ``delta``

* the sum of its turns' ``phi`` (``weak=False``, df-pn as Nagai wrote it), or
* the largest ``phi`` plus the number of turns not yet won by the opponent, less one
  (``weak=True``: Ueda et al.'s weak proof-number search). Distinct turn sequences transpose,
  so the game is a DAG and a sum counts a shared subtree once per path to it; the weak form
  does not let a position with many transposed turns look hopelessly hard.

A search of a position goes on while ``phi`` and ``delta`` are below its thresholds, always into
the turn of least ``delta``, with thresholds ``th_phi(child) = th_delta - delta + phi(child)``
and ``th_delta(child) = min(th_phi, max(d2 + 1, ceil(d2 * (1 + epsilon))))``, ``d2`` the
second least ``delta``: the 1+epsilon trick of Pawlewicz and Lew, which stops the search from
going back and forth between two turns of nearly equal numbers (``epsilon=0`` is plain df-pn).

**The table** keeps per position (the whole position, compared in full: marked edges, ball,
player, the turn number under a turn limit; the 64-bit hash only picks a bucket of
:data:`~fepaper._core.solve.BUCKET` slots) its ``phi``, ``delta`` and the work it cost; a full
bucket gives up the slot that cost the fewest nodes. A position's turns keep the numbers
last returned by a search of them, so a slot given up loses work, never progress, and a
proven number is a fact that no later read of the table undoes. Marked edges stay marked, so
no position repeats in a game: no graph-history interaction, and every search ends.

The budget (time, nodes, peak memory) is :mod:`fepaper._core.solve`'s: when it is passed the
search stops, the position being searched is left unproven, and the front answers unknown.

:func:`proof_records` walks a proven position again and writes the winner's strategy: at each
of the winner's positions (marked edges, ball, turn number) one turn that keeps the win; every
turn of the loser is followed.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.typed import List

from .clock import spent
from .solve import (
    _DEEPEST,
    _HITS,
    _STOP,
    _WRITES,
    BUCKET,
    STOP_BUDGET,
    STOP_LISTING,
    _claim,
    _find,
    _flip,
    _hash,
    _node,
    _turn_value,
    _work_bits,
)
from .turns import keyset_insert, new_keyset
from .turnsearch import TurnSearch, _child_order, _play, _unplay, generate_turns

__all__ = ["INF", "DfpnTable", "Dfpn", "new_dfpn_table", "dfpn_entry_bytes", "dfpn_root", "proof_records"]

#: The "infinite" proof number: a proven position is (0, INF) or (INF, 0).
INF = 1 << 62
_UNKNOWN = -1  # returned as (phi, delta) when the budget ran out below


class DfpnTable(NamedTuple):
    """The transposition table: per slot the 64-bit hash (0: empty), the marked edges as a bitset,
    ``tag`` = ball + player << 20 + turn << 22, ``phi`` and ``delta`` (for the player to move) and
    ``work`` (bit length of the nodes the last search of it cost)."""

    hash: np.ndarray
    edges: np.ndarray
    tag: np.ndarray
    phi: np.ndarray
    delta: np.ndarray
    work: np.ndarray


class Dfpn(NamedTuple):
    """What :func:`dfpn_root` reads: the turn search's bundle, the table, ``ctl`` (as the
    alpha-beta solver's :class:`~fepaper._core.solve.Solver`), the ``attacker`` (1 or 2) whose
    win is proved, ``weak`` (the delta rule) and ``epsilon`` (the threshold trick)."""

    search: TurnSearch
    table: DfpnTable
    ctl: np.ndarray
    attacker: int
    weak: bool
    epsilon: float


def dfpn_entry_bytes(n_words: int) -> int:
    """Bytes of one table slot with ``n_words`` 64-bit words of edge bits."""
    return 8 + 8 * n_words + 8 + 8 + 8 + 1


def new_dfpn_table(slots: int, n_words: int) -> DfpnTable:
    """A table of ``slots`` slots (a power of two, at least :data:`BUCKET`)."""
    if slots < BUCKET or slots & (slots - 1):
        raise ValueError(f"slots must be a power of two >= {BUCKET}, got {slots}")
    return DfpnTable(np.zeros(slots, np.uint64), np.zeros((slots, n_words), np.uint64),
                     np.zeros(slots, np.int64), np.zeros(slots, np.int64), np.zeros(slots, np.int64),
                     np.zeros(slots, np.int8))


@njit(cache=True)
def _store(dv, h, bits, tag, phi, delta, work):
    table, ctl = dv.table, dv.ctl
    i = _find(table, h, bits, tag)
    if i < 0:
        i = _claim(table, ctl, h, bits, tag)
    table.phi[i] = phi
    table.delta[i] = delta
    table.work[i] = work
    ctl[_WRITES] += 1


@njit(cache=True, inline="always")
def _outcome(v, mover, attacker):
    """(phi, delta) of a finished game worth ``v`` to ``mover`` (a draw: the attacker does not win)."""
    if v == 1 or (v == 0 and mover != attacker):
        return 0, INF
    return INF, 0


@njit(cache=True, inline="always")
def _tag(ball, player, turn):
    return np.int64(ball) + (np.int64(player) << 20) + (np.int64(max(turn, 0)) << 22)


@njit(cache=True)
def _children(marks, bits, ball, key, player, ply, dv, buf, count):
    """Every turn's child, in search order: ``(order, hash, bits, tag, key, phi, delta, fixed,
    win)``; ``fixed[j]``: the turn ends the game or leaves the opponent blocked (its numbers are
    final); ``win``: the index in ``order`` of a turn that wins at once, or -1."""
    s = dv.search
    b, flags = s.board, s.flags
    words = bits.shape[0]
    order = _child_order(buf.kinds, buf.ends, count, b, player, -1, True)
    ch = np.zeros(count, np.uint64)
    cbits = np.empty((count, words), np.uint64)
    ctag = np.zeros(count, np.int64)
    ckey = np.zeros(count, np.uint64)
    cphi = np.ones(count, np.int64)
    cdelta = np.ones(count, np.int64)
    fixed = np.zeros(count, np.bool_)
    opp = 3 - player
    turn = s.turns_played + ply + 1 if flags.max_turns > 0 else -1
    for j in range(count):
        i = order[j]
        v, over = _turn_value(buf.kinds[i], buf.ends[i], b, flags, player)
        if not over and flags.max_turns > 0 and s.turns_played + ply + 1 >= flags.max_turns:
            v, over = 0, True
        lo, hi = buf.offsets[i], buf.offsets[i + 1]
        end = np.int64(buf.ends[i])
        if not over:
            for w in range(words):
                cbits[j, w] = bits[w]
            _flip(cbits[j], b, ball, buf.steps, lo, hi)
            free = False
            for d in range(8):
                e = b.edge_index[end, d]
                if e >= 0 and (cbits[j, e >> 6] >> np.uint64(e & 63)) & np.uint64(1) == 0:
                    free = True
                    break
            if not free:  # the opponent is blocked at the start of its turn
                cphi[j], cdelta[j] = _outcome(-1 if flags.blocked_loss else 0, opp, dv.attacker)
                fixed[j] = True
            else:
                k2 = key
                n = ball
                for t in range(lo, hi):
                    d = buf.steps[t]
                    k2 ^= b.edge_keys[b.edge_index[n, d]]
                    n = b.neighbour[n, d]
                ckey[j] = k2
                ch[j] = _hash(k2, end, opp, turn, b)
                ctag[j] = _tag(end, opp, turn)
        else:
            phi_m, _ = _outcome(v, player, dv.attacker)
            # a turn that ends the game: the opponent "moves" in a finished game it won or lost
            cphi[j], cdelta[j] = (INF, 0) if phi_m == 0 else (0, INF)
            fixed[j] = True
    win = -1
    for j in range(count):
        if fixed[j] and cdelta[j] == 0:
            win = j
            break
    return order, ch, cbits, ctag, ckey, cphi, cdelta, fixed, win


@njit(cache=True)
def _refresh(dv, ch, cbits, ctag, cphi, cdelta, fixed):
    """Read the table's numbers of the turns not yet proven (other paths may have moved them)."""
    t = dv.table
    for j in range(ch.shape[0]):
        if fixed[j] or cphi[j] == 0 or cdelta[j] == 0:
            continue
        slot = _find(t, ch[j], cbits[j], ctag[j])
        if slot >= 0:
            dv.ctl[_HITS] += 1
            cphi[j] = t.phi[slot]
            cdelta[j] = t.delta[slot]


@njit(cache=True)
def _numbers(cphi, cdelta, weak):
    """``(phi, delta, best, d2)``: the position's numbers, its turn of least delta (first in
    order on a tie) and the second least delta."""
    phi = INF
    d2 = INF
    best = -1
    total = 0
    top = 0
    open_ = 0
    for j in range(cphi.shape[0]):
        d = cdelta[j]
        if d < phi:
            d2 = phi
            phi = d
            best = j
        elif d < d2:
            d2 = d
        p = cphi[j]
        total = INF if p >= INF or total >= INF else min(total + p, INF - 1)
        if p > top:
            top = p
        if p > 0:
            open_ += 1
    if not weak or top >= INF:
        return phi, total, best, d2
    return phi, (min(top + open_ - 1, INF - 1) if open_ > 0 else 0), best, d2


@njit(cache=True)
def _mid(marks, bits, ball, key, player, ply, th_phi, th_delta, dv):
    """Search the position (``player`` to move) until ``phi >= th_phi`` or ``delta >= th_delta``;
    its ``(phi, delta)``, or ``(-1, -1)`` when the budget ran out."""
    s = dv.search
    b, flags = s.board, s.flags
    if _node(dv):
        return np.int64(_UNKNOWN), np.int64(_UNKNOWN)
    if ply > dv.ctl[_DEEPEST]:
        dv.ctl[_DEEPEST] = ply
    turn = s.turns_played + ply if flags.max_turns > 0 else -1
    h = _hash(key, ball, player, turn, b)
    tag = _tag(ball, player, turn)
    buf, count, complete = generate_turns(marks, ball, player, s)
    if not complete:
        if dv.ctl[_STOP] == 0:
            dv.ctl[_STOP] = STOP_BUDGET if spent(s.budget) else STOP_LISTING
        s.budget.ctl[1] = 1
        return np.int64(_UNKNOWN), np.int64(_UNKNOWN)
    nodes0 = s.budget.ctl[4]
    order, ch, cbits, ctag, ckey, cphi, cdelta, fixed, win = _children(marks, bits, ball, key, player, ply,
                                                                        dv, buf, count)
    if win >= 0:
        _store(dv, h, bits, tag, 0, INF, 1)
        return np.int64(0), np.int64(INF)
    one = np.int64(1)
    while True:
        _refresh(dv, ch, cbits, ctag, cphi, cdelta, fixed)
        phi, delta, j, d2 = _numbers(cphi, cdelta, dv.weak)
        if phi >= th_phi or delta >= th_delta:
            break
        c_th_phi = min(th_delta - delta + cphi[j], np.int64(INF))
        grown = np.int64(np.ceil(d2 * (1.0 + dv.epsilon))) if d2 < INF else np.int64(INF)
        c_th_delta = min(th_phi, max(d2 + one, grown))
        i = order[j]
        lo, hi = buf.offsets[i], buf.offsets[i + 1]
        end = np.int64(buf.ends[i])
        _play(marks, b, ball, key, buf.steps, lo, hi)
        _flip(bits, b, ball, buf.steps, lo, hi)
        p, d = _mid(marks, bits, end, ckey[j], np.int64(3 - player), np.int64(ply + 1), np.int64(c_th_phi),
                    np.int64(c_th_delta), dv)
        _flip(bits, b, ball, buf.steps, lo, hi)
        _unplay(marks, b.neighbour, end, buf.steps, lo, hi)
        if p == _UNKNOWN:
            return np.int64(_UNKNOWN), np.int64(_UNKNOWN)
        cphi[j], cdelta[j] = p, d
    _store(dv, h, bits, tag, phi, delta, _work_bits(s.budget.ctl[4] - nodes0))
    return np.int64(phi), np.int64(delta)


@njit(cache=True)
def _blocked_at(marks, ball, board):
    return (board.exists[ball] & ~marks[ball]) == 0


@njit(cache=True)
def _search_child(marks, bits, ball, key, player, buf, i, ckey_j, dv):
    """The numbers of turn ``i``'s child searched to a proof (or the budget)."""
    b = dv.search.board
    lo, hi = buf.offsets[i], buf.offsets[i + 1]
    end = np.int64(buf.ends[i])
    _play(marks, b, ball, key, buf.steps, lo, hi)
    _flip(bits, b, ball, buf.steps, lo, hi)
    p, d = _mid(marks, bits, end, ckey_j, np.int64(3 - player), np.int64(1), np.int64(INF - 1),
                np.int64(INF - 1), dv)
    _flip(bits, b, ball, buf.steps, lo, hi)
    _unplay(marks, b.neighbour, end, buf.steps, lo, hi)
    return p, d


@njit(cache=True)
def dfpn_root(marks, bits, ball, key, player, all_wins, dv):
    """Decide whether ``player`` (to move; not finished, not blocked) wins in the attacker's
    sense (``dv.attacker``: a draw is its loss).

    Returns ``(buffer, count, complete, status)``: the root's turns in walk order and, per turn,
    ``+1`` (proven: the mover wins with it), ``-1`` (proven: it does not), ``0`` (not known).
    The root is decided when some turn is ``+1`` or every turn is ``-1``. With ``all_wins``, once
    the root is won every other turn is searched to a proof too. ``dv.ctl[0]`` says why it
    stopped early.
    """
    s = dv.search
    buf, count, complete = generate_turns(marks, ball, player, s)
    status = np.zeros(count, np.int8)
    if not complete:
        if dv.ctl[_STOP] == 0:
            dv.ctl[_STOP] = STOP_BUDGET if spent(s.budget) else STOP_LISTING
        return buf, count, complete, status
    p, d = _mid(marks, bits, ball, key, player, np.int64(0), np.int64(INF - 1), np.int64(INF - 1), dv)
    order, ch, cbits, ctag, ckey, cphi, cdelta, fixed, win = _children(marks, bits, ball, key, player, 0, dv,
                                                                        buf, count)
    _refresh(dv, ch, cbits, ctag, cphi, cdelta, fixed)
    for j in range(count):
        if cdelta[j] == 0:
            status[order[j]] = 1
        elif cphi[j] == 0 or (p != _UNKNOWN and p >= INF):  # a lost root: every turn loses
            status[order[j]] = -1
    if p == _UNKNOWN or p >= INF:
        return buf, count, complete, status
    # a won root: its winning turns the table still holds, then (all_wins) every other turn
    found = False
    for j in range(count):
        if status[order[j]] == 1:
            found = True
    for j in range(count):
        i = order[j]
        if status[i] != 0 or (found and not all_wins):
            continue
        cp, cd = _search_child(marks, bits, ball, key, player, buf, i, ckey[j], dv)
        if cp == _UNKNOWN:
            break
        status[i] = 1 if cd == 0 else -1
        found = found or cd == 0
    return buf, count, complete, status


@njit(cache=True)
def _record(out, bits, ball, turn, buf, i):
    """One strategy record, flat: ball, turn number, the words of the marked edges, the number of
    steps, the steps."""
    out.append(np.int64(ball))
    out.append(np.int64(turn))
    for w in range(bits.shape[0]):
        out.append(np.int64(bits[w]))
    lo, hi = buf.offsets[i], buf.offsets[i + 1]
    out.append(np.int64(hi - lo))
    for t in range(lo, hi):
        out.append(np.int64(buf.steps[t]))


@njit(cache=True)
def _extract(marks, bits, ball, key, player, ply, winner, dv, out, seen, used):
    """Write the winner's strategy below a proven position; whether it was written whole (False:
    the budget ran out, or a position the table said was won could not be proven again)."""
    s = dv.search
    b, flags = s.board, s.flags
    if spent(s.budget):
        return False, seen
    if _blocked_at(marks, ball, b):
        return True, seen
    turn = s.turns_played + ply if flags.max_turns > 0 else -1
    seen, added = keyset_insert(seen, used, _hash(key, ball, player, turn, b))
    if not added:
        return True, seen
    buf, count, complete = generate_turns(marks, ball, player, s)
    if not complete:
        s.budget.ctl[1] = 1
        return False, seen
    order, ch, cbits, ctag, ckey, cphi, cdelta, fixed, win = _children(marks, bits, ball, key, player, ply,
                                                                        dv, buf, count)
    if player == winner:
        pick = win
        if pick < 0:
            _refresh(dv, ch, cbits, ctag, cphi, cdelta, fixed)
            for j in range(count):
                if cdelta[j] == 0:
                    pick = j
                    break
        if pick < 0:  # given up by the table: prove one turn again
            for j in range(count):
                if fixed[j]:
                    continue
                cp, cd = _search_child(marks, bits, ball, key, player, buf, order[j], ckey[j], dv)
                if cp == _UNKNOWN:
                    return False, seen
                if cd == 0:
                    pick = j
                    break
        if pick < 0:
            return False, seen
        i = order[pick]
        _record(out, bits, ball, max(turn, 0), buf, i)
        picks = np.array([pick])
    else:
        picks = np.arange(count)
    for j in picks:
        if fixed[j]:
            continue
        i = order[j]
        lo, hi = buf.offsets[i], buf.offsets[i + 1]
        end = np.int64(buf.ends[i])
        _play(marks, b, ball, key, buf.steps, lo, hi)
        _flip(bits, b, ball, buf.steps, lo, hi)
        ok, seen = _extract(marks, bits, end, ckey[j], np.int64(3 - player), np.int64(ply + 1), winner, dv,
                            out, seen, used)
        _flip(bits, b, ball, buf.steps, lo, hi)
        _unplay(marks, b.neighbour, end, buf.steps, lo, hi)
        if not ok:
            return False, seen
    return True, seen


@njit(cache=True)
def proof_records(marks, bits, ball, key, player, winner, dv):
    """The winner's strategy from a proven root, as flat int64 records (:func:`_record`), and
    whether it is whole. Searches again where the table gave a proven position up."""
    out = List.empty_list(np.int64)
    seen = new_keyset(1 << 10)
    used = np.zeros(1, np.int64)
    ok, seen = _extract(marks, bits, ball, key, player, np.int64(0), winner, dv, out, seen, used)
    flat = np.empty(len(out), np.int64)
    for k in range(len(out)):
        flat[k] = out[k]
    return ok, flat
