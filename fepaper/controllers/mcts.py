"""The MCTS controller, ``mcts``: Monte Carlo tree search over distinct turns.

The search is :func:`fepaper.search.mcts.mcts_search` (UCB1, MCTS-Solver, the evaluators:
described there); this module declares the spec's parameters and seeds each decision's playouts
from the controller's generator.
"""

from __future__ import annotations

import math

from ..game import Game
from ..search.mcts import EVALUATORS, FEATURES, feature_weights, mcts_search
from ..search.result import SearchResult
from .base import Controller, register
from .params import Bool, Choice, Custom, Float, Int, SpecError, spec_check

__all__ = ["MCTS"]


@register
class MCTS(Controller):
    """Monte Carlo tree search over distinct turns (see the module text).

    Parameters
    ----------
    iterations : int, optional
        Iterations per decision; default 10,000 unless a ``time_limit`` is given.
    c : float, default sqrt(2)
        UCB1 exploration constant.
    max_children : int, default 64
        Turns kept per node; a position with more gets a random sample (winning
        turns always kept).
    solver : bool, default True
        MCTS-Solver.
    evaluator : {"playout", "features"}
        How a new leaf is valued (in the spec only when not ``"playout"``).
    stop_probability : float, default 0.5
        Chance that a playout stops on a bounce (optional bounce).
    weights : dict, optional
        The features evaluator's ``{feature: number}``.
    max_states : int, default 200,000
        Cap on the states of one node's turn walk (0: none).
    seed, time_limit
        As for every controller; each decision draws its playout seed from ``self.rng``.
    """

    name = "mcts"
    WARM = {"iterations": 32}
    MIN_TIME_LIMIT = 0.005  # at 1 ms a few decisions passed 1.1 times the budget in CPU time
    PARAMS = (
        Int("iterations", None, 1, 10**9,
            doc="iterations per decision (default 10,000 without a time limit)"),
        Float("c", math.sqrt(2), 0.0, 100.0, gene=(0.1, 3.0), doc="UCB1 exploration constant"),
        Int("max_children", 64, 1, 100_000, gene=(8, 256), doc="turns kept per expanded node"),
        Bool("solver", True, doc="MCTS-Solver"),
        Choice("evaluator", "playout", EVALUATORS, shown="changed", doc="how a new leaf is valued"),
        Float("stop_probability", 0.5, 0.0, 1.0, doc="playouts stop on a bounce with this chance"),
        Custom("weights", None, spec_check(feature_weights), shown="set",
               canonical=lambda w: {f: x for f, x in zip(FEATURES, w) if x},
               applies=lambda v: v["evaluator"] == "features", doc="the features evaluator's weights"),
        Int("max_states", 200_000, 0, 10**9, doc="cap on one node's turn walk (0: none)"),
    )

    def setup(self) -> None:
        if self.iterations is None and self.time_limit is None:
            self.iterations = 10_000
            self._values["iterations"] = 10_000
        if 0 < self.max_states < 1000:
            raise SpecError(f"mcts: max_states must be 0 (no cap) or >= 1000, got {self.max_states!r}")

    def decide(self, game: Game) -> SearchResult:
        weights = None if self.weights is None else dict(zip(FEATURES, self.weights))
        return mcts_search(game, self.iterations, self.time_limit, self.c, self.max_children, self.solver,
                           self.evaluator, self.stop_probability, weights, self.max_states,
                           seed=int(self.rng.integers(2**63)))
