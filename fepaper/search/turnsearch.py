"""Beyond the thesis: alpha-beta over complete turns, and plain minimax (:func:`search_turns`).

Each ply of the tree is one *distinct turn* (docs/rules.md: same end node, same marked
edges), so a bounce never costs depth and no turn is searched twice at a node. The
compiled search (:func:`fepaper._core.turnsearch.turn_search`) is negamax with
alpha-beta, a Zobrist transposition table (key: marks ^ ball ^ player), iterative
deepening, move ordering (the table's move first, then the turns ending nearest the
goal the mover attacks) and a time budget per move. The evaluation, for the side to
move, is a weighted sum of the :data:`FEATURES` (integer ``weights``, see
:func:`parse_weights`); the default, ``{"distance": 1}``, is (distance of the ball to the
goal it defends) - (distance to the goal it attacks). A win is worth ``WIN - plies`` (a
faster win is better), a loss the negation, a draw 0.

Examples
--------
>>> from fepaper.game import Game
>>> result = search_turns(Game("thesis", "0 54"), 2)
>>> result.turn in Game("thesis", "0 54").turns(), result.depth
(True, 2)
"""

from __future__ import annotations

import time

import numpy as np

from .._core import turnsearch as kernel
from .._core.bundles import Budget, new_budget
from .._core.features import DEFAULT_WEIGHTS, FEATURES
from ..game import Game
from ..game.walks import iter_turns
from .budget import reserve
from .programs import program_for
from .result import SearchResult

__all__ = ["search_turns", "WIN", "FEATURES", "VALUES_SHOWN", "turns_shown", "parse_weights", "weights_dict"]

WIN = kernel.WIN


def parse_weights(weights, name: str = "turnsearch") -> np.ndarray:
    """The int64 weight array of ``weights``: ``None`` (the default ``{"distance": 1}``), a
    dict ``{feature: int}`` (missing features weigh 0) or a list of one int per feature of
    :data:`FEATURES`, in that order.

    Raises
    ------
    ValueError
        Naming the valid features.

    Examples
    --------
    >>> parse_weights({"distance": 2, "mobility": 1}).tolist()
    [2, 0, 1, 0]
    """
    if weights is None:
        return DEFAULT_WEIGHTS.copy()
    valid = f"valid features: {list(FEATURES)}"
    if isinstance(weights, dict):
        unknown = sorted(str(k) for k in weights if k not in FEATURES)
        if unknown:
            raise ValueError(f"{name}: unknown weight feature(s) {unknown}; {valid}")
        values = [weights.get(f, 0) for f in FEATURES]
    elif isinstance(weights, (list, tuple, np.ndarray)):
        if len(weights) != len(FEATURES):
            raise ValueError(f"{name}: weights as a list need {len(FEATURES)} integers, one per feature "
                            f"({valid}), got {len(weights)}")
        values = list(weights)
    else:
        raise ValueError(f"{name}: weights must be a dict {{feature: int}} or a list of {len(FEATURES)} "
                        f"integers; {valid}; got {weights!r}")
    for f, w in zip(FEATURES, values):
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, np.integer)) or abs(int(w)) > 10_000:
            raise ValueError(f"{name}: the weight of {f!r} must be an integer from -10000 to 10000, "
                            f"got {w!r}; {valid}")
    if not any(values):
        raise ValueError(f"{name}: at least one weight must be non-zero; {valid}")
    return np.array([int(w) for w in values], np.int64)


def weights_dict(weights) -> dict:
    """The canonical JSON-able form of ``weights``: ``{feature: int}`` for the non-zero
    weights, in the order of :data:`FEATURES`."""
    return {f: int(w) for f, w in zip(FEATURES, parse_weights(weights)) if w}


