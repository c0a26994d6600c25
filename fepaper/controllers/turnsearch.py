"""Beyond the thesis: alpha-beta over complete turns (``turnsearch``) and plain ``minimax``.

Each ply of the tree is one *distinct turn* (RULES.md: same end node, same marked
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
from dataclasses import dataclass

import numpy as np

from .._core import turnsearch as kernel
from .._core.clock import CHECK_EVERY
from ..game.game import Game
from .base import Controller, SpecError, register

__all__ = ["TurnSearchResult", "search_turns", "TurnSearch", "Minimax", "WIN", "FEATURES", "parse_weights",
           "weights_dict"]

WIN = kernel.WIN
#: The leaf features, from the side to move's point of view: ``distance`` = (steps to the
#: goal it defends) - (steps to the goal it attacks); ``attack`` = -(steps to the goal it
#: attacks); ``mobility`` = free steps at the ball; ``bounce`` = free steps at the ball onto
#: an already marked field node (each lets the mover go on: the thesis's bounces).
FEATURES = kernel.FEATURES
_DEFAULT = tuple(int(w) for w in kernel.DEFAULT_WEIGHTS)


@dataclass(frozen=True)
class TurnSearchResult:
    """What :func:`search_turns` found.

    Attributes
    ----------
    value : int
        The root value for the player to move (after the deepest completed depth).
    turn : str
        The chosen turn (the first best in search order).
    best_turns : list of str
        Every turn proven to have ``value`` (with ``exact=True``: exactly the turns that
        minimax says are best), in walk order.
    values : dict
        Turn -> value for the turns whose value is exact.
    nodes : int
        Positions visited, the root included.
    depth : int
        The deepest depth completed (0 if the time ran out during depth 1).
    seconds : float
    """

    value: int
    turn: str
    best_turns: list
    values: dict
    nodes: int
    depth: int
    seconds: float


def _check_cap(name: str, max_turns_per_node) -> None:
    if max_turns_per_node is not None and (isinstance(max_turns_per_node, bool)
                                           or not isinstance(max_turns_per_node, int)
                                           or max_turns_per_node < 1):
        raise SpecError(f"{name}: max_turns_per_node must be a positive integer or None, "
                        f"got {max_turns_per_node!r}")


def _check_depth(name: str, depth) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise SpecError(f"{name}: depth must be a positive integer (turns), got {depth!r}")


def parse_weights(weights, name: str = "turnsearch") -> np.ndarray:
    """The int64 weight array of ``weights``: ``None`` (the default ``{"distance": 1}``), a
    dict ``{feature: int}`` (missing features weigh 0) or a list of one int per feature of
    :data:`FEATURES`, in that order.

    Raises
    ------
    SpecError
        Naming the valid features.

    Examples
    --------
    >>> parse_weights({"distance": 2, "mobility": 1}).tolist()
    [2, 0, 1, 0]
    """
    if weights is None:
        return kernel.DEFAULT_WEIGHTS.copy()
    valid = f"valid features: {list(FEATURES)}"
    if isinstance(weights, dict):
        unknown = sorted(str(k) for k in weights if k not in FEATURES)
        if unknown:
            raise SpecError(f"{name}: unknown weight feature(s) {unknown}; {valid}")
        values = [weights.get(f, 0) for f in FEATURES]
    elif isinstance(weights, (list, tuple, np.ndarray)):
        if len(weights) != len(FEATURES):
            raise SpecError(f"{name}: weights as a list need {len(FEATURES)} integers, one per feature "
                            f"({valid}), got {len(weights)}")
        values = list(weights)
    else:
        raise SpecError(f"{name}: weights must be a dict {{feature: int}} or a list of {len(FEATURES)} "
                        f"integers; {valid}; got {weights!r}")
    for f, w in zip(FEATURES, values):
        if isinstance(w, bool) or not isinstance(w, (int, np.integer)) or abs(int(w)) > 10_000:
            raise SpecError(f"{name}: the weight of {f!r} must be an integer from -10000 to 10000, "
                            f"got {w!r}; {valid}")
    if not any(values):
        raise SpecError(f"{name}: at least one weight must be non-zero; {valid}")
    return np.array([int(w) for w in values], np.int64)


def weights_dict(weights) -> dict:
    """The canonical JSON-able form of ``weights``: ``{feature: int}`` for the non-zero
    weights, in the order of :data:`FEATURES`."""
    return {f: int(w) for f, w in zip(FEATURES, parse_weights(weights)) if w}


def search_turns(game: Game, depth: int, *, pruning: bool = True, ordering: bool = True,
                 transposition: bool = True, iterative: bool = True, exact: bool = False,
                 time_limit: float | None = None, max_turns_per_node: int | None = None,
                 max_nodes: int = 0, tt_bits: int = 18, weights=None) -> TurnSearchResult:
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
        (``False``: walk order).
    transposition : bool
        Use a transposition table of ``2 ** tt_bits`` entries.
    iterative : bool
        Deepen one turn at a time from 1 (``False``: search ``depth`` at once).
    exact : bool
        Search every root turn that might tie the best exactly, so ``best_turns`` is the
        full set of best turns (as :func:`fepaper.search.alphabeta` does).
    time_limit : float, optional
        Seconds; the search stops and returns the deepest completed depth.
    max_turns_per_node : int, optional
        Expand at most this many turns (the first in walk order) at each node below the
        root and at the root; for positions with huge numbers of turns.
    max_nodes : int
        A node budget (0: none), like ``time_limit`` but deterministic.
    weights : dict, list or None
        The leaf evaluation (:func:`parse_weights`; ``None``: ``{"distance": 1}``).

    Raises
    ------
    ValueError
        If the game is over or a turn is in progress (a :class:`SpecError` for bad weights).
    """
    if game.is_over:
        raise ValueError(f"search_turns: the game is over ({game.result})")
    if game.current:
        raise ValueError("search_turns: a turn is in progress; search from the start of a turn")
    _check_depth("search_turns", depth)
    w = parse_weights(weights, "search_turns")
    if max_turns_per_node is not None and max_turns_per_node < 1:
        raise ValueError(f"search_turns: max_turns_per_node must be >= 1 or None, got {max_turns_per_node!r}")
    start = time.perf_counter()
    b = game.board
    size = 1 << tt_bits if transposition else 1
    tt_keys = np.zeros(size, np.uint64)
    tt_vals = np.zeros(size, np.int64)
    tt_draft = np.zeros(size, np.int8)
    tt_flag = np.zeros(size, np.int8)
    tt_move = np.zeros(size, np.int32)
    ctl = np.array([0, 0, max_nodes, CHECK_EVERY], np.int64)
    deadline = 0.0 if time_limit is None else start + time_limit
    rules = game.rules
    out = kernel.turn_search(
        game.marks.copy(), game.ball_index, np.uint64(game.key), game.player,
        1 if iterative else depth, depth,
        b.exists, b.neighbour, b.edge_index, b.goal, b.edge_keys, b.node_keys, b.distance, w,
        rules.bounce == "optional", rules.blocked == "draw", rules.max_turns or 0, len(game.history),
        pruning, ordering, transposition, max_turns_per_node or 0, exact,
        tt_keys, tt_vals, tt_draft, tt_flag, tt_move, ctl, deadline)
    steps, offsets, count, values, exact_flags, best, chosen, depth_done = out
    digits = (steps[: offsets[count]] + 48).tobytes().decode()
    turns = [digits[offsets[i]:offsets[i + 1]] for i in range(count)]
    known = {t: int(v) for t, v, e in zip(turns, values, exact_flags) if e}
    best_turns = [t for t in turns if known.get(t) == int(best)]
    return TurnSearchResult(int(best), turns[chosen], best_turns, known, int(ctl[0]), int(depth_done),
                            time.perf_counter() - start)


