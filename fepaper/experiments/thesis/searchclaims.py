"""The claims decided by searching positions, not by playing games: shares and time ratios.

- :func:`share_verdict` and :func:`share_row`: a claim that an event is rare among positions
  or decisions, judged by its declared :class:`~fepaper.experiments.thesis.claims.ShareTest`
  with the exact binomial bounds of :func:`~fepaper.stats.binomial.exact_bounds`; a claim on
  cases that did not occur in the sample is not testable here.
- :func:`ratio_verdict`: a claim on the ratio of two searches' CPU times, judged by its declared
  :class:`~fepaper.experiments.thesis.claims.RatioTest` (a bootstrap over positions).
- :func:`decision_positions`: turn starts of the duels' games, sampled with a seed (or only
  those before a turn of many bounces).
- :func:`decision_costs` and :func:`runtime_row`: "the run time is lower than a minute", the
  thesis's alpha-beta deciding under a cap of a minute's steps at the thesis's stated speed.
- :func:`cap_turns` and :func:`cap_minute_row`: "limited to a minute with little loss of
  effectiveness" at that scale, the capped turn against a ten times larger search's.
- :func:`astar_times` and :func:`astar_rows`: "the A* algorithm was tried with identical
  results and much greater run time", the A* path distance as the evaluation.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from ...game.game import Game
from ...stats.binomial import binomial_pmf, exact_bounds, exact_upper
from ...stats.bootstrap import ratio_of_totals
from .claims import (
    LARGER_STEPS,
    MINUTE_STEPS,
    RATIOS,
    SHARES,
    THESIS_SPEEDS,
    RatioTest,
    ShareTest,
    claim,
    row,
)

__all__ = ["share_verdict", "share_row", "ratio_verdict", "decision_positions",
           "decision_costs", "runtime_row", "cap_turns", "cap_minute_row", "astar_times", "astar_rows",
           "THESIS_DECIDER"]

#: The thesis's alpha-beta as it decides (§2.1, §4.1.3): dynamic, level 2, 15 bounces.
THESIS_DECIDER = {"name": "alphabeta", "variant": "dynamic", "depth": 2, "max_bounces": 15}


def _confirming(test: ShareTest, n: int) -> int:
    """How many counts of events, from none up, confirm ``test`` among ``n`` (the upper bound
    rises with the count, so they are the first ones)."""
    lo, hi = 0, n + 1  # the answer lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if exact_upper(mid - 1, n, test.alpha) < test.p0:
            lo = mid
        else:
            hi = mid - 1
    return lo


def share_verdict(test: ShareTest, events: int, n: int) -> dict:
    """The verdict of ``test`` on ``events`` among ``n``: ``verdict``, the share (``estimate``),
    its exact one-sided bounds (:func:`~fepaper.stats.binomial.exact_bounds`: ``low`` at ``beta``, ``high`` at
    ``alpha``) and ``power``: the chance, were the share ``p1``, that ``n`` trials would have
    confirmed (NaN once decided).

    Confirmed when ``high`` lies below ``p0`` (were the share ``p0``, so few events would happen
    with chance below ``alpha``), refuted when ``low`` lies above ``p1``.

    >>> share_verdict(ShareTest("x"), 0, 40)["verdict"], share_verdict(ShareTest("x"), 20, 40)["verdict"]
    ('confirmed', 'refuted')
    >>> share_verdict(ShareTest("x"), 3, 27)["verdict"]  # 3 or fewer of 27 at 0.25: chance 0.067
    'not decided'
    >>> v = share_verdict(ShareTest("x"), 0, 0)
    >>> v["verdict"], v["power"]
    ('not decided', 0.0)
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0 or not 0 <= events <= n:
        raise ValueError(f"a share needs 0 <= events <= n, got {events} of {n}")
    if n == 0:
        return {"verdict": "not decided", "estimate": math.nan, "low": 0.0, "high": 1.0, "power": 0.0}
    high = exact_bounds(events, n, test.alpha)[1]
    low = exact_bounds(events, n, test.beta)[0]
    verdict = "confirmed" if high < test.p0 else "refuted" if low > test.p1 else "not decided"
    power = math.nan
    if verdict == "not decided":
        power = float(binomial_pmf(n, test.p1)[: _confirming(test, n)].sum())
    return {"verdict": verdict, "estimate": events / n, "low": low, "high": high, "power": power}


