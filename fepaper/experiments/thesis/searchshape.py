"""How the thesis's search spends its steps: the expansion order, the nodes it explores on
average, the cycles among a turn's sequences.

- :func:`ordering_steps` and :func:`ordering_row`: §4.1, "the states have an expansion order to
  do the alpha-beta pruning more effective ... the nearest states first": the steps of the
  thesis's alpha-beta with its nearest-first order against the same search in the fixed order
  of the directions (0 to 7 for both players), judged by the declared ratio test
  ``ordering-effective``.
- :func:`nodes_average_row`: §2.1, "the explored nodes in the average case using alpha-beta
  pruning and limiting the rebounds to 15 are 4^(30 x 3/4) = 4^(45/2) = 3.52 x 10^13 nodes": the
  mean steps m of a decision at turn starts read as b^(45/2), b = m^(2/45), against the
  thesis's base 4 (claim ``nodes-average``).
- :func:`cycle_shares` and :func:`useless_cycles_row`: §4.1.2, "when there are a lot of
  possible rebounds the most possibilities imply useless cycles": per position before a turn
  of 15 bounces or more, the share of the turn's random step sequences that close a cycle
  (land on a node of the turn again), judged by the declared share test ``useless-cycles``
  (compiled: :func:`fepaper._core.cycles.closing_sequences`; its plain twin over a ``Game``:
  :func:`closing_sequences_reference`).

Examples
--------
>>> from fepaper.game import Game
>>> table = cycle_shares([Game("thesis", "0 54 2")], sequences=200)
>>> list(table.columns), int(table["sequences"].iloc[0])
(['position', 'sequences', 'closing', 'share'], 200)
>>> useless_cycles_row("thesis", table)["unit"]
'share'

A mean of 4^(45/2) steps per decision is the thesis's base exactly:

>>> row = nodes_average_row("thesis", pd.DataFrame({"steps": [4 ** 22.5] * 3, "stopped": False}), cap=10**15)
>>> round(row["estimate"], 6), row["verdict"]
(4.0, 'confirmed')
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..._core.cycles import closing_sequences
from ...game.game import Game
from ...stats.bootstrap import means
from .claims import MINUTE_STEPS, RATIOS, claim, figure_verdict, row
from .searchclaims import THESIS_DECIDER, decision_costs, ratio_verdict, share_row

__all__ = ["ORDERING_COLUMNS", "ordering_steps", "ordering_row", "NODES_EXPONENT", "nodes_average_row",
           "closing_sequences_reference", "cycle_shares", "useless_cycles_row"]

#: The columns of :func:`ordering_steps`.
ORDERING_COLUMNS = ["position", "steps_nearest", "steps_fixed", "stopped_nearest", "stopped_fixed",
                    "same_turn"]
#: §2.1's exponent: 30 levels of which 3/4 are explored, 4^(30 x 3/4) = 4^(45/2).
NODES_EXPONENT = 30 * 3 / 4


# --- the expansion order (§4.1) -----------------------------------------------------------------
def ordering_steps(positions: Sequence[Game], cap: int = MINUTE_STEPS, spec: dict | None = None,
                   nearest: pd.DataFrame | None = None) -> pd.DataFrame:
    """One decision of the thesis's alpha-beta (``spec``, default
    :data:`~fepaper.experiments.thesis.searchclaims.THESIS_DECIDER`) from each position in each
    expansion order, capped at ``cap`` steps: the steps searched with nearest-first ordering (the
    thesis's) and in the fixed order 0 to 7 (a search the cap stopped counts as the cap), whether
    the cap stopped each, and whether the two chose the same turn.

    ``nearest``, when given, is :func:`~fepaper.experiments.thesis.searchclaims.decision_costs` of
    the same positions, cap and spec (the thesis's order), reused instead of searched again."""
    spec = {k: v for k, v in (spec or THESIS_DECIDER).items() if k != "ordering"}
    if nearest is None:
        nearest = decision_costs(positions, cap, spec)
    elif len(nearest) != len(positions):
        raise ValueError(f"nearest holds {len(nearest)} decisions for {len(positions)} positions")
    fixed = decision_costs(positions, cap, {**spec, "ordering": "fixed"})
    return pd.DataFrame({"position": np.arange(len(positions)),
                         "steps_nearest": np.minimum(nearest["steps"].to_numpy(np.int64), cap),
                         "steps_fixed": np.minimum(fixed["steps"].to_numpy(np.int64), cap),
                         "stopped_nearest": nearest["stopped"].to_numpy(bool),
                         "stopped_fixed": fixed["stopped"].to_numpy(bool),
                         "same_turn": nearest["turn"].to_numpy() == fixed["turn"].to_numpy()},
                        columns=ORDERING_COLUMNS)


def ordering_row(rules: str, table: pd.DataFrame, seed: int = 0, sample: str = "turn starts") -> dict:
    """"The states have an expansion order to do the alpha-beta pruning more effective": the total
    steps of the nearest-first search over the fixed order's on the same positions
    (:func:`ordering_steps`), with a bootstrap over positions, judged by the declared
    :class:`~fepaper.experiments.thesis.claims.RatioTest` ``ordering-effective`` (confirmed when the
    ratio's upper bound lies below 1, refuted when its lower bound lies above). ``sample`` says in
    words which positions ``table`` holds. With no position the row is not testable here."""
    test = RATIOS["ordering-effective"]
    c = claim("ordering-effective")
    n = len(table)
    method = (f"steps of the level-2 dynamic alpha-beta, nearest-first over the fixed order 0 to 7, {n} "
              f"positions ({sample}), bootstrap over positions")
    if not n:
        return row(c, rules, "not testable here", method, test.text, unit="ratio", alpha=test.alpha,
                   beta=test.beta, note=f"no position was searched ({sample})")
    v = ratio_verdict(test, table["steps_nearest"], table["steps_fixed"], seed=seed)
    per = table["steps_nearest"] / table["steps_fixed"]
    other = ~table["same_turn"].astype(bool)
    near, fixed = int(table["steps_nearest"].sum()), int(table["steps_fixed"].sum())
    note = (f"a search the cap stopped counts as the cap: it stopped nearest-first in "
            f"{int(table['stopped_nearest'].sum())} and in the fixed order in "
            f"{int(table['stopped_fixed'].sum())} of {n} positions; {near:,} steps against {fixed:,}; median "
            f"ratio per position {per.median():.3g}, fewer steps nearest-first in {int((per < 1).sum())}; "
            f"the two orders chose another turn in {int(other.sum())} of {n} ({other.mean():.1%}; "
            "alpha-beta's value does not depend on the order, so where neither stopped it is another of the "
            "turns tied at the best value)")
    return row(c, rules, v["verdict"], method, test.text, v["estimate"], v["low"], v["high"], "ratio",
               alpha=test.alpha, beta=test.beta, note=note)


# --- the average-case node count (§2.1) ---------------------------------------------------------
def nodes_average_row(rules: str, costs: pd.DataFrame, seed: int = 0, cap: int = MINUTE_STEPS,
                      resamples: int = 2000, sample: str = "turn starts of the duels' games") -> dict:
    """"The explored nodes in the average case ... are 4^(45/2)": the mean steps m of the thesis's
    alpha-beta per decision at turn starts (``costs``, from
    :func:`~fepaper.experiments.thesis.searchclaims.decision_costs`; a decision the cap stopped
    counts as ``cap``), read as b^(45/2): b = m^(2/45), against the thesis's 4 within the claim's
    tolerance (:func:`~fepaper.experiments.thesis.claims.figure_verdict`), the interval of b from
    a seeded bootstrap of the mean (``resamples``, 0.05 on each side). With no decision the row is
    not testable here; with one it is not decided."""
    c = claim("nodes-average")
    steps = np.minimum(costs["steps"].to_numpy(float), cap)
    n = len(steps)
    method = (f"mean steps of the level-2 dynamic alpha-beta per decision, {n} {sample}, read as "
              f"b^(45/2); bootstrap of the mean ({resamples} resamples)")
    hypothesis = f"b = (mean steps)^(2/45), its interval (0.05 on each side) {c.reading}"
    if not n:
        return row(c, rules, "not testable here", method, hypothesis, unit="base b", alpha=0.05,
                   note=f"no decision was searched ({sample})")
    mean = float(steps.mean())
    boot = means(steps, resamples, np.random.default_rng([seed, 45]))
    low, high = (float(q) ** (1 / NODES_EXPONENT) for q in np.quantile(boot, [0.05, 0.95]))
    b = mean ** (1 / NODES_EXPONENT)
    verdict = figure_verdict(c.kind, c.figure, low, high, c.tolerance) if n > 1 else "not decided"
    stopped = np.asarray(costs["stopped"], bool) if "stopped" in costs else steps >= cap
    stopped = int(stopped.sum())
    thesis = c.figure ** NODES_EXPONENT
    note = (f"mean {mean:,.0f} steps per decision, median {float(np.median(steps)):,.0f}; the thesis's "
            f"4^(45/2) = {thesis:.3g}, the mean {mean / thesis:.3g} of it; {stopped} of {n} decisions "
            f"stopped at the cap ({cap:.1e} steps) and count as the cap")
    return row(c, rules, verdict, method, hypothesis, b, low, high, "base b", alpha=0.05, beta=0.05,
               note=note)


# --- useless cycles (§4.1.2) ----------------------------------------------------------------------
def _turn_start(game: Game) -> None:
    if game.is_over or game.current:
        raise ValueError(f"a turn's sequences start at a turn start of an unfinished game, got "
                         f"{game.moves!r}")


def closing_sequences_reference(game: Game, uniforms: np.ndarray, max_bounces: int = 15) -> np.ndarray:
    """The plain twin of :func:`fepaper._core.cycles.closing_sequences`, through ``Game``'s public
    steps: per row of ``uniforms``, one random step sequence of the turn from ``game`` (the
    ``floor(u x free)``-th of the free directions in the order 0 to 7 at each step, going on after
    every bounce) and whether it lands on a node the ball already stood on in the turn before the
    turn ends, a goal, a dead end or ``max_bounces`` bounces."""
    _turn_start(game)
    closed = np.zeros(len(uniforms), bool)
    for i, draws in enumerate(uniforms):
        trial = game.copy()
        seen = {trial.ball_index}
        bounces = 0
        for u in draws:
            steps = trial.legal_steps()
            if not steps:
                break
            turns = len(trial.history)
            trial.step(steps[min(int(u * len(steps)), len(steps) - 1)])
            if trial.ball_index in seen:
                closed[i] = True
                break
            seen.add(trial.ball_index)
            if trial.is_over or len(trial.history) > turns:  # a goal, a dead end, or the turn ended
                break
            bounces += 1
            if bounces >= max_bounces:
                break
    return closed


def _uniforms(seed: int, position: int, sequences: int, max_bounces: int) -> np.ndarray:
    """The uniforms of one position's sequences: a row a sequence, a column a step (a sequence
    takes at most ``max_bounces`` + 1 steps); drawn per position, so a position's sequences do not
    depend on the others."""
    return np.random.default_rng([seed, 41, position]).random((sequences, max_bounces + 1))


def cycle_shares(positions: Sequence[Game], sequences: int = 1000, seed: int = 0,
                 max_bounces: int = 15) -> pd.DataFrame:
    """Per position (a turn start), ``sequences`` random step sequences of the mover's turn (a
    uniformly random free direction at each step, on after every bounce, never stopping
    voluntarily, until the turn ends, a goal, a dead end or ``max_bounces`` bounces), drawn with a
    seeded generator: how many close a cycle (land on a node already visited in that turn, its
    start included) and their share."""
    if sequences < 1 or max_bounces < 1:
        raise ValueError(f"cycle_shares needs sequences >= 1 and max_bounces >= 1, got {sequences}, "
                         f"{max_bounces}")
    rows = []
    for i, game in enumerate(positions):
        _turn_start(game)
        closed = closing_sequences(game.marks.copy(), game.ball_index, game.board.arrays, game.rules.flags,
                                   max_bounces, _uniforms(seed, i, sequences, max_bounces))
        closing = int(closed.sum())
        rows.append({"position": i, "sequences": sequences, "closing": closing, "share": closing / sequences})
    table = pd.DataFrame(rows, columns=["position", "sequences", "closing", "share"])
    table.attrs["max_bounces"] = max_bounces
    return table


def useless_cycles_row(rules: str, table: pd.DataFrame,
                       sample: str = "turn starts before a turn of 15 bounces or more") -> dict:
    """"When there are a lot of possible rebounds the most possibilities imply useless cycles":
    among positions where many rebounds are possible (``table``, :func:`cycle_shares`), the share
    where at most half of the turn's random step sequences close a cycle, judged by the declared
    share test ``useless-cycles`` (the claim is confirmed when such positions are rare). With no
    such position the row is not testable here."""
    n = len(table)
    bounces = table.attrs.get("max_bounces", 15)
    per = int(table["sequences"].iloc[0]) if n else 0
    method = (f"{per} random step sequences of the mover's turn per position (uniform among the free "
              f"directions, on after every bounce, at most {bounces} bounces), {n} {sample}")
    if not n:
        return share_row("useless-cycles", rules, 0, 0, method,
                         absent=f"no position of that kind was sampled ({sample}): no turn of many rebounds "
                                "was played")
    shares = table["share"]
    events = int((shares <= 0.5).sum())
    note = (f"an event: at most half the sequences close a cycle; share closing a cycle per position: median "
            f"{shares.median():.2f}, lowest {shares.min():.2f}, highest {shares.max():.2f}")
    return share_row("useless-cycles", rules, events, n, method, note)
