"""The Aboyne report's claims, each with its decision rule declared here before anything is
measured, and the rows that decide them (:func:`claims_table`).

A count is decided exactly; "about 18" gets the tolerance :data:`ABOUT` (a quarter either
way) on the 95 % interval of the measured mean; a per-level estimate of Table 2 agrees when the
measured count is within a factor :data:`FACTOR`; "4 levels on average" is recomputed by the
report's own method (:func:`levels_on_average`) and agrees when it rounds to 4. The report's
numbers are quoted in :data:`TABLE_1`, :data:`TABLE_2` and :data:`ACCEPTED`.

Verdicts: ``confirmed``, ``refuted`` or ``not decided`` (the interval straddles the rule's
edge, or nothing was measured).

Examples
--------
>>> round(levels_on_average([18 ** (k + 1) for k in range(9)]), 3)  # the report's 100 / 26
3.846
>>> table_1_mean()
17.5
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...stats.binomial import wilson

__all__ = [
    "ReportClaim",
    "CLAIMS",
    "TABLE_1",
    "TABLE_2",
    "RATES",
    "ACCEPTED",
    "ACCEPTED_SECONDS",
    "ABOUT",
    "FACTOR",
    "EQUAL_BAND",
    "SLOWER_MARGIN",
    "table_1_mean",
    "accepted_levels",
    "levels_on_average",
    "extrapolate",
    "table_2_comparison",
    "claims_table",
]

#: Table 1, "Número de jogadas possíveis": stones (1..9) x directions (1..6), QUOTED.
TABLE_1 = [[s * d for d in range(1, 7)] for s in range(1, 10)]
#: The rates of Table 2's columns, states processed per second.
RATES = (1_000, 10_000, 100_000, 1_000_000)
#: Table 2, QUOTED: per level (0..8), the states and the seconds at each of :data:`RATES` as
#: printed ("3,E+04" is 3e4 with one digit).
TABLE_2 = [
    (0, "18", ("0", "0", "0", "0")),
    (1, "324", ("0", "0", "0", "0")),
    (2, "5832", ("6", "1", "0", "0")),
    (3, "104976", ("105", "10", "1", "0")),
    (4, "1889568", ("1890", "189", "19", "2")),
    (5, "34012224", ("3,E+04", "3401", "340", "34")),
    (6, "612220032", ("6,E+05", "6,E+04", "6122", "612")),
    (7, "1,E+10", ("1,E+07", "1,E+06", "1,E+05", "11020")),
    (8, "2,E+11", ("2,E+08", "2,E+07", "2,E+06", "2,E+05")),
]
#: The report's "aceites" column: of the four rates, how many process each level (0..7) in an
#: acceptable time, QUOTED.
ACCEPTED = (4, 4, 4, 4, 4, 3, 2, 1)
#: The largest time Table 2 accepted (level 7 at 10^6 states/s), seconds: the threshold its
#: "aceites" column implies (it refused 3.4e4 s at level 5).
ACCEPTED_SECONDS = 11_020
ABOUT = 0.25  # "about 18": within a quarter of 18
FACTOR = 2.0  # a per-level estimate agrees within a factor 2
EQUAL_BAND = (0.35, 0.65)  # "approximately equal": a score interval inside this band
SLOWER_MARGIN = 0.10  # "slower": more than 10 % more seconds (best of the repeats), beyond timing noise


@dataclass(frozen=True)
class ReportClaim:
    """A claim: its key, where the report makes it, its words, what it states, and the rule."""

    key: str
    where: str
    quote: str
    states: str
    rule: str


CLAIMS: list[ReportClaim] = [
    ReportClaim(
        "first-moves",
        "Complexidade",
        "na primeira jogada cada jogador tem 1 de 17 jogadas possíveis",
        "17 moves at the first move",
        "exact: the count of legal first moves equals 17",
    ),
    ReportClaim(
        "first-moves-by-stone",
        "Complexidade",
        "uma pedra pode-se mover em 3 direções, 6 pedras podem-se mover em 2 direções e 2 pedras "
        "podem-se mover numa única direção",
        "stones with 3, 2, 1 moves: 1, 6, 2",
        "exact: the stones with 3, 2 and 1 moves number 1, 6 and 2 (and none has more)",
    ),
    ReportClaim(
        "table-1-mean",
        "Tabela 1",
        "média de jogadas possíveis 18",
        "the mean of Table 1 is 18",
        "arithmetic: the mean of Table 1's 54 cells is within 0.5 of 18",
    ),
    ReportClaim(
        "average-random",
        "Tabela 1",
        "média de jogadas possíveis 18",
        "about 18 moves per position (random games)",
        f"the 95 % interval of the mean moves per position lies within 18 +- {ABOUT:.0%}: confirmed; "
        "entirely outside: refuted; else not decided",
    ),
    ReportClaim(
        "average-alphabeta",
        "Tabela 1",
        "média de jogadas possíveis 18",
        "about 18 moves per position (alpha-beta games)",
        f"the 95 % interval of the mean moves per position lies within 18 +- {ABOUT:.0%}: confirmed; "
        "entirely outside: refuted; else not decided",
    ),
    ReportClaim(
        "table-2-arithmetic",
        "Tabela 2",
        "calculou-se o tempo necessário para processar jogadas até um determinado nível",
        "seconds = states / rate",
        "exact: every printed cell equals 18^(level+1) / rate at its printed precision",
    ),
    *[
        ReportClaim(
            f"table-2-level-{k}",
            "Tabela 2",
            f"nível {k}: {TABLE_2[k][1]} estados",
            f"{TABLE_2[k][1]} states at level {k}",
            f"perft at depth {k + 1} from the start within a factor {FACTOR:g} of 18^{k + 1}",
        )
        for k in range(5)
    ],
    ReportClaim(
        "four-levels-arithmetic",
        "Tabela 2",
        "em média até ao nível 4",
        "the weighted mean of the accepted levels is 4",
        "arithmetic: the report's weighted mean (levels counted from 1) rounds to 4",
    ),
    ReportClaim(
        "four-levels-perft",
        "Tabela 2",
        "em média até ao nível 4",
        "4 levels on average (measured tree sizes)",
        f"the report's method (levels within {ACCEPTED_SECONDS} s at each rate, weighted mean) with the "
        "measured perft counts rounds to 4",
    ),
    ReportClaim(
        "four-levels-alphabeta",
        "Tabela 2",
        "em média até ao nível 4",
        "4 levels on average (alpha-beta nodes)",
        "the same with the nodes alpha-beta visits from the start rounds to 4",
    ),
    ReportClaim(
        "alphabeta-slower",
        "Trabalho Efectuado",
        "em alguns casos demorar mais tempo para processar um estado do que com o algoritmo Mini-Max simples",
        "alpha-beta is sometimes slower than minimax",
        f"confirmed if alpha-beta took more than {SLOWER_MARGIN:.0%} longer than minimax (best of the "
        "repeats) in some measured state and depth >= 2; refuted if it took less time in all of them; "
        "else not decided",
    ),
    ReportClaim(
        "heuristics-equal-shallow",
        "Conclusões",
        "ambas as heurísticas são aproximadamente iguais para profundidades inferiores a 3",
        "equal at depths 1 and 2",
        f"heuristic 2's score at depths 1-2 (all states): Wilson 95 % interval inside {EQUAL_BAND}: "
        "confirmed; excluding 0.5: refuted; else not decided",
    ),
    ReportClaim(
        "heuristic-2-deeper",
        "Conclusões",
        "a segunda heurística é superior à primeira para profundidades superiores a 2",
        "heuristic 2 better at depth 3",
        "heuristic 2's score at depth 3 (all states): interval above 0.5: confirmed; below 0.5: "
        "refuted; else not decided",
    ),
]


def _claim(key: str) -> ReportClaim:
    return next(c for c in CLAIMS if c.key == key)


def table_1_mean() -> float:
    """The mean of Table 1's cells."""
    return float(np.mean(TABLE_1))