def share_row(key: str, rules: str, events: int, n: int, method: str, note: str = "",
              absent: str = "") -> dict:
    """A claims row of the share claim ``key`` (its test in
    :data:`~fepaper.experiments.thesis.claims.SHARES`).

    ``absent``, given only when ``n`` is 0, says why the cases the claim counts did not occur
    in the sample: the row is then not testable here, with no share and no bounds.

    >>> share_row("astar-same", "thesis", 0, 0, "m", absent="no position was searched")["verdict"]
    'not testable here'
    """
    test = SHARES[key]
    if absent:
        if n:
            raise ValueError(f"claim {key!r}: {n} cases occurred, so none is absent")
        return row(claim(key), rules, "not testable here", method, test.text, unit="share", alpha=test.alpha,
                   beta=test.beta, note=absent + (f"; {note}" if note else ""))
    v = share_verdict(test, events, n)
    return row(claim(key), rules, v["verdict"], method, test.text, v["estimate"], v["low"], v["high"],
               "share", alpha=test.alpha, beta=test.beta, power=v["power"],
               note=f"{events} of {n}" + (f"; {note}" if note else ""))


def ratio_verdict(test: RatioTest, a: Sequence[float], b: Sequence[float], resamples: int = 2000,
                  seed: int = 0) -> dict:
    """The verdict of ``test`` on the ratio of the totals of ``a`` over ``b`` (paired by
    position), with one-sided bootstrap bounds over positions (``low`` at the claim's level on
    its side, ``high`` on the other)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if len(a) != len(b) or len(a) == 0:
        raise ValueError(f"a ratio needs the same positive number of times on each side, got {len(a)}, "
                         f"{len(b)}")
    ratio = a.sum() / b.sum()
    boot = ratio_of_totals(a, b, resamples, np.random.default_rng([seed, 23]))
    if test.above:
        low, high = np.quantile(boot, test.alpha), np.quantile(boot, 1 - test.beta)
        verdict = ("confirmed" if low > test.threshold else "refuted" if high < test.threshold
                   else "not decided")
    else:
        low, high = np.quantile(boot, test.beta), np.quantile(boot, 1 - test.alpha)
        verdict = ("confirmed" if high < test.threshold else "refuted" if low > test.threshold
                   else "not decided")
    return {"verdict": verdict, "estimate": float(ratio), "low": float(low), "high": float(high)}


def decision_positions(records: Iterable[tuple[str, str]], rules, n: int, seed: int,
                       min_bounces: int = 0) -> list[Game]:
    """``n`` turn starts (or all, if fewer) of the games ``records`` (``(moves, opening)``), the
    openings' turns and finished positions left out, drawn without replacement with ``seed``.

    With ``min_bounces``, only the turn starts where the turn then played bounced at least that
    many times (a turn of ``k`` steps bounces ``k - 1`` times): the occasions of "in fewer
    occasions doing 15 rebounds is possible", where the thesis's search costs most."""
    starts = []
    for moves, opening in records:
        turns = moves.split()
        starts += [" ".join(turns[:t]) for t in range(len(opening.split()), len(turns))
                   if len(turns[t]) - 1 >= min_bounces]
    rng = np.random.default_rng([seed, 95])
    picked = rng.permutation(len(starts))[:n]
    out = [Game(rules, starts[i]) for i in sorted(picked)]
    return [g for g in out if not g.is_over]


def decision_costs(positions: Sequence[Game], cap: int = MINUTE_STEPS,
                   spec: dict | None = None) -> pd.DataFrame:
    """One decision of the thesis's alpha-beta (``spec``, default :data:`THESIS_DECIDER`) from
    each position, capped at ``cap`` steps: the ``steps`` it searched, its CPU ``seconds``,
    whether the cap ``stopped`` it and the ``turn`` it chose."""
    from ...controllers import make

    spec = {**(spec or THESIS_DECIDER), "max_nodes": int(cap)}
    rows = []
    for i, game in enumerate(positions):
        player = make(spec)
        start = time.process_time()
        result = player.decide(game)
        seconds = time.process_time() - start
        stopped = int(result.nodes) >= cap  # the budget spans every level and every search of the turn
        rows.append({"position": i, "steps": int(result.nodes), "seconds": seconds, "stopped": bool(stopped),
                     "turn": result.turn})
    return pd.DataFrame(rows, columns=["position", "steps", "seconds", "stopped", "turn"])


