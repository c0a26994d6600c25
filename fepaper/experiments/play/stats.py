"""Deciding a claim "X beats Y" from game results: the vocabulary every test shares.

A claim is *confirmed*, *refuted* or *not decided*, and says how sure it is: a
:class:`Verdict` is one CSV row with the method, the games, an Elo estimate and interval,
the error rates and hypotheses, and the evidence (LLR, p-values, power reached). The tests
that produce verdicts live beside this module: :mod:`.sequential` (the sequential
probability ratio test engine testers use) and :mod:`.fixed` (a fixed number of games).
This module holds Elo and expected score, tallies of results, Holm's correction and the
decision of a claim over a family of pairs (:func:`judge_family`).

Scores follow ratings.py: a win 1, a draw 1/2, a loss 0. Games played one by one are
tallied as *trinomial* counts ``(losses, draws, wins)``; games played in colour-swapped
pairs are tallied as *pentanomial* counts of the pair scores ``(0, 0.5, 1, 1.5, 2)``, low
to high (fishtest's order). Elo is logistic: a player ``elo`` points stronger expects
``1 / (1 + 10**(-elo / 400))`` of the points.

Examples
--------
>>> tally([2, 1.5, 1, 2, 0.5], "pentanomial")
(0, 1, 1, 1, 2)
>>> holm([0.01, 0.04, 0.03], alpha=0.05)[1].tolist()
[True, False, False]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist

import numpy as np

__all__ = ["VERDICTS", "MODELS", "Verdict", "expected_score", "elo_from_score", "tally", "moments",
           "elo_interval", "power_reached", "holm", "judge_family", "wins_above", "sign_test"]

VERDICTS = ("confirmed", "refuted", "not decided")
MODELS = {"trinomial": 3, "pentanomial": 5}

# fishtest's regularisation: an empty category counts as this many results, so that a
# sweep (all wins) still has a variance and every likelihood stays finite.
EMPTY = 1e-3

_Z = NormalDist()


@dataclass(frozen=True)
class Verdict:
    """The decision on a claim, as one CSV row (``asdict(verdict)`` or :meth:`row`).

    ``estimate``, ``low`` and ``high`` are in Elo: ``low`` is a one-sided lower bound at
    confidence 1 - ``alpha``, ``high`` a one-sided upper bound at confidence 1 - ``beta``.
    ``p_value`` is the evidence for the claim (against H0: elo <= elo0) and ``p_refute``
    the evidence against it (against H1: elo >= elo1); a test that only decides reports its
    error rate when it decided and 1 otherwise, which is still a valid p-value. ``power`` is
    the power reached against elo1 when a budget ran out (NaN when not computed), ``llr``
    the log-likelihood ratio of a sequential test (NaN for others).
    """

    method: str
    games: int
    estimate: float
    low: float
    high: float
    alpha: float
    beta: float
    elo0: float
    elo1: float
    llr: float
    verdict: str
    p_value: float = math.nan
    p_refute: float = math.nan
    power: float = math.nan

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")

    def row(self) -> dict:
        """The fields as a dict, in CSV column order."""
        return asdict(self)


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


def power_reached(counts, elo0: float, elo1: float, alpha: float = 0.05) -> float:
    """Power against elo1 of a one-sided level-alpha test of elo0 on as many samples as
    ``counts`` holds, with their observed variance: Phi(sqrt(n) (s1 - s0) / sd - z(1-alpha))."""
    n, _, var = moments(counts)
    shift = math.sqrt(n / var) * (expected_score(elo1) - expected_score(elo0))
    return _Z.cdf(shift - _Z.inv_cdf(1 - alpha))


def _significant(p, level):
    # A pair run at level / k and multiplied back by k must count despite rounding.
    return p <= level * (1 + 1e-9)


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


def holm(p_values: Sequence[float], alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down correction: adjusted p-values and which hypotheses are rejected
    with a family-wise error rate of at most ``alpha`` (under any dependence).

    The i-th smallest of m p-values is multiplied by m - i + 1, the products are made
    non-decreasing in that order and capped at 1; a hypothesis is rejected when its
    adjusted p-value is at most alpha.

    Examples
    --------
    >>> adjusted, rejected = holm([0.01, 0.04, 0.03, 0.005])
    >>> adjusted.round(3).tolist(), rejected.tolist()
    ([0.03, 0.06, 0.06, 0.02], [True, False, False, True])
    """
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or np.any((p < 0) | (p > 1)) or np.any(np.isnan(p)):
        raise ValueError(f"p_values must be a list of probabilities, got {p_values!r}")
    order = np.argsort(p, kind="stable")
    m = len(p)
    stepped = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    adjusted = np.empty(m)
    adjusted[order] = stepped
    return adjusted, _significant(adjusted, alpha)


