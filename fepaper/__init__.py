"""fepaper: Paper Soccer (Fútbol en papel) research library.

The names most work starts from are re-exported here: :class:`Rules`,
:class:`Board`, :class:`Game` and :func:`perft`.
"""

from .experiments.perft import divide, perft
from .game.board import Board
from .game.game import Game, IllegalStep, IllegalTurn, InvalidRecord, Result, Turn
from .game.rules import PRESETS, Rules

__version__ = "0.1.0"

__all__ = [
    "Board", "Game", "IllegalStep", "IllegalTurn", "InvalidRecord", "PRESETS", "Result", "Rules", "Turn",
    "divide", "perft", "__version__",
]
