"""The Aboyne report's tables, quoted as printed, and the report's own arithmetic on them.

Table 1 (moves per number of stones and directions), Table 2 (states per level and the seconds
they take at four rates, with its "aceites" and "média" columns) and the three result tables of
"Resultados" (:data:`RESULTS`: the winner and the time of ten tests per state and depth). The
report's "média" of the accepted levels (:func:`levels_on_average`) and its "6 at best, 2 at
worst" (:func:`levels_best_worst`) are recomputed as it computes them; the claims that use them
are in :mod:`fepaper.experiments.reference.aboyne_claims`.

Examples
--------
>>> round(levels_on_average([18 ** (k + 1) for k in range(9)]), 3)  # the report's 100 / 26
3.846
>>> table_1_mean()
17.5
>>> [round(x, 2) for x in levels_best_worst([18 ** (k + 1) for k in range(9)])]
[5.86, 1.83]
>>> report_results().groupby("depth").winner.apply(lambda w: int((w == 2).sum())).tolist()
[15, 15, 16]
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = [
    "TABLE_1",
    "TABLE_2",
    "RATES",
    "ACCEPTED",
    "ACCEPTED_SECONDS",
    "RESULTS",
    "RESULTS_MEAN",
    "table_1_mean",
    "printed",
    "matches_print",
    "accepted_levels",
    "levels_on_average",
    "levels_best_worst",
    "report_results",
    "extrapolate",
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
#: The report's result tables ("Resultados", the three tables "Estado inicial de jogo 1/2/3"), QUOTED:
#: per state, its ten tests, each "Vencedor Tempo" at depth 1, 2 and 3 as printed (decimal commas).
#: "Vencedor" is read as the winning heuristic (docs/interpretation.md, entry 133).
RESULTS: dict[str, list[str]] = {
    "state 1": [
        "2 4,4 1 7,1 1 45",
        "2 4,5 2 9,3 2 48",
        "1 4,4 1 10,6 2 52",
        "2 5,2 2 9,0 1 44",
        "2 4,4 1 7,1 2 51",
        "2 4,7 2 8,4 2 62",
        "1 4,9 1 7,5 2 31",
        "2 5,4 2 10,6 2 62",
        "1 4,5 2 8,2 2 61",
        "1 4,1 2 11,2 2 69",
    ],
    "state 2": [
        "1 1,1 1 1,3 1 32",
        "1 0,8 1 1,1 1 12",
        "1 1,1 1 1,0 1 24",
        "1 0,8 1 1,1 1 13",
        "1 0,8 1 1,2 1 13",
        "1 0,8 1 1,2 1 11",
        "1 0,8 1 1,2 1 7",
        "1 0,6 1 0,8 1 15",
        "1 0,7 1 1,1 1 13",
        "1 0,6 1 1,0 1 27",
    ],
    "state 3": [
        "2 2,7 2 5,6 2 80",
        "2 2,9 2 5,0 2 42",
        "2 2,8 2 6,0 2 38",
        "2 2,8 2 5,7 1 74",
        "1 3,2 2 4,3 2 56",
        "2 1,8 2 6,1 2 62",
        "2 3,1 2 4,7 2 57",
        "2 3,0 1 7,3 1 73",
        "2 3,4 2 7,0 2 70",
        "2 3,5 2 5,2 2 47",
    ],
}
#: The "Média" rows of the three tables, QUOTED: the majority winner and the mean time per depth.
RESULTS_MEAN = {
    "state 1": "2 4,6 2 8,9 2 53",
    "state 2": "1 0,8 1 1,1 1 17",
    "state 3": "2 2,9 2 5,7 2 60",
}


def table_1_mean() -> float:
    """The mean of Table 1's cells."""
    return float(np.mean(TABLE_1))


def printed(text: str) -> float:
    return float(text.replace(",", "."))


def matches_print(value: float, text: str) -> bool:
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


def levels_best_worst(counts, rates=RATES, threshold: float = ACCEPTED_SECONDS) -> tuple[float, float]:
    """The report's "melhor" and "pior": the weighted mean of :func:`levels_on_average` plus and minus
    the weighted standard deviation of the accepted levels (levels from 1, weights the accepted
    rates; docs/interpretation.md, entry 132)."""
    accepted = np.array(accepted_levels(counts, rates, threshold), dtype=float)
    if accepted.sum() == 0:
        return (math.nan, math.nan)
    levels = np.arange(1, len(accepted) + 1)
    mean = float(np.average(levels, weights=accepted))
    sd = math.sqrt(float(np.average((levels - mean) ** 2, weights=accepted)))
    return mean + sd, mean - sd


def report_results() -> pd.DataFrame:
    """:data:`RESULTS` as rows: ``state``, ``depth``, ``test``, ``winner`` (the heuristic),
    ``tempo`` (as printed; the report gives no unit)."""
    rows = []
    for state, tests in RESULTS.items():
        for test, line in enumerate(tests, start=1):
            cells = line.split()
            for k, depth in enumerate((1, 2, 3)):
                rows.append(
                    {
                        "state": state,
                        "depth": depth,
                        "test": test,
                        "winner": int(cells[2 * k]),
                        "tempo": printed(cells[2 * k + 1]),
                    }
                )
    return pd.DataFrame(rows)


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
