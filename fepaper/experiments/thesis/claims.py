"""Every checkable claim of the thesis, as a hypothesis stated before any game, and its row.

A claims file (``claims_<rules>.csv``, one per rule set) has one row per claim of
:data:`CLAIMS`: the thesis's words and section, the hypotheses in numbers, the verdict
(one of :data:`VERDICTS`: *confirmed*, *refuted*, *not decided* or *not testable here*, the
reason then in the note), the method, the games behind it, the estimate
and its interval, the error rates, the power reached when the budget ran out first, and the
notebook that measures it. :mod:`~fepaper.experiments.thesis.reproduction` plays the games and
builds the rows; :mod:`~fepaper.experiments.thesis.measured` the rows that need no games;
:mod:`~fepaper.experiments.thesis.claimsfiles` writes and reads the files, and
:mod:`~fepaper.experiments.thesis.tables` turns them into the README's table.

Comparisons use one vocabulary (:data:`HYPOTHESES`), stated in logistic Elo of the first
player named against the second:

``better``
    H0: elo <= 0 (not better), H1: elo >= 70 (expects 0.6 of the points).
``far``
    "far on the other versions", "quite better": H0: elo <= 70 (only better),
    H1: elo >= 190 (expects 3/4 of the points).
``little loss``
    "little loss of effectiveness", "not necessary" (non-inferiority): H0: elo <= -70
    (loses a tenth of the points), H1: elo >= 0.
``cannot win``
    "they cannot win versus the alpha-beta controller" read as a score zone (``cannot-win-zone``), of
    alpha-beta against a colony: H0: elo <= 382 (the colony scores a tenth of the points), H1:
    elo >= 636 (a fortieth). The primary reading, "they cannot beat it" (``cannot-win``), is ``better``.

Claims on positions or decisions rather than games are declared here too: a share of events
(:data:`SHARES`: a decision over a minute, a capped turn that differs, an A* turn that
differs), judged by :class:`ShareTest`, and a ratio of CPU times (:data:`RATIOS`).

A confirmed row rejected H0 at level alpha; a refuted one rejected H1 at level beta.

A claim that states a figure says in its definition how the figure is read (:data:`KINDS`),
before any measurement: ``upper bound`` (confirmed when the worst case measured or
recomputed does not exceed it), ``approximately`` (confirmed within the relative
``tolerance`` the claim declares, with the principle it follows), or ``not testable here``
(the ``reason`` says why fepaper cannot measure what the sentence is about).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from ...stats.elo import expected_score
from ...stats.verdicts import Verdict

__all__ = ["COLUMNS", "TIMED_CELLS", "VERDICTS", "KINDS", "STANDINGS", "COLONY_SETS", "Hypothesis",
           "HYPOTHESES", "ShareTest",
           "RatioTest", "SHARES",
           "RATIOS", "THESIS_SPEEDS", "MINUTE_STEPS", "LARGER_STEPS", "Claim", "CLAIMS", "claim", "row",
           "family_power", "figure_verdict", "is_arithmetic", "verdict_counts", "RULE_SETS"]

#: What a claims row can say: the three outcomes of a test, and that fepaper cannot test the
#: sentence at all (the note says why).
VERDICTS = ("confirmed", "refuted", "not decided", "not testable here")

#: Where a reading of a sentence stands: the one declared first (``primary``), another declared
#: before the games that decide it (``beside``: another design, or what the thesis's own procedure
#: gives), or one adopted after the results of an earlier reading were seen (``read after the data``:
#: shown, never in the primary's place).
STANDINGS = ("primary", "beside", "read after the data")

#: How a claim reads its figure: ``test`` (its own hypotheses, in the row), ``upper bound``,
#: ``approximately`` (within the claim's relative ``tolerance``) and ``not testable here``.
KINDS = ("test", "upper bound", "approximately", "not testable here")

COLUMNS = ["key", "section", "claim", "thesis", "hypothesis", "verdict", "method", "games", "estimate", "low",
           "high", "unit", "alpha", "beta", "power", "rules", "where", "note"]

#: The cells of a claims file that measure this machine (its clock, its memory), by claim: the time
#: ratios, and the notes that quote seconds, steps per second or megabytes. A rerun differing only in
#: them has not changed a result (``fepaper reproduce`` keeps the committed file); a verdict never is one.
TIMED_CELLS = {
    "runtime-minute": ("note",),
    "cap-minute": ("note",),
    "memory": ("estimate", "low", "high", "note"),
    "astar-slower": ("estimate", "low", "high"),
    "nocycles-time": ("estimate", "low", "high"),
    "nocycles-time-lookup": ("estimate", "low", "high"),
}

#: The rule sets a claims file is written for: the thesis's game under each reading of a
#: dead end (docs/interpretation.md, entry 5) and the game as commonly played.
RULE_SETS = {
    "thesis": {"preset": "thesis"},
    "thesis-stop": {"preset": "thesis", "dead_end": "stop"},
    "standard": {"preset": "standard"},
}


@dataclass(frozen=True)
class Hypothesis:
    """A pair of hypotheses on the Elo of one player over another."""

    name: str
    elo0: float
    elo1: float

    @property
    def text(self) -> str:
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return (f"H0: elo <= {self.elo0:g} (score {s0:.3g}); H1: elo >= {self.elo1:g} (score {s1:.3g})")


HYPOTHESES = {h.name: h for h in (Hypothesis("better", 0, 70), Hypothesis("far", 70, 190),
                                   Hypothesis("little loss", -70, 0), Hypothesis("cannot win", 382, 636))}


@dataclass(frozen=True)
class ShareTest:
    """A claim that an event is rare among positions or decisions: H0: its share q >= ``p0``
    (not rare), H1: q <= ``p1``. Confirmed when the exact (Clopper-Pearson) one-sided upper
    bound at level ``alpha`` lies below ``p0``, refuted when the exact lower bound at ``beta``
    lies above ``p1``; otherwise not decided, with the power the sample reached (the chance,
    were q = ``p1``, that the upper bound would have fallen below ``p0``). A claim on cases that
    did not occur in the sample is not testable here
    (:func:`~fepaper.experiments.thesis.searchclaims.share_row`)."""

    event: str
    p0: float = 0.25
    p1: float = 0.10
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not 0 < self.p1 < self.p0 < 1:
            raise ValueError(f"a share test needs 0 < p1 < p0 < 1, got p1={self.p1}, p0={self.p0}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(f"alpha and beta must lie in (0, 0.5), got {self.alpha}, {self.beta}")

    @property
    def text(self) -> str:
        return f"share of {self.event}: H0: >= {self.p0:g}; H1: <= {self.p1:g}"


@dataclass(frozen=True)
class RatioTest:
    """A claim on the ratio of two searches' total CPU times on the same positions: confirmed
    when the ratio's bootstrap bound on the side of the claim (level ``alpha``) passes
    ``threshold``, refuted when the other bound (level ``beta``) lies on the other side.
    ``above``: the claim is that the ratio exceeds the threshold."""

    what: str
    threshold: float
    above: bool = True
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def text(self) -> str:
        return f"{self.what} {'exceeds' if self.above else 'stays below'} {self.threshold:g}"


#: The share claims, declared before their positions are searched: "a few" and "little" are a
#: tenth (H1, the "little loss" margin of the games, a tenth of the points) against a quarter
#: (H0, the "little" of nocycles-time: a quarter saved).
SHARES = {
    "runtime-minute": ShareTest("decisions needing more steps than a minute at the thesis's stated speed"),
    "cap-minute": ShareTest("positions where the cap binds and the capped turn differs from the larger "
                            "search's"),
    "astar-same": ShareTest("positions where the A*-evaluated search chooses another turn"),
    "useless-cycles": ShareTest("positions where many rebounds are possible and at most half of the turn's "
                                "random step sequences close a cycle"),
}

#: The ratio claims: "the improvement in time is little" (no cycles) is more than three quarters
#: of the static search's time; "much greater run time" (A*) is at least twice the plain one's.
RATIOS = {
    "nocycles-time": RatioTest("CPU time of the no-cycles search (the cycle check scans the path) over the "
                               "static one's", 0.75),
    "nocycles-time-lookup": RatioTest("CPU time of the no-cycles search (the cycle check a look-up) over the "
                                      "static one's", 0.75),
    "astar-slower": RatioTest("CPU time of the dynamic search evaluated by A* path distance over the plain "
                              "distance's", 2.0),
    "ordering-effective": RatioTest("steps searched with nearest-first ordering over steps in a fixed order",
                                    1.0, above=False),
}

#: The thesis's stated speed, "roughly 10^7 or 10^8" nodes a second (§2.1), and the minute:
#: the cap is the minute at the slower figure, the larger search the minute at the faster one.
THESIS_SPEEDS = (10**7, 10**8)
MINUTE_STEPS = 60 * THESIS_SPEEDS[0]
LARGER_STEPS = 60 * THESIS_SPEEDS[1]


@dataclass(frozen=True)
class Claim:
    """One checkable claim: ``key``, the thesis's ``section`` and words (``quote``), what it
    states in brief (``thesis``) and the notebook that measures it (``where``); ``standing`` (one of
    :data:`STANDINGS`) says whether it is the sentence's primary reading.

    How its figure is read, declared with it: ``kind`` (one of :data:`KINDS`), the ``figure``
    the thesis states, the relative ``tolerance`` of an ``approximately`` and the ``reason``:
    the principle the tolerance follows, or why the claim is not testable here."""

    key: str
    section: str
    quote: str
    thesis: str
    where: str
    kind: str = "test"
    figure: float | None = None
    tolerance: float | None = None
    reason: str = ""
    standing: str = "primary"

    def __post_init__(self):
        if self.standing not in STANDINGS:
            raise ValueError(f"claim {self.key!r}: standing must be one of {STANDINGS}, "
                             f"got {self.standing!r}")
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.key!r}: kind must be one of {KINDS}, got {self.kind!r}")
        if self.kind in ("upper bound", "approximately") and self.figure is None:
            raise ValueError(f"claim {self.key!r}: an {self.kind!r} claim needs the figure it states")
        if self.kind == "approximately" and not (self.tolerance is not None and self.tolerance > 0):
            raise ValueError(f"claim {self.key!r}: 'approximately' needs a positive relative tolerance")
        if self.kind in ("approximately", "not testable here") and not self.reason:
            raise ValueError(f"claim {self.key!r}: say why ({self.kind!r} needs a reason)")

    @property
    def reading(self) -> str:
        """The hypothesis a figure's kind tests, in words (empty for a ``test``)."""
        if self.kind == "upper bound":
            return f"an upper bound: the worst case does not exceed {self.figure:g}"
        if self.kind == "approximately":
            lo, hi = self.figure * (1 - self.tolerance), self.figure * (1 + self.tolerance)
            return (f"approximately {self.figure:g}: within {self.tolerance:.3g} of it, [{lo:.4g}, {hi:.4g}] "
                    f"({self.reason})")
        if self.kind == "not testable here":
            return f"not testable here: {self.reason}"
        return ""