@register
class TurnSearch(Controller):
    """Alpha-beta over complete turns with a transposition table and iterative deepening.

    Parameters
    ----------
    depth : int
        Turns to search (the most, with a ``time_limit``).
    ordering : bool
        Move ordering (``False``: alpha-beta in walk order, for comparisons).
    transposition : bool
        Use the transposition table.
    max_turns_per_node : int or None
        Expand at most this many turns per node (``None``: all).
    tt_bits : int
        The table has ``2 ** tt_bits`` entries.
    weights : dict, list or None
        The leaf evaluation, ``{feature: int}`` over :data:`FEATURES` or a list of one
        integer per feature (``None``: ``{"distance": 1}``, the distance difference). The
        spec holds the canonical dict, and only when it differs from the default.
    ties : {"first", "random"}
        Which of the best turns to play: the first in search order (deterministic), or one
        drawn with the controller's seeded generator among all the best turns (the root is
        then searched with ``exact=True``). In the spec only when ``"random"``.
    seed, time_limit
        As for every controller; the time limit is per decision.
    """

    name = "turnsearch"

    def __init__(self, depth: int = 3, ordering: bool = True, transposition: bool = True,
                 max_turns_per_node: int | None = None, tt_bits: int = 18, weights=None,
                 ties: str = "first", **kw) -> None:
        super().__init__(**kw)
        _check_depth(self.name, depth)
        _check_cap(self.name, max_turns_per_node)
        if isinstance(tt_bits, bool) or not isinstance(tt_bits, int) or not 1 <= tt_bits <= 28:
            raise SpecError(f"{self.name}: tt_bits must be an integer from 1 to 28, got {tt_bits!r}")
        self.depth, self.ordering, self.transposition = depth, bool(ordering), bool(transposition)
        self.max_turns_per_node, self.tt_bits = max_turns_per_node, tt_bits
        self._params = {"depth": depth, "ordering": self.ordering, "transposition": self.transposition,
                        "max_turns_per_node": max_turns_per_node, "tt_bits": tt_bits}
        self.weights = parse_weights(weights, self.name)
        if tuple(self.weights.tolist()) != _DEFAULT:
            self._params["weights"] = weights_dict(weights)
        if ties not in ("first", "random"):
            raise SpecError(f'{self.name}: ties must be "first" or "random", got {ties!r}')
        self.ties = ties
        if ties != "first":
            self._params["ties"] = ties
        self.last_result: TurnSearchResult | None = None

    def decide(self, game: Game) -> tuple[str, int]:
        result = search_turns(game, self.depth, ordering=self.ordering, transposition=self.transposition,
                              time_limit=self.time_limit, max_turns_per_node=self.max_turns_per_node,
                              tt_bits=self.tt_bits, weights=self.weights, exact=self.ties == "random")
        self.last_result = result
        turn = result.turn
        if self.ties == "random" and len(result.best_turns) > 1:
            turn = result.best_turns[int(self.rng.integers(len(result.best_turns)))]
        return turn, result.nodes


@register
class Minimax(Controller):
    """Plain minimax over complete turns: no pruning, no table, no ordering (for counting
    the nodes that alpha-beta saves).

    Parameters
    ----------
    depth : int
        Turns to search.
    max_turns_per_node : int or None
        Expand at most this many turns per node (``None``: all).
    seed, time_limit
        As for every controller; with a time limit it deepens one turn at a time.
    """

    name = "minimax"

    def __init__(self, depth: int = 2, max_turns_per_node: int | None = None, **kw) -> None:
        super().__init__(**kw)
        _check_depth(self.name, depth)
        _check_cap(self.name, max_turns_per_node)
        self.depth, self.max_turns_per_node = depth, max_turns_per_node
        self._params = {"depth": depth, "max_turns_per_node": max_turns_per_node}
        self.last_result: TurnSearchResult | None = None

    def decide(self, game: Game) -> tuple[str, int]:
        result = search_turns(game, self.depth, pruning=False, ordering=False, transposition=False,
                              iterative=self.time_limit is not None, time_limit=self.time_limit,
                              max_turns_per_node=self.max_turns_per_node)
        self.last_result = result
        return result.turn, result.nodes
