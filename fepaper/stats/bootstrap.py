"""The percentile bootstrap of a sample's mean and of a ratio of two paired totals.

Each function takes the caller's generator and draws ``resamples`` rows of as many indices as
the sample has (``rng.integers(n, size=(resamples, n))``), one call each: the caller's seed
fixes every resample, so a claim recomputed from the same sample and seed gives the same bounds.

Examples
--------
>>> rng = np.random.default_rng(0)
>>> means([1.0, 2.0, 3.0, 4.0], 1000, rng).shape
(1000,)
>>> float(ratio_of_totals([1, 1, 1], [2, 2, 2], 10, rng).max())
0.5
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["resample", "means", "ratio_of_totals"]


def resample(n: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """``resamples`` rows of ``n`` indices into a sample of ``n``, drawn with replacement."""
    if n < 1 or resamples < 1:
        raise ValueError(f"a bootstrap needs a sample and resamples, got {n} values, {resamples} resamples")
    return rng.integers(n, size=(resamples, n))


def means(values: Sequence[float] | np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The mean of each of ``resamples`` resamples of ``values``."""
    x = np.asarray(values, dtype=float)
    return x[resample(len(x), resamples, rng)].mean(axis=1)


def ratio_of_totals(numerator: Sequence[float] | np.ndarray, denominator: Sequence[float] | np.ndarray,
                    resamples: int, rng: np.random.Generator) -> np.ndarray:
    """sum(numerator) / sum(denominator) of each of ``resamples`` resamples of the pairs
    ``(numerator[i], denominator[i])``, drawn together (a total of 0 gives inf or nan, left to
    the caller)."""
    num, den = np.asarray(numerator, dtype=float), np.asarray(denominator, dtype=float)
    if num.shape != den.shape or num.ndim != 1:
        raise ValueError(f"a ratio of totals needs one numerator and one denominator a pair, got shapes "
                         f"{num.shape} and {den.shape}")
    pick = resample(len(num), resamples, rng)
    with np.errstate(invalid="ignore", divide="ignore"):
        return num[pick].sum(axis=1) / den[pick].sum(axis=1)