def search_turns(game: Game, depth: int, *, pruning: bool = True, ordering: bool = True,
                 transposition: bool = True, iterative: bool = True, exact: bool = False,
                 time_limit: float | None = None, budget: Budget | None = None,
                 max_turns_per_node: int | None = None, max_states: int = 0, max_nodes: int = 0,
                 tt_bits: int = 18, weights=None, program=None) -> SearchResult:
    """Search the tree of distinct turns ``depth`` turns deep from ``game``'s position.

    Parameters
    ----------
    game : Game
        At the start of a turn, not finished; it is not changed.
    depth : int
        Turns to search.
    pruning : bool
        Alpha-beta (``False``: minimax, every node searched).
    ordering : bool
        The table's move first, then the turns ending nearest the goal the mover attacks
        (``False``: walk order). One turn above the leaves the turns are not listed: the walk
        values each where it finds it, trying the directions towards the goal first, and stops
        at the first that cuts off; and a turn that wins at once (with ``pruning``, without
        ``exact``) is played without listing the root's others.
    transposition : bool
        Use a transposition table of ``2 ** tt_bits`` entries.
    iterative : bool
        Deepen one turn at a time from 1 (``False``: search ``depth`` at once).
    exact : bool
        Search every root turn that might tie the best exactly, so ``details["best"]`` is
        the full set of best turns (as :func:`fepaper.search.reference.alphabeta` does).
    time_limit : float, optional
        Seconds; the search (turn listings included) stops and returns the deepest
        completed depth. ``budget`` passes a budget made elsewhere instead.
    max_turns_per_node : int, optional
        Keep at most this many turns at each node, the root included: the first by
        :func:`~fepaper._core.turnsearch.turn_priority` (a goal, then the ends nearest the
        goal the mover attacks; ties in walk order), chosen in a bounded heap while the
        listing walks, so memory stays bounded however many turns the position has.
    max_states : int
        States one listing may walk (0: no cap); a listing cut by it (or by the budget)
        holds the turns seen so far.
    max_nodes : int
        A budget of nodes (0: none), like ``time_limit`` but deterministic.
    weights : dict, list or None
        The leaf evaluation (:func:`parse_weights`; ``None``: ``{"distance": 1}``).
    program : tree or str, optional
        An evaluation tree (:mod:`fepaper.search.programs`; a cost for the player to move) in
        place of the weights: a leaf is worth minus its cost, in thousandths.

    Returns
    -------
    SearchResult
        ``value`` for the player to move after the deepest completed depth; ``nodes`` the
        positions visited, the root included; ``details``: ``best`` (every turn proven to
        have ``value``, in listing order; with ``exact=True`` exactly the turns minimax says
        are best; with a time limit only the first :func:`turns_shown` of them), ``n_best``
        (how many there are), ``values`` (turn -> value, where exact; only the best turns when more
        than :func:`turns_shown` are exact), ``complete`` (whether the root's listing holds
        all its turns: if not, ``value`` is over the turns listed only, unless it is a win at
        once, which no turn betters), ``stopped``
        (whether the budget ran out).

    Raises
    ------
    ValueError
        If the game is over, a turn is in progress, or a setting (the weights among them) is bad.
    """
    if game.is_over:
        raise ValueError(f"search_turns: the game is over ({game.result})")
    if game.current:
        raise ValueError("search_turns: a turn is in progress; search from the start of a turn")
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"search_turns: depth must be a positive integer (turns), got {depth!r}")
    if max_turns_per_node is not None and max_turns_per_node < 1:
        raise ValueError(f"search_turns: max_turns_per_node must be >= 1 or None, got {max_turns_per_node!r}")
    w = parse_weights(weights, "search_turns")
    start = time.perf_counter()
    if budget is None:
        seconds = None if time_limit is None else time_limit - reserve(time_limit)
        budget = new_budget(seconds, max_nodes, start)
    nodes_before = int(budget.ctl[4])
    table = kernel.new_table(tt_bits if transposition else 0)
    ctx = kernel.TurnSearch(game.board.arrays, game.rules.flags, w, pruning, ordering, transposition,
                            max_turns_per_node or 0, max_states, _root_states(budget, max_states),
                            len(game.history), table, budget,
                            *(() if program is None else (program_for(program, game.rules),)))
    buf, count, complete, values, exact_flags, best, chosen, depth_done = kernel.turn_search(
        game.marks.copy(), game.ball_index, np.uint64(game.key), game.player, 1 if iterative else depth,
        depth, exact, ctx)
    return _result(game, buf, count, complete, values, exact_flags, best, chosen, depth_done, budget,
                   nodes_before, start, turns_shown(time_limit))


