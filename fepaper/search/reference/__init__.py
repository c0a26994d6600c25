"""The slow reference twins, written for clarity: what the compiled engines are tested against.

- :mod:`~fepaper.search.reference.gametree`: generic minimax and alpha-beta over a small
  OpenSpiel-style :class:`State` (every node a clone, the side to move asked at every node).
- :mod:`~fepaper.search.reference.montecarlo`: MCTS (UCB1, random playouts, MCTS-Solver) over
  the same ``State``.
- :mod:`~fepaper.search.reference.state`: a :class:`~fepaper.game.Game` as a ``State`` whose
  actions are its distinct turns (:class:`~fepaper.search.reference.state.TurnState`), with the
  evaluation features written out again.
- :mod:`~fepaper.search.reference.turns`: the pure-Python turn walk and perft, read from
  ``docs/rules.md`` independently of the kernels.

None of them imports a compiled engine of :mod:`fepaper.search`: a twin is an independent reading.
"""

from .gametree import SearchStats, State, alphabeta, evaluation_order, minimax
from .montecarlo import mcts

__all__ = ["SearchStats", "State", "alphabeta", "evaluation_order", "mcts", "minimax"]
