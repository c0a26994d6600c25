"""The thesis's alpha-beta (§4.1) over steps: one search (:func:`thesis_line`) and a whole turn
played the way the thesis's controller plays it (:func:`thesis_turn`).

The thesis's package ``alfaBeta`` (methods ``maxValor`` / ``minValor``) searched the
tree of *steps*; its versions were, in the thesis's order:

``"static"``
    One state per board node, created before the search; a state's minimax value is
    overwritten whenever the search passes its node again, and the turn is read off
    those stored values. The thesis names the flaw: "the minimax values of the states
    are overwritten by the execution of the algorithm due to the same nodes are
    evaluated in different times".
``"costs"``
    Static, plus "the edge's cost" added to the minimax value. The thesis drops it
    because "this is done more effectively permitting rebounds when they are possible",
    so the costs favour bounces (``costs="bounces"``, the default): a cost counts against
    the player whose step it is, a bounce costs -1 (one step of distance gained) and a
    step that ends the turn 0. fepaper 0.1's reading, ``costs="steps"``, charges every
    step 1 whoever makes it (A*'s g + h: the thesis also tried A*), which penalises
    bounces (docs/interpretation.md).
``"nocycles"``
    Static, and the ball never lands twice on a node within one turn.
``"dynamic"``
    Children created per path: plain alpha-beta with values on the recursion; "the
    chosen version to evaluate the other controllers".

Common to all (see :mod:`fepaper._core.alphabeta`): depth is the level in turns (1 to
10), a bounce does not use up depth, at most ``max_bounces`` (15) bounces are explored
per turn, nearest-first expansion for the root player (MIN) and the reverse for MAX (the
thesis's order, §4.1: "the nearest states first"; ``ordering="fixed"`` tries the directions
0 to 7 for both instead, to measure what the order saves), and on a bounce the search never
considers stopping ("only the longest path is considered"). So :func:`thesis_turn` never stops
voluntarily after a bounce: when the line it found ends on a bounce (only at the bounce
limit, or at a dead end of ``nocycles``) it searches again from there, as the thesis's
controller is asked again while it may still move ("this does not means that a player
cannot do more movements than 15").

Examples
--------
>>> from fepaper.game import Game
>>> result = thesis_turn(Game("thesis"), "dynamic", 2)
>>> result.turn in Game("thesis").turns(), result.depth
(True, 2)
"""

from __future__ import annotations

import time
from functools import lru_cache

import numpy as np

from .._core import alphabeta as kernel
from .._core.bundles import Budget, new_budget
from ..game import Game, Rules
from ..game.board import BOTTOM, TOP, Board
from .budget import reserve
from .programs import program_for
from .result import SearchResult

__all__ = ["thesis_line", "thesis_turn", "expansion_orders", "VARIANTS", "COSTS", "CYCLE_CHECKS",
           "EVALUATIONS", "ORDERINGS"]

#: The thesis's versions, in its order.
VARIANTS = kernel.VARIANTS


@lru_cache(maxsize=64)
def _order(rules: Rules, row: int) -> np.ndarray:
    """MIN's expansion order toward the goal of distance row ``row`` (read-only, per board)."""
    board = Board.of(rules)
    order = kernel.nearest_first(board.neighbour, board.distance[row])
    order.setflags(write=False)
    return order


@lru_cache(maxsize=64)
def expansion_orders(rules: Rules, row: int, ordering: str) -> tuple[np.ndarray, np.ndarray]:
    """MIN's and MAX's expansion orders (read-only, per board): the thesis's nearest-first for MIN
    and its reverse for MAX, or the directions 0 to 7 for both (``"fixed"``)."""
    if ordering == "fixed":
        fixed = kernel.fixed_order(Board.of(rules).n_nodes)
        fixed.setflags(write=False)
        return fixed, fixed
    order = _order(rules, row)
    reverse = np.ascontiguousarray(order[:, ::-1])
    reverse.setflags(write=False)
    return order, reverse


