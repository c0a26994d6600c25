"""The search algorithms over a :class:`~fepaper.game.Game`, one module each, and their slow twins.

Each algorithm is a function that takes a ``Game`` and its settings and answers with one
:class:`SearchResult` (:mod:`~fepaper.search.result`); the controllers of
:mod:`fepaper.controllers` are thin adapters that build those settings from a spec.

- :mod:`~fepaper.search.alphabeta`: the thesis's alpha-beta over steps (``thesis_line``, one
  search; ``thesis_turn``, a whole turn as its controller plays one).
- :mod:`~fepaper.search.turnsearch`: alpha-beta (or minimax) over complete distinct turns
  (``search_turns``).
- :mod:`~fepaper.search.mcts`: Monte Carlo tree search over distinct turns (``mcts_search``).
- :mod:`~fepaper.search.bestfirst`: best-first minimax with tactics and a value network
  (``bestfirst_search``).
- :mod:`~fepaper.search.solve`: who wins with perfect play (``solve``: alpha-beta or df-pn);
  :mod:`~fepaper.search.prooffile`, a winner's strategy as a certificate file, which
  :mod:`~fepaper.search.reference.proofcheck` checks against every defence.
- :mod:`~fepaper.search.perft`: the leaves of the turn tree, with its reference counts
  (``perft``, ``divide``; an ``int``, not a search).
- :mod:`~fepaper.search.budget`, :mod:`~fepaper.search.playouts`,
  :mod:`~fepaper.search.valuefile`, :mod:`~fepaper.search.programs`: what the algorithms share (a
  time limit's reserve and a tree's room; random playouts and ranked turn lists; value networks as
  files; evaluation trees read from text and compiled for the kernels).
- :mod:`~fepaper.search.reference`: the slow reference twins written for clarity (minimax,
  alpha-beta and MCTS over a small ``State``, a ``Game`` as a ``State``, the pure-Python turn
  walk, the certificate checker); the compiled algorithms are tested against them. The other
  games they search (Aboyne, tic-tac-toe, Connect Four) are in :mod:`fepaper.games`.

The compiled kernels behind the algorithms are in :mod:`fepaper._core`; the algorithms are
imported from their modules (``from fepaper.search.turnsearch import search_turns``), so that
importing :mod:`fepaper` loads only what it uses.
"""

from .result import SearchResult

__all__ = ["SearchResult"]
