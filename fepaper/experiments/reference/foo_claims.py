"""Foo's report on its seven playing machines and on its game, each sentence with the test that
decides it, declared here before any game between the machines was played (notebook 12 plays
and measures them).

**The ladder.** "They are presented in the ascending power order" is read as: each machine is
stronger than the one listed before it. :data:`LADDER` is the test. For each of the six adjacent
pairs, machine k + 1 (as A) plays machine k in colour-swapped pairs of games, each pair from one
opening of a seeded bank, under Foo's rules (the ``foo`` preset), and a sequential probability
ratio test of "better" (H0: elo <= 0 against H1: elo >= 70, pentanomial) stops at its first
decision or at :attr:`LadderTest.max_games` games. The six are judged together as
:func:`~fepaper.stats.multiple.judge_family` ``"each"`` judges a family:

* *confirmed*: every adjacent pair confirmed, each at alpha (an intersection-union test: falsely
  confirming needs a false pair to confirm, so no correction is due);
* *refuted*: some adjacent pair refuted, under Holm's correction at beta over the six (a sequential
  test reports only its error rate, so each one runs at beta / 6);
* *not decided*: neither; some pair reached ``max_games`` undecided and none was refuted.

The other pairs (machine i against machine j, two or more places apart) play a fixed number of
games that only feed the Bradley-Terry ratings shown beside the ladder: they decide nothing.

**The other sentences** are :data:`CLAIMS`, each with its rule (constants below); the cost figures
Foo states are quoted in :data:`STATED` and their arithmetic checked by :func:`arithmetic_rows`.
Intervals are 95 % bootstrap intervals over games (a game's positions are not independent).

Examples
--------
>>> [k for k, _, _ in LADDER.pairs()][0]
'GoBackWatchOpponent-beats-GoAhead'
>>> round(LADDER.pair_beta, 5)
0.00833
>>> first_moves()
8
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...controllers.foo import MACHINES
from ...game.game import Game
from ...stats.bootstrap import ratio_of_totals
from ...stats.multiple import judge_family
from ...stats.verdicts import Verdict

__all__ = [
    "RULES", "ORDER", "LadderTest", "LADDER", "QUOTES", "STATED", "SCANNED", "ReportClaim", "CLAIMS",
    "USUAL", "BIG", "ONCE_OR_TWICE", "BIGGEST", "FACTOR", "FIFTY", "ALMOST_ALWAYS", "DEEP_MACHINES",
    "first_moves", "ending_nodes", "game_interval", "ladder_rows", "ladder_verdict", "arithmetic_rows",
    "claims_table", "slower_rows",
]

#: Foo's game: 8 x 8, goals 2 wide, mandatory bounce, a blocked player draws ("loses only half a point").
RULES = "foo"
#: The machines in the order Foo lists them, "in the ascending power order".
ORDER: tuple[str, ...] = tuple(sorted(MACHINES, key=lambda name: MACHINES[name][0]))


@dataclass(frozen=True)
class LadderTest:
    """The declared test of "ascending power order" (see the module text).

    ``max_games`` bounds each adjacent pair; the SPRT looks at the games after every round of
    ``round_pairs`` colour-swapped pairs; each pair of games opens with ``opening_turns`` random
    turns (uniform over distinct turns) from a bank drawn from the run's seed."""

    elo0: float = 0.0
    elo1: float = 70.0
    alpha: float = 0.05
    beta: float = 0.05
    max_games: int = 1000
    round_pairs: int = 4
    opening_turns: int = 4
    seed: int = 2008

    def pairs(self) -> list[tuple[str, dict, dict]]:
        """``(key, stronger, weaker)`` for each adjacent pair, machine k + 1 first: the claim is A
        beats B."""
        return [(f"{ORDER[k + 1]}-beats-{ORDER[k]}", spec(ORDER[k + 1]), spec(ORDER[k]))
                for k in range(len(ORDER) - 1)]

    @property
    def pair_beta(self) -> float:
        """The beta each adjacent pair's SPRT runs at: Holm's correction over the pairs."""
        return self.beta / (len(ORDER) - 1)

    @property
    def sprt(self) -> dict:
        """The keyword arguments of each pair's ``SPRT``."""
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.pair_beta}