#: ``(cost_end, cost_bounce, cost_max_sign)`` of each reading of the costs version.
COSTS = {"bounces": (0, -1, -1), "steps": (1, 1, 1)}
#: The no-cycles version's check: one array look-up per step, or a scan of the turn's path.
CYCLE_CHECKS = ("lookup", "scan")
#: A leaf's value: the plain distance to the goal, or the A* path distance over the free edges.
EVALUATIONS = ("distance", "astar")
#: The expansion order: the thesis's nearest-first (MIN; the reverse for MAX), or the fixed order of
#: the directions, 0 to 7, for both players.
ORDERINGS = ("nearest", "fixed")


def _context(game: Game, variant: str, level: int, max_bounces: int, budget: Budget,
             costs: str = "bounces", cycle_check: str = "lookup",
             evaluation: str = "distance", ordering: str = "nearest", program=None) -> kernel.ThesisSearch:
    b = game.board
    row = game.player - 1  # the distance row of the goal the player to move attacks
    target = TOP if game.player == 1 else BOTTOM
    dist = b.distance[row]
    stored = dist.astype(np.int64)
    stored[b.goal == target] = 0
    stored[(b.goal != 0) & (b.goal != target)] = kernel.INFINITO
    size = (max_bounces if max_bounces >= 0 else b.n_edges) + 2
    cost_end, cost_bounce, sign = COSTS[costs] if variant == "costs" else (0, 0, 1)
    order, max_order = expansion_orders(game.rules, row, ordering)
    return kernel.ThesisSearch(b.exists, b.neighbour, b.goal, game.rules.flags, dist,
                               order, max_order, target, level, max_bounces,
                               kernel.VARIANTS.index(variant), cost_end, cost_bounce, sign, stored,
                               np.zeros(b.n_nodes, np.int32), np.zeros((size, size), np.int8),
                               np.zeros(size, np.int32), budget, cycle_check == "scan",
                               np.zeros(b.n_edges + 3, np.int32), np.full(b.n_edges + 3, -1, np.int32),
                               evaluation == "astar", dist, np.zeros(2 * b.n_nodes + 1, np.int32),
                               np.zeros(8 * b.n_nodes + 1, np.int64),
                               *(() if program is None else (program_for(program, game.rules),)))


def thesis_line(game: Game, variant: str = "dynamic", level: int = 2, max_bounces: int = 15,
                budget: Budget | None = None, costs: str = "bounces", cycle_check: str = "lookup",
                evaluation: str = "distance", ordering: str = "nearest", program=None) -> SearchResult:
    """One search of the thesis's alpha-beta from ``game``'s position (a turn may be in
    progress: the player to move goes on).

    Returns a :class:`~fepaper.search.result.SearchResult`: ``turn`` is the steps the
    search chose within the current turn (a prefix of a turn: it ends the turn unless it
    stops at the bounce limit; empty if the budget ran out before the first step was
    searched); ``value`` the root value for the player to move (MIN: smaller is better);
    ``nodes`` the steps the search made; ``depth`` the level, or 0 if the budget stopped
    it (``details["stopped"]``). ``costs`` is the reading of the costs version
    (:data:`COSTS`); the other variants ignore it. ``cycle_check`` is the no-cycles version's
    check (:data:`CYCLE_CHECKS`: the same steps refused, the scan slower); ``evaluation`` a leaf's
    value (:data:`EVALUATIONS`); ``ordering`` the expansion order (:data:`ORDERINGS`); ``program``
    an evaluation tree (:mod:`fepaper.search.programs`, a tree or its text, a cost for the player to
    move) in place of ``evaluation``: the value is then :data:`~fepaper._core.alphabeta.PROGRAM_OFFSET`
    plus its cost in thousandths.
    """
    if variant not in kernel.VARIANTS:
        raise ValueError(f"alphabeta: variant must be one of {kernel.VARIANTS}, got {variant!r}")
    if costs not in COSTS:
        raise ValueError(f"alphabeta: costs must be one of {sorted(COSTS)}, got {costs!r}")
    if cycle_check not in CYCLE_CHECKS:
        raise ValueError(f"alphabeta: cycle_check must be one of {CYCLE_CHECKS}, got {cycle_check!r}")
    if evaluation not in EVALUATIONS:
        raise ValueError(f"alphabeta: evaluation must be one of {EVALUATIONS}, got {evaluation!r}")
    if ordering not in ORDERINGS:
        raise ValueError(f"alphabeta: ordering must be one of {ORDERINGS}, got {ordering!r}")
    start = time.perf_counter()
    budget = budget if budget is not None else new_budget()
    nodes_before = int(budget.ctl[4])
    ctx = _context(game, variant, level, max_bounces, budget, costs, cycle_check, evaluation, ordering,
                   program)
    value = kernel.thesis_search(game.marks.copy(), game.ball_index, ctx)
    stopped = bool(budget.ctl[1])
    if variant == "dynamic" or stopped:
        steps = ctx.pv[0, :ctx.pvlen[0]]
    else:
        out = np.zeros(game.board.n_edges + 1, np.int8)
        steps = out[:kernel.static_line(game.marks, game.ball_index, ctx, out)]
    line = "".join(str(int(d)) for d in steps)
    return SearchResult(line, float(value), int(budget.ctl[4]) - nodes_before, time.perf_counter() - start,
                        0 if stopped else level, {"stopped": stopped})


