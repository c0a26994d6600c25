"""The best-first minimax controller, ``bestfirst``: the bot of notebook 08.

The search is :func:`fepaper.search.bestfirst.bestfirst_search` (the tree, the tactics, the
evaluators and the choice of a turn: described there); this module declares every setting's
range, GA bounds and meaning once, in :attr:`BestFirst.PARAMS` (the defaults are the search's
:class:`~fepaper.search.bestfirst.BestFirstConfig`), checks a spec's network, and with ``reuse``
keeps each decision's tree for the next.

Examples
--------
>>> from fepaper.game import Game
>>> result = make({"name": "bestfirst", "iterations": 50, "evaluator": "distance"}).decide(Game("codingame"))
>>> result.turn in Game("codingame").turns()
True
"""

from __future__ import annotations

from ..game import Game
from ..search.bestfirst import VALUE_EVALUATORS, BestFirstConfig, Kept, bestfirst_tree
from ..search.result import SearchResult
from ..search.valuefile import load_value_net, network_path
from .base import Controller, make, register  # noqa: F401 (make: the doctest)
from .params import Bool, Choice, Custom, Float, Int, SpecError

__all__ = ["BestFirst"]

#: The search's defaults, which the parameters below declare as theirs.
_DEFAULT = BestFirstConfig()


def _net_path(value, owner: str) -> str:
    if not isinstance(value, str) or not value.endswith(".npz"):
        raise SpecError(f"{owner}: net must be the path of a .npz file, got {value!r}")
    return value


@register
class BestFirst(Controller):
    """Best-first minimax over complete turns with tactics and a value network (module text).

    Its parameters, each with its type, range and meaning, are :attr:`PARAMS` (the one place
    they are declared; their defaults the search's); ``seed`` and ``time_limit`` as for every
    controller.
    """

    name = "bestfirst"
    WARM = {"iterations": 8}
    PARAMS = (
        Int("iterations", None, 1, 10**9, doc="expansions per decision (default 1,000 without a time limit)"),
        Choice("evaluator", _DEFAULT.evaluator, VALUE_EVALUATORS,
               doc="how a new position is valued: a value network or the turn distances to the goals"),
        Custom(
            "net", _DEFAULT.net, lambda v, owner: _net_path(v, owner), shown="set",
            doc="another network .npz: a path, or a bare name (network_path: the one fepaper ships, or one "
                "of the repository's data/strength/networks/), e.g. value_engines25.npz; default DEFAULT_NET"
        ),
        Float("c", _DEFAULT.c, 0.0, 10.0, gene=(0.0, 1.0), doc="exploration (0: pure best-first)"),
        Float("alpha", _DEFAULT.alpha, 0.0, 1.0, gene=(0.0, 1.0), shown="changed",
              doc="selection's weight of the minimax value against the mean backed up (1: minimax only)"),
        Int("max_children", _DEFAULT.max_children, 1, 100_000, gene=(50, 2000), doc="turns listed per node"),
        Int("max_states", _DEFAULT.max_states, 1000, 10**9, doc="states one node's listing may walk"),
        Float("scale", _DEFAULT.scale, 0.0, 10.0, gene=(0.05, 2.0),
              doc="the distance evaluator's slope: tanh(scale * (own goal's distance - attacked goal's))"),
        Float("steps", _DEFAULT.steps, -10.0, 10.0, gene=(-1.0, 1.0),
              doc="the distance evaluator's weight of the ball's step distances to the goals (on the empty "
                  "field, over the square root of the nodes): a finer grain than whole turns"),
        Int("max_nodes", _DEFAULT.max_nodes, 1000, 10**9,
            doc="positions the tree may hold (its memory: about 40 bytes a node and its turn's steps)"),
        Float("choice_margin", _DEFAULT.choice_margin, 0.0, 4.0, gene=(0.0, 0.5), shown="changed",
              doc="the turn searched most within this of the best value, not proven lost (0: the best)"),
        Float("cutoff", _DEFAULT.cutoff, 0.0, 0.99, gene=(0.0, 0.99), shown="changed",
              doc="a one-sided cut-off's weight in a value: near a loss for the side cut off (0: none)"),
        Bool("reuse", False, shown="changed",
             doc="go on from the last decision's tree when the game went on along it"),
    )

    def setup(self) -> None:
        if self.evaluator == "net" or self.net is not None:
            try:
                load_value_net(network_path(self.net), None)
            except (OSError, ValueError) as exc:
                raise SpecError(f"bestfirst: net: {exc}") from None
        self.config = BestFirstConfig(**{name: getattr(self, name) for name in BestFirstConfig._fields})
        self._kept: Kept | None = None

    def decide(self, game: Game) -> SearchResult:
        seed = int(self.rng.integers(2**63))
        result, kept = bestfirst_tree(game, self.iterations, self.time_limit, self.config, seed, 64,
                                      self._kept)
        self._kept = kept if self.reuse else None
        return result