def _printed(text: str) -> float:
    return float(text.replace(",", "."))


def _matches_print(value: float, text: str) -> bool:
    """Whether ``value`` prints as ``text`` in Table 2's style (integers, or one digit and E+nn)."""
    if "E" in text:
        return f"{value:.0E}".replace("E+0", "E+").replace("E+", ",E+") == text.replace("E+0", "E+")
    return round(value) == int(text)


def accepted_levels(counts, rates=RATES, threshold: float = ACCEPTED_SECONDS) -> list[int]:
    """Per level, how many of ``rates`` process its ``counts[level]`` states within ``threshold`` s."""
    return [sum(1 for rate in rates if c / rate <= threshold) for c in counts]


def levels_on_average(counts, rates=RATES, threshold: float = ACCEPTED_SECONDS) -> float:
    """The report's "média": the mean level weighted by :func:`accepted_levels`, levels counted from 1
    (its "média" column is (level + 1) x accepted, total 100 over 26)."""
    accepted = accepted_levels(counts, rates, threshold)
    total = sum(accepted)
    return sum((k + 1) * a for k, a in enumerate(accepted)) / total if total else math.nan


def extrapolate(measured: dict[int, float], depths) -> dict[int, tuple[float, bool]]:
    """``{depth: (count, extrapolated?)}``: measured counts, and beyond the deepest one the last
    measured growth (count(D) / count(D - 1)) applied again."""
    known = sorted(measured)
    growth = measured[known[-1]] / measured[known[-2]] if len(known) > 1 else math.nan
    out = {}
    for d in depths:
        if d in measured:
            out[d] = (float(measured[d]), False)
        else:
            out[d] = (measured[known[-1]] * growth ** (d - known[-1]), True)
    return out


