"""The verdict on a claim: *confirmed*, *refuted* or *not decided*, and how sure it is.

A :class:`Verdict` is one CSV row with the method, the games, an Elo estimate and interval,
the error rates and hypotheses, and the evidence (LLR, p-values, power reached). Every test of
:mod:`fepaper.stats` returns one.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

__all__ = ["VERDICTS", "Verdict"]


VERDICTS = ("confirmed", "refuted", "not decided")

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
