"""Counts of successes among trials: exact binomial tests and bounds, and Wilson's interval.

- :func:`wins_above`: the exact one-sided p-value of so many wins or more;
- :func:`sign_test`: the exact two-sided sign test of two players;
- :func:`exact_bounds`: the exact (Clopper-Pearson) one-sided bounds of a share, right for
  small samples;
- :func:`wilson`: Wilson's score interval of a win rate (draws count half a win).

Examples
--------
>>> lo, hi = wilson(7, 10)
>>> round(lo, 3), round(hi, 3)
(0.397, 0.892)
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

__all__ = ["wins_above", "sign_test", "binomial_pmf", "exact_bounds", "exact_lower", "exact_upper", "wilson"]


def wins_above(wins: int, games: int, share: float = 0.5) -> float:
    """The exact one-sided p-value of ``wins`` or more wins in ``games`` games if each game were
    won with probability ``share`` (the binomial test of "wins more than ``share``"; a draw
    counts as a game not won).

    >>> round(wins_above(8, 10), 4)
    0.0547
    """
    if not (0 <= wins <= games and 0 < share < 1):
        raise ValueError(f"wins_above: need 0 <= wins <= games and 0 < share < 1, got {wins}, {games}, "
                         f"{share}")
    def log_pmf(i):  # in logs, so that no power underflows however many the games
        return (math.lgamma(games + 1) - math.lgamma(i + 1) - math.lgamma(games - i + 1)
                + i * math.log(share) + (games - i) * math.log1p(-share))

    return min(1.0, math.fsum(math.exp(log_pmf(i)) for i in range(wins, games + 1)))

def sign_test(first: int, second: int) -> float:
    """The exact two-sided sign test of two players on the games only one of them won: ``first``
    won by the first, ``second`` by the second (1.0 if none).

    >>> round(sign_test(37, 51), 4)
    0.1654
    """
    n, k = first + second, min(first, second)
    return min(1.0, 2 * wins_above(n - k, n)) if n else 1.0  # P(X <= k) = P(X >= n - k) at one half

@lru_cache(maxsize=32)
def _log_choose(n: int) -> np.ndarray:
    """log C(n, k) for k = 0 .. n (read-only: the cache shares it)."""
    out = np.array([math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in range(n + 1)])
    out.flags.writeable = False
    return out

def binomial_pmf(n: int, p: float) -> np.ndarray:
    """The chances of 0 .. ``n`` events in ``n`` trials of chance ``p`` (0 < ``p`` < 1)."""
    k = np.arange(n + 1)
    return np.exp(_log_choose(n) + k * math.log(p) + (n - k) * math.log1p(-p))

def _at_most(events: int, n: int, p: float) -> float:
    return float(binomial_pmf(n, p)[: events + 1].sum())

def _at_least(events: int, n: int, p: float) -> float:
    return float(binomial_pmf(n, p)[events:].sum())

def _crossing(rises, target: float) -> tuple[float, float]:
    """Bisection in (0, 1) for the share where the rising function ``rises`` passes ``target``:
    the last share below it and the first at or above it, adjacent floats at the end."""
    lo, hi = 0.0, 1.0
    for _ in range(2000):
        mid = (lo + hi) / 2
        if not lo < mid < hi:
            break
        if rises(mid) < target:
            lo = mid
        else:
            hi = mid
    return lo, hi

def exact_bounds(events: int, n: int, level: float) -> tuple[float, float]:
    """The exact (Clopper-Pearson) one-sided bounds on a share from ``events`` among ``n``
    trials, each at ``level``: the lowest share under which so many events or more would happen
    with chance ``level`` or more, and the highest under which so few or fewer would.

    None of 20 bounds the share below 1 - 0.05^(1/20); 3 of 27 leave room for a quarter, since
    3 or fewer of 27 happen with chance 0.067 when the share is 0.25.

    Examples
    --------
    >>> low, high = exact_bounds(0, 20, 0.05)
    >>> low, round(high, 4), round(1 - 0.05 ** (1 / 20), 4)
    (0.0, 0.1391, 0.1391)
    >>> [round(b, 3) for b in exact_bounds(3, 27, 0.05)]
    [0.031, 0.263]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1 or not 0 <= events <= n:
        raise ValueError(f"exact bounds need 0 <= events <= n and n >= 1, got {events} of {n}")
    if not 0 < level < 1:
        raise ValueError(f"level must lie in (0, 1), got {level}")
    return exact_lower(events, n, level), exact_upper(events, n, level)

def exact_lower(events: int, n: int, level: float) -> float:
    """The exact lower bound of :func:`exact_bounds` alone."""
    return 0.0 if events == 0 else _crossing(lambda p: _at_least(events, n, p), level)[0]

def exact_upper(events: int, n: int, level: float) -> float:
    """The exact upper bound of :func:`exact_bounds` alone."""
    return 1.0 if events == n else _crossing(lambda p: -_at_most(events, n, p), -level)[1]

def wilson(score: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``score`` successes in ``n`` trials (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= score <= n:
        raise ValueError(f"score must be between 0 and n={n}, got {score}")
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