def table_2_comparison(
    perft_counts: dict[int, int], alphabeta_nodes: dict[int, int], minimax_rate: float, alphabeta_rate: float
) -> pd.DataFrame:
    """Table 2 beside the measurements, per level 0..8 (depth = level + 1): the report's states, perft
    and alpha-beta nodes from the start (``*_extrapolated`` beyond the measured depths), and the
    seconds each takes at this machine's states per second of the reference minimax and alpha-beta."""
    depths = [k + 1 for k, _, _ in TABLE_2]
    perft = extrapolate(perft_counts, depths)
    nodes = extrapolate(alphabeta_nodes, depths)
    rows = []
    for (k, _states, _), d in zip(TABLE_2, depths):
        rows.append(
            {
                "level": k,
                "depth": d,
                "report_states": 18.0**d,
                "perft": perft[d][0],
                "perft_extrapolated": perft[d][1],
                "ratio": perft[d][0] / 18.0**d,
                "alphabeta_nodes": nodes[d][0],
                "alphabeta_extrapolated": nodes[d][1],
                "report_seconds_at_1e3": 18.0**d / 1e3,
                "minimax_seconds_here": perft[d][0] / minimax_rate,
                "alphabeta_seconds_here": nodes[d][0] / alphabeta_rate,
            }
        )
    return pd.DataFrame(rows)


def _interval_verdict(low: float, high: float, lo: float, hi: float) -> str:
    if math.isnan(low) or math.isnan(high):
        return "not decided"
    if lo <= low and high <= hi:
        return "confirmed"
    if high < lo or low > hi:
        return "refuted"
    return "not decided"


def _row(key: str, measured: str, verdict: str, note: str = "") -> dict:
    c = _claim(key)
    return {
        "key": c.key,
        "where": c.where,
        "claim": c.quote,
        "states": c.states,
        "rule": c.rule,
        "measured": measured,
        "verdict": verdict,
        "note": note,
    }


