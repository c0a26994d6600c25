"""The Aboyne report's claims, each with its decision rule declared here before anything is
measured, and the rows that decide them (:func:`claims_table`).

A count is decided exactly; "about 18" gets the tolerance :data:`ABOUT` (a quarter either
way) on the 95 % interval of the measured mean; a per-level estimate of Table 2 agrees when the
measured count is within a factor :data:`FACTOR`; "4 levels on average" is recomputed by the
report's own method and agrees when it rounds to 4, and "6 at best, 2 at worst" by its spread.
The report's tables and its arithmetic are in :mod:`fepaper.experiments.reference.aboyne_report`.

Verdicts: ``confirmed``, ``refuted`` or ``not decided`` (the interval straddles the rule's
edge, or nothing was measured). A claim read again is a new key; the earlier reading stays in
the table with its verdict, its ``reading`` column naming the key that replaced it
(docs/interpretation.md says why).

Examples
--------
>>> [c.key for c in CLAIMS if c.replaced_by][:2]
['first-moves', 'first-moves-by-stone']
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from ...stats.binomial import wilson, wins_above
from ...stats.multiple import holm
from ...stats.sequential import SignSPRT
from .aboyne_report import (
    ACCEPTED_SECONDS,
    RATES,
    TABLE_2,
    accepted_levels,
    extrapolate,
    levels_best_worst,
    levels_on_average,
    matches_print,
    report_results,
    table_1_mean,
)

__all__ = [
    "ReportClaim",
    "CLAIMS",
    "ABOUT",
    "FACTOR",
    "EQUAL_BAND",
    "SLOWER_MARGIN",
    "ALPHA",
    "BETA",
    "SLOWER_SHARES",
    "REPLACED_PAIRS",
    "FIRST_LOOK",
    "MAX_PAIRS",
    "heuristic_2_score",
    "slower_test",
    "slower_cases",
    "table_2_comparison",
    "claims_table",
]

ABOUT = 0.25  # "about 18": within a quarter of 18
FACTOR = 2.0  # a per-level estimate agrees within a factor 2
EQUAL_BAND = (0.35, 0.65)  # "approximately equal": a score interval inside this band
SLOWER_MARGIN = 0.10  # "slower": more than 10 % more seconds (best of the repeats), beyond timing noise
ALPHA = 0.05  # the error rate of the sign tests of alpha-beta's processor time (over the cases)
BETA = 0.05  # the sequential sign test's error rate of refuting a case truly slower
SLOWER_SHARES = (0.5, 0.6)  # its H0 and H1: the share of pairs alpha-beta takes longer (interpretation 178)
FIRST_LOOK, MAX_PAIRS = 22, 800  # its first look (then every second pair) and its cap
REPLACED_PAIRS = 21  # the pairs the replaced sign tests (interpretation 131) read, the first of each case


@dataclass(frozen=True)
class ReportClaim:
    """A claim: its key, where the report makes it, its words, what it states, and the rule;
    ``replaced_by``: the key of the reading that replaced this one (docs/interpretation.md)."""

    key: str
    where: str
    quote: str
    states: str
    rule: str
    replaced_by: str = ""


CLAIMS: list[ReportClaim] = [
    ReportClaim(
        "first-moves",
        "Complexidade",
        "na primeira jogada cada jogador tem 1 de 17 jogadas possíveis",
        "17 moves at the first move",
        "exact: the count of legal first moves equals 17",
        replaced_by="first-moves-steps",
    ),
    ReportClaim(
        "first-moves-steps",
        "Complexidade",
        "na primeira jogada cada jogador tem 1 de 17 jogadas possíveis. Isto é, uma pedra pode-se mover "
        "em 3 direções, ...",
        "17 moves at the first move, counted as directions (steps)",
        "exact: the steps (moves to an adjacent cell, the jumps left out) of the side to move at the "
        "start number 17, for red and for blue",
    ),
    ReportClaim(
        "first-moves-by-stone",
        "Complexidade",
        "uma pedra pode-se mover em 3 direções, 6 pedras podem-se mover em 2 direções e 2 pedras "
        "podem-se mover numa única direção",
        "stones with 3, 2, 1 moves: 1, 6, 2",
        "exact: the stones with 3, 2 and 1 moves number 1, 6 and 2 (and none has more)",
        replaced_by="first-moves-by-stone-steps",
    ),
    ReportClaim(
        "first-moves-by-stone-steps",
        "Complexidade",
        "uma pedra pode-se mover em 3 direções, 6 pedras podem-se mover em 2 direções e 2 pedras "
        "podem-se mover numa única direção",
        "stones with 3, 2, 1 directions: 1, 6, 2",
        "exact: counting steps only, the stones with 3, 2 and 1 steps number 1, 6 and 2 (and none has "
        "more), for red and for blue",
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
        replaced_by="average-random-ended",
    ),
    ReportClaim(
        "average-random-ended",
        "Tabela 1",
        "média de jogadas possíveis 18",
        "about 18 moves per position (random games that end)",
        "the same rule on the positions of the games that ended, those drawn at their cap left out "
        "(shown apart)",
    ),
    ReportClaim(
        "average-alphabeta",
        "Tabela 1",
        "média de jogadas possíveis 18",
        "about 18 moves per position (alpha-beta games)",
        f"the 95 % interval of the mean moves per position lies within 18 +- {ABOUT:.0%}: confirmed; "
        "entirely outside: refuted; else not decided",
        replaced_by="average-alphabeta-ended",
    ),
    ReportClaim(
        "average-alphabeta-ended",
        "Tabela 1",
        "média de jogadas possíveis 18",
        "about 18 moves per position (alpha-beta games that end)",
        "the same rule on the positions of the games that ended, those drawn at their cap left out "
        "(shown apart)",
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
        replaced_by="four-levels-minimax",
    ),
    ReportClaim(
        "four-levels-minimax",
        "Tabela 2",
        "em média até ao nível 4",
        "4 levels on average (a full-width search)",
        "the report's method with the nodes the full-width minimax visits from the start rounds to 4 "
        "(alpha-beta's nodes shown beside)",
    ),
    ReportClaim(
        "best-worst-arithmetic",
        "Tabela 2",
        "será possível processar 6 níveis na melhor das hipóteses, 2 na pior das hipóteses",
        "6 levels at best, 2 at worst",
        "arithmetic: the weighted mean of the accepted levels (from 1) plus and minus their weighted "
        "standard deviation round to 6 and 2",
    ),
    ReportClaim(
        "best-worst-perft",
        "Tabela 2",
        "será possível processar 6 níveis na melhor das hipóteses, 2 na pior das hipóteses",
        "6 levels at best, 2 at worst (measured tree sizes)",
        "the same with the measured perft counts rounds to 6 and 2",
    ),
    ReportClaim(
        "alphabeta-slower",
        "Trabalho Efectuado",
        "em alguns casos demorar mais tempo para processar um estado do que com o algoritmo Mini-Max simples",
        "alpha-beta is sometimes slower than minimax",
        f"confirmed if alpha-beta took more than {SLOWER_MARGIN:.0%} longer than minimax (best of the "
        "repeats) in some measured state and depth >= 2; refuted if it took less time in all of them; "
        "else not decided",
        replaced_by="alphabeta-more-nodes, alphabeta-slower-cpu",
    ),
    ReportClaim(
        "alphabeta-more-nodes",
        "Trabalho Efectuado",
        "em alguns casos demorar mais tempo para processar um estado do que com o algoritmo Mini-Max simples",
        "alpha-beta sometimes does more work than minimax (states visited)",
        "exact: confirmed if alpha-beta visits more states than minimax in some measured state and depth "
        ">= 2; refuted if it visits at most as many in all of them",
    ),
    ReportClaim(
        "alphabeta-slower-cpu",
        "Trabalho Efectuado",
        "em alguns casos demorar mais tempo para processar um estado do que com o algoritmo Mini-Max simples",
        "alpha-beta is sometimes slower than minimax (processor time)",
        f"per state and depth >= 2, pairs of interleaved runs in processor seconds; one-sided sign tests "
        f"at alpha = {ALPHA} with Holm over the cases: confirmed if alpha-beta is slower in some case; "
        "refuted if it is faster in every case; else not decided",
        replaced_by="alphabeta-slower-sprt",
    ),
    ReportClaim(
        "alphabeta-slower-sprt",
        "Trabalho Efectuado",
        "em alguns casos demorar mais tempo para processar um estado do que com o algoritmo Mini-Max simples",
        "alpha-beta is sometimes slower than minimax (processor time, a sequential test)",
        f"per state and depth >= 2, interleaved pairs in processor seconds until a sequential sign test "
        f"stops: H0 alpha-beta longer in a share {SLOWER_SHARES[0]} of the pairs against H1 "
        f"{SLOWER_SHARES[1]}, alpha = {ALPHA} / the cases (Bonferroni), beta = {BETA}, looked at from pair "
        f"{FIRST_LOOK} every second pair, at most {MAX_PAIRS} pairs: confirmed if some case accepts H1 "
        "(slower); refuted if every case accepts H0 (not slower); else not decided",
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
    ReportClaim(
        "heuristics-equal-shallow-report",
        "Conclusões, on Resultados",
        "ambas as heurísticas são aproximadamente iguais para profundidades inferiores a 3",
        "equal at depths 1 and 2, on the report's own tables",
        "the rule of heuristics-equal-shallow on the report's result tables, 'Vencedor' read as the "
        "winning heuristic",
    ),
    ReportClaim(
        "heuristic-2-deeper-report",
        "Conclusões, on Resultados",
        "a segunda heurística é superior à primeira para profundidades superiores a 2",
        "heuristic 2 better at depth 3, on the report's own tables",
        "the rule of heuristic-2-deeper on the report's result tables",
    ),
    ReportClaim(
        "duels-as-report",
        "Resultados",
        "Vencedor (three states, ten tests each, depths 1 to 3)",
        "fepaper's duels give heuristic 2 the report's score",
        "per depth, heuristic 2's score in fepaper's duels and in the report's tables (a draw 1/2), "
        "Wilson 95 % intervals: refuted if they are disjoint at some depth; else not decided (a match "
        "of scores cannot be confirmed by intervals that overlap)",
    ),
]


def _claim(key: str) -> ReportClaim:
    return next(c for c in CLAIMS if c.key == key)


def heuristic_2_score(part: pd.DataFrame) -> tuple[float, int, float, float]:
    """Heuristic 2's score over the games ``part`` (``winner``: 1, 2, or 0 for a draw worth 1/2):
    ``(score, games, low, high)``, with the Wilson 95 % interval of the share."""
    score = float((part.winner == 2).sum() + (part.winner == 0).sum() / 2)
    low, high = wilson(score, len(part))
    return score, len(part), low, high


def slower_test(cases: int, first_look: int = FIRST_LOOK, max_trials: int = MAX_PAIRS) -> SignSPRT:
    """The sequential sign test of one case of ``alphabeta-slower-sprt`` (docs/interpretation.md,
    entry 178) when ``cases`` cases are timed: H0 share :data:`SLOWER_SHARES` [0] against H1 [1] of
    the pairs where alpha-beta takes longer, at :data:`ALPHA` / ``cases`` and :data:`BETA`, looked at
    from ``first_look`` every second pair, stopped at ``max_trials`` (a smaller pair only at the smoke
    budget)."""
    if cases < 1:
        raise ValueError(f"cases must be at least 1, got {cases}")
    return SignSPRT(*SLOWER_SHARES, alpha=ALPHA / cases, beta=BETA, first_look=first_look, every=2,
                    max_trials=max_trials)


#: A case's verdict from the sequential test's status.
CASE_OF_STATUS = {"accept H1": "slower", "accept H0": "not slower", "continue": "not decided"}


def slower_cases(timings: pd.DataFrame, test: SignSPRT, alpha: float = ALPHA) -> pd.DataFrame:
    """Per (state, depth) of :func:`fepaper.experiments.reference.aboyne.paired_timings`: the pairs,
    how many alpha-beta took more and less processor time, the median ratio of its time to minimax's,
    and ``test`` run again on the pairs in their order (pairs of equal times skipped): its ``trials``,
    ``llr`` and the ``case``, "slower", "not slower" or "not decided".

    Beside, the replaced reading (docs/interpretation.md, entry 131) on each case's first
    :data:`REPLACED_PAIRS` pairs: ``sign21_longer``, ``sign21_shorter``, the one-sided sign tests'
    p-values and, after Holm over the cases (each direction apart), whether alpha-beta is
    ``sign21_slower`` or ``sign21_faster``."""
    rows = []
    for (state, depth), part in timings.groupby(["state", "depth"], sort=True):
        part = part.sort_values("pair")
        longer, shorter = part.cpu_alphabeta > part.cpu_minimax, part.cpu_alphabeta < part.cpu_minimax
        run = test.run(longer[longer | shorter].tolist())
        first = part.head(REPLACED_PAIRS)
        first_longer = int((first.cpu_alphabeta > first.cpu_minimax).sum())
        first_shorter = int((first.cpu_alphabeta < first.cpu_minimax).sum())
        rows.append(
            {
                "state": state,
                "depth": depth,
                "pairs": len(part),
                "nodes_minimax": int(part.nodes_minimax.iloc[0]),
                "nodes_alphabeta": int(part.nodes_alphabeta.iloc[0]),
                "alphabeta_longer": int(longer.sum()),
                "alphabeta_shorter": int(shorter.sum()),
                "median_ratio": float((part.cpu_alphabeta / part.cpu_minimax).median()),
                "trials": run.trials,
                "llr": run.llr,
                "case": CASE_OF_STATUS[run.status],
                "sign21_pairs": len(first),
                "sign21_longer": first_longer,
                "sign21_shorter": first_shorter,
                "sign21_p_slower": wins_above(first_longer, len(first)),
                "sign21_p_faster": wins_above(first_shorter, len(first)),
            }
        )
    out = pd.DataFrame(rows)
    if len(out):
        out["sign21_slower"] = holm(out.sign21_p_slower.tolist(), alpha)[1]
        out["sign21_faster"] = holm(out.sign21_p_faster.tolist(), alpha)[1]
    return out


def table_2_comparison(
    perft_counts: dict[int, int],
    alphabeta_nodes: dict[int, int],
    minimax_rate: float,
    alphabeta_rate: float,
    minimax_nodes: dict[int, int],
) -> pd.DataFrame:
    """Table 2 beside the measurements, per level 0..8 (depth = level + 1): the report's states, perft,
    minimax and alpha-beta nodes from the start (``*_extrapolated`` beyond the measured depths), and
    the seconds each takes at this machine's states per second of the reference minimax and
    alpha-beta."""
    depths = [k + 1 for k, _, _ in TABLE_2]
    perft = extrapolate(perft_counts, depths)
    nodes = extrapolate(alphabeta_nodes, depths)
    full = extrapolate(minimax_nodes, depths)
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
                "minimax_nodes": full[d][0],
                "minimax_extrapolated": full[d][1],
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
        "reading": f"replaced by {c.replaced_by}" if c.replaced_by else "in force",
    }


def claims_table(
    first: dict,
    first_blue: dict,
    branching: pd.DataFrame,
    table2: pd.DataFrame,
    costs: pd.DataFrame,
    duels: pd.DataFrame,
    timings: pd.DataFrame,
    test: SignSPRT,
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
    timings : DataFrame
        :func:`fepaper.experiments.reference.aboyne.paired_timings`.
    test : SignSPRT
        The sequential sign test the timings were taken with (:func:`slower_test`).
    """
    rows = [
        *_first_move_rows(first, first_blue),
        _row(
            "table-1-mean",
            f"{table_1_mean():g}",
            "confirmed" if abs(table_1_mean() - 18) <= 0.5 else "refuted",
            "the mean of stones 1-9 times directions 1-6 is 5 x 3.5; a stone has at most 6 directions "
            "on a hexagonal board",
        ),
        *_average_rows(branching),
        *_table_2_rows(table2),
        *_slower_rows(costs, timings, test),
        *_heuristic_rows(duels),
    ]
    order = [c.key for c in CLAIMS]
    return pd.DataFrame(sorted(rows, key=lambda r: order.index(r["key"])))