LADDER = LadderTest()


def spec(machine: str) -> dict:
    """A machine's controller spec (no clock: each examines exactly what its limits say)."""
    return {"name": "foo", "machine": machine}


#: Foo's sentences, quoted (LaTeX rendered: ``$p \\times 1600$`` as "p × 1600", ``---`` as "—").
QUOTES = {
    "order": "They are presented in the ascending power order.",
    "slower": "More powerful algoritm, longer you need to wait for the response.",
    "first": "In first move it contains only 8 possiblities.",
    "usually": "Usually it varies between 10 to 100 moves.",
    "sometimes": "Sometimes (once or twice times during the single game) it contains even to 1000 "
                 "possibilities.",
    "biggest": "The biggest space of moves I've seen was about 5000 moves. This all for field 8 × 8.",
    "fifty": "Each move finishes in one of not yet achieved nodes of field. So for field 8 × 8 we have "
             "limit of 50 moves.",
    "p": "where p is average number of moves really existed in the ply divide by ply limt of the algorithm.",
    "example": "So for Watch3Ahead assuming average 100 moves a ply, we get 100/18 × 105000 ≈ 60*10^5 "
               "scaned moves.",
    "reached": "They are limits only! If you remember the number of moves per ply I've mentioned above, "
               "you'll notice that for last 2 algorithms limits are almost always reached.",
}

#: Each machine's line of Foo's list of limits, quoted.
STATED = {
    "GoAhead": "1 ply, 1000 moves.",
    "GoBackWatchOpponent": "1 1/2 plies, limit 1000 moves a ply.",
    "GoAheadWatchOpponent": "1 1/2 plies, limit 1000 moves a ply.",
    "PreventingOpponent40": "2 plies, limit 40 moves a ply — p × 1600 scaned moves.",
    "PreventingOpponent50": "2 plies, limit 50 moves a ply — p × 2500 scaned moves.",
    "Watch2Ahead": "3 plies, limit 30 moves a ply — p × 27000 scaned moves.",
    "Watch3Ahead": "4 plies, limit 18 moves a ply — p × 105000 scaned moves.",
}
#: The scanned moves Foo states per machine, before the factor p (none for the first three).
SCANNED = {"PreventingOpponent40": 1600, "PreventingOpponent50": 2500, "Watch2Ahead": 27000,
           "Watch3Ahead": 105000}

USUAL = (10, 100)  # "usually between 10 to 100": distinct turns in [10, 100]
BIG = 100  # a position past the usual range: more than 100 distinct turns
ONCE_OR_TWICE = (0.5, 2.5)  # "once or twice during the single game": 1 to 2, half a position either way
BIGGEST = 5000  # "about 5000"
FACTOR = 2.0  # "about": within a factor 2
FIFTY = 50  # "limit of 50 moves"
ALMOST_ALWAYS = 0.9  # "almost always": at least nine in ten
DEEP_MACHINES = ("Watch2Ahead", "Watch3Ahead")  # "the last 2 algorithms"


@dataclass(frozen=True)
class ReportClaim:
    """A claim: its key, Foo's words, what it states, and the rule that decides it."""

    key: str
    quote: str
    states: str
    rule: str


