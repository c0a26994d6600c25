"""The sequential probability ratio test (SPRT) as engine testers use it (Stockfish's fishtest).

Before playing, state two hypotheses in logistic Elo, H0: elo = elo0 and H1: elo = elo1,
and the error rates: alpha (accepting H1 when H0 holds) and beta (accepting H0 when H1
holds). Play games, preferably in colour-swapped pairs scored as pairs (the pentanomial
model), and after each one compare the log-likelihood ratio (LLR) of H1 against H0 with
Wald's bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha): above the upper one H1
is accepted (the claim is *confirmed*), below the lower one H0 is accepted (*refuted*).
Lopsided matches stop after a few pairs, close ones take many.

The result of a pair (or game) is not a coin with known odds: its draw rate and, for
pairs, the spread of the five pair scores are unknown. The generalized SPRT (GSPRT) of
Michel Van den Bergh, which fishtest decides with (``LLRcalc.LLR_logistic``), replaces
each hypothesis by the most likely distribution of the five (or three) scores whose mean is
the hypothesised expected score ("support_MLE_multinomial", Proposition 1.1), and empty
categories count as ``stats.EMPTY`` results, as in fishtest.

His quadratic approximation N (s1 - s0) (2 mean - s0 - s1) / (2 variance)
("GSPRT_approximation"), which fishtest uses only for drift and confidence estimates over
thousands of pairs, is deliberately not offered: after one pair the regularised variance
is about 1e-3 and the approximate LLR crosses a bound at once (in simulation a third of
tests at elo = elo0 accepted H1 after one pair), while the exact one keeps alpha and beta
(tests/test_stats.py simulates it).

:class:`SignSPRT` is Wald's test on a share of trials with two outcomes and no draws (a sign
test done sequentially: which of two programs took longer, pair by pair), with a first look, a
look every so many trials and a cap, and its operating characteristic computed exactly.

Examples
--------
>>> test = SPRT(elo0=0, elo1=100)
>>> [round(b, 3) for b in test.bounds]
[-2.944, 2.944]
>>> test.status([0, 1, 4, 6, 9])  # 20 pairs, mostly won
'accept H1'
>>> run_sprt(test, [1.0] * 1000, max_games=100).verdict  # even pairs: not 100 Elo stronger
'refuted'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .elo import expected_score
from .scores import MODELS, check_counts, elo_interval, empirical, games_in, moments, power_reached, tally
from .verdicts import Verdict

__all__ = ["SPRT", "run_sprt", "constrained_mle", "SignSPRT", "SignRun"]

VERDICT_OF_STATUS = {"accept H1": "confirmed", "accept H0": "refuted", "continue": "not decided"}


def _check_rates(alpha: float, beta: float) -> None:
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError(f"alpha and beta must be error rates with alpha + beta < 1, got alpha={alpha}, "
                         f"beta={beta}")


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's ``(lower, upper)`` bounds on the log-likelihood ratio for error rates alpha, beta."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _crossed(llr: float, bounds: tuple[float, float]) -> str:
    lower, upper = bounds
    return "accept H1" if llr >= upper else "accept H0" if llr <= lower else "continue"


def constrained_mle(p: np.ndarray, values: np.ndarray, mean) -> np.ndarray:
    """The most likely distribution on ``values`` with expectation ``mean``, given observed
    frequencies ``p`` (positive, on the last axis; ``mean`` broadcasts against the others).

    It is ``q_i = p_i / (1 + x (v_i - mean))`` with x the root of the secular equation
    ``sum_i p_i (v_i - mean) / (1 + x (v_i - mean)) = 0``, which is decreasing in x on the
    interval where every denominator is positive; bisection finds it to machine precision.

    Examples
    --------
    >>> q = constrained_mle(np.array([0.25, 0.5, 0.25]), np.array([0, 0.5, 1]), 0.5)
    >>> q.round(12).tolist()
    [0.25, 0.5, 0.25]
    """
    a = values - np.asarray(mean, dtype=float)[..., None]
    lo, hi = -1 / a.max(axis=-1), -1 / a.min(axis=-1)
    for _ in range(64):
        mid = (lo + hi) / 2
        down = (p * a / (1 + mid[..., None] * a)).sum(axis=-1) > 0
        lo, hi = np.where(down, mid, lo), np.where(down, hi, mid)
    q = p / (1 + ((lo + hi) / 2)[..., None] * a)
    return q / q.sum(axis=-1, keepdims=True)


@dataclass(frozen=True)
class SPRT:
    """A sequential test of H0: elo = elo0 against H1: elo = elo1 (logistic Elo, elo0 < elo1)
    with error rates alpha and beta, on ``model`` counts ("pentanomial": pairs of
    colour-swapped games; "trinomial": single games)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "pentanomial"

    def __post_init__(self):
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be below elo1, got elo0={self.elo0}, elo1={self.elo1}")
        _check_rates(self.alpha, self.beta)
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {sorted(MODELS)}, got {self.model!r}")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's ``(lower, upper)`` bounds on the LLR: accept H0 below, H1 above."""
        return wald_bounds(self.alpha, self.beta)

    @property
    def scores(self) -> tuple[float, float]:
        """Expected scores per game under H0 and H1."""
        return expected_score(self.elo0), expected_score(self.elo1)

    def llr(self, counts):
        """The GSPRT log-likelihood ratio of ``counts`` (low to high), a float, or an array
        for an array of counts (one set per row: many tests at once)."""
        check_counts(counts, self.model)
        n, values, p = empirical(counts)
        hypotheses = np.array(self.scores).reshape((2,) + (1,) * (p.ndim - 1))
        q0, q1 = constrained_mle(p[None], values, hypotheses)
        out = n * (p * np.log(q1 / q0)).sum(axis=-1)
        return float(out) if np.ndim(out) == 0 else out

    def status(self, counts) -> str:
        """``"accept H1"``, ``"accept H0"`` or ``"continue"`` after ``counts``."""
        return self._status(self.llr(counts))

    def _status(self, llr: float) -> str:
        return _crossed(llr, self.bounds)

    def verdict(self, counts) -> Verdict:
        """The test after ``counts`` as a :class:`Verdict`: accepting H1 confirms the claim,
        accepting H0 refutes it (the player is not elo1 stronger), and otherwise it is not
        decided, with the power a fixed test on these games would have had against elo1.

        The Elo interval is the naive one of :func:`stats.elo_interval`: it ignores that the
        test stopped when the results looked decisive, so it is somewhat too narrow.
        """
        llr = self.llr(counts)
        verdict = VERDICT_OF_STATUS[self._status(llr)]
        undecided = verdict == "not decided"
        n, _, var = moments(counts)
        power = power_reached(n, self.elo0, self.elo1, self.alpha, var) if undecided else math.nan
        return Verdict(f"SPRT ({self.model})", games_in(counts),
                       *elo_interval(counts, self.alpha, self.beta), self.alpha, self.beta, self.elo0,
                       self.elo1, llr, verdict, p_value=self.alpha if verdict == "confirmed" else 1.0,
                       p_refute=self.beta if verdict == "refuted" else 1.0, power=power)


