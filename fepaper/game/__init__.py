"""The game itself: the rules as a frozen value, the board as a networkx graph and its
arrays, the position a user holds (:class:`Game`), its records, and drawings of it.

Imports point down only: this layer uses :mod:`fepaper._core` and nothing above it.
"""

from .board import Board
from .game import Game, IllegalStep, IllegalTurn, InvalidRecord, Result, Turn, TurnView
from .rules import PRESETS, Rules

__all__ = ["Board", "Game", "IllegalStep", "IllegalTurn", "InvalidRecord", "PRESETS", "Result", "Rules",
           "Turn", "TurnView"]

# The public names read as fepaper.game.X (in reprs and tracebacks), where users import them from.
for _cls in (Board, Game, IllegalStep, IllegalTurn, InvalidRecord, Result, Rules, Turn, TurnView):
    _cls.__module__ = __name__
del _cls