def _first_move_rows(first: dict, first_blue: dict) -> list[dict]:
    want = {3: 1, 2: 6, 1: 2}
    rows = []
    for suffix, count, breakdown, note in (
        (
            "",
            "count",
            "breakdown",
            "every legal move, the jumps included, at the start of Ludii's Aboyne.lud",
        ),
        (
            "-steps",
            "steps",
            "steps_breakdown",
            "steps to an adjacent cell (the report's directions), the jumps left out, at the same start",
        ),
    ):
        ok = first[count] == 17 and first_blue[count] == 17
        rows.append(
            _row(
                f"first-moves{suffix}",
                f"red {first[count]}, blue {first_blue[count]}",
                "confirmed" if ok else "refuted",
                note,
            )
        )
        got = {k: v for k, v in first[breakdown].items() if k > 0}
        same = got == want and first[breakdown] == first_blue[breakdown]
        rows.append(
            _row(
                f"first-moves-by-stone{suffix}",
                ", ".join(f"{v} stone(s) with {k}" for k, v in got.items()),
                "confirmed" if same else "refuted",
            )
        )
    return rows


def _average_rows(branching: pd.DataFrame) -> list[dict]:
    rows = []
    for key, prefix in (("average-random", "random"), ("average-alphabeta", "alpha-beta")):
        for suffix, kept in (("", "all"), ("-ended", "ended")):
            part = branching[
                branching["sample"].str.startswith(prefix)
                & (branching["games kept"] == kept)
                & (branching.phase == "all")
            ]
            if part.empty:
                rows.append(_row(key + suffix, "not measured", "not decided"))
                continue
            r = part.iloc[0]
            verdict = _interval_verdict(r["low"], r["high"], 18 * (1 - ABOUT), 18 * (1 + ABOUT))
            rows.append(
                _row(
                    key + suffix,
                    f"{r['mean']:.1f} [{r['low']:.1f}, {r['high']:.1f}] over "
                    f"{int(r['games'])} games ({r['sample']}; {int(r['drawn games'])} drawn at the cap)",
                    verdict,
                )
            )
    return rows


