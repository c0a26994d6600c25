"""Logistic Elo and expected score: a player ``elo`` points stronger expects
``1 / (1 + 10**(-elo / 400))`` of the points (a win 1, a draw 1/2, a loss 0).
"""

from __future__ import annotations

import math  # noqa: F401  (the doctests use it)

import numpy as np

__all__ = ["expected_score", "elo_from_score", "elo_from_strength"]


def _scalar(x: np.ndarray):
    return float(x) if np.ndim(x) == 0 else x

def expected_score(elo):
    """Expected score per game of a player ``elo`` logistic Elo points stronger.

    Examples
    --------
    >>> expected_score(0.0)
    0.5
    >>> round(expected_score(400 * math.log10(3)), 12)
    0.75
    """
    return _scalar(1 / (1 + 10 ** (-np.asarray(elo, dtype=float) / 400)))

def elo_from_score(score):
    """Logistic Elo difference that expects ``score`` per game (the inverse of
    :func:`expected_score`); a score of 0 or 1 gives -inf or +inf.

    Examples
    --------
    >>> round(elo_from_score(0.75), 6)
    190.848502
    """
    s = np.asarray(score, dtype=float)
    if np.any((s < 0) | (s > 1)):
        raise ValueError(f"a score per game lies in [0, 1], got {score}")
    with np.errstate(divide="ignore"):
        return _scalar(400 * (np.log10(s) - np.log10(1 - s)))

def elo_from_strength(p: np.ndarray) -> np.ndarray:
    """Elo points (mean 0) of Bradley-Terry strengths: 400 log10(p)."""
    e = 400 * np.log10(p)
    return e - e.mean()
