"""The search algorithms over a :class:`~fepaper.game.Game`, one module each, and their twins.

Every engine answers with one :class:`SearchResult` (:mod:`~fepaper.search.result`).

- :mod:`~fepaper.search.reference`: the slow reference twins, written for clarity (minimax,
  alpha-beta and MCTS over a small ``State``, the pure-Python turn walk, the toy games); the
  compiled engines are tested against them.
- :mod:`~fepaper.search.solve`: who wins with perfect play (the exact solver's front end).
- :mod:`~fepaper.search.budget`, :mod:`~fepaper.search.playouts`,
  :mod:`~fepaper.search.valuefile`: what the engines share (a time limit's reserve and tree room;
  random playouts and ranked turn lists; value networks as files).
"""

from .result import SearchResult

__all__ = ["SearchResult"]