def _table_2_rows(table2: pd.DataFrame) -> list[dict]:
    wrong = [
        (k, rate, printed)
        for k, _, cells in TABLE_2
        for rate, printed in zip(RATES, cells)
        if not matches_print(18.0 ** (k + 1) / rate, printed)
    ]
    rows = [
        _row(
            "table-2-arithmetic",
            "all 36 cells agree" if not wrong else f"differ: {wrong}",
            "confirmed" if not wrong else "refuted",
        )
    ]
    for k in range(5):
        r = table2[table2.level == k].iloc[0]
        if r["perft_extrapolated"]:
            rows.append(_row(f"table-2-level-{k}", "not measured", "not decided"))
            continue
        verdict = "confirmed" if 1 / FACTOR <= r["ratio"] <= FACTOR else "refuted"
        rows.append(
            _row(f"table-2-level-{k}", f"perft({k + 1}) = {int(r['perft']):,} ({r['ratio']:.2f} x)", verdict)
        )
    report = [18.0 ** (k + 1) for k in range(len(TABLE_2))]
    mean = levels_on_average(report)
    rows.append(
        _row(
            "four-levels-arithmetic",
            f"{mean:.3f}",
            "confirmed" if round(mean) == 4 else "refuted",
            "Table 2 numbers its levels from 0 but the weights count them from 1: from 0 the mean "
            f"is {mean - 1:.3f}",
        )
    )
    values = {}
    for key, column in (
        ("four-levels-perft", "perft"),
        ("four-levels-minimax", "minimax"),
        ("four-levels-alphabeta", "alphabeta"),
    ):
        counts = table2[column if column == "perft" else f"{column}_nodes"].tolist()
        values[column] = levels_on_average(counts)
        extrapolated = table2[table2[f"{column}_extrapolated"]].depth.tolist()
        note = f"depths {extrapolated[0]}+ extrapolated from the last measured growth" if extrapolated else ""
        rows.append(
            _row(key, f"{values[column]:.3f}", "confirmed" if round(values[column]) == 4 else "refuted", note)
        )
    rows[-2]["note"] += (
        f"; alpha-beta (pruning) by the same method: {values['alphabeta']:.3f}, beside the "
        "estimate of a full-width search"
    )
    for key, counts in (("best-worst-arithmetic", report), ("best-worst-perft", table2.perft.tolist())):
        best, worst = levels_best_worst(counts)
        ok = (round(best), round(worst)) == (6, 2)
        accepted = [k for k, a in enumerate(accepted_levels(counts)) if a]
        rows.append(
            _row(
                key,
                f"{best:.2f} and {worst:.2f}",
                "confirmed" if ok else "refuted",
                f"the deepest level accepted at the fastest rate is {max(accepted)}, at the slowest "
                f"{max(k for k, a in enumerate(accepted_levels(counts)) if a == len(RATES))}",
            )
        )
    return rows


