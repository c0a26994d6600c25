"""The clock inside compiled kernels: count work, look at the clock every so often.

A kernel calls :func:`tick` once per unit of work (a search node, a walk state) with its
:class:`~fepaper._core.bundles.Budget`; every :data:`CHECK_EVERY` units it compares the
work with the budget's cap and :func:`now` with the deadline, and sets ``ctl[1]`` when
either is passed. Looking at the clock costs about a microsecond (numba's object mode),
so the check is spread out; at the walk's ~15 million states per second, 1024 units are
under 0.1 ms, which is what keeps a search's answer within its time budget.

A budget without a deadline looks at the clock all the same: that look is where Ctrl-C
reaches a kernel (:mod:`fepaper._core.interrupt`), raising ``KeyboardInterrupt`` through it
within 1024 units of work (alpha-beta at depth 10, with no deadline, ran 190 s after a Ctrl-C).
"""

from __future__ import annotations

from numba import njit, objmode

from . import interrupt

__all__ = ["CHECK_EVERY", "now", "late", "check", "countdown", "look", "settle", "tick", "tick_node",
           "spent"]

#: Units of work between two looks at the clock.
CHECK_EVERY = 1 << 10


@njit(cache=True)
def now():
    """:func:`time.perf_counter`; where an interrupt reaches a kernel (raised through it)."""
    with objmode(t="float64"):
        t = interrupt.clock()
    return t


@njit(cache=True, inline="always")
def late(deadline):
    """Look at the clock (so at Ctrl-C) whether or not there is a deadline; whether it passed."""
    t = now()
    return deadline > 0.0 and t > deadline


@njit(cache=True)
def check(budget, work):
    """Add ``work`` units at once and check the node cap and the clock; whether the budget is
    spent. For hot loops that count in a register and call this every :data:`CHECK_EVERY`."""
    ctl = budget.ctl
    ctl[0] += work
    if (ctl[2] > 0 and ctl[4] >= ctl[2]) or late(budget.deadline):
        ctl[1] = 1
    return ctl[1] != 0


@njit(cache=True, inline="always")
def countdown(budget):
    """Units of work left before the budget's next look at the clock, for a hot loop that
    counts down in a register (at least 1). The countdown lives in the budget between calls,
    so a kernel called again and again for a little work each time (a listing filling a
    small buffer) still reaches the clock: a register reset on every call never would."""
    ctl = budget.ctl
    if ctl[3] <= ctl[0]:
        ctl[3] = ctl[0] + 1
    return ctl[3] - ctl[0]


@njit(cache=True, inline="always")
def look(budget):
    """The countdown of :func:`countdown` reached 0: count its work, look at the node cap and
    the clock, start the next countdown (:data:`CHECK_EVERY`). Whether the budget is spent."""
    ctl = budget.ctl
    ctl[0] = ctl[3]
    ctl[3] = ctl[0] + CHECK_EVERY
    if (ctl[2] > 0 and ctl[4] >= ctl[2]) or late(budget.deadline):
        ctl[1] = 1
    return ctl[1] != 0


@njit(cache=True, inline="always")
def settle(budget, left):
    """A hot loop leaves with ``left`` of its countdown: count the work it did."""
    budget.ctl[0] = budget.ctl[3] - left


@njit(cache=True, inline="always")
def tick(budget):
    """Count one unit of work; every :data:`CHECK_EVERY` units check the node cap and the clock.
    Returns whether the budget is spent (``ctl[1]`` set)."""
    ctl = budget.ctl
    ctl[0] += 1
    if ctl[0] >= ctl[3]:
        ctl[3] = ctl[0] + CHECK_EVERY
        if (ctl[2] > 0 and ctl[4] >= ctl[2]) or late(budget.deadline):
            ctl[1] = 1
    return ctl[1] != 0


@njit(cache=True, inline="always")
def tick_node(budget):
    """:func:`tick` for a search node: also counts it in ``ctl[4]`` (the nodes reported)."""
    budget.ctl[4] += 1
    return tick(budget)


@njit(cache=True, inline="always")
def spent(budget):
    """Whether the budget is spent (no work counted)."""
    return budget.ctl[1] != 0