def _line(game: Game, variant: str, depth: int, max_bounces: int, budget: Budget | None, costs: str,
          swaps: dict) -> SearchResult:
    """The line of the deepest search finished within ``budget`` (``None``: ``depth`` at once)."""
    if budget is None:
        return thesis_line(game, variant, depth, max_bounces, costs=costs, **swaps)
    best = None
    for level in range(1, depth + 1):
        result = thesis_line(game, variant, level, max_bounces, budget, costs, **swaps)
        if result.depth or best is None:
            best = result if result.turn or best is None else best
        if not result.depth:
            break
    return best


def thesis_turn(game: Game, variant: str = "dynamic", depth: int = 2, max_bounces: int = 15, *,
                costs: str = "bounces", cycle_check: str = "lookup", evaluation: str = "distance",
                ordering: str = "nearest", time_limit: float | None = None,
                max_nodes: int | None = None, program=None) -> SearchResult:
    """A whole turn of the thesis's alpha-beta from ``game``'s position (not changed), as its
    controller plays one: :func:`thesis_line` from the ball, and again from where the line stops
    while the turn goes on (at the bounce limit, or at a dead end of ``nocycles``).

    With a ``time_limit`` (seconds, less :func:`~fepaper.search.budget.reserve`) or ``max_nodes``
    (steps searched at most, over the whole turn) each search deepens one level at a time (1, 2,
    ..., ``depth``) and plays the line of the deepest level finished within the budget; when the
    budget ran out before a first step was searched, the first free direction in the root's
    expansion order is played. Without either it searches ``depth`` at once. ``max_bounces`` -1
    explores every bounce; the other settings (``program`` among them) are :func:`thesis_line`'s.

    Returns
    -------
    SearchResult
        ``turn``: the whole turn's steps; ``value``: ``None``; ``nodes``: the steps searched over
        every search of the turn; ``depth``: the shallowest level completed (0 if a budget stopped
        a search before its first level).
    """
    capped = time_limit is not None or max_nodes is not None
    limit = None if time_limit is None else time_limit - reserve(time_limit)
    budget = new_budget(limit, max_nodes or 0) if capped else None
    swaps = {"cycle_check": cycle_check, "evaluation": evaluation, "ordering": ordering, "program": program}
    trial = game.copy()
    turns = len(trial.history)
    nodes, done = 0, depth
    while len(trial.history) == turns and not trial.is_over:
        result = _line(trial, variant, depth, max_bounces, budget, costs, swaps)
        nodes, done = nodes + result.nodes, min(done, result.depth)
        line = result.turn
        if not line:  # stopped before a step was searched: the first in the root's order
            order = expansion_orders(trial.rules, trial.player - 1, ordering)[0]
            order = order[trial.ball_index]
            free = trial.free_mask()
            line = str(next(int(d) for d in order if free >> int(d) & 1))
        for c in line:
            trial.step(c)
    return SearchResult(trial.history[turns], None, nodes, 0.0, done)
