"""Tallies of game and pair scores, their moments, and the Elo interval and power they give.

Games played one by one are tallied as *trinomial* counts ``(losses, draws, wins)``; games
played in colour-swapped pairs are tallied as *pentanomial* counts of the pair scores
``(0, 0.5, 1, 1.5, 2)``, low to high (fishtest's order).

Examples
--------
>>> tally([2, 1.5, 1, 2, 0.5], "pentanomial")
(0, 1, 1, 1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from statistics import NormalDist

import numpy as np

from .elo import _scalar, elo_from_score, expected_score

__all__ = ["MODELS", "EMPTY", "tally", "check_counts", "empirical", "moments", "games_in", "elo_interval",
           "power_reached"]

_Z = NormalDist()


MODELS = {"trinomial": 3, "pentanomial": 5}

# fishtest's regularisation: an empty category counts as this many results, so that a
# sweep (all wins) still has a variance and every likelihood stays finite.
EMPTY = 1e-3

def tally(scores: Iterable[float], model: str = "pentanomial") -> tuple[int, ...]:
    """Counts of each score, low to high: game scores 0, 0.5, 1 for ``"trinomial"``, pair
    scores 0, 0.5, 1, 1.5, 2 for ``"pentanomial"``."""
    k = _categories(model)
    counts = [0] * k
    for s in scores:
        i = round(2 * s)
        if i != 2 * s or not 0 <= i < k:
            top = (k - 1) / 2
            raise ValueError(f"a {model} score is a multiple of 0.5 in [0, {top:g}], got {s}")
        counts[i] += 1
    return tuple(counts)

def _categories(model: str) -> int:
    if model not in MODELS:
        raise ValueError(f"model must be one of {sorted(MODELS)}, got {model!r}")
    return MODELS[model]

def check_counts(counts, model: str | None = None) -> np.ndarray:
    """``counts`` as a float array of trinomial (3) or pentanomial (5) counts on the last
    axis; ``model`` (if given) fixes which."""
    c = np.asarray(counts, dtype=float)
    k = MODELS[model] if model else c.shape[-1] if c.ndim else 0
    if c.ndim == 0 or c.shape[-1] != k or k not in MODELS.values() or np.any(c < 0):
        want = f"{k} {model}" if model else "3 trinomial or 5 pentanomial"
        raise ValueError(f"counts must be {want} non-negative counts, got {counts!r}")
    return c

def empirical(counts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(n, values, p)``: the number of samples (pairs or games, regularised), the score of
    each category per game (0..1) and the observed frequencies, over the last axis."""
    c = check_counts(counts)
    c = np.where(c == 0, EMPTY, c)
    n = c.sum(axis=-1)
    return n, np.linspace(0, 1, c.shape[-1]), c / n[..., None]

def moments(counts) -> tuple:
    """``(n, mean, variance)`` of the score per game of each sample: a game (trinomial) or
    the mean of a pair (pentanomial), whose variance is the pair-based one."""
    n, values, p = empirical(counts)
    mean = (p * values).sum(axis=-1)
    var = (p * (values - mean[..., None]) ** 2).sum(axis=-1)
    return _scalar(n), _scalar(mean), _scalar(var)

def games_in(counts) -> int:
    """Games behind ``counts`` (two per pair for pentanomial counts)."""
    c = check_counts(counts)
    return int(round(c.sum() * (c.shape[-1] - 1) / 2))

def elo_interval(counts, alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float, float]:
    """``(estimate, low, high)`` in Elo from the mean score and its normal interval with the
    observed variance: ``low`` at confidence 1 - alpha, ``high`` at 1 - beta (one-sided)."""
    n, mean, var = moments(counts)
    se = math.sqrt(var / n)
    low, high = mean - _Z.inv_cdf(1 - alpha) * se, mean + _Z.inv_cdf(1 - beta) * se
    return elo_from_score(mean), elo_from_score(max(low, 0.0)), elo_from_score(min(high, 1.0))

def power_reached(samples: float, elo0: float, elo1: float, alpha: float = 0.05,
                  variance: float | None = None) -> float:
    """Power against elo1 of a one-sided level-alpha test of elo0 on ``samples`` samples (games, or
    pairs for pentanomial counts) whose score has ``variance`` each:
    Phi(sqrt(samples / variance) (s1 - s0) - z(1 - alpha)).

    ``variance`` is the observed one of a tally (:func:`moments`), or by default the variance of a
    game's score at elo1 without draws, s1 (1 - s1): the power a verdict left undecided had
    reached, which a sample's own variance would put at 1 after a few identical results.

    >>> round(power_reached(100, 0, 70), 2), power_reached(0, 0, 70)
    (0.65, 0.0)
    """
    if not elo0 < elo1:
        raise ValueError(f"power_reached: elo0 must be below elo1, got elo0={elo0}, elo1={elo1}")
    if samples <= 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    var = s1 * (1 - s1) if variance is None else variance
    return _Z.cdf(math.sqrt(samples / var) * (s1 - s0) - _Z.inv_cdf(1 - alpha))