def run_sprt(test: SPRT, results: Iterable[float], max_games: int | None = None) -> Verdict:
    """Feed ``results`` (pair scores 0..2 for a pentanomial test, game scores 0..1 for a
    trinomial one) to ``test`` one by one and stop as soon as it decides or the next
    result would pass ``max_games`` games.

    ``results`` is read lazily, so it may be a generator that plays each pair on demand.
    The :class:`Verdict` tells the games used (pairs = games / 2 for pentanomial), the LLR
    and, when the budget or the results ran out first, "not decided" with the power reached.
    """
    k = MODELS[test.model]
    per_result = (k - 1) // 2
    counts = [0] * k
    stream = iter(results)
    # The budget is checked before the next result is asked for: it may cost a game.
    while max_games is None or (sum(counts) + 1) * per_result <= max_games:
        score = next(stream, None)
        if score is None:
            break
        counts[tally([score], test.model).index(1)] += 1
        if test.status(counts) != "continue":
            break
    return test.verdict(counts)


@dataclass(frozen=True)
class SignRun:
    """Where a :class:`SignSPRT` stopped: ``wins`` of ``trials``, the LLR there, the test's
    ``status`` ("accept H1", "accept H0", or "continue" when the cap or the trials ran out) and
    the ``verdict`` on the claim that the share is ``p1`` or more (confirmed, refuted, not decided)."""

    wins: int
    trials: int
    llr: float
    status: str

    @property
    def verdict(self) -> str:
        return VERDICT_OF_STATUS[self.status]


