"""The statistics of a referee's match: side A's score with its interval, how the games ended, the
time each side took against its budget (:func:`summary`, :func:`format_summary`), and two bots
compared on the same games (:func:`paired`).
"""

from __future__ import annotations

import numpy as np

from ..stats.binomial import sign_test, wilson

__all__ = ["summary", "format_summary", "paired"]


def _times(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    a = np.asarray(values, float)
    return {"n": int(a.size), "median": float(np.median(a)), "mean": float(a.mean()),
            "p99": float(np.percentile(a, 99)), "max": float(a.max())}


def summary(rows: list[dict], ms_first: int, ms: int) -> dict:
    """Score of side A with its 95 % Wilson interval, results, forfeits and time statistics.

    ``time[side]``: ``first`` and ``later`` decisions (n, median, mean, p99, max in ms),
    ``over`` (decisions past their budget), ``over_10pct`` (past 1.1 times it).
    """
    n = len(rows)
    wins = sum(r["winner"] == "A" for r in rows)
    losses = sum(r["winner"] == "B" for r in rows)
    draws = n - wins - losses
    score = wins + draws / 2
    low, high = wilson(score, n)
    out = {"games": n, "wins_a": wins, "wins_b": losses, "draws": draws,
           "score_a": score / n if n else float("nan"), "score_a_low": low, "score_a_high": high,
           "reasons": {}, "forfeits": {"A": {}, "B": {}}, "time": {}}
    for r in rows:
        out["reasons"][r["reason"]] = out["reasons"].get(r["reason"], 0) + 1
        if r["forfeit"]:
            f = out["forfeits"][r["forfeit"]["side"]]
            f[r["forfeit"]["why"]] = f.get(r["forfeit"]["why"], 0) + 1
    for s in ("A", "B"):
        first = [r["ms"][s][0] for r in rows if r["ms"][s]]
        later = [x for r in rows for x in r["ms"][s][1:]]
        over = sum(x > ms_first for x in first) + sum(x > ms for x in later)
        over10 = sum(x > 1.1 * ms_first for x in first) + sum(x > 1.1 * ms for x in later)
        out["time"][s] = {"first": _times(first), "later": _times(later), "over": over, "over_10pct": over10,
                          "decisions": len(first) + len(later)}
    return out


def paired(first: list[dict], second: list[dict]) -> dict:
    """Side A of two files against the same opponent, game by game: game ``k`` of each file has
    the same opening and the same first player (the same ``seed`` and ``openings``), so the
    difference between the two A sides is measured on the same games. Returns ``games``
    (paired), ``both`` (won by both A sides), ``only_first``, ``only_second``, ``neither``
    and ``p``, the exact two-sided sign test on the discordant games (those only one won).

    Raises
    ------
    ValueError
        If a game of one file has another opening or first player than the same game of the other.
    """
    other = {r["game"]: r for r in second}
    counts = {"both": 0, "only_first": 0, "only_second": 0, "neither": 0}
    for a in first:
        b = other.get(a["game"])
        if b is None:
            continue
        if (a["opening"], a["first"]) != (b["opening"], b["first"]):
            raise ValueError(f"game {a['game']}: opening {a['opening']!r} with {a['first']} first in one "
                             f"file, {b['opening']!r} with {b['first']} first in the other: "
                             "not the same games")
        won = (a["winner"] == "A", b["winner"] == "A")
        key = {(True, True): "both", (True, False): "only_first", (False, True): "only_second",
               (False, False): "neither"}[won]
        counts[key] += 1
    p = sign_test(counts["only_first"], counts["only_second"])
    return {"games": sum(counts.values()), **counts, "p": p}


def format_summary(s: dict, names: tuple[str, str] = ("A", "B")) -> str:
    """The summary as the lines ``fepaper referee`` prints."""
    a, b = names
    lines = [f"{a} vs {b}: {s['games']} games; {a} wins {s['wins_a']}, {b} wins {s['wins_b']}, "
             f"draws {s['draws']}",
             f"score {a} {s['score_a']:.3f}  (95% Wilson {s['score_a_low']:.3f} .. {s['score_a_high']:.3f})",
             "ends: " + ", ".join(f"{k} {v}" for k, v in sorted(s["reasons"].items()))]
    for side, name in (("A", a), ("B", b)):
        t = s["time"][side]
        f, later = t["first"], t["later"]
        text = f"{name} ms: "
        if f["n"]:
            text += f"first median {f['median']:.1f} max {f['max']:.1f}; "
        if later["n"]:
            text += (f"later median {later['median']:.1f} p99 {later['p99']:.1f} max {later['max']:.1f}; ")
        text += f"over budget {t['over']}/{t['decisions']}, over +10% {t['over_10pct']}"
        forfeits = s["forfeits"][side]
        if forfeits:
            text += "; forfeits " + ", ".join(f"{k} {v}" for k, v in sorted(forfeits.items()))
        lines.append(text)
    return "\n".join(lines)
