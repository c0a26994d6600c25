"""Who wins with perfect play: the exact value of a position, searched to the end of the game.

:func:`solve` runs the compiled solver (:func:`fepaper._core.solve.solve_root`): alpha-beta
over complete distinct turns with no depth limit and no evaluation, a transposition table of
proven bounds keyed by the whole position (marked edges, ball, player to move, and the turn
number under a turn limit), goals in one first and the turn search's ordering. It answers
+1 (the player to move wins), -1 (it loses), 0 (a draw, where ``blocked="draw"`` or a turn
limit makes draws possible) or ``None``: unknown, when the time, node or memory budget ran
out first. An unknown is never replaced by a guess.

Examples
--------
>>> from fepaper.game import Game
>>> result = solve(Game({"width": 2, "height": 2, "middle_line": False}))
>>> result.value, result.details["winner"]
(1.0, 1)
"""

from __future__ import annotations

import resource
import time

import numpy as np

from .._core import dfpn
from .._core import solve as kernel
from .._core.bundles import new_budget
from .._core.turnsearch import TurnSearch, new_table
from ..game import Game
from .result import SearchResult

__all__ = ["solve", "table_plan", "METHODS", "STOP_REASONS", "DEFAULT_MEMORY_GB"]

#: The solver's methods: alpha-beta over a table of proven bounds, and df-pn.
METHODS = ("alphabeta", "dfpn")

#: What ``details["stopped"]`` says when the search stopped before proving the root.
STOP_REASONS = {kernel.STOP_NONE: None, kernel.STOP_BUDGET: "budget", kernel.STOP_MEMORY: "memory",
                kernel.STOP_LISTING: "listing"}
DEFAULT_MEMORY_GB = 2.0
#: Bytes one listed state may take at most (its key in the listing's set, its turn in the buffer,
#: both grown by doubling); a listing may walk (headroom / 4) / this many states.
_BYTES_PER_STATE = 128
_MAX_TABLE_BITS = 30


