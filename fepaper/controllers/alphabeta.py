"""The thesis's alpha-beta controllers (§4.1): ``alphabeta`` with four variants.

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
considers stopping ("only the longest path is considered"). So the controller never stops
voluntarily after a bounce: when the line it found ends on a bounce (only at the bounce
limit, or at a dead end of ``nocycles``) it searches again from there, as the thesis's
controller is asked again while it may still move ("this does not means that a player
cannot do more movements than 15").

Examples
--------
>>> from fepaper.game import Game
>>> ab = AlphaBeta(variant="dynamic", depth=2)
>>> ab.choose_turn(Game("thesis")) in Game("thesis").turns()
True
"""

from __future__ import annotations

import time
from functools import lru_cache

import numpy as np

from .._core import alphabeta as kernel
from .._core.bundles import Budget, new_budget
from ..game import Game, Rules
from ..game.board import BOTTOM, TOP, Board
from ..search.budget import reserve
from ..search.result import SearchResult
from .base import Controller, register
from .params import Choice, Int

__all__ = ["AlphaBeta", "thesis_line"]


@lru_cache(maxsize=64)
def _order(rules: Rules, row: int) -> np.ndarray:
    """MIN's expansion order toward the goal of distance row ``row`` (read-only, per board)."""
    board = Board.of(rules)
    order = kernel.nearest_first(board.neighbour, board.distance[row])
    order.setflags(write=False)
    return order


@lru_cache(maxsize=64)
def _orders(rules: Rules, row: int, ordering: str) -> tuple[np.ndarray, np.ndarray]:
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
             evaluation: str = "distance", ordering: str = "nearest") -> kernel.ThesisSearch:
    b = game.board
    row = game.player - 1  # the distance row of the goal the player to move attacks
    target = TOP if game.player == 1 else BOTTOM
    dist = b.distance[row]
    stored = dist.astype(np.int64)
    stored[b.goal == target] = 0
    stored[(b.goal != 0) & (b.goal != target)] = kernel.INFINITO
    size = (max_bounces if max_bounces >= 0 else b.n_edges) + 2
    cost_end, cost_bounce, sign = COSTS[costs] if variant == "costs" else (0, 0, 1)
    order, max_order = _orders(game.rules, row, ordering)
    return kernel.ThesisSearch(b.exists, b.neighbour, b.goal, game.rules.flags, dist,
                               order, max_order, target, level, max_bounces,
                               kernel.VARIANTS.index(variant), cost_end, cost_bounce, sign, stored,
                               np.zeros(b.n_nodes, np.int32), np.zeros((size, size), np.int8),
                               np.zeros(size, np.int32), budget, cycle_check == "scan",
                               np.zeros(b.n_edges + 3, np.int32), np.full(b.n_edges + 3, -1, np.int32),
                               evaluation == "astar", dist, np.zeros(2 * b.n_nodes + 1, np.int32),
                               np.zeros(8 * b.n_nodes + 1, np.int64))


def thesis_line(game: Game, variant: str = "dynamic", level: int = 2, max_bounces: int = 15,
                budget: Budget | None = None, costs: str = "bounces", cycle_check: str = "lookup",
                evaluation: str = "distance", ordering: str = "nearest") -> SearchResult:
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
    value (:data:`EVALUATIONS`); ``ordering`` the expansion order (:data:`ORDERINGS`).
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
    ctx = _context(game, variant, level, max_bounces, budget, costs, cycle_check, evaluation, ordering)
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


