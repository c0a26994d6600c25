"""Bradley-Terry / Elo ratings of players from their games, with bootstrap intervals.

Draws count as half a win for each side throughout.
"""

from __future__ import annotations

import numpy as np

from .elo import elo_from_strength

__all__ = ["bradley_terry", "rate"]


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
    draws = []
    arr = list(results)
    for _ in range(bootstrap if arr else 0):
        pick = rng.integers(len(arr), size=len(arr))
        draws.append(elo_from_strength(bradley_terry(matrix([arr[k] for k in pick]))))
    samples = np.array(draws) if draws else np.zeros((0, n))
    out = []
    for i, name in enumerate(players):
        lo, hi = (np.percentile(samples[:, i], [2.5, 97.5]) if len(samples) else (np.nan, np.nan))
        out.append({"player": name, "elo": float(point[i]), "elo_low": float(lo), "elo_high": float(hi)})
    return out