def figure_verdict(kind: str, stated: float, low: float, high: float | None = None,
                   tolerance: float | None = None) -> str:
    """The verdict on a figure ``stated`` by the thesis, read as ``kind``, from what was
    measured or recomputed: a value (``low`` alone) or an interval ``[low, high]``.

    An ``upper bound`` is confirmed when the worst case (``high``) does not exceed it and
    refuted when it does; ``approximately`` is confirmed when the interval lies within
    ``tolerance`` (relative) of the figure, refuted when it lies outside, else not decided.

    >>> figure_verdict("upper bound", 7, 6), figure_verdict("upper bound", 7, 8)
    ('confirmed', 'refuted')
    >>> figure_verdict("approximately", 0.75, 0.697, tolerance=1 / 6)
    'confirmed'
    >>> figure_verdict("approximately", 4, 3.4, 3.6, tolerance=0.125)
    'not decided'
    """
    high = low if high is None else high
    if any(math.isnan(x) for x in (stated, low, high)) or low > high:
        raise ValueError(f"a figure's verdict needs numbers and low <= high, got {stated}, [{low}, {high}]")
    if kind == "upper bound":
        return "confirmed" if high <= stated else "refuted"
    if kind == "approximately":
        if tolerance is None or not tolerance > 0:
            raise ValueError(f"'approximately' needs a positive relative tolerance, got {tolerance!r}")
        lo, hi = sorted((stated * (1 - tolerance), stated * (1 + tolerance)))
        if lo <= low and high <= hi:
            return "confirmed"
        return "refuted" if high < lo or low > hi else "not decided"
    raise ValueError(f"kind must be 'upper bound' or 'approximately', got {kind!r}")