def claims_table(
    first: dict,
    first_blue: dict,
    branching: pd.DataFrame,
    table2: pd.DataFrame,
    costs: pd.DataFrame,
    duels: pd.DataFrame,
) -> pd.DataFrame:
    """One row per claim of :data:`CLAIMS`, decided by its rule.

    Parameters
    ----------
    first, first_blue : dict
        :func:`fepaper.experiments.reference.aboyne.first_moves` of the start, red to move and blue to move.
    branching : DataFrame
        :func:`fepaper.experiments.reference.aboyne.branching_summary`.
    table2 : DataFrame
        :func:`table_2_comparison`.
    costs : DataFrame
        :func:`fepaper.experiments.reference.aboyne.search_costs`.
    duels : DataFrame
        :func:`fepaper.experiments.reference.aboyne.duels` (one row per test).
    """
    rows = []
    ok = first["count"] == 17 and first_blue["count"] == 17
    rows.append(
        _row(
            "first-moves",
            f"red {first['count']}, blue {first_blue['count']}",
            "confirmed" if ok else "refuted",
            "the start of Ludii's Aboyne.lud (the report's Figure 1 is not in its text)",
        )
    )
    want = {3: 1, 2: 6, 1: 2}
    got = {k: v for k, v in first["breakdown"].items() if k > 0}
    rows.append(
        _row(
            "first-moves-by-stone",
            ", ".join(f"{v} stone(s) with {k}" for k, v in got.items()),
            "confirmed" if got == want and first["breakdown"] == first_blue["breakdown"] else "refuted",
        )
    )
    mean = table_1_mean()
    rows.append(
        _row(
            "table-1-mean",
            f"{mean:g}",
            "confirmed" if abs(mean - 18) <= 0.5 else "refuted",
            "the mean of stones 1-9 times directions 1-6 is 5 x 3.5; a stone has at most 6 directions "
            "on a hexagonal board",
        )
    )
    for key, prefix in (("average-random", "random"), ("average-alphabeta", "alpha-beta")):
        part = branching[(branching["sample"].str.startswith(prefix)) & (branching.phase == "all")]
        if part.empty:
            rows.append(_row(key, "not measured", "not decided"))
            continue
        r = part.iloc[0]
        verdict = _interval_verdict(r["low"], r["high"], 18 * (1 - ABOUT), 18 * (1 + ABOUT))
        rows.append(
            _row(
                key,
                f"{r['mean']:.1f} [{r['low']:.1f}, {r['high']:.1f}] over {int(r['games'])} games "
                f"({r['sample']})",
                verdict,
            )
        )
    wrong = [
        (k, rate, printed)
        for k, _, cells in TABLE_2
        for rate, printed in zip(RATES, cells)
        if not _matches_print(18.0 ** (k + 1) / rate, printed)
    ]
    rows.append(
        _row(
            "table-2-arithmetic",
            "all 36 cells agree" if not wrong else f"differ: {wrong}",
            "confirmed" if not wrong else "refuted",
        )
    )
    for k in range(5):
        r = table2[table2.level == k].iloc[0]
        if r["perft_extrapolated"]:
            rows.append(_row(f"table-2-level-{k}", "not measured", "not decided"))
            continue
        verdict = "confirmed" if 1 / FACTOR <= r["ratio"] <= FACTOR else "refuted"
        rows.append(
            _row(f"table-2-level-{k}", f"perft({k + 1}) = {int(r['perft']):,} ({r['ratio']:.2f} x)", verdict)
        )
    report = levels_on_average([18.0 ** (k + 1) for k in range(len(TABLE_2))])
    rows.append(
        _row(
            "four-levels-arithmetic",
            f"{report:.3f}",
            "confirmed" if round(report) == 4 else "refuted",
            "Table 2 numbers its levels from 0 but the weights count them from 1: from 0 the mean "
            f"is {report - 1:.3f}",
        )
    )
    for key, column in (("four-levels-perft", "perft"), ("four-levels-alphabeta", "alphabeta_nodes")):
        value = levels_on_average(table2[column].tolist())
        flag = "perft_extrapolated" if column == "perft" else "alphabeta_extrapolated"
        extrapolated = table2[table2[flag]].depth.tolist()
        rows.append(
            _row(
                key,
                f"{value:.3f}",
                "confirmed" if round(value) == 4 else "refuted",
                f"depths {extrapolated[0]}+ extrapolated from the last measured growth"
                if extrapolated
                else "",
            )
        )
    deep = costs[(costs.depth >= 2) & costs.algorithm.isin(["minimax", "alpha-beta"])]
    pivot = deep.pivot_table(index=["state", "depth"], columns="algorithm", values=["nodes", "seconds"])
    slower = pivot[("seconds", "alpha-beta")] > (1 + SLOWER_MARGIN) * pivot[("seconds", "minimax")]
    faster = pivot[("seconds", "alpha-beta")] < pivot[("seconds", "minimax")]
    fewer = pivot[("nodes", "alpha-beta")] < pivot[("nodes", "minimax")]
    n = len(pivot)
    if n == 0:
        rows.append(_row("alphabeta-slower", "not measured", "not decided"))
    else:
        verdict = "confirmed" if slower.any() else "refuted" if faster.all() else "not decided"
        rows.append(
            _row(
                "alphabeta-slower",
                f"slower by more than {SLOWER_MARGIN:.0%} in {int(slower.sum())} of "
                f"{n} cases, faster in {int(faster.sum())}; fewer nodes in "
                f"{int(fewer.sum())} of {n}",
                verdict,
                "the report's alpha-beta was 'not completely functional'; this one returns exactly "
                "minimax's value and best moves (tested)",
            )
        )
    for key, depths in (("heuristics-equal-shallow", (1, 2)), ("heuristic-2-deeper", (3,))):
        part = duels[duels.depth.isin(depths)]
        if part.empty:
            rows.append(_row(key, "not measured", "not decided"))
            continue
        score = float((part.winner == 2).sum() + (part.winner == 0).sum() / 2)
        low, high = wilson(score, len(part))
        if key == "heuristics-equal-shallow":
            inside = EQUAL_BAND[0] <= low and high <= EQUAL_BAND[1]
            verdict = "confirmed" if inside else "refuted" if high < 0.5 or low > 0.5 else "not decided"
        else:
            verdict = "confirmed" if low > 0.5 else "refuted" if high < 0.5 else "not decided"
        rows.append(
            _row(
                key,
                f"heuristic 2 scored {score:g} of {len(part)} ({score / len(part):.2f} "
                f"[{low:.2f}, {high:.2f}])",
                verdict,
            )
        )
    return pd.DataFrame(rows)