def _slower_rows(costs: pd.DataFrame, timings: pd.DataFrame, test: SignSPRT) -> list[dict]:
    rows = []
    deep = costs[(costs.depth >= 2) & costs.algorithm.isin(["minimax", "alpha-beta"])]
    pivot = deep.pivot_table(index=["state", "depth"], columns="algorithm", values=["nodes", "seconds"])
    n = len(pivot)
    if n == 0:
        rows.append(_row("alphabeta-slower", "not measured", "not decided"))
        rows.append(_row("alphabeta-more-nodes", "not measured", "not decided"))
    else:
        slower = pivot[("seconds", "alpha-beta")] > (1 + SLOWER_MARGIN) * pivot[("seconds", "minimax")]
        faster = pivot[("seconds", "alpha-beta")] < pivot[("seconds", "minimax")]
        fewer = pivot[("nodes", "alpha-beta")] < pivot[("nodes", "minimax")]
        more = pivot[("nodes", "alpha-beta")] > pivot[("nodes", "minimax")]
        verdict = "confirmed" if slower.any() else "refuted" if faster.all() else "not decided"
        rows.append(
            _row(
                "alphabeta-slower",
                f"slower by more than {SLOWER_MARGIN:.0%} in {int(slower.sum())} of "
                f"{n} cases, faster in {int(faster.sum())}; fewer nodes in {int(fewer.sum())} of {n}",
                verdict,
                "one timing per case, best of the repeats in wall seconds",
            )
        )
        rows.append(
            _row(
                "alphabeta-more-nodes",
                f"more states in {int(more.sum())} of {n} cases, as many in "
                f"{int(n - more.sum() - fewer.sum())}, fewer in {int(fewer.sum())}",
                "confirmed" if more.any() else "refuted",
                "alpha-beta returns exactly minimax's value and best moves (tested); with the same move "
                "order it visits a part of minimax's tree",
            )
        )
    cases = slower_cases(timings[timings.depth >= 2], test) if len(timings) else pd.DataFrame()
    if cases.empty:
        rows.append(_row("alphabeta-slower-cpu", "not measured", "not decided"))
        rows.append(_row("alphabeta-slower-sprt", "not measured", "not decided"))
        return rows
    slower, faster = cases.sign21_slower, cases.sign21_faster
    rows.append(
        _row(
            "alphabeta-slower-cpu",
            f"slower in {int(slower.sum())} of {len(cases)} cases, faster in {int(faster.sum())} (the first "
            f"{int(cases.sign21_pairs.min())} pairs of each)",
            "confirmed" if slower.any() else "refuted" if faster.all() else "not decided",
            _slower_note(cases[slower].assign(case="slower"), "sign21_longer", "sign21_pairs"),
        )
    )
    count = cases.case.value_counts()
    every_not_slower = count.get("not slower", 0) == len(cases)
    verdict = "confirmed" if count.get("slower", 0) else "refuted" if every_not_slower else "not decided"
    rows.append(
        _row(
            "alphabeta-slower-sprt",
            f"slower in {count.get('slower', 0)} of {len(cases)} cases, not slower in "
            f"{count.get('not slower', 0)}, not decided in {count.get('not decided', 0)} "
            f"({int(cases.pairs.min())} to {int(cases.pairs.max())} pairs a case)",
            verdict,
            _slower_note(cases[cases.case != "not slower"], "alphabeta_longer", "pairs"),
        )
    )
    return rows


