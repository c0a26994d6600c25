"""Deadlines and node budgets inside compiled searches.

``ctl`` is an int64 array: ``[nodes, aborted, node budget (0: none), next check]``; a
search calls :func:`tick` once per node and stops when ``ctl[1]`` becomes 1.
"""

from __future__ import annotations

import time

from numba import njit, objmode

__all__ = ["CHECK_EVERY", "now", "tick"]

#: Nodes between two looks at the clock.
CHECK_EVERY = 1 << 14


@njit(cache=True)
def now():
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True, inline="always")
def tick(ctl, deadline):
    """Count a node; every so often check the node budget and the clock."""
    ctl[0] += 1
    if ctl[0] >= ctl[3]:
        ctl[3] = ctl[0] + CHECK_EVERY
        if (ctl[2] > 0 and ctl[0] >= ctl[2]) or (deadline > 0.0 and now() > deadline):
            ctl[1] = 1
