"""The complete-turn search's controllers: ``turnsearch`` (alpha-beta over complete turns) and
``minimax`` (the same without pruning, table or ordering).

The search is :func:`fepaper.search.turnsearch.search_turns` (its tree, table, ordering and
evaluation described there); this module declares the specs' parameters, the evaluation weights'
GA bounds, and how ``ties="random"`` picks among the best turns.

Examples
--------
>>> from fepaper.game import Game
>>> bot = TurnSearch(depth=2)
>>> bot.choose_turn(Game("thesis", "0 54")) in Game("thesis", "0 54").turns()
True
"""

from __future__ import annotations

from ..game import Game
from ..search.result import SearchResult
from ..search.turnsearch import parse_weights, search_turns, weights_dict
from .base import Controller, register
from .params import Bool, Choice, Custom, Gene, Int, Param, spec_check

__all__ = ["TurnSearch", "Minimax", "WEIGHT_GENES", "MAX_STATES"]

_DEFAULT = tuple(int(w) for w in parse_weights(None))
#: GA bounds of each weight (integers).
#: ``distance`` is the anchor of the scale (at least 1), so no genome is the empty evaluation.
WEIGHT_GENES = {"distance": (1, 10), "attack": (-10, 10), "mobility": (-10, 10), "bounce": (-10, 10)}


def _weight_genes(param: Param) -> list[Gene]:
    return [Gene(f"{param.name}.{f}", lo, hi, True) for f, (lo, hi) in WEIGHT_GENES.items()]


_parse = spec_check(parse_weights)


def _weights(value, owner: str) -> tuple[int, ...] | None:
    """Checked weights; ``None`` for the default, which the spec leaves out."""
    weights = tuple(_parse(value, owner).tolist())
    return None if weights == _DEFAULT else weights


_CAP = Int("max_turns_per_node", None, 1, 10**9, doc="turns kept per node, best first (None: all)")
#: States one listing may walk in the controllers: a late position can have more than 10**8
#: distinct turns, and listing them all would take minutes and gigabytes.
MAX_STATES = 2_000_000
_STATES = Int("max_states", MAX_STATES, 0, 10**9, shown="changed",
              doc="states one node's listing may walk (0: no cap)")


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
        Keep at most this many turns per node, best first (``None``: all).
    max_states : int
        States one node's listing may walk (default :data:`MAX_STATES`; 0: no cap). With
        a cap a listing holds at most that many turns, so memory stays bounded without a
        time limit; a node whose listing was cut is searched over the turns listed.
    tt_bits : int
        The table has ``2 ** tt_bits`` entries.
    weights : dict, list or None
        The leaf evaluation, ``{feature: int}`` over :data:`~fepaper.search.turnsearch.FEATURES`
        or a list of one integer per feature (``None``: ``{"distance": 1}``, the distance
        difference). The spec holds the canonical dict, and only when it differs from the default.
    ties : {"first", "random"}
        Which of the best turns to play: the first in search order (deterministic), or one
        drawn with the controller's seeded generator among all the best turns (the root is
        then searched with ``exact=True``; with a time limit, among the first
        :func:`~fepaper.search.turnsearch.turns_shown` when more tie). In the spec only when ``"random"``.
    seed, time_limit
        As for every controller; the time limit is per decision.
    """

    name = "turnsearch"
    WARM = {"depth": 1}
    PARAMS = (
        Int("depth", 3, 1, 64, gene=(1, 4), doc="turns to search (the most, with a time limit)"),
        Bool("ordering", True, doc="table move first, then nearest ends"),
        Bool("transposition", True, doc="use the transposition table"),
        _CAP,
        _STATES,
        Int("tt_bits", 18, 1, 24, doc="the table has 2**tt_bits entries (22 bytes each)"),
        Custom("weights", None, lambda v, owner: _weights(v, owner), shown="set", canonical=weights_dict,
               genes=_weight_genes, doc="leaf evaluation {feature: int} (default: distance 1)"),
        Choice("ties", "first", ("first", "random"), shown="changed", doc="which best turn to play"),
    )

    def setup(self) -> None:
        self.weights = self.weights or _DEFAULT

    def decide(self, game: Game) -> SearchResult:
        result = search_turns(game, self.depth, ordering=self.ordering, transposition=self.transposition,
                              time_limit=self.time_limit, max_turns_per_node=self.max_turns_per_node,
                              max_states=self.max_states, tt_bits=self.tt_bits, weights=list(self.weights),
                              exact=self.ties == "random")
        best = result.details["best"]
        if self.ties == "random" and len(best) > 1:
            result = SearchResult(best[int(self.rng.integers(len(best)))], result.value, result.nodes,
                                  result.seconds, result.depth, result.details)
        return result


@register
class Minimax(Controller):
    """Plain minimax over complete turns: no pruning, no table, no ordering (for counting
    the nodes that alpha-beta saves).

    Parameters
    ----------
    depth : int
        Turns to search.
    max_turns_per_node : int or None
        Keep at most this many turns per node, best first (``None``: all).
    max_states : int
        As for ``turnsearch``.
    seed, time_limit
        As for every controller; with a time limit it deepens one turn at a time.
    """

    name = "minimax"
    WARM = {"depth": 1}
    MIN_TIME_LIMIT = 0.005  # at 1 ms a few decisions passed 1.1 times the budget in CPU time
    PARAMS = (Int("depth", 2, 1, 64, doc="turns to search"), _CAP, _STATES)

    def decide(self, game: Game) -> SearchResult:
        return search_turns(game, self.depth, pruning=False, ordering=False, transposition=False,
                            iterative=self.time_limit is not None, time_limit=self.time_limit,
                            max_turns_per_node=self.max_turns_per_node, max_states=self.max_states)
