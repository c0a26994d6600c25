"""How many distinct turns a position has: counted exactly within a budget, or estimated.

:func:`tally_turns` counts with the canonical walk of :mod:`fepaper._core.canonical`,
which holds no key set: its memory is a few arrays the size of the board
(:attr:`TurnTally.memory`, under 100 kB on the largest preset), whatever the number of
turns, so a count can run to 10^9 turns and beyond. It stops when asked
(``limit``: turns, ``seconds``: wall time) and then says so: a cut count is a lower
bound, marked ``exact=False``, never a wrong number. It tallies the turns by how they
end and by their end node (the heat map of the branching explorer).

:func:`estimate_turns` estimates the count of a position too big to count, with an
interval, by counting a random sample of sub-trees of the same canonical tree exactly
(:mod:`fepaper._core.estimate`).

Examples
--------
>>> from fepaper.game import Game
>>> tally = tally_turns(Game("thesis", "0 54"))
>>> tally.turns, tally.exact, tally.by_kind
(16, True, {'end': 14, 'stop': 2, 'goal': 0, 'blocked': 0})
>>> str(tally_turns(Game("standard", "5 6 0 7 61 1 3 6 4 2 532 2 0 3 2 7"), limit=1000))
'at least 1,001 distinct turns (stopped at the limit of 1,000)'
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from .._core import canonical as walk_kernel
from .._core import estimate as probe_kernel
from .._core.bundles import CAPPED, DONE, OUT_OF_BUDGET, new_budget
from .._core.turns import KIND_NAMES, STOP
from .progress import bar

__all__ = ["TurnTally", "TurnEstimate", "EstimateTooCostly", "tally_turns", "estimate_turns",
           "count_or_estimate", "progress_of", "CHUNK"]

#: Units of work (steps tried) between two looks from Python: about 0.1 s of walk.
CHUNK = 1 << 21
#: How much further :func:`count_or_estimate` counts when its estimate falls below its cut count.
AGAIN = 16


def _check_positive(name: str, value, kind=(int,)):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, kind) or not value > 0 or (
            isinstance(value, float) and not math.isfinite(value)):
        raise ValueError(f"{name} must be a positive number or None, got {value!r}")
    return value


@dataclass(frozen=True)
class TurnTally:
    """The distinct turns of a position, counted (all of them when ``exact``).

    Attributes
    ----------
    turns : int
        The number of distinct turns; a lower bound when not ``exact``.
    exact : bool
        Whether the walk finished.
    stopped : str
        Why the walk stopped early: ``"limit"``, ``"seconds"``, or ``""`` when exact.
    by_kind : dict
        Turns by how they end: ``end``, ``stop``, ``goal``, ``blocked`` (of those counted).
    by_node : dict
        Turns by end node ``(x, y)``, for the nodes some counted turn ends on.
    states : int
        States of the walk (turn prefixes) visited.
    seconds : float
        Wall time of the count.
    memory : int
        Bytes the walk held (allocated once, at the start).
    limit, budget_seconds : int or float or None
        The cut-offs the count was given.
    """

    turns: int
    exact: bool
    stopped: str = ""
    by_kind: dict = field(default_factory=dict)
    by_node: dict = field(default_factory=dict)
    states: int = 0
    seconds: float = 0.0
    memory: int = 0
    limit: int | None = None
    budget_seconds: float | None = None

    @property
    def lower_bound(self) -> int:
        """The turns there are at least (equal to :attr:`turns`)."""
        return self.turns

    def why(self) -> str:
        if self.stopped == "limit":
            return f"stopped at the limit of {self.limit:,}"
        if self.stopped == "seconds":
            return f"stopped after {self.budget_seconds:g} s"
        return ""

    def __str__(self) -> str:
        if self.exact:
            return f"{self.turns:,} distinct turn{'s' * (self.turns != 1)}"
        return f"at least {self.turns:,} distinct turns ({self.why()})"


def progress_of(walk) -> float:
    """An estimate of the share of the tree a stopped or paused walk has covered: its
    place in depth-first order read as a mixed-radix fraction (each level splits its
    parent's share evenly among the free directions it had when entered). It only grows
    as the walk goes on; trees are lopsided, so it is a guide, not a measure of time."""
    depth = int(walk.ctl[walk_kernel.DEPTH])
    share, done = 1.0, 0.0
    for k in range(depth + 1):
        free = int(walk.entry[k])
        options = bin(free).count("1")
        if options == 0:
            break
        current = int(walk.nextdir[k]) - (1 if k < depth else 0)
        before = bin(free & ((1 << max(current, 0)) - 1)).count("1")
        done += share * before / options
        share /= options
    return min(max(done, 0.0), 1.0)


def _walk_for(game):
    b = game.board
    return walk_kernel.new_canonical_walk(b.n_nodes, b.n_edges, game.ball_index, game.free_mask())


def _bar(progress: bool, what: str, expected: float | None = None):
    if expected:  # the share of an estimated count
        return bar(1000, what, disable=not progress, leave=False,
                   bar_format="{desc}: {percentage:3.0f}% of about " + f"{expected:.3g}" +
                   " turns (estimated) |{bar}| {elapsed} {postfix}")
    return bar(1000, what, "‰", disable=not progress, leave=False,
               bar_format="{desc}: {percentage:3.0f}% of the tree (estimate) |{bar}| {elapsed} {postfix}")


def tally_turns(game, limit: int | None = None, seconds: float | None = None,
                progress: bool = False) -> TurnTally:
    """Count the distinct turns of ``game``'s position, within ``limit`` turns and ``seconds``.

    Parameters
    ----------
    game : Game
        The position: at the start of a turn, or after a bounce (then the turns are the
        ways to finish the turn in progress, stopping included when allowed).
    limit : int, optional
        Count at most this many turns: a position with more gives ``limit + 1`` turns,
        ``exact=False``, ``stopped="limit"``.
    seconds : float, optional
        Wall-time budget (checked about every 50 µs of walk): past it the count stops
        with what it found, ``stopped="seconds"``.
    progress : bool
        Show a tqdm bar: the turns counted as a share of a quick estimate of the count
        (made first, outside the ``seconds`` budget), and the turns so far.

    Returns
    -------
    TurnTally
    """
    _check_positive("limit", limit)
    _check_positive("seconds", seconds, (int, float))
    expected = None
    if progress:  # a quick estimate of the count (a few tenths of a second) makes the bar a share of it
        expected = estimate_turns(game, samples=32, cap=1 << 16).value or None
    start = time.perf_counter()
    board = game.board
    if game.is_over:
        return TurnTally(0, True, "", {k: 0 for k in KIND_NAMES}, {}, 0, 0.0, 0, limit, seconds)
    kinds = np.zeros(4, np.int64)
    ends = np.zeros(board.n_nodes, np.int64)
    if game.can_stop:  # after a bounce under optional bounce, stopping here is a way to finish
        kinds[STOP] += 1
        ends[game.ball_index] += 1
    walk = _walk_for(game)
    marks = game.marks.copy()
    budget = new_budget(seconds, start=start) if seconds is not None else new_budget()
    cap = 0 if limit is None else int(limit)
    flags, arrays = game.rules.flags, board.arrays
    with _bar(progress, "counting turns", expected) as bar:
        while walk.ctl[walk_kernel.STATUS] == 0:
            walk_kernel.count_walk(marks, arrays, flags, walk, kinds, ends, cap, CHUNK, budget)
            if progress:
                share = kinds.sum() / expected if expected else progress_of(walk)
                bar.n = min(999, int(1000 * share))
                bar.set_postfix_str(f"{int(kinds.sum()):,} turns", refresh=True)
    status = int(walk.ctl[walk_kernel.STATUS])
    stopped = {DONE: "", CAPPED: "limit", OUT_OF_BUDGET: "seconds"}[status]
    nodes = board.nodes
    return TurnTally(int(kinds.sum()), status == DONE, stopped,
                     {name: int(kinds[i]) for i, name in enumerate(KIND_NAMES)},
                     {nodes[i]: int(ends[i]) for i in np.flatnonzero(ends)},
                     int(walk.ctl[walk_kernel.STATES]), time.perf_counter() - start,
                     walk_kernel.walk_bytes(walk), limit, seconds)


@dataclass(frozen=True)
class TurnEstimate:
    """An estimate of the number of distinct turns, with a confidence interval.

    ``value`` is unbiased; ``low`` and ``high`` bound the ``level`` interval (normal
    approximation on the estimate's standard error, ``low`` never below the ``floor``
    given nor below 0). ``exact`` is true when every sub-tree was counted (``value`` is then the
    count). ``samples`` is the number of sub-trees counted exactly, ``stages`` the deepest
    stage of sampling; ``seconds`` the wall time; ``cap`` the work a sub-tree count may take.
    """

    value: float
    low: float
    high: float
    samples: int
    level: float = 0.95
    exact: bool = False
    std_error: float = 0.0
    seconds: float = 0.0
    cap: int = 0
    seed: int = 0
    stages: int = 0

    @property
    def relative_error(self) -> float:
        """Standard error over the value."""
        return self.std_error / self.value if self.value > 0 else 0.0

    def __str__(self) -> str:
        if self.exact:
            return f"{self.value:,.0f} distinct turns (counted exactly)"
        return (f"about {self.value:.3g} distinct turns ({100 * self.level:g}% interval {self.low:.3g} to "
                f"{self.high:.3g}, {self.samples:,} sub-trees counted)")


def _z(level: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + level / 2)


class EstimateTooCostly(RuntimeError):
    """An estimate passed the work it was allowed (``max_work``)."""


class _Sampler:
    """Two-stage sampling of the canonical tree (see :func:`estimate_turns`)."""

    def __init__(self, game, samples, cap, frontier, rng, max_work=0):
        b = game.board
        self.arrays, self.flags = b.arrays, game.rules.flags
        self.walk = _walk_for(game)
        self.marks = game.marks.copy()
        self.kinds = np.zeros(4, np.int64)
        self.ends = np.zeros(b.n_nodes, np.int64)
        self.budget = new_budget()  # no deadline: a sample's value must not depend on the clock
        self.samples, self.cap, self.frontier, self.rng = samples, cap, frontier, rng
        self.width = b.n_edges + 2
        self.counted = 0
        self.stages = 0
        self.max_work = max_work

    def _expand(self, path, plen, levels):
        # the kernel writes the rows it reports, up to their depth, and nothing reads past it: no
        # zeroing (the buffer is 16 x frontier rows of every edge; zeroing it dominated estimates)
        out = np.empty((16 * self.frontier, self.width), np.int8)
        turns, n = probe_kernel.expand(self.marks, self.arrays, self.flags, self.walk, path, plen, levels,
                                       out, out.shape[0])
        return turns, n, out

    def below(self, path, plen, samples, stage):
        """``(value, variance, exact)``: the turns strictly below the node ``path[:plen]``."""
        self.stages = max(self.stages, stage)
        if self.max_work and self.budget.ctl[0] > self.max_work:
            raise EstimateTooCostly(f"the estimate passed {self.max_work:,} units of work")
        n, done = probe_kernel.count_below(self.marks, self.arrays, self.flags, self.walk, path, plen,
                                           self.kinds, self.ends, self.cap, self.budget)
        self.counted += 1
        if done:
            return float(n), 0.0, True
        levels, last = 1, None
        while True:
            turns, f, out = self._expand(path, plen, levels)
            if f < 0:  # too wide: the level above
                turns, f, out = last
                break
            last = (turns, f, out)
            if f == 0 or f >= self.frontier or plen + levels + 1 >= self.width - 1:
                break
            levels += 1
        if f == 0:
            return float(turns), 0.0, True
        k = min(samples, f)
        picks = np.sort(self.rng.choice(f, size=k, replace=False))
        values, variances, exact = np.zeros(k), np.zeros(k), True
        child_samples = max(4, samples // 4)
        for i, j in enumerate(picks):
            values[i], variances[i], ok = self.below(out[j], plen + levels, child_samples, stage + 1)
            exact &= ok
        if k == f:  # every frontier node: no first-stage error
            return turns + float(values.sum()), float(variances.sum()), exact
        first = f * f * (1 - k / f) * float(values.var(ddof=1)) / k
        second = f / k * float(variances.sum())
        return turns + f * float(values.mean()), first + second, False


def estimate_turns(game, samples: int = 128, cap: int = 1 << 20, frontier: int = 2048, seed: int = 0,
                   level: float = 0.95, floor: int = 0, max_work: int | None = None) -> TurnEstimate:
    """Estimate the distinct turns of ``game``'s position by counting random sub-trees exactly.

    The count is tried first with at most ``cap`` units of work (steps tried): a position
    that fits is counted exactly. Otherwise the canonical tree (whose nodes are the
    distinct turns, each once: :mod:`fepaper._core.canonical`) is listed down to the first
    level with at least ``frontier`` nodes from which a turn goes on; the turns above that
    level are counted exactly, and the sub-trees of ``samples`` frontier nodes drawn at
    random (without replacement) are counted exactly, each within ``cap``; a sub-tree
    that does not fit is estimated the same way one stage down (with a quarter of the
    samples, at least 4). The estimate is the turns above plus the frontier's size times
    the mean sub-tree (unbiased), its variance the two-stage sampling variance.

    Parameters
    ----------
    game : Game
        The position (at the start of a turn or after a bounce).
    samples : int
        Sub-trees counted at the first stage.
    cap : int
        Work units a sub-tree count may take (about 50 ns each).
    frontier : int
        The least number of frontier nodes to sample from.
    seed : int
        Seed of the draws (the same seed gives the same estimate).
    level : float
        Coverage of the interval.
    floor : int
        A count known for certain (e.g. a cut exact count): the interval's lower end is
        never below it.
    max_work : int, optional
        Work units (steps tried) the whole estimate may take; past them it raises
        :class:`EstimateTooCostly` (a tree whose sub-trees stay too big stage after stage
        can otherwise take minutes).
    """
    _check_positive("samples", samples)
    _check_positive("cap", cap)
    _check_positive("frontier", frontier)
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level!r}")
    start = time.perf_counter()
    if game.is_over:
        return TurnEstimate(0.0, 0.0, 0.0, 0, level, True, 0.0, 0.0, cap, seed)
    extra = 1 if game.can_stop else 0
    _check_positive("max_work", max_work)
    rng = np.random.default_rng(seed)
    sampler = _Sampler(game, int(samples), int(cap), int(frontier), rng, max_work or 0)
    value, variance, exact = sampler.below(np.zeros(sampler.width, np.int8), 0, int(samples), 0)
    value += extra
    se = math.sqrt(variance)
    z = _z(level)
    low = value if exact else max(value - z * se, float(floor), 0.0)
    high = value if exact else max(value + z * se, low)
    return TurnEstimate(value, low, high, sampler.counted, level, exact, se, time.perf_counter() - start, cap,
                        seed, sampler.stages)


def count_or_estimate(game, limit: int = 1_000_000, samples: int = 64, cap: int = 1 << 17,
                      seed: int = 0, max_work: int | None = None) -> TurnEstimate:
    """The distinct turns of a position: counted exactly up to ``limit`` turns, estimated past it.

    Returns a :class:`TurnEstimate`: ``exact`` with ``value == low == high`` when the count
    finished, else an estimate (:func:`estimate_turns` with ``samples``, ``cap``, ``seed``)
    whose interval never goes below the ``limit + 1`` turns the cut count found. When the
    estimate passes ``max_work`` units of work (default ``4 * samples * cap``), the result
    is only the lower bound: ``value == low`` the cut count, ``high`` infinite,
    ``samples == 0``. An estimate below the turns the cut count found (a sample that missed
    them) is not kept: the count goes on to ``AGAIN * limit`` turns, and only if that is cut
    too is the estimate kept, its value and interval never below the new count. All of it
    depends on the position and the arguments only, not on the machine's speed.

    >>> from fepaper.game import Game
    >>> count_or_estimate(Game("thesis", "0 54")).value
    16.0
    """
    start = time.perf_counter()
    tally = tally_turns(game, limit=limit)
    if tally.exact:
        n = float(tally.turns)
        return TurnEstimate(n, n, n, 0, exact=True, seconds=tally.seconds)
    try:
        est = estimate_turns(game, samples=samples, cap=cap, seed=seed, floor=tally.turns,
                             max_work=max_work or 4 * samples * cap)
        if est.value < tally.turns:  # a sample that missed the count already made: the count goes on
            tally = tally_turns(game, limit=AGAIN * limit)
            if tally.exact:
                n = float(tally.turns)
                return TurnEstimate(n, n, n, 0, exact=True, seconds=time.perf_counter() - start)
    except EstimateTooCostly:
        n = float(tally.turns)
        return TurnEstimate(n, n, math.inf, 0, exact=False, seconds=time.perf_counter() - start, cap=cap,
                            seed=seed)
    low = max(est.low, float(tally.turns))  # the count that went on may have raised the floor
    return TurnEstimate(max(est.value, low), low, max(est.high, low), est.samples, est.level, est.exact,
                        est.std_error, time.perf_counter() - start, est.cap, est.seed, est.stages)
