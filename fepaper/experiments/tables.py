"""Tables of a round robin for notebooks and reports: cross table, players, the thesis's claims."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .claims import THESIS_CLAIMS, judge_all

__all__ = ["cross_table", "player_table", "claims_table"]


def _check(rr: dict) -> None:
    """A round robin's tables need two players and games between them; say so rather than print NaN."""
    players = rr.get("players") if isinstance(rr, dict) else None
    if not isinstance(players, list) or len(players) < 2:
        raise ValueError(f"a round robin's tables need at least 2 players, got {players!r}")
    if not rr["rows"]:
        raise ValueError("a round robin's tables need at least one game; this one has none")


def cross_table(rr: dict) -> pd.DataFrame:
    """Score of each row player against each column player (a fraction of the games played)."""
    _check(rr)
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.where(rr["played"] > 0, rr["score"] / rr["played"], np.nan)
    return pd.DataFrame(frac, index=rr["players"], columns=rr["players"])


def player_table(rr: dict) -> pd.DataFrame:
    """One row per player: games, score with its Wilson interval, Elo with its bootstrap
    interval, and the mean seconds and nodes per decision."""
    from .ratings import wilson

    _check(rr)
    n = len(rr["players"])
    seconds, nodes, decisions = np.zeros(n), np.zeros(n), np.zeros(n)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    for row in rr["rows"]:
        i, j = pairs[row["pairing"]]
        for side, k in (("a", i), ("b", j)):
            seconds[k] += row[f"seconds_{side}"]
            nodes[k] += row[f"nodes_{side}"]
            decisions[k] += row[f"decisions_{side}"]
    games = rr["played"].sum(axis=1)
    score = rr["score"].sum(axis=1)
    out = []
    for k, name in enumerate(rr["players"]):
        lo, hi = wilson(score[k], int(games[k])) if games[k] else (np.nan, np.nan)
        rating = rr["ratings"][k]
        out.append({
            "player": name, "games": int(games[k]), "score": score[k] / games[k] if games[k] else np.nan,
            "score_low": lo, "score_high": hi, "elo": rating["elo"], "elo_low": rating["elo_low"],
            "elo_high": rating["elo_high"],
            "seconds_per_decision": seconds[k] / decisions[k] if decisions[k] else np.nan,
            "nodes_per_decision": nodes[k] / decisions[k] if decisions[k] else np.nan,
        })
    return pd.DataFrame(out).sort_values("elo", ascending=False).reset_index(drop=True)


def claims_table(rr: dict, claims=THESIS_CLAIMS) -> pd.DataFrame:
    """Each conclusion of §5 with its verdict and the head-to-head numbers behind it."""
    _check(rr)
    rows = []
    for verdict in judge_all(rr["specs"], rr["score"], rr["played"], claims):
        detail = "; ".join(
            f"{rr['players'][c['winner']]} vs {rr['players'][c['loser']]}: {c['score']:.2f} "
            f"[{c['low']:.2f}, {c['high']:.2f}] over {c['games']} ({c['verdict']})"
            for c in verdict["comparisons"])
        rows.append({"claim": verdict["text"], "verdict": verdict["verdict"], "evidence": detail})
    return pd.DataFrame(rows)