#: States per second a listing walks at most (the walk's ~15 million, with room).
WALK_RATE = 25_000_000
#: The most states a root's key set is sized for at once (a 32 MB table; hashing touches all of it).
ROOT_STATES = 2_000_000


def _root_states(budget: Budget, max_states: int) -> int:
    """The states the root's key set is sized for: what the budget's time can walk, within
    ``max_states`` (64 without a deadline: the set grows as needed)."""
    if budget.deadline <= 0:
        return 64
    seconds = max(budget.deadline - time.perf_counter(), 0.0)
    states = min(int(seconds * WALK_RATE), ROOT_STATES)
    return max(64, min(states, max_states) if max_states > 0 else states)


#: Root turns beyond which ``details["values"]`` holds only the best turns, and ``details["best"]``
#: of a search with a deadline only the first of them (decoding millions of turns into strings
#: would cost more time than the search had).
VALUES_SHOWN = 10_000
#: Root turns a second the wrap-up names with their values, low: the 9,792 turns of a root took 1.75
#: to 2.4 ms (4 to 5.6 million a second) on a shared machine.
DECODE_RATE = 2_000_000


def turns_shown(time_limit: float | None) -> int:
    """The most root turns a search reports by name (``details["values"]``, and ``details["best"]``
    under a deadline): :data:`VALUES_SHOWN`, and with a ``time_limit`` what half the time kept back
    for the wrap-up (:func:`~fepaper.search.budget.reserve`) decodes at :data:`DECODE_RATE`, at
    least 1 (minimax at 5 ms once spent half its budget naming the 9,792 turns of its root).

    >>> turns_shown(None), turns_shown(0.005), turns_shown(0.1), turns_shown(1.0)
    (10000, 1100, 3000, 10000)
    """
    if time_limit is None:
        return VALUES_SHOWN
    return max(1, min(VALUES_SHOWN, int(0.5 * reserve(time_limit) * DECODE_RATE)))


def _decode(buf, indices: np.ndarray) -> list[str]:
    """The step strings of the listed turns ``indices`` (ascending), from one bytes object of their
    steps alone: not of the span between the first and the last, which on a root of a million turns
    is the whole listing (copying its 45 MB took 25 ms of a 1 s minimax decision)."""
    if indices.size == 0:
        return []
    starts = buf.offsets[indices]
    lengths = buf.offsets[indices + 1] - starts
    bounds = np.zeros(indices.size + 1, np.int64)
    np.cumsum(lengths, out=bounds[1:])
    raw = (buf.steps[np.repeat(starts - bounds[:-1], lengths) + np.arange(bounds[-1])] + 48).tobytes()
    cuts = bounds.tolist()
    return [raw[a:b].decode() for a, b in zip(cuts, cuts[1:])]


def _result(game, buf, count, complete, values, exact_flags, best, chosen, depth_done, budget, nodes_before,
            start, shown_at_most) -> SearchResult:
    """The :class:`SearchResult` of a compiled search; decodes only the turns it reports, at most
    ``shown_at_most`` (:func:`turns_shown`) and each once."""
    if chosen < 0:  # not even one turn listed: the first one the walk finds
        chosen_turn = next(iter_turns(game.marks, game.ball_index, game.board, game.rules))[0]
    else:
        chosen_turn = _decode(buf, np.array([chosen]))[0]
    exact_idx = np.flatnonzero(exact_flags[:count])
    best_idx = exact_idx[values[exact_idx] == best]
    n_best = int(best_idx.size)
    if budget.deadline > 0 and n_best > shown_at_most:
        best_idx = best_idx[:shown_at_most]
    shown = exact_idx if exact_idx.size <= shown_at_most else best_idx
    names, shown_values = _decode(buf, shown), values[shown].tolist()
    known = dict(zip(names, shown_values))
    best_turns = [t for t, v in zip(names, shown_values) if v == best]
    details = {"best": best_turns, "n_best": n_best, "values": known, "complete": bool(complete),
               "stopped": bool(budget.ctl[1])}
    value = float(best) if exact_idx.size else None
    return SearchResult(chosen_turn, value, int(budget.ctl[4]) - nodes_before, time.perf_counter() - start,
                        int(depth_done), details)