def _peak_kb() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def table_plan(n_edges: int, memory_gb: float, table_bits: int | None = None,
               entry_bytes=kernel.entry_bytes) -> dict:
    """How :func:`solve` divides a peak-memory cap of ``memory_gb`` (the process's, what it
    already holds included): half of what is left for the table (the largest power of two of
    slots that fits, or ``2 ** table_bits`` slots), and a cap on the states one listing may walk
    so that four listings of that size fit in the rest.

    Raises
    ------
    ValueError
        If the cap is not a positive number, or leaves no room above what the process holds.
    """
    if isinstance(memory_gb, bool) or not isinstance(memory_gb, (int, float)) or not memory_gb > 0:
        raise ValueError(f"memory_gb must be a positive number, got {memory_gb!r}")
    words = (n_edges + 63) // 64
    per_slot = entry_bytes(words)
    cap_kb = int(memory_gb * 2**20)
    held_kb = _peak_kb()
    headroom = (cap_kb - held_kb) * 1024
    if table_bits is None:
        bits = 0
        while bits < _MAX_TABLE_BITS and per_slot << (bits + 1) <= headroom // 2:
            bits += 1
    else:
        bits = table_bits
    if bits < 2 or per_slot << bits > headroom // 2:
        raise ValueError(f"memory_gb={memory_gb} leaves {max(headroom, 0) / 2**20:.0f} MB above the "
                         f"{held_kb / 2**10:.0f} MB this process already holds: too little for a table")
    table_bytes = per_slot << bits
    max_states = max(1 << 12, (headroom - table_bytes) // (4 * _BYTES_PER_STATE))
    return {"cap_kb": cap_kb, "held_kb": held_kb, "table_bits": bits, "table_bytes": table_bytes,
            "words": words, "max_states": int(max_states)}


def _new_table(plan: dict, make):
    """The table, its pages taken as slots are written: numpy asks the kernel for huge pages on
    large arrays, and on a 2 MB page the first write of one slot would take the 2 MB (a small
    board would hold the whole table's size after a few thousand positions)."""
    try:
        from numpy._core.multiarray import _set_madvise_hugepage
    except ImportError:  # pragma: no cover (an older numpy)
        return make(1 << plan["table_bits"], plan["words"])
    before = _set_madvise_hugepage(False)
    try:
        return make(1 << plan["table_bits"], plan["words"])
    finally:
        _set_madvise_hugepage(before)


def _decode(buf, i: int) -> str:
    return (buf.steps[buf.offsets[i]:buf.offsets[i + 1]] + 48).tobytes().decode()


def _proof_records(flat: np.ndarray, words: int, board) -> list[tuple[int, tuple[int, int], int, str]]:
    """The kernel's flat strategy records as ``(marked edges as an int, ball node, turns played, turn)``."""
    out, k = [], 0
    while k < len(flat):
        ball, turn = int(flat[k]), int(flat[k + 1])
        edges = 0
        for w in range(words):
            edges |= (int(flat[k + 2 + w]) & (2**64 - 1)) << (64 * w)
        n = int(flat[k + 2 + words])
        steps = "".join(str(int(d)) for d in flat[k + 3 + words:k + 3 + words + n])
        out.append((edges, board.node(ball), turn, steps))
        k += 3 + words + n
    return out


def _dfpn(game: Game, search: TurnSearch, plan: dict, bits: np.ndarray, all_wins: bool, proof: bool):
    """df-pn from ``game``'s position: the first search asks whether the player to move wins; under
    rules with draws, when it proves no win, a second asks whether the opponent does. Per first turn
    the proven bounds of its value, as the alpha-beta solver gives them."""
    flags = game.rules.flags
    draws = not flags.blocked_loss or flags.max_turns > 0
    player = game.player
    ctl = kernel.new_ctl(plan["cap_kb"])
    args = (game.marks.copy(), bits, game.ball_index, np.uint64(game.key), player, all_wins)
    dv = dfpn.Dfpn(search, _new_table(plan, dfpn.new_dfpn_table), ctl, player, True, 0.25)
    buf, count, complete, status = dfpn.dfpn_root(*args, dv)
    lower = np.where(status == 1, 1, -1)
    upper = np.where(status == 1, 1, np.where(status == -1, 0 if draws else -1, 1))
    if draws and complete and count and np.all(status == -1):
        dv = dfpn.Dfpn(search, _new_table(plan, dfpn.new_dfpn_table), ctl, 3 - player, True, 0.25)
        buf, count, complete, status = dfpn.dfpn_root(*args, dv)
        lower = np.where(status == 1, 0, np.where(status == -1, -1, lower))
        upper = np.where(status == -1, -1, upper)
    extra: dict = {"proof": None, "proof_complete": False}
    value = int(lower.max()) if complete and count and lower.max() >= upper.max() else None
    if proof and value in (1, -1) and (not draws or dv.attacker == (player if value == 1 else 3 - player)):
        winner = player if value == 1 else 3 - player
        ok, flat = dfpn.proof_records(game.marks.copy(), bits, game.ball_index, np.uint64(game.key), player,
                                      winner, dv)
        extra = {"proof": _proof_records(flat, plan["words"], game.board), "proof_complete": bool(ok)}
    return dv, buf, count, complete, lower, upper, extra


def solve(game: Game, seconds: float | None = None, memory_gb: float = DEFAULT_MEMORY_GB, *,
          max_nodes: int = 0, all_wins: bool = True, table_bits: int | None = None,
          method: str = "alphabeta", proof: bool = False) -> SearchResult:
    """The game value of ``game``'s position with perfect play (``game`` is not changed).

    Parameters
    ----------
    game : Game
        At the start of a turn, not finished.
    seconds : float, optional
        Wall-clock budget (the listings included); ``None``: none.
    memory_gb : float
        Cap on the process's peak resident memory (what it holds already included): the table
        is sized from it up front, one listing's states are capped by it, and the search stops
        when the peak passes it (looked at every :data:`fepaper._core.solve.MEMORY_EVERY` nodes).
    max_nodes : int
        A node budget (0: none), deterministic where ``seconds`` is not.
    all_wins : bool
        After proving a win, ask of every other first turn whether it wins too.
    table_bits : int, optional
        ``2 ** table_bits`` slots instead of the size the memory cap allows (a small table
        forgets more; the values stay exact).
    method : str
        ``"alphabeta"`` (:func:`fepaper._core.solve.solve_root`) or ``"dfpn"``
        (:func:`fepaper._core.dfpn.dfpn_root`: proof-number search; under rules with draws, a
        second search for the other player when the first proves no win).
    proof : bool
        With ``"dfpn"`` and a won position: ``details["proof"]``, the winner's strategy as
        records ``(marked edges as an int, ball, turn number, turn)``, one per position of the
        winner, and ``details["proof_complete"]`` (False if the budget ran out while writing it).

    Returns
    -------
    SearchResult
        ``value``: 1.0, 0.0 or -1.0 for the player to move, ``None`` if unknown; ``turn``: a
        proven best first turn (``""`` if none is proven); ``nodes``: positions visited (the
        root and every turn applied); ``depth``: the deepest ply reached; ``details``:
        ``winner`` (1, 2, 0 for a draw, ``None`` unknown), ``best`` (every first turn proven
        to reach the value, in walk order; with ``all_wins`` and a win, all the winning first
        turns), ``best_complete`` (whether ``best`` is all of them), ``turns`` (first turns),
        ``proven`` (first turns whose value is exact), ``wins``/``not_wins`` (first turns
        proven winning / proven not winning), ``positions`` (table slots in use),
        ``writes``, ``hits``, ``table_slots``, ``table_mb``, ``peak_rss_mb`` (the process's
        peak resident memory after the search), ``memory_cap_mb``, ``stopped`` (``None``,
        ``"budget"``, ``"memory"`` or ``"listing"``).

    Raises
    ------
    ValueError
        If the game is over or a turn is in progress, or a budget is malformed.
    """
    if game.is_over:
        raise ValueError(f"solve: the game is over ({game.result})")
    if game.current:
        raise ValueError("solve: a turn is in progress; solve from the start of a turn")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 0:
        raise ValueError(f"solve: max_nodes must be an integer >= 0, got {max_nodes!r}")
    if table_bits is not None and (isinstance(table_bits, bool) or not isinstance(table_bits, int)
                                   or not 2 <= table_bits <= _MAX_TABLE_BITS):
        raise ValueError(f"solve: table_bits must be an integer from 2 to {_MAX_TABLE_BITS}, "
                         f"got {table_bits!r}")
    if method not in METHODS:
        raise ValueError(f"solve: method must be one of {', '.join(METHODS)}, got {method!r}")
    start = time.perf_counter()
    budget = new_budget(seconds, max_nodes, start)
    board = game.board
    plan = table_plan(board.n_edges, memory_gb, table_bits,
                      dfpn.dfpn_entry_bytes if method == "dfpn" else kernel.entry_bytes)
    search = TurnSearch(board.arrays, game.rules.flags, np.zeros(4, np.int64), True, True, False, 0,
                        plan["max_states"], 64, len(game.history), new_table(0), budget)
    bits = np.zeros(plan["words"], np.uint64)
    for e in np.flatnonzero(game.owner != 0):
        bits[e >> 6] |= np.uint64(1) << np.uint64(e & 63)
    extra = {}
    if method == "dfpn":
        sv, buf, count, complete, lower, upper, extra = _dfpn(game, search, plan, bits, all_wins, proof)
    else:
        sv = kernel.Solver(search, _new_table(plan, kernel.new_solve_table), kernel.new_ctl(plan["cap_kb"]))
        buf, count, complete, lower, upper = kernel.solve_root(
            game.marks.copy(), bits, game.ball_index, np.uint64(game.key), game.player, all_wins, sv)
        lower, upper = lower.astype(int), upper.astype(int)
    seconds_spent = time.perf_counter() - start
    value = None
    if complete and count and lower.max() >= upper.max():
        value = int(lower.max())
    best = [] if value is None else [i for i in range(count) if lower[i] >= value]
    if value == 1:
        best_complete = bool(np.all((lower == 1) | (upper <= 0)))
    else:
        best_complete = value is not None and bool(np.all((lower == upper) | (upper < value)))
    ctl = sv.ctl
    player = game.player
    winner = None if value is None else (player if value == 1 else 3 - player if value == -1 else 0)
    details = {
        "winner": winner, "best": [_decode(buf, i) for i in best], "best_complete": best_complete,
        "turns": int(count), "turns_complete": bool(complete),
        "proven": int(np.sum(lower == upper)) if complete else 0,
        "wins": int(np.sum(lower == 1)) if complete else 0,
        "not_wins": int(np.sum(upper <= 0)) if complete else 0,
        "positions": int(ctl[4]), "writes": int(ctl[5]), "hits": int(ctl[6]),
        "table_slots": 1 << plan["table_bits"], "table_mb": plan["table_bytes"] / 2**20,
        "peak_rss_mb": _peak_kb() / 2**10, "memory_cap_mb": plan["cap_kb"] / 2**10,
        "stopped": STOP_REASONS[int(ctl[0])], "method": method, **extra,
    }
    turn = _decode(buf, best[0]) if best else ""
    return SearchResult(turn, None if value is None else float(value), int(budget.ctl[4]), seconds_spent,
                        int(ctl[1]), details)
