"""Families of players compared through Bradley-Terry ratings of a league (a round robin).

"The best version of ant colonies is the FerDistRival version" compares *families*: a
family is rated by its best member, and the claim holds when the FerDistRival family's
best tuned colony rates above the best of each other family. :func:`league_ratings` fits
Bradley-Terry (Elo) ratings to a league played in colour-swapped pairs and resamples it
(the pairs of each pairing, with replacement) to get their sampling spread;
:func:`contrast` judges "family X rates ``elo0`` or more above family Y" as a one-sided
z-test on the difference of the families' best ratings, with the bootstrap's standard
deviation as its standard error, and returns a
:class:`~fepaper.stats.verdicts.Verdict` that
:func:`~fepaper.stats.multiple.judge_family` can combine with others.

Examples
--------
>>> pairs = {(0, 1): [2.0] * 30, (0, 2): [2.0] * 30, (1, 2): [1.0] * 30}
>>> ratings = league_ratings(3, pairs, resamples=200, seed=1)
>>> contrast(ratings, [0], [1, 2], elo0=0, elo1=70).verdict
'confirmed'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from .elo import elo_from_strength
from .ratings import bradley_terry
from .verdicts import Verdict

__all__ = ["LeagueRatings", "league_ratings", "contrast"]

_Z = NormalDist()


@dataclass(frozen=True)
class LeagueRatings:
    """Elo ratings (mean 0) of ``players`` players: ``point`` from every pair, ``samples``
    (resamples x players) from the bootstrap, and ``games`` in the league."""

    point: np.ndarray
    samples: np.ndarray
    games: int

    @property
    def spread(self) -> np.ndarray:
        """The bootstrap standard deviation of each player's rating."""
        return self.samples.std(axis=0, ddof=1)


def _check_pairs(players: int, pairs: Mapping[tuple[int, int], Sequence[float]]) -> None:
    for (i, j), scores in pairs.items():
        if not (0 <= i < players and 0 <= j < players and i != j):
            raise ValueError(f"pairing ({i}, {j}) is not two different players of {players}")
        if any(not 0 <= s <= 2 for s in scores):
            raise ValueError(f"pairing ({i}, {j}): a pair scores 0 to 2 points, got {list(scores)[:5]}")


def _ratings(players: int, pairs: Mapping[tuple[int, int], np.ndarray]) -> np.ndarray:
    wins = np.zeros((players, players))
    for (i, j), scores in pairs.items():
        wins[i, j] += scores.sum()
        wins[j, i] += 2 * len(scores) - scores.sum()
    return elo_from_strength(bradley_terry(wins))


def league_ratings(players: int, pairs: Mapping[tuple[int, int], Sequence[float]], resamples: int = 1000,
                   seed: int = 0) -> LeagueRatings:
    """Bradley-Terry ratings of a league and their bootstrap.

    Parameters
    ----------
    players : int
    pairs : dict
        ``{(i, j): [points of i in each colour-swapped pair against j (0..2)]}``.
    resamples : int
        Bootstrap resamples: each pairing's pairs drawn with replacement.
    seed : int
    """
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 2:
        raise ValueError(f"resamples must be an integer >= 2, got {resamples!r}")
    _check_pairs(players, pairs)
    arrays = {k: np.asarray(v, dtype=float) for k, v in pairs.items() if len(v)}
    point = _ratings(players, arrays)
    rng = np.random.default_rng([seed, 17])
    samples = np.empty((resamples, players))
    for r in range(resamples):
        drawn = {k: v[rng.integers(len(v), size=len(v))] for k, v in arrays.items()}
        samples[r] = _ratings(players, drawn)
    return LeagueRatings(point, samples, int(sum(2 * len(v) for v in arrays.values())))


def contrast(ratings: LeagueRatings, family_a: Sequence[int], family_b: Sequence[int], elo0: float = 0.0,
             elo1: float = 70.0, alpha: float = 0.05, beta: float = 0.05) -> Verdict:
    """"Family A's best member rates above family B's best": a one-sided z-test.

    The difference d = max(rating of A's members) - max(rating of B's) has the bootstrap's
    standard deviation as its standard error (the maximum is taken within each resample).
    Confirmed when H0: d <= elo0 is rejected at level ``alpha``; refuted when H1: d >= elo1 is
    rejected at ``beta``; the interval is ``[d - z(1-alpha) se, d + z(1-beta) se]``; ``power``
    is what a test of this standard error has against elo1.
    """
    a, b = list(family_a), list(family_b)
    if not a or not b or set(a) & set(b):
        raise ValueError(f"families must be non-empty and disjoint, got {a} and {b}")
    if not elo0 <= elo1:
        raise ValueError(f"elo0 must not exceed elo1, got elo0={elo0}, elo1={elo1}")
    d = float(ratings.point[a].max() - ratings.point[b].max())
    spread = ratings.samples[:, a].max(axis=1) - ratings.samples[:, b].max(axis=1)
    se = max(float(spread.std(ddof=1)), 1e-9)
    p_value = 1 - _Z.cdf((d - elo0) / se)
    p_refute = _Z.cdf((d - elo1) / se)
    verdict = "confirmed" if p_value <= alpha else "refuted" if p_refute <= beta else "not decided"
    power = _Z.cdf((elo1 - elo0) / se - _Z.inv_cdf(1 - alpha)) if elo1 > elo0 else math.nan
    return Verdict(f"Bradley-Terry contrast of family bests ({len(ratings.samples)} bootstrap resamples)",
                   ratings.games, d, d - _Z.inv_cdf(1 - alpha) * se, d + _Z.inv_cdf(1 - beta) * se, alpha,
                   beta,
                   elo0, elo1, math.nan, verdict, p_value, p_refute, power)
