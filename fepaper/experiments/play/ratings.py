"""Win rates with Wilson intervals, and Bradley-Terry / Elo ratings with bootstrap intervals.

Draws count as half a win for each side throughout.

Examples
--------
>>> lo, hi = wilson(7, 10)
>>> round(lo, 3), round(hi, 3)
(0.397, 0.892)
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["wilson", "bradley_terry", "elo_from_strength", "rate"]


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


def bradley_terry(wins: np.ndarray, iterations: int = 2000, tol: float = 1e-10,
                  prior: float = 0.5) -> np.ndarray:
    """Bradley-Terry strengths from a matrix ``wins[i, j]`` (score of i against j).

    Hunter's MM algorithm; ``prior`` adds that many virtual draws between every pair
    that met, so a player who won (or lost) every game keeps a finite strength.
    Strengths are normalised to a geometric mean of 1.
    """
    w = np.asarray(wins, dtype=float)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"wins must be a square matrix, got shape {w.shape}")
    games = w + w.T
    met = games > 0
    w = w + prior * met / 2
    games = w + w.T
    n = w.shape[0]
    p = np.ones(n)
    total_wins = w.sum(axis=1)
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :] + 1e-300)).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.maximum(denom, 1e-300), p)
        new = np.maximum(new, 1e-12)
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(new - p)) < tol:
            p = new
            break
        p = new
    return p


def elo_from_strength(p: np.ndarray) -> np.ndarray:
    """Elo points (mean 0) of Bradley-Terry strengths: 400 log10(p)."""
    e = 400 * np.log10(p)
    return e - e.mean()


def rate(players: list[str], results: list[tuple[int, int, float]], bootstrap: int = 200,
         seed: int = 0) -> list[dict]:
    """Elo ratings with 95% bootstrap intervals from ``(i, j, score of i)`` game results."""
    n = len(players)

    def matrix(rows) -> np.ndarray:
        m = np.zeros((n, n))
        for i, j, s in rows:
            m[i, j] += s
            m[j, i] += 1 - s
        return m

    point = elo_from_strength(bradley_terry(matrix(results)))
    rng = np.random.default_rng(seed)
    samples = []
    arr = list(results)
    for _ in range(bootstrap if arr else 0):
        pick = rng.integers(len(arr), size=len(arr))
        samples.append(elo_from_strength(bradley_terry(matrix([arr[k] for k in pick]))))
    samples = np.array(samples) if samples else np.zeros((0, n))
    out = []
    for i, name in enumerate(players):
        lo, hi = (np.percentile(samples[:, i], [2.5, 97.5]) if len(samples) else (np.nan, np.nan))
        out.append({"player": name, "elo": float(point[i]), "elo_low": float(lo), "elo_high": float(hi)})
    return out
