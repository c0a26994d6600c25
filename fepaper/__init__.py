"""fepaper: Paper Soccer (Fútbol en papel) research library.

The names most work starts from are re-exported here: :class:`Rules`,
:class:`Board`, :class:`Game` and :func:`perft`.
"""

from ._blas import note_core_type

note_core_type()  # before numpy loads: only noted; fits pin their own kernels (fepaper/_blas.py)

from ._version import __version__  # noqa: E402
from .game.board import Board  # noqa: E402
from .game.game import Game, IllegalStep, IllegalTurn, InvalidRecord, Result, Turn  # noqa: E402
from .game.rules import PRESETS, Rules  # noqa: E402
from .search.perft import divide, perft  # noqa: E402

__all__ = [
    "Board", "Game", "IllegalStep", "IllegalTurn", "InvalidRecord", "PRESETS", "Result", "Rules", "Turn",
    "divide", "perft", "__version__",
]
