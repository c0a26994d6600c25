"""Many tests at once: Holm's correction, and a claim decided over a family of pairs.

Examples
--------
>>> holm([0.01, 0.04, 0.03], alpha=0.05)[1].tolist()
[True, False, False]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .verdicts import Verdict

__all__ = ["holm", "judge_family"]


def _significant(p, level):
    # A pair run at level / k and multiplied back by k must count despite rounding.
    return p <= level * (1 + 1e-9)

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