CLAIMS: list[ReportClaim] = [
    ReportClaim("first-moves", QUOTES["first"], "8 distinct turns at the kick-off",
                "exact: the distinct turns at the kick-off of the foo board number 8"),
    ReportClaim("usually-10-100", QUOTES["usually"],
                "more than half of the positions where a machine moves hold 10 to 100 distinct turns",
                "the share of the machines' turn starts with 10 to 100 distinct turns: 95 % interval above "
                "1/2 confirmed, below 1/2 refuted, else not decided"),
    ReportClaim("sometimes-1000", QUOTES["sometimes"],
                "once or twice a game a position holds more than 100 distinct turns",
                f"the mean number per game of the machines' turn starts with more than {BIG} distinct turns: "
                f"95 % interval inside [{ONCE_OR_TWICE[0]}, {ONCE_OR_TWICE[1]}] confirmed, entirely outside "
                "refuted, else not decided"),
    ReportClaim("biggest-5000", QUOTES["biggest"], "the biggest position holds about 5000 distinct turns",
                f"the most distinct turns at a turn start of the machines' games: within a factor {FACTOR:g} "
                f"of {BIGGEST} confirmed, above {BIGGEST * FACTOR:,.0f} refuted (the machines' own games "
                f"reach far bigger positions), below {BIGGEST / FACTOR:,.0f} not decided (the sample may "
                "not meet them)"),
    ReportClaim("fifty-moves", QUOTES["fifty"],
                "at most 50 turns of a game end on a node not reached before",
                f"the nodes a turn can end on (no edge marked) besides the kick-off number {FIFTY}, and no "
                "game of the sample has more turns ending on such a node: confirmed; else refuted"),
    ReportClaim("limits-reached", QUOTES["reached"],
                "Watch2Ahead's and Watch3Ahead's searches almost always list at least their limit of turns",
                f"for each of {', '.join(DEEP_MACHINES)}, the share of the positions its searches list that "
                f"hold at least its limit of turns: both 95 % intervals at or above {ALMOST_ALWAYS} "
                f"confirmed, either entirely below refuted, else not decided"),
]

#: The timed claim (it depends on the machine that runs the games), decided apart.
SLOWER = ReportClaim(
    "slower", QUOTES["slower"], "each machine takes longer per decision than the one listed before it",
    "for each adjacent pair, the mean seconds per decision of machine k + 1 over machine k's (bootstrap "
    "over games): every lower bound at 1 - alpha above 1 confirmed; some upper bound at 1 - beta / 6 "
    "(Holm) below 1 refuted; else not decided")


def first_moves(rules=RULES) -> int:
    """The distinct turns at the kick-off."""
    return Game(rules).turns().count()


def ending_nodes(rules=RULES) -> int:
    """The nodes a turn can end on at the kick-off, the kick-off itself aside: field nodes with no
    edge marked (a turn ends only where the ball meets no marked edge)."""
    b = Game(rules).board
    return sum(1 for i in range(b.n_nodes)
               if b.initial_marks[i] == 0 and b.goal[i] == 0 and i != b.kickoff_index)


def game_interval(numerator, denominator=None, seed: int = 0, resamples: int = 2000,
                  level: float = 0.95) -> tuple[float, float, float]:
    """``(estimate, low, high)`` of sum(numerator) / sum(denominator) over games (one entry each;
    denominator 1 per game when omitted): the percentile bootstrap over games, two-sided at
    ``level``.

    >>> game_interval([1, 1, 1], [2, 2, 2])
    (0.5, 0.5, 0.5)
    """
    num = np.asarray(numerator, dtype=float)
    den = np.ones_like(num) if denominator is None else np.asarray(denominator, dtype=float)
    if num.shape != den.shape or num.ndim != 1:
        raise ValueError(f"numerator and denominator must be two lists of one entry a game, got shapes "
                         f"{num.shape} and {den.shape}")
    if len(num) == 0 or den.sum() == 0:
        return math.nan, math.nan, math.nan
    stats = ratio_of_totals(num, den, resamples, np.random.default_rng(seed))
    stats = stats[np.isfinite(stats)]
    tail = (1 - level) / 2
    low, high = np.quantile(stats, [tail, 1 - tail])
    return float(num.sum() / den.sum()), float(low), float(high)


def ladder_rows(verdicts: Mapping[str, Verdict]) -> pd.DataFrame:
    """One row per adjacent pair of :data:`LADDER`, in the declared order, from each pair's SPRT."""
    rows = []
    for key, a, b in LADDER.pairs():
        v = verdicts[key]
        rows.append({"pair": key, "stronger": a["machine"], "weaker": b["machine"], "games": v.games,
                     "elo": v.estimate, "elo_low": v.low, "elo_high": v.high, "llr": v.llr,
                     "verdict": v.verdict, "power": v.power})
    return pd.DataFrame(rows)