@register
class AlphaBeta(Controller):
    """The thesis's alpha-beta over steps (one of its four versions).

    Parameters
    ----------
    variant : {"static", "costs", "nocycles", "dynamic"}
    depth : int
        The controller's level, 1 to 10: turns searched.
    max_bounces : int or None
        Bounces explored per turn (the thesis: 15); ``None`` explores all.
    costs : {"bounces", "steps"}
        The costs version's reading (see the module's docstring); only for ``"costs"``.
    cycle_check : {"lookup", "scan"}
        The no-cycles version's check (only for ``"nocycles"``): one array look-up per step,
        or a scan of the current turn's path, as the thesis describes it ("checking if the
        node already is in the path"): the same moves, in more time.
    evaluation : {"distance", "astar"}
        A leaf's value: the distance to the opponent's goal (the thesis's), or the length of
        the shortest path to it over the edges still free, found by A* ("also the A* algorithm
        was tried with identical results and much greater run time").
    ordering : {"nearest", "fixed"}
        The expansion order: the thesis's, nearest first for the root player (MIN) and the
        reverse for MAX ("the states have an expansion order to do the alpha-beta pruning more
        effective ... the nearest states first"), or the directions 0 to 7 for both: the same
        values, found with other prunings (shown in the spec only when ``"fixed"``).
    max_nodes : int or None
        Steps searched per decision at most: the thesis's cap ("the search is limited to
        a minute") counted in nodes, so that a capped game replays the same on any machine.
    seed, time_limit
        As for every controller. With a ``time_limit`` or ``max_nodes`` the search deepens
        one level at a time (1, 2, ..., ``depth``) and plays the line of the deepest level
        finished within the budget; without either it searches ``depth`` at once.
    """

    name = "alphabeta"
    PARAMS = (
        Choice("variant", "dynamic", kernel.VARIANTS, doc="the thesis's version"),
        Int("depth", 2, 1, 10, doc="the level: turns searched"),
        Int("max_bounces", 15, 0, 10_000, nullable=True, doc="bounces explored per turn (None: all)"),
        Choice("costs", "bounces", tuple(COSTS), applies=lambda v: v["variant"] == "costs",
               doc="the costs version's reading: bounces favoured, or every step costs 1"),
        Choice("cycle_check", "lookup", CYCLE_CHECKS, applies=lambda v: v["variant"] == "nocycles",
               shown="changed",
               doc="the no-cycles check: one look-up, or a scan of the turn's path (the same moves)"),
        Choice("evaluation", "distance", EVALUATIONS, shown="changed",
               doc="a leaf's value: the distance to the goal, or the A* path distance over the free edges"),
        Choice("ordering", "nearest", ORDERINGS, shown="changed",
               doc="the expansion order: nearest first (MIN; reversed for MAX), or 0 to 7 for both"),
        Int("max_nodes", None, 1, 10**15, shown="set", doc="steps searched per decision at most"),
    )

    def _line(self, game: Game, budget: Budget | None) -> SearchResult:
        """The line of the deepest search finished within ``budget`` (``None``: ``depth`` at once)."""
        bounces = -1 if self.max_bounces is None else self.max_bounces
        costs = self.costs or "bounces"
        swaps = {"cycle_check": self.cycle_check or "lookup", "evaluation": self.evaluation or "distance",
                 "ordering": self.ordering or "nearest"}
        if budget is None:
            return thesis_line(game, self.variant, self.depth, bounces, costs=costs, **swaps)
        best = None
        for level in range(1, self.depth + 1):
            result = thesis_line(game, self.variant, level, bounces, budget, costs, **swaps)
            if result.depth or best is None:
                best = result if result.turn or best is None else best
            if not result.depth:
                break
        return best

    def decide(self, game: Game) -> SearchResult:
        capped = self.time_limit is not None or self.max_nodes is not None
        limit = None if self.time_limit is None else self.time_limit - reserve(self.time_limit)
        budget = new_budget(limit, self.max_nodes or 0) if capped else None
        trial = game.copy()
        turns = len(trial.history)
        nodes, depth = 0, self.depth
        while len(trial.history) == turns and not trial.is_over:
            result = self._line(trial, budget)
            nodes, depth = nodes + result.nodes, min(depth, result.depth)
            line = result.turn
            if not line:  # stopped before a step was searched: the first in the root's order
                order = _orders(trial.rules, trial.player - 1, self.ordering or "nearest")[0]
                order = order[trial.ball_index]
                free = trial.free_mask()
                line = str(next(int(d) for d in order if free >> int(d) & 1))
            for c in line:
                trial.step(c)
        return SearchResult(trial.history[turns], None, nodes, 0.0, depth)
