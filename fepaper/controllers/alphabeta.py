"""The thesis's alpha-beta controller (§4.1): ``alphabeta``, its four versions a spec's ``variant``.

The search is :mod:`fepaper.search.alphabeta` (the versions, the depth in turns, the bounce limit,
the expansion order: all described there); this module declares the spec's parameters and plays
a decision as :func:`~fepaper.search.alphabeta.thesis_turn`.

Examples
--------
>>> from fepaper.game import Game
>>> ab = AlphaBeta(variant="dynamic", depth=2)
>>> ab.choose_turn(Game("thesis")) in Game("thesis").turns()
True
"""

from __future__ import annotations

from ..game import Game
from ..search.alphabeta import COSTS, CYCLE_CHECKS, EVALUATIONS, ORDERINGS, VARIANTS, thesis_turn
from ..search.result import SearchResult
from .base import Controller, register
from .params import Choice, Int

__all__ = ["AlphaBeta"]


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
        The costs version's reading (see :mod:`fepaper.search.alphabeta`); only for ``"costs"``.
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
    WARM = {"depth": 1}
    PARAMS = (
        Choice("variant", "dynamic", VARIANTS, doc="the thesis's version"),
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

    def decide(self, game: Game) -> SearchResult:
        bounces = -1 if self.max_bounces is None else self.max_bounces
        return thesis_turn(game, self.variant, self.depth, bounces,
                           costs=self.costs or "bounces", cycle_check=self.cycle_check or "lookup",
                           evaluation=self.evaluation or "distance", ordering=self.ordering or "nearest",
                           time_limit=self.time_limit, max_nodes=self.max_nodes)