def ladder_verdict(verdicts: Mapping[str, Verdict]) -> Verdict:
    """The family's verdict: ``judge_family`` ``"each"`` over the six adjacent pairs."""
    return judge_family([verdicts[key] for key, _, _ in LADDER.pairs()], "each", LADDER.alpha, LADDER.beta)


def _rounds_to(value: float, written: str) -> bool:
    """Whether ``value`` rounds to the figure ``written`` at the significant digits it is written with."""
    digits = len(written.rstrip("0")) or 1
    stated = float(written)
    scale = 10 ** (math.floor(math.log10(abs(stated))) - digits + 1)
    return round(value / scale) * scale == stated


def arithmetic_rows() -> pd.DataFrame:
    """Foo's stated products recomputed: ply limit ^ plies for each machine with a figure, and the
    Watch3Ahead example; each agrees when the product rounds to the figure as written."""
    rows = []
    for machine, stated in SCANNED.items():
        _, plies, limit = MACHINES[machine]
        value = limit ** int(plies)
        verdict = "confirmed" if _rounds_to(value, str(stated)) else "refuted"
        rows.append({"figure": f"{machine}: limit {limit} ^ {int(plies)} plies", "stated": f"{stated:,}",
                     "recomputed": value, "verdict": verdict})
    value = 100 / 18 * SCANNED["Watch3Ahead"]
    rows.append({"figure": "Watch3Ahead example: 100/18 × 105000", "stated": "60*10^5", "recomputed": value,
                 "verdict": "confirmed" if _rounds_to(value, "6000000") else "refuted"})
    return pd.DataFrame(rows)


def _band(low: float, high: float, lo: float, hi: float) -> str:
    if math.isnan(low) or math.isnan(high):
        return "not decided"
    if lo <= low and high <= hi:
        return "confirmed"
    if high < lo or low > hi:
        return "refuted"
    return "not decided"


def _row(claim: ReportClaim, measured: str, verdict: str, note: str = "") -> dict:
    return {"key": claim.key, "claim": claim.quote, "states": claim.states, "rule": claim.rule,
            "measured": measured, "verdict": verdict, "note": note}