_TOUR, _GA, _SCALING = "04_tournament", "03_aco_ga", "02_search_scaling"

#: The parameter sets a comparison of colony versions is read at, by the suffix of its key: every
#: version with the same shared genes, the GA's for the base colony (``matched``, the primary
#: reading) or the thesis's own (``thesis-set``); the key without a suffix compares each version at
#: its own GA draw, what the thesis's procedure gives (docs/interpretation.md, entry 108).
COLONY_SETS = {"matched": "each version with the base colony's tuned shared genes (ants, cycles, alpha, "
                          "beta, rho, heuristic) and its own genes at the thesis's values",
               "thesis-set": "each version with the thesis's own parameters (87 ants, 15 cycles, ...)"}
_DRAWS = "each version at its own GA draw (the thesis's procedure)"


def _colony_readings(key: str, section: str, quote: str, thesis: str) -> list[Claim]:
    """A colony comparison read at each parameter set of :data:`COLONY_SETS` (the first primary)
    and at the GA's draws (beside, under the plain ``key``)."""
    return ([Claim(f"{key}-{name}", section, quote, f"{thesis}: {what}", _TOUR,
                   standing="primary" if k == 0 else "beside")
             for k, (name, what) in enumerate(COLONY_SETS.items())]
            + [Claim(key, section, quote, f"{thesis}: {_DRAWS}", _TOUR, standing="beside")])

