"""The numba-compiled core: plain arrays in, plain numbers out; no Python objects inside.

Each kernel has a pure-Python twin in :mod:`fepaper.search.twin`; the tests
compare them on random positions.
"""

from .turns import (
    BLOCKED,
    END,
    GOAL,
    KIND_NAMES,
    STOP,
    TooManyTurns,
    count_turns,
    iter_turns,
    make_step,
    new_keyset,
    new_walk,
    unmake_step,
    walk_turns,
)

__all__ = [
    "BLOCKED", "END", "GOAL", "KIND_NAMES", "STOP", "TooManyTurns", "count_turns", "iter_turns",
    "make_step", "new_keyset", "new_walk", "unmake_step", "walk_turns",
]
