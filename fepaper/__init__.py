"""fepaper: Paper Soccer (Fútbol en papel) research library.

The names most work starts from are re-exported here: :class:`Rules`,
:class:`Board`, :class:`Game` and :func:`perft`.
"""

import importlib
from typing import TYPE_CHECKING

from ._blas import note_core_type

note_core_type()  # before numpy loads: only noted; fits pin their own kernels (fepaper/_blas.py)

from ._version import __version__  # noqa: E402

if TYPE_CHECKING:
    from .game.board import Board
    from .game.game import Game, IllegalStep, IllegalTurn, InvalidRecord, Result, Turn
    from .game.rules import PRESETS, Rules
    from .search.perft import divide, perft

#: Each name re-exported here and the module it lives in, loaded at its first use: ``import
#: fepaper`` stays light, so the ``fepaper`` command is running (and catches a Ctrl-C) while
#: numba and the kernels load.
_HOMES = {
    "Board": ".game.board", "Game": ".game.game", "IllegalStep": ".game.game", "IllegalTurn": ".game.game",
    "InvalidRecord": ".game.game", "Result": ".game.game", "Turn": ".game.game", "PRESETS": ".game.rules",
    "Rules": ".game.rules", "divide": ".search.perft", "perft": ".search.perft",
}

__all__ = [
    "Board", "Game", "IllegalStep", "IllegalTurn", "InvalidRecord", "PRESETS", "Result", "Rules", "Turn",
    "divide", "perft", "__version__",
]


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