def _speed(costs: pd.DataFrame) -> float:
    return float(costs["steps"].sum() / costs["seconds"].sum()) if costs["seconds"].sum() > 0 else math.nan


def runtime_row(rules: str, costs: pd.DataFrame, sample: str) -> dict:
    """"The run time is lower than a minute": the share of decisions (:func:`decision_costs`)
    that needed more steps than a minute at the thesis's stated speed; the worst case and
    this machine's seconds in the note. With no decision searched the row is not testable
    here."""
    method = (f"decisions of the level-2 dynamic alpha-beta over a minute's steps, {len(costs)} turn "
              f"starts ({sample})")
    if not len(costs):
        return share_row("runtime-minute", rules, 0, 0, method,
                         absent=f"no turn start of {sample} was searched, so no decision was timed")
    over = int(costs["stopped"].sum())
    worst = int(costs["steps"].max())
    note = (f"a minute at the thesis's {THESIS_SPEEDS[0]:.0e} steps/s is {MINUTE_STEPS:.1e} steps; worst "
            f"decision {worst:,} steps{' (stopped at the cap: over a minute)' if over else ''}, "
            f"{costs['seconds'].max():.3g} s here; median {costs['steps'].median():.0f} steps; this machine "
            f"searched {_speed(costs):.3g} steps/s")
    return share_row("runtime-minute", rules, over, len(costs), method, note)


def cap_turns(costs: pd.DataFrame, positions: Sequence[Game], limit: int, larger: int = LARGER_STEPS,
              spec: dict | None = None) -> pd.DataFrame:
    """For at most ``limit`` positions where the cap stopped the decision (``costs``), the turn of
    a search with ``larger`` steps beside the capped one: ``same`` when they agree."""
    bound = costs[costs["stopped"]].head(max(0, limit))
    big = decision_costs([positions[int(i)] for i in bound["position"]], larger, spec)
    out = pd.DataFrame({"position": bound["position"].to_numpy(), "capped_turn": bound["turn"].to_numpy(),
                        "larger_turn": big["turn"].to_numpy() if len(big) else [],
                        "larger_steps": big["steps"].to_numpy() if len(big) else [],
                        "larger_stopped": big["stopped"].to_numpy() if len(big) else []})
    out["same"] = out["capped_turn"] == out["larger_turn"]
    return out


def cap_minute_row(rules: str, costs: pd.DataFrame, turns: pd.DataFrame, sample: str = "decisions") -> dict:
    """"Limited to a minute with little loss of effectiveness" at the thesis's scale: among the
    positions where the minute's cap bound, the share where the capped turn differs from the
    ten times larger search's. ``sample`` says in words which positions ``costs`` holds.

    The claim is on "the cases in what this time is bigger": where the cap bound in none of the
    positions searched, there is no such case to compare and the row is not testable here (not
    decided, with no power, where the cap bound but too few positions were compared)."""
    speed = _speed(costs)
    bound = int(costs["stopped"].sum())
    scale = (f"cap {MINUTE_STEPS:.1e} steps (a minute at {THESIS_SPEEDS[0]:.0e} steps/s), larger search "
             f"{LARGER_STEPS:.1e} (a minute at {THESIS_SPEEDS[1]:.0e}); here the dynamic search made "
             f"{speed:.3g} steps/s, so the cap is {MINUTE_STEPS / speed:.3g} s and the larger search "
             f"{LARGER_STEPS / speed:.3g} s on this machine")
    method = "capped turn against the larger search's, on the positions where the cap bound"
    if not bound:
        return share_row("cap-minute", rules, 0, 0, method, scale, absent=_cap_never_bound(costs, sample))
    also = f", the larger search stopped too in {int(turns['larger_stopped'].sum())}" if len(turns) else ""
    note = f"{scale}; the cap bound in {bound} of {len(costs)} {sample}, {len(turns)} compared{also}"
    return share_row("cap-minute", rules, int((~turns["same"]).sum()) if len(turns) else 0, len(turns),
                     method, note)


