"""How a search spends its time limit: what it keeps back for its wrap-up, the room its tree
makes at once, whether there is time to grow it, the kernels loaded before its clock starts, and
Python's garbage collector kept off while it runs.

Every time-limited search (:mod:`~fepaper.search.turnsearch`, :mod:`~fepaper.search.mcts`,
:mod:`~fepaper.search.bestfirst`, the thesis's alpha-beta) and the controllers that search
within their own clock read these, so each decision keeps to its budget the same way.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["reserve", "time_to_grow", "tree_room", "warm_once", "collector_off", "GROW_RATE"]

#: The keys :func:`warm_once` has run the warm-up of, in this process.
_WARMED: set = set()


def warm_once(key, warm) -> None:
    """Call ``warm()`` (a small search calling every kernel a search may call) once per process
    and ``key`` (what decides the kernels' types: rules, evaluator...), before a search's clock
    starts: numba loads a kernel's machine code, or compiles it, at its first call with each type
    signature, and that load was counted in a decision's budget (best-first at 0.002 s on a heavy
    position spent 12.6 ms loading one on its second decision, 45 ms on its first)."""
    if key in _WARMED:
        return
    _WARMED.add(key)  # first: the searches ``warm`` runs call this again
    warm()


def reserve(time_limit: float, share: float = 0.02) -> float:
    """Seconds of a search's ``time_limit`` kept back for its wrap-up (answer, freeing memory) and
    for the clock check's granularity: ``share`` of it and 1 ms, at most half the limit (a fifth
    kept a decision of 1 ms to 1.3 to 1.4 ms of CPU time in ``fepaper bench clock``: the wrap-up
    and the clock's granularity take a few tenths of a millisecond whatever the budget)."""
    return min(0.5 * time_limit, 0.001 + share * time_limit)


#: Bytes per second a search's tree is copied into bigger arrays, low: the copy touches fresh memory
#: (doubling MCTS's tree from 2 to 4 million nodes took 0.42 s, past a 1 s budget, in fepaper bench clock).
GROW_RATE = 5e8


def time_to_grow(deadline: float, tree) -> bool:
    """Whether a search with ``deadline`` (``time.perf_counter`` seconds; 0: none) has the time
    to copy ``tree`` (a tuple of arrays) into arrays twice as big; if not, it answers with the
    tree it has."""
    return deadline <= 0 or time.perf_counter() + 2 * sum(a.nbytes for a in tree) / GROW_RATE < deadline


def tree_room(time_limit: float | None, max_nodes: int = 1 << 21, rate: float = 1e6) -> int:
    """The nodes a time-limited search's tree makes room for at once: what it can fill in its time
    (at ``rate`` nodes a second, a power of two, at most ``max_nodes`` and 2**21, at least 16,384),
    so that it seldom has to stop and grow its arrays, and never so near its deadline
    that growing them would not fit in the time left (:func:`time_to_grow`: it then answers
    early). Without a time limit, 16,384.

    >>> tree_room(0.1, 2_000_000), tree_room(1.0, 2_000_000), tree_room(1.0, 5_000), tree_room(None)
    (131072, 1048576, 16384, 16384)
    >>> tree_room(0.1, rate=4e6), tree_room(1.0, rate=4e6)
    (524288, 2097152)
    """
    if time_limit is None:
        return 1 << 14
    guess = 1 << max(0, math.ceil(math.log2(time_limit * rate)))
    return int(max(1 << 14, min(guess, 1 << 21, max_nodes)))


@contextmanager
def collector_off() -> Iterator[None]:
    """Python's garbage collector off inside the block and as it was after it, an exception included:
    a timed decision's allocations are collected after it, not on its clock. A full collection in the
    process of ``fepaper bench clock`` (150,446 objects, numba's among them) took 32 to 42 ms, three
    to four times a 10 ms budget."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
