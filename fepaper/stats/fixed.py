"""A fixed number of games: how many to play, and the one-sided test on their score.

The alternative to the sequential test when the games are played in one batch: choose the
number of games beforehand with :func:`games_for_power` so that a one-sided test of
H0: score <= p0 at level alpha has power 1 - beta when the score is p1, then judge the
results with :func:`score_test`, a normal (z) test with the observed variance, the
pair-based one when the games were played in colour-swapped pairs.

Examples
--------
>>> games_for_power(0.5, 0.6, draw_rate=0.2)
206
>>> v = score_test([30, 20, 50], elo0=0, elo1=50)  # 100 games: 30 lost, 20 drawn, 50 won
>>> v.verdict, round(v.estimate, 1), round(v.p_value, 5)
('confirmed', 70.4, 0.01089)
"""

from __future__ import annotations

import math
from statistics import NormalDist

from .elo import expected_score
from .scores import check_counts, elo_interval, games_in, moments, power_reached
from .verdicts import Verdict

__all__ = ["games_for_power", "score_test"]

_Z = NormalDist()


def games_for_power(p0: float, p1: float, alpha: float = 0.05, beta: float = 0.05,
                    draw_rate: float = 0.0) -> int:
    """Games for a one-sided level-alpha test of H0: score <= p0 to reach power 1 - beta
    when the expected score per game is p1 > p0 and a fraction ``draw_rate`` of the games
    are drawn.

    With the observed variance the test statistic is about (mean - p0) / (sd1 / sqrt(n)),
    sd1^2 = p1 (1 - p1) - draw_rate / 4 being the variance of a game's score at p1, so
    n = ((z(1-alpha) + z(1-beta)) sd1 / (p1 - p0))^2. Colour-swapped pairs whose two games
    are negatively correlated (the usual first-move advantage) need no more games than this.
    """
    if not 0 <= p0 < p1 <= 1:
        raise ValueError(f"scores must satisfy 0 <= p0 < p1 <= 1, got p0={p0}, p1={p1}")
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must be in (0, 1), got alpha={alpha}, beta={beta}")
    if not 0 <= draw_rate <= 2 * min(p1, 1 - p1):
        raise ValueError(f"draw_rate must be in [0, {2 * min(p1, 1 - p1):g}] at score {p1}, got {draw_rate}")
    var = p1 * (1 - p1) - draw_rate / 4
    z = _Z.inv_cdf(1 - alpha) + _Z.inv_cdf(1 - beta)
    return max(1, math.ceil((z * z * var / (p1 - p0) ** 2) - 1e-9))


def score_test(counts, elo0: float = 0.0, elo1: float | None = None, alpha: float = 0.05,
               beta: float = 0.05) -> Verdict:
    """One-sided z-test that the player scores more than ``expected_score(elo0)`` per game.

    ``counts`` are trinomial ``(losses, draws, wins)`` of single games or pentanomial
    counts of colour-swapped pairs (pair scores 0, 0.5, 1, 1.5, 2), whose variance is then
    measured over pairs. The claim is *confirmed* when H0: elo <= elo0 is rejected at level
    alpha, else *refuted* when H1: elo >= elo1 is rejected at level beta (``elo1`` defaults
    to ``elo0``: refuted means significantly weaker), else *not decided*. The Verdict's
    ``low`` and ``high`` are the matching one-sided bounds, so confirmed means low > elo0
    and refuted means high < elo1; ``power`` is the power reached against elo1 > elo0.
    """
    c = check_counts(counts)
    elo1 = elo0 if elo1 is None else elo1
    n, mean, var = moments(c)
    se = math.sqrt(var / n)
    p_value = 1 - _Z.cdf((mean - expected_score(elo0)) / se)
    p_refute = _Z.cdf((mean - expected_score(elo1)) / se)
    verdict = "confirmed" if p_value <= alpha else "refuted" if p_refute <= beta else "not decided"
    power = power_reached(n, elo0, elo1, alpha, var) if elo1 > elo0 else math.nan
    model = "pentanomial" if c.shape[-1] == 5 else "trinomial"
    return Verdict(f"z-test ({model})", games_in(c), *elo_interval(c, alpha, beta), alpha, beta,
                   elo0, elo1, math.nan, verdict, p_value, p_refute, power)
