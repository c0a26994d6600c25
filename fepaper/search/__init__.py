"""Reference search, written for clarity: generic minimax, alpha-beta and MCTS over a small
OpenSpiel-style ``State``, the toy games they are tested on, and the pure-Python twin of the
compiled turn walk. The compiled engines are tested against these.
"""

from .reference import SearchStats, State, alphabeta, evaluation_order, minimax
from .reference_mcts import mcts
from .result import SearchResult

__all__ = ["SearchResult", "SearchStats", "State", "alphabeta", "evaluation_order", "mcts", "minimax"]
