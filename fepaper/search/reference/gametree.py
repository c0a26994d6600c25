"""Reference search: slow, obviously correct minimax and alpha-beta over a small State.

These are the twins that the compiled engines are tested against, written for clarity:
every node is a :meth:`State.clone`, nothing is cached, and the side to move is asked at
every node (``state.current_player() == player``), never assumed to alternate, because
in paper soccer a bounce gives the same player another step. The reference MCTS is
:mod:`fepaper.search.reference.montecarlo`.

Conventions
-----------
- Games are two-player and zero-sum; values are from ``player``'s side.
- ``depth`` counts plies, i.e. calls to ``apply_action``; ``None`` searches to the end.
- Leaf values. If an evaluation is in use (the ``evaluate`` argument, or else the
  state's own ``evaluate`` method) it scores *every* leaf, finished games included, as in
  the Connect Four report ("When arriving to a certain depth or to a terminal
  state ... the algorithm gets the evaluation"); this keeps a win (512 there) on the
  evaluation's scale. Without one, a finished game is worth ``returns()[player]`` and
  reaching the depth limit in an unfinished game is an error.
- Every search returns a :class:`~fepaper.search.result.SearchResult`;
  ``details["best"]`` lists every root action whose value equals the root value, in the
  order of ``legal_actions()``; :func:`alphabeta` returns exactly the same list as
  :func:`minimax` (each root child is searched with a window that only excludes values
  strictly below the best so far).

Examples
--------
>>> from fepaper.games.toygames import TicTacToe
>>> result = alphabeta(TicTacToe([4]), None, 0)
>>> result.value, result.details["best"]
(0.0, [0, 2, 6, 8])
>>> minimax(TicTacToe([4]), None, 1).details["best"]
[0, 2, 6, 8]
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..result import SearchResult

__all__ = [
    "State",
    "SearchStats",
    "minimax",
    "alphabeta",
    "evaluation_order",
]

Evaluate = Callable[[Any, int], float]
Order = Callable[[Any, list], list]


class State(Protocol):
    """What the reference search needs of a game position (OpenSpiel's names).

    Optionally a state also has ``evaluate(player) -> float``, the heuristic value of the
    position for ``player``; depth-limited search uses it when no ``evaluate`` is passed.
    """

    def current_player(self) -> int:
        """The player to move, 0 or 1; -1 once the game is over."""

    def legal_actions(self) -> list:
        """The actions of the player to move (empty when the game is over)."""

    def apply_action(self, action) -> None:
        """Play ``action`` in place; the same player may be to move afterwards."""

    def clone(self) -> State:
        """An independent copy."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""

    def returns(self) -> list[float]:
        """The final reward of each player (for a finished game)."""


@dataclass
class SearchStats:
    """What a :func:`minimax` or :func:`alphabeta` search spent.

    Pass one as ``stats=`` and the search adds to it. ``nodes`` counts every state the
    search visits, the root included (the full tic-tac-toe tree has 549,946);
    ``leaves`` those that were scored (finished, or at the depth limit). ``seconds`` is
    wall time and is ignored by ``==``.
    """

    nodes: int = 0
    leaves: int = 0
    seconds: float = field(default=0.0, compare=False)


# --- minimax and alpha-beta -----------------------------------------------------------------


def _resolve_evaluate(state, evaluate: Evaluate | None) -> Evaluate | None:
    if evaluate is not None:
        return evaluate
    if callable(getattr(state, "evaluate", None)):
        return lambda s, p: s.evaluate(p)
    return None


def _check_depth(depth: int | None) -> None:
    if depth is not None and depth < 0:
        raise ValueError(f"depth must be >= 0 or None, got {depth}")


def _open_root(state, depth, player, evaluate, stats):
    """The checks and the root's leaf test that minimax and alpha-beta share:
    ``(stats, evaluate, start time, the root's value if it is a leaf else None)``."""
    _check_depth(depth)
    stats = stats if stats is not None else SearchStats()
    evaluate = _resolve_evaluate(state, evaluate)
    start = time.perf_counter()
    stats.nodes += 1
    return stats, evaluate, start, _leaf(state, depth, player, evaluate, stats)


def _leaf(state, depth, player, evaluate, stats) -> float | None:
    """The value of ``state`` if it is a leaf (finished, or at the depth limit), else None."""
    finished = state.is_terminal()
    if not finished and depth != 0:
        return None
    stats.leaves += 1
    if evaluate is not None:
        return evaluate(state, player)
    if finished:
        return state.returns()[player]
    raise ValueError(f"depth limit reached in an unfinished game ({state!r}) and there is no "
                     "evaluation: pass evaluate= or search with depth=None")


def _children(state, actions):
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        yield a, child


def _actions(state) -> list:
    actions = list(state.legal_actions())
    if not actions:
        raise ValueError(f"unfinished game with no legal actions: {state!r}")
    return actions


def _minimax(state, depth, player, evaluate, stats) -> float:
    stats.nodes += 1
    value = _leaf(state, depth, player, evaluate, stats)
    if value is not None:
        return value
    below = None if depth is None else depth - 1
    values = [_minimax(child, below, player, evaluate, stats)
              for _, child in _children(state, _actions(state))]
    return max(values) if state.current_player() == player else min(values)


def minimax(state: State, depth: int | None, player: int, evaluate: Evaluate | None = None, *,
            stats: SearchStats | None = None) -> SearchResult:
    """Plain minimax: the value of ``state`` for ``player`` and every best root action.

    Parameters
    ----------
    state : State
        The position; it is not modified.
    depth : int or None
        Plies to search; ``None`` searches to the end of the game.
    player : int
        The maximizing player. At every node the side to move is asked: nodes where
        ``player`` moves maximize, the others minimize.
    evaluate : callable, optional
        ``evaluate(state, player) -> float``; defaults to the state's ``evaluate`` method
        if it has one. See the module docstring for which leaves it scores.
    stats : SearchStats, optional
        Counters to add this search's nodes, leaves and time to (across searches).

    Returns
    -------
    SearchResult
        ``value``: the minimax value for ``player``; ``details["best"]``: the root actions
        achieving it (best for the side to move at the root), in ``legal_actions()``
        order, empty if the root is a leaf; ``turn``: the first of them (``None`` if none);
        ``nodes``: states visited, the root included; ``details["leaves"]``.

    Examples
    --------
    >>> from fepaper.games.toygames import ConnectFour
    >>> result = minimax(ConnectFour(), 1, 0)
    >>> result.value, result.details["best"]
    (7, [3])
    """
    stats, evaluate, start, value = _open_root(state, depth, player, evaluate, stats)
    before = (stats.nodes - 1, stats.leaves)
    if value is not None:
        return _result(value, [], depth, stats, before, start)
    below = None if depth is None else depth - 1
    values = {a: _minimax(child, below, player, evaluate, stats)
              for a, child in _children(state, _actions(state))}
    pick = max if state.current_player() == player else min
    value = pick(values.values())
    return _result(value, [a for a, v in values.items() if v == value], depth, stats, before, start)


def _result(value, best: list, depth, stats: SearchStats, before: tuple[int, int],
            start: float) -> SearchResult:
    """The search's :class:`SearchResult`; adds its time to ``stats``."""
    seconds = time.perf_counter() - start
    stats.seconds += seconds
    return SearchResult(best[0] if best else None, value, stats.nodes - before[0], seconds, depth or 0,
                        {"best": best, "leaves": stats.leaves - before[1]})


def _alphabeta(state, depth, alpha, beta, player, evaluate, order, stats) -> float:
    """Fail-soft alpha-beta: exact if the result is strictly inside (alpha, beta); if it is
    <= alpha it is an upper bound of the true value, if >= beta a lower bound."""
    stats.nodes += 1
    value = _leaf(state, depth, player, evaluate, stats)
    if value is not None:
        return value
    below = None if depth is None else depth - 1
    actions = _actions(state)
    if order is not None:
        actions = order(state, actions)
    if state.current_player() == player:
        value = -math.inf
        for _, child in _children(state, actions):
            value = max(value, _alphabeta(child, below, alpha, beta, player, evaluate, order, stats))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    else:
        value = math.inf
        for _, child in _children(state, actions):
            value = min(value, _alphabeta(child, below, alpha, beta, player, evaluate, order, stats))
            beta = min(beta, value)
            if alpha >= beta:
                break
    return value


def alphabeta(state: State, depth: int | None, player: int, evaluate: Evaluate | None = None,
              order: Order | None = None, *,
              stats: SearchStats | None = None) -> SearchResult:
    """Alpha-beta: the same value and the same best actions as :func:`minimax`.

    Below the root it is textbook fail-soft alpha-beta. At the root, each action is
    searched with the window (just below the best value so far, +inf) when the root
    maximizes (mirrored when it minimizes), so any action that ties the best is searched
    exactly and the list of best actions is exact; the others are cut off as soon as
    they are proven worse.

    Parameters
    ----------
    state, depth, player, evaluate, stats
        As in :func:`minimax`.
    order : callable, optional
        ``order(state, actions) -> actions``, the order in which to try the actions at
        every node (the root included), e.g. :func:`evaluation_order`. It changes the
        nodes visited, never the result.

    Returns
    -------
    SearchResult
        As in :func:`minimax`.

    Examples
    --------
    >>> from fepaper.games.toygames import ConnectFour
    >>> a, b = minimax(ConnectFour("33"), 4, 0), alphabeta(ConnectFour("33"), 4, 0)
    >>> (a.value, a.details["best"]) == (b.value, b.details["best"])
    True
    >>> a.nodes, b.nodes
    (2801, 994)
    >>> c = alphabeta(ConnectFour("33"), 4, 0, order=evaluation_order())
    >>> c.value, c.details["best"], c.nodes
    (-5, [3], 349)
    """
    stats, evaluate, start, value = _open_root(state, depth, player, evaluate, stats)
    before = (stats.nodes - 1, stats.leaves)
    if value is not None:
        return _result(value, [], depth, stats, before, start)
    below = None if depth is None else depth - 1
    actions = _actions(state)
    searched = actions if order is None else order(state, actions)
    maximizing = state.current_player() == player
    best = -math.inf if maximizing else math.inf
    exact = {}  # root action -> its exact value, for every action that could tie the best
    for a, child in _children(state, searched):
        if maximizing:
            # math.nextafter: the largest float below best, so a tie is strictly inside
            alpha = -math.inf if best == -math.inf else math.nextafter(float(best), -math.inf)
            v = _alphabeta(child, below, alpha, math.inf, player, evaluate, order, stats)
            if v > alpha:
                exact[a] = v
                best = max(best, v)
        else:
            beta = math.inf if best == math.inf else math.nextafter(float(best), math.inf)
            v = _alphabeta(child, below, -math.inf, beta, player, evaluate, order, stats)
            if v < beta:
                exact[a] = v
                best = min(best, v)
    return _result(best, [a for a in actions if a in exact and exact[a] == best], depth, stats, before, start)


def evaluation_order(evaluate: Evaluate | None = None) -> Order:
    """Move ordering of the Connect Four report: children sorted by their evaluation, best first for the
    side to move (its "multimap ... indexed by the evaluation of the state").

    Parameters
    ----------
    evaluate : callable, optional
        ``evaluate(state, player)``; defaults to the state's ``evaluate`` method.

    Returns
    -------
    callable
        ``order(state, actions) -> actions`` for :func:`alphabeta`; ties keep the order
        of ``actions``. Its evaluations are not counted as nodes.
    """

    def order(state, actions: list) -> list:
        ev = _resolve_evaluate(state, evaluate)
        mover = state.current_player()
        scores = {}
        for a, child in _children(state, actions):
            scores[a] = ev(child, mover)
        return sorted(actions, key=lambda a: -scores[a])

    return order