def _slower_note(cases: pd.DataFrame, longer: str, pairs: str) -> str:
    return "; ".join(
        f"{r.case} at {r.state}, depth {r.depth}: {r.nodes_alphabeta} states against "
        f"{r.nodes_minimax}, alpha-beta longer in {getattr(r, longer)} of {getattr(r, pairs)} pairs, median "
        f"time ratio {r.median_ratio:.2f}"
        for r in cases.itertuples()
    )


def _heuristic_rows(duels: pd.DataFrame) -> list[dict]:
    rows = []
    report = report_results()
    for suffix, games in (("", duels), ("-report", report)):
        for key, depths in (("heuristics-equal-shallow", (1, 2)), ("heuristic-2-deeper", (3,))):
            part = games[games.depth.isin(depths)]
            if part.empty:
                rows.append(_row(key + suffix, "not measured", "not decided"))
                continue
            score, n, low, high = heuristic_2_score(part)
            if key == "heuristics-equal-shallow":
                inside = EQUAL_BAND[0] <= low and high <= EQUAL_BAND[1]
                verdict = "confirmed" if inside else "refuted" if high < 0.5 or low > 0.5 else "not decided"
            else:
                verdict = "confirmed" if low > 0.5 else "refuted" if high < 0.5 else "not decided"
            rows.append(
                _row(
                    key + suffix,
                    f"heuristic 2 scored {score:g} of {n} ({score / n:.2f} [{low:.2f}, {high:.2f}])",
                    verdict,
                )
            )
    apart, shown = [], []
    for depth in sorted(set(duels.depth) & set(report.depth)):
        ours = heuristic_2_score(duels[duels.depth == depth])
        theirs = heuristic_2_score(report[report.depth == depth])
        if ours[3] < theirs[2] or theirs[3] < ours[2]:
            apart.append(depth)
        shown.append(f"depth {depth}: {ours[0]:g} of {ours[1]} against {theirs[0]:g} of {theirs[1]}")
    rows.append(
        _row(
            "duels-as-report",
            "; ".join(shown) or "not measured",
            "refuted" if apart else "not decided",
            f"intervals disjoint at depth(s) {', '.join(map(str, apart))}" if apart else "",
        )
    )
    return rows