#: The claims in the order of the thesis; the §2.1 arithmetic rows are added by
#: :func:`~fepaper.experiments.thesis.measured.arithmetic_rows`, keyed ``arithmetic-1`` ...
CLAIMS: list[Claim] = [
    Claim("bounces-random", "§2.1",
          "in several runs of the game the maximum number found has been 35 rebounds",
          "35 bounces in one turn", _TOUR),
    Claim("bounces-controllers", "§2.1",
          "in several runs of the game the maximum number found has been 35 rebounds",
          "35 bounces in one turn",
          _TOUR),
    Claim("steps-worst", "§2.1", "In the worst case, the maximum number of movements from each node is 7",
          "at most 7", _TOUR, kind="upper bound", figure=7),
    Claim("steps-average", "§2.1", "In the average case, the possible movements from a node are 4",
          "4, over every step (any node the ball leaves)",
          _TOUR, kind="approximately", figure=4, tolerance=0.5 / 4,
          reason="4 is written to one digit: half a unit of it, 0.5, is 1/8 of 4",
          standing="read after the data"),
    Claim("steps-average-bounce", "§2.1", "In the average case, the possible movements from a node are 4",
          "4, over the steps after a bounce (the reading of the estimate 4^(30 x 3/4) it feeds, declared "
          "first)",
          _TOUR, kind="approximately", figure=4, tolerance=0.5 / 4,
          reason="4 is written to one digit: half a unit of it, 0.5, is 1/8 of 4"),
    Claim("runtime-minute", "§2.1",
          "since in fewer occasions doing 15 rebounds is possible the run time is lower than a minute",
          "a decision of the level-2 alpha-beta takes less than a minute, but for a few", _TOUR),
    Claim("nodes-average", "§2.1",
          "the explored nodes in the average case using alpha-beta pruning and limiting the rebounds to 15 "
          "are 4^(30 x 3/4) = 4^(45/2) = 3.52 x 10^13 nodes",
          "4^(45/2) nodes: the mean steps of a level-2 decision at turn starts, read as b^(45/2), has b "
          "about 4",
          _TOUR, kind="approximately", figure=4, tolerance=0.5 / 4,
          reason="the count is 4^(45/2) with 4 written to one digit: half a unit of it, 0.5, is 1/8 of 4"),
    Claim("cap-little-loss", "§2.1",
          "In the cases in what this time is bigger the search is limited to a minute with little loss of "
          "effectiveness", "little loss: the capped dynamic alpha-beta against one with ten or twenty times "
          "the steps (the caps are the players' in the row: a minute's steps at the full budget, 10^6 below "
          "it)",
          _TOUR),
    Claim("cap-minute", "§2.1",
          "In the cases in what this time is bigger the search is limited to a minute with little loss of "
          "effectiveness", "little loss, at the thesis's minute (a minute's steps at its stated speed)",
          _TOUR, standing="read after the data"),
    Claim("astar-same", "§4.1",
          "the evaluation function is the distance to the opponent's goal, since also the A* algorithm was "
          "tried with identical results and much greater run time",
          "an A* path distance over the free edges chooses the same turns", _TOUR),
    Claim("ordering-effective", "§4.1",
          "the states have an expansion order to do the alpha-beta pruning more effective. This order "
          "consists of the most probable good movements: the nearest states first",
          "nearest-first ordering makes the search explore fewer steps than a fixed order", _TOUR),
    Claim("astar-slower", "§4.1",
          "the evaluation function is the distance to the opponent's goal, since also the A* algorithm was "
          "tried with identical results and much greater run time",
          "an A* path distance makes the search much slower (at least twice the time)", _TOUR),
    Claim("dynamic-far", "§4.1.3, §5",
          "the dynamic version of alpha-beta is the best version of alpha-beta far on the other versions",
          "far better than static, costs, no cycles", _TOUR),
    Claim("costs-unnecessary", "§4.1.1",
          "This version adds the edge's cost to the minimax value, but it is not necessary because this is "
          "done more effectively permitting rebounds when they are possible", "no better than without costs",
          _TOUR),
    Claim("costs-unnecessary-steps", "§4.1.1",
          "This version adds the edge's cost to the minimax value, but it is not necessary",
          "no better than without costs (every step costs 1: fepaper 0.1's reading)", _TOUR),
    Claim("nocycles-time", "§4.1.2",
          "checking if the node already is in the path (to avoid cycles) consume many time, so that the "
          "improvement in time is little",
          "saves little time, the cycle check scanning the path (as the thesis describes it)",
          _TOUR, standing="read after the data"),
    Claim("nocycles-time-lookup", "§4.1.2",
          "checking if the node already is in the path (to avoid cycles) consume many time, so that the "
          "improvement in time is little",
          "saves little time, the cycle check one array look-up (fepaper's, declared first)",
          _TOUR),
    Claim("nocycles-worse", "§4.1.2",
          "the performance is lower due to avoiding cycles also avoid some good movements",
          "plays worse than static (no bounce limit at the full budget, as the thesis built it)", _TOUR),
    Claim("useless-cycles", "§4.1.2",
          "Avoiding cycles can be good because when there are a lot of possible rebounds the most "
          "possibilities imply useless cycles",
          "where many rebounds are possible, most of a turn's step sequences close a cycle", _TOUR),
    Claim("memory", "§4.1.3", "With maximum depth 2 the memory consumed is roughly 600 MB", "about 600 MB",
          _SCALING, kind="not testable here",
          reason="the 600 MB is a property of the thesis's Java design (interpretation 46), which fepaper "
          "does not reproduce: its search keeps the path on the recursion and creates no state objects, so "
          "its memory says nothing about the Java program's", standing="read after the data"),
    Claim("few-ants", "§4.2.4", "the previous version optimized has few ants",
          "the tuned base colony has few ants",
          _GA),
    *_colony_readings("ferdistrival-improves", "§4.2.5",
                      "This version was created to increase the performance of the previous version",
                      "FerDistRival beats FerDist"),
    *_colony_readings("two-better-than-first", "§4.2.4", "The two last versions are better than the first",
                      "FerDist and FerDistRival beat the base colony"),
    Claim("cannot-win", "§4.2.4", "they cannot win versus the alpha-beta controller",
          "the alpha-beta beats FerDist and FerDistRival (they cannot beat it)", _TOUR,
          standing="read after the data"),
    Claim("cannot-win-zone", "§4.2.4", "they cannot win versus the alpha-beta controller",
          "FerDist and FerDistRival score at most a tenth against alpha-beta (the score zone, declared "
          "first)",
          _TOUR),
    *_colony_readings("once-improves", "§4.2.4",
                      "these versions were improved updating the nodes decision tables at the beginning of a "
                      "cycle instead of when every ants move",
                      "FerDist and FerDistRival once per cycle beat their per-ant versions"),
    *_colony_readings("last-quite-better", "§4.2.4",
                      "the last version was quite better than the previous versions",
                      "FerDistRival once per cycle far better than the thesis's four other colonies"),
    Claim("thesis-parameters-tuned-heuristic", "§4.2",
          "It has 87 ants, number determined experimentally ... 15 iterations (number determined "
          "experimentally) ... a heuristic value (0.87, got experimentally)",
          "the thesis's own parameters but the heuristic (0.87 is another quantity in fepaper's formula, "
          "interpretation 20; the GA's value instead) lose little against the GA's tuned ones (base, "
          "FerDist, FerDistRival)", _TOUR),
    Claim("thesis-parameters", "§4.2",
          "It has 87 ants, number determined experimentally ... 15 iterations (number determined "
          "experimentally) ... a heuristic value (0.87, got experimentally)",
          "the thesis's own parameters, its 0.87 plugged into fepaper's heuristic formula, lose little "
          "against the GA's tuned ones (base, FerDist, FerDistRival): a test of the formula as much as of "
          "the thesis",
          _TOUR, standing="beside"),
    *_colony_readings("ferdist-beats-base", "§5",
                      "the FerDist version is better than the initial ant colonies version",
                      "FerDist beats the base colony"),
    *_colony_readings("ferdistrival-best", "§5",
                      "the best version of ant colonies is the FerDistRival version",
                      "the FerDistRival family's best rates above each other family's best"),
    Claim("alphabeta-beats-colonies", "§5",
          "the alpha-beta controller is better than the ant colonies implemented",
          "better than every colony, each as the GA tuned it", _TOUR),
    Claim("alphabeta-beats-colonies-thesis-set", "§5",
          "the alpha-beta controller is better than the ant colonies implemented",
          "better than every colony, each with the thesis's own parameters", _TOUR, standing="beside"),
    Claim("colonies-improvable", "§6",
          "the Ant Colony Optimization controllers can be improved ... developing other controllers through "
          "Ant Colony Optimization like a MAX-MIN Ant System or a Rank-based Ant System",
          "a MAX-MIN or a rank-based colony beats the thesis's last colony (FerDistRival once per cycle, "
          "tuned)",
          _TOUR),
]