def claims_table(positions: pd.DataFrame, games: pd.DataFrame, listings: pd.DataFrame,
                 seed: int = 0) -> pd.DataFrame:
    """One row per claim of :data:`CLAIMS`, decided by its rule.

    Parameters
    ----------
    positions : DataFrame
        One row per turn start where a machine moved: ``game`` (an id) and ``turns`` (its distinct
        turns, exact).
    games : DataFrame
        One row per game: ``game`` and ``fresh`` (its turns that ended on a node not reached before).
    listings : DataFrame
        One row per game and machine of :data:`DEEP_MACHINES` whose decisions were measured:
        ``machine``, ``listings`` (positions its searches listed) and ``full`` (those with at least
        its limit of turns).
    """
    by = {c.key: c for c in CLAIMS}
    rows = []
    first = first_moves()
    rows.append(_row(by["first-moves"], f"{first} distinct turns", "confirmed" if first == 8 else "refuted"))
    grouped = positions.groupby("game")["turns"]
    usual = grouped.apply(lambda t: int(((t >= USUAL[0]) & (t <= USUAL[1])).sum()))
    share, low, high = game_interval(usual.to_numpy(), grouped.size().to_numpy(), seed)
    verdict = "confirmed" if low > 0.5 else "refuted" if high < 0.5 else "not decided"
    if math.isnan(share):
        verdict = "not decided"
    rows.append(_row(by["usually-10-100"], f"{share:.3f} [{low:.3f}, {high:.3f}] of {len(positions):,} "
                     f"positions in {positions.game.nunique():,} games", verdict))
    big = grouped.apply(lambda t: int((t > BIG).sum()))
    mean, low, high = game_interval(big.to_numpy(), seed=seed)
    largest = grouped.max()
    rows.append(_row(by["sometimes-1000"], f"{mean:.2f} [{low:.2f}, {high:.2f}] a game; the largest of a "
                     f"game: median {largest.median():.0f}, at most {largest.max():,}",
                     _band(low, high, *ONCE_OR_TWICE)))
    most = int(positions.turns.max()) if len(positions) else 0
    verdict = ("confirmed" if BIGGEST / FACTOR <= most <= BIGGEST * FACTOR else "refuted"
               if most > BIGGEST * FACTOR else "not decided")
    rows.append(_row(by["biggest-5000"], f"{most:,} distinct turns", verdict))
    nodes = ending_nodes()
    longest = int(games.fresh.max()) if len(games) else 0
    rows.append(_row(by["fifty-moves"], f"{nodes} nodes; the most turns of a game ending on a new node: "
                     f"{longest} (of {len(games):,} games)",
                     "confirmed" if nodes == FIFTY and longest <= FIFTY else "refuted",
                     "a game's last turn reaches a goal or a dead end, so it can last one turn more"))
    parts, verdicts = [], []
    for machine in DEEP_MACHINES:
        part = listings[listings.machine == machine]
        share, low, high = game_interval(part.full.to_numpy(), part.listings.to_numpy(), seed)
        parts.append(f"{machine} {share:.3f} [{low:.3f}, {high:.3f}] of {int(part.listings.sum()):,} "
                     f"listings")
        verdicts.append("confirmed" if low >= ALMOST_ALWAYS else "refuted" if high < ALMOST_ALWAYS
                        else "not decided")
        if math.isnan(share):
            verdicts[-1] = "not decided"
    verdict = ("confirmed" if all(v == "confirmed" for v in verdicts) else "refuted" if "refuted" in verdicts
               else "not decided")
    rows.append(_row(by["limits-reached"], "; ".join(parts), verdict))
    return pd.DataFrame(rows)


def slower_rows(sides: pd.DataFrame, seed: int = 0, resamples: int = 2000) -> tuple[pd.DataFrame, dict]:
    """The timed claim :data:`SLOWER`: per adjacent pair the ratio of mean seconds per decision, with
    its one-sided bootstrap bounds (lower at 1 - alpha, upper at 1 - beta / 6), and the family's row.

    ``sides`` has one row per game and machine that played in it: ``machine``, ``seconds`` and
    ``decisions`` (that side's totals)."""
    rng = np.random.default_rng(seed)
    k = len(ORDER) - 1
    boot, point = {}, {}
    for machine in ORDER:
        part = sides[sides.machine == machine]
        s, d = part.seconds.to_numpy(float), part.decisions.to_numpy(float)
        if len(s) == 0 or d.sum() == 0:
            boot[machine], point[machine] = np.full(resamples, np.nan), math.nan
            continue
        boot[machine] = ratio_of_totals(s, d, resamples, rng)
        point[machine] = s.sum() / d.sum()
    rows, verdicts = [], []
    for i in range(k):
        slow, fast = ORDER[i + 1], ORDER[i]
        ratio = boot[slow] / boot[fast]
        ratio = ratio[np.isfinite(ratio)]
        if len(ratio) == 0:
            low = high = math.nan
        else:
            low = float(np.quantile(ratio, LADDER.alpha))
            high = float(np.quantile(ratio, 1 - LADDER.pair_beta))
        verdict = "confirmed" if low > 1 else "refuted" if high < 1 else "not decided"
        verdicts.append(verdict)
        rows.append({"pair": f"{slow}-slower-than-{fast}", "ratio": point[slow] / point[fast], "low": low,
                     "high": high, "verdict": verdict})
    family = ("confirmed" if all(v == "confirmed" for v in verdicts) else "refuted" if "refuted" in verdicts
              else "not decided")
    done = sum(v == "confirmed" for v in verdicts)
    measured = f"{done} of {k} adjacent pairs slower; " + ", ".join(
        f"{r['ratio']:.2f}" for r in rows) + " (ratios in the declared order)"
    return pd.DataFrame(rows), _row(SLOWER, measured, family)