def _cap_never_bound(costs: pd.DataFrame, sample: str) -> str:
    """Why "the cases in what this time is bigger" are absent from ``costs``: the cap bound in
    none of them, and how near the costliest came."""
    if not len(costs):
        return f"no position was searched ({sample}), so the cap bound nowhere"
    worst = int(costs["steps"].max())
    return (f"the cap bound in none of the {len(costs)} {sample}, so \"the cases in what this time is "
            f"bigger\" did not occur here; the costliest took {worst:,} steps, {worst / MINUTE_STEPS:.1%} "
            "of the cap")


def astar_times(positions: Sequence[Game], max_nodes: int = 5_000_000, repeats: int = 1,
                level: int = 2) -> pd.DataFrame:
    """One dynamic search per position with each evaluation (``distance``, ``astar``): the turn,
    the steps and the least CPU seconds of ``repeats``. A position where the plain search needs
    more than ``max_nodes`` steps is left out (counted in ``attrs["left_out"]``)."""
    from ..._core.bundles import new_budget
    from ...search.alphabeta import thesis_line

    rows, left_out = [], 0
    for i, game in enumerate(positions):
        if thesis_line(game, "dynamic", level, budget=new_budget(None, max_nodes)).details["stopped"]:
            left_out += 1
            continue
        for evaluation in ("distance", "astar"):
            best, result = math.inf, None
            for _ in range(repeats):
                start = time.process_time()
                result = thesis_line(game, "dynamic", level, evaluation=evaluation)
                best = min(best, time.process_time() - start)
            rows.append({"position": i, "evaluation": evaluation, "turn": result.turn, "steps": result.nodes,
                         "seconds": best})
    table = pd.DataFrame(rows, columns=["position", "evaluation", "turn", "steps", "seconds"])
    table.attrs["left_out"] = left_out
    return table


def astar_rows(rules: str, times: pd.DataFrame, sample: str, seed: int = 0) -> list[dict]:
    """"Identical results and much greater run time": the share of positions where the A*
    evaluation chooses another turn (``astar-same``) and the ratio of CPU times
    (``astar-slower``). Where no position was searched to its end by the plain search (all
    left out, or none given), both rows are not testable here."""
    turn = times.pivot(index="position", columns="evaluation", values="turn")
    secs = times.pivot(index="position", columns="evaluation", values="seconds")
    steps = times.pivot(index="position", columns="evaluation", values="steps")
    left = times.attrs.get("left_out", 0)
    same_method = f"turn of the level-2 dynamic search with each evaluation, {len(turn)} positions ({sample})"
    test = RATIOS["astar-slower"]
    c = claim("astar-slower")
    slower_method = (f"CPU time of the A*-evaluated search over the plain one's, {len(turn)} positions "
                     f"({sample}), bootstrap")
    if not len(turn):
        absent = (f"the plain search finished under its step cap in none of the {left} positions "
                  f"({sample}), so no turn was chosen by both evaluations" if left
                  else f"no position was searched ({sample})")
        return [share_row("astar-same", rules, 0, 0, same_method, absent=absent),
                row(c, rules, "not testable here", slower_method, test.text, unit="time ratio",
                    alpha=test.alpha, beta=test.beta, note=absent)]
    differ = int((turn["astar"] != turn["distance"]).sum())
    out = [share_row("astar-same", rules, differ, len(turn), same_method,
                     f"{left} positions left out (the plain search over its step cap)")]
    v = ratio_verdict(test, secs["astar"], secs["distance"], seed=seed)
    node_ratio = steps["astar"].sum() / steps["distance"].sum()
    out.append(row(c, rules, v["verdict"], slower_method, test.text, v["estimate"], v["low"],
                   v["high"], "time ratio", alpha=test.alpha, beta=test.beta,
                   note=f"steps: {node_ratio:.3f} of the plain search's; {left} positions left out"))
    return out