def claim(key: str) -> Claim:
    """The claim of :data:`CLAIMS` with this key."""
    for c in CLAIMS:
        if c.key == key:
            return c
    raise KeyError(f"no claim {key!r}; claims are {[c.key for c in CLAIMS]}")


def _number(x) -> float:
    return math.nan if x is None else float(x)


def row(c: Claim, rules: str, verdict: str, method: str, hypothesis: str, estimate=None, low=None, high=None,
        unit: str = "", games: int = 0, alpha=None, beta=None, power=None, note: str = "") -> dict:
    """One row of a claims file."""
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {VERDICTS}, got {verdict!r}")
    if verdict == "not testable here" and not note:
        raise ValueError(f"claim {c.key!r}: a row not testable here says why in its note")
    return {"key": c.key, "section": c.section, "claim": c.quote, "thesis": c.thesis,
            "hypothesis": hypothesis,
            "verdict": verdict, "method": method, "games": int(games), "estimate": _number(estimate),
            "low": _number(low), "high": _number(high), "unit": unit, "alpha": _number(alpha),
            "beta": _number(beta), "power": _number(power), "rules": rules, "where": c.where, "note": note}


def verdict_row(c: Claim, rules: str, v: Verdict, hypothesis: Hypothesis | str, note: str = "") -> dict:
    """A row from a :class:`~fepaper.stats.verdicts.Verdict` (Elo units)."""
    text = hypothesis.text if isinstance(hypothesis, Hypothesis) else hypothesis
    return row(c, rules, v.verdict, v.method, text, v.estimate, v.low, v.high, "Elo", v.games, v.alpha,
               v.beta,
               v.power, note)


def family_power(verdicts) -> float:
    """The least power reached among the undecided members of a family (NaN if none)."""
    powers = [v.power for v in verdicts if v.verdict == "not decided" and not math.isnan(v.power)]
    return min(powers) if powers else math.nan


def is_arithmetic(table: pd.DataFrame) -> pd.Series:
    """Which rows of a claims table are §2.1's arithmetic (the figure follows from its inputs),
    not a statement measured or played: their method starts with ``arithmetic``."""
    return table["method"].astype(str).str.startswith("arithmetic")


def verdict_counts(tables: dict[str, pd.DataFrame], arithmetic: bool = False) -> pd.DataFrame:
    """Claims per verdict (rows) under each rule set (columns) of ``tables``: the statements
    measured or played, or with ``arithmetic`` the §2.1 arithmetic alone. Every verdict of
    :data:`VERDICTS` has its row, zeros included."""
    counts = {}
    for name, table in tables.items():
        kept = table[is_arithmetic(table) == arithmetic]
        counts[name] = kept["verdict"].value_counts().reindex(list(VERDICTS), fill_value=0)
    return pd.DataFrame(counts, index=list(VERDICTS), dtype=int).rename_axis("verdict")