@dataclass(frozen=True)
class SignSPRT:
    """Wald's SPRT of H0: share = ``p0`` against H1: share = ``p1`` (p0 < p1) on trials won or
    lost (a Bernoulli sequence, no draws), with error rates alpha and beta.

    The test looks at trial ``first_look`` and then at every ``every``-th trial (``every=2``:
    after both orders of an interleaved pair equally often), and stops at ``max_trials`` at the
    latest, not decided if no bound was crossed by then. Looking less often than every trial and
    the cap change the error rates a little from Wald's; :meth:`operating_characteristic` gives
    them exactly.

    Examples
    --------
    >>> test = SignSPRT(0.5, 0.6, first_look=4, every=2, max_trials=100)
    >>> run = test.run([False] * 20)  # every trial lost: H0 at the first look past the lower bound
    >>> run.trials, run.verdict
    (14, 'refuted')
    >>> {k: round(v, 3) for k, v in test.operating_characteristic(0.5).items()}
    {'confirmed': 0.019, 'refuted': 0.416, 'not decided': 0.564, 'mean trials': 84.562}
    """

    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05
    first_look: int = 1
    every: int = 1
    max_trials: int = 1000

    def __post_init__(self):
        if not 0 < self.p0 < self.p1 < 1:
            raise ValueError(f"need 0 < p0 < p1 < 1, got p0={self.p0}, p1={self.p1}")
        _check_rates(self.alpha, self.beta)
        if not 1 <= self.first_look <= self.max_trials or self.every < 1:
            raise ValueError(f"need 1 <= first_look <= max_trials and every >= 1, got first_look="
                             f"{self.first_look}, every={self.every}, max_trials={self.max_trials}")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's ``(lower, upper)`` bounds on the LLR: accept H0 below, H1 above."""
        return wald_bounds(self.alpha, self.beta)

    def llr(self, wins, trials):
        """The log-likelihood ratio of H1 against H0 after ``wins`` of ``trials`` (arrays broadcast)."""
        wins, trials = np.asarray(wins), np.asarray(trials)
        if np.any((wins < 0) | (wins > trials)):
            raise ValueError(f"need 0 <= wins <= trials, got wins={wins}, trials={trials}")
        out = wins * math.log(self.p1 / self.p0) + (trials - wins) * math.log((1 - self.p1) / (1 - self.p0))
        return float(out) if np.ndim(out) == 0 else out

    def looks_at(self, trials: int) -> bool:
        """Whether the test looks after ``trials`` trials (the last one, the cap, always)."""
        return trials == self.max_trials or (
            trials >= self.first_look and (trials - self.first_look) % self.every == 0)

    def status(self, wins: int, trials: int) -> str:
        """``"accept H1"``, ``"accept H0"`` or ``"continue"`` after ``wins`` of ``trials`` (always
        "continue" between looks)."""
        return _crossed(self.llr(wins, trials), self.bounds) if self.looks_at(trials) else "continue"

    def run(self, outcomes: Iterable[bool]) -> SignRun:
        """Feed ``outcomes`` (True: a win) one by one and stop at the first look past a bound or at
        the cap. ``outcomes`` is read lazily: no trial is asked for after the test stopped."""
        wins = trials = 0
        status = "continue"
        stream = iter(outcomes)
        while status == "continue" and trials < self.max_trials:
            won = next(stream, None)
            if won is None:
                break
            wins, trials = wins + bool(won), trials + 1
            status = self.status(wins, trials)
        return SignRun(wins, trials, self.llr(wins, trials), status)

    def operating_characteristic(self, share: float) -> dict[str, float]:
        """The chance of each verdict ("confirmed": H1 accepted, "refuted": H0 accepted, "not decided":
        the cap reached) and the mean trials when each trial is won with chance ``share``, exactly:
        the distribution of wins is carried trial by trial, the part past a bound removed at each
        look."""
        if not 0 <= share <= 1:
            raise ValueError(f"share must be a probability, got {share}")
        lower, upper = self.bounds
        wins = np.arange(self.max_trials + 1)
        alive = np.zeros(self.max_trials + 1)
        alive[0] = 1.0
        out = {"confirmed": 0.0, "refuted": 0.0, "not decided": 0.0, "mean trials": 0.0}
        for n in range(1, self.max_trials + 1):
            alive[1:] = alive[1:] * (1 - share) + alive[:-1] * share
            alive[0] *= 1 - share
            if not self.looks_at(n):
                continue
            llr = self.llr(wins[: n + 1], n)
            for key, past in (("confirmed", llr >= upper), ("refuted", llr <= lower)):
                mass = alive[: n + 1][past].sum()
                out[key] += mass
                out["mean trials"] += n * mass
                alive[: n + 1][past] = 0.0
        out["not decided"] = float(alive.sum())
        out["mean trials"] += self.max_trials * out["not decided"]
        return {k: float(v) for k, v in out.items()}
