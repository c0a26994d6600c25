"""Games of the related work played on the State interface of :mod:`fepaper.search.reference`, so that the
reference minimax, alpha-beta and MCTS play them unchanged: Aboyne (:mod:`fepaper.games.aboyne`), and
tic-tac-toe and Connect Four (:mod:`fepaper.games.toygames`), the reference searches' test material
and the Connect Four report's game.
"""

from .aboyne import Aboyne

__all__ = ["Aboyne"]