def judge_family(verdicts: Sequence[Verdict], claim: str = "each", alpha: float = 0.05,
                 beta: float = 0.05) -> Verdict:
    """Decide a claim over several pairs from the verdict of each pair.

    ``claim="each"``: "X beats each of Y1..Yk" (the thesis's "the dynamic alpha-beta is
    the best alpha-beta", "FerDistRival is the best colony"). This is an intersection-union test: the
    claim is confirmed when every pairwise test confirms, each at level alpha, with no
    correction. Falsely confirming needs some pair's null to be true, and that pair's test
    alone then confirms wrongly with probability at most alpha; requiring the others to
    confirm too can only lower it, so the family's error is at most alpha (its p-value is the
    largest of the pairs'). Refuting the claim needs only one pair to fail, a union of
    chances for error, so it takes Holm's correction at level beta over the pairs' p_refute.

    ``claim="any"``: "X beats at least one of Y1..Yk" is the mirror image: confirming is the
    union (Holm at alpha over the p-values), refuting is the intersection (every pair
    refuted, each at beta). "A claim is refuted if any pair is refuted" belongs here.

    Sequential tests report only decisions (p = their error rate, else 1); under Holm a pair
    then counts when its error rate is at most alpha / k (or beta / k): run the SPRTs of a
    family of k with that rate on the corrected side. A family confirmed and refuted at
    once (possible when elo0 < elo1) is confirmed. The row shows the weakest pair (each)
    or the strongest (any).

    Examples
    --------
    >>> row = dict(method="z-test", games=100, estimate=80.0, low=30.0, high=130.0, alpha=0.05,
    ...            beta=0.05, elo0=0.0, elo1=50.0, llr=math.nan, verdict="confirmed")
    >>> pairs = [Verdict(**row, p_value=0.01, p_refute=0.9), Verdict(**row, p_value=0.04, p_refute=0.8)]
    >>> judge_family(pairs, "each").verdict, judge_family(pairs, "any").verdict
    ('confirmed', 'confirmed')
    >>> judge_family(pairs[1:] * 2, "any").verdict  # Holm: 2 x 0.04 > 0.05
    'not decided'
    """
    if claim not in ("each", "any") or not verdicts:
        raise ValueError(f"claim must be 'each' or 'any' over at least one verdict, got {claim!r}, "
                         f"{len(verdicts)} verdicts")
    p_for = [v.p_value for v in verdicts]
    p_against = [v.p_refute for v in verdicts]
    if np.any(np.isnan(p_for + p_against)):
        raise ValueError("every verdict of a family needs p_value and p_refute")
    if claim == "each":
        p_value, p_refute = max(p_for), float(holm(p_against, beta)[0].min())
        shown = min(verdicts, key=lambda v: v.estimate)
        method = f"intersection-union of {len(verdicts)} ({verdicts[0].method})"
    else:
        p_value, p_refute = float(holm(p_for, alpha)[0].min()), max(p_against)
        shown = max(verdicts, key=lambda v: v.estimate)
        method = f"Holm over {len(verdicts)} ({verdicts[0].method})"
    verdict = ("confirmed" if _significant(p_value, alpha) else "refuted" if _significant(p_refute, beta)
               else "not decided")
    same = {(v.elo0, v.elo1) for v in verdicts}
    elo0, elo1 = same.pop() if len(same) == 1 else (math.nan, math.nan)
    return Verdict(method, sum(v.games for v in verdicts), shown.estimate, shown.low, shown.high,
                   alpha, beta, elo0, elo1, math.nan, verdict, p_value, p_refute)
