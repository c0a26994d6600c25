"""The thesis's conclusions (§5) as checks on a round robin: confirmed, refuted or not decided.

§5 reads: "the dynamic version of alpha-beta is the best version of alpha-beta far on the
other versions. In addition, the FerDist version is better than the initial ant colonies
version and that the best version of ant colonies is the FerDistRival version. At last, it
is concluded that the alpha-beta controller is better than the ant colonies implemented."

Each conclusion is a set of head-to-head comparisons "X beats Y". A comparison is
*confirmed* when the 95% Wilson interval of X's score against Y lies above 1/2,
*refuted* when it lies below 1/2, and *not decided* otherwise. A conclusion is confirmed
when all its comparisons are, refuted when any is, and not decided otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .ratings import wilson

__all__ = ["Claim", "THESIS_CLAIMS", "compare", "judge", "judge_all"]

Selector = Callable[[dict], bool]


_DEFAULTS = {"once_per_cycle": False}


def _is(name: str, **fields) -> Selector:
    """Pick the specs of controller ``name`` whose fields equal ``fields`` (absent = default)."""
    def pick(spec: dict) -> bool:
        return spec.get("name") == name and all(spec.get(k, _DEFAULTS.get(k)) == v for k, v in fields.items())
    return pick


@dataclass(frozen=True)
class Claim:
    """A conclusion of the thesis: every player picked by ``winners`` beats every player picked
    by ``losers`` (a player is never compared with itself)."""

    key: str
    text: str
    winners: Selector
    losers: Selector


THESIS_CLAIMS = [
    Claim("dynamic-best-alphabeta",
          "the dynamic version of alpha-beta is the best version of alpha-beta far on the other versions",
          _is("alphabeta", variant="dynamic"),
          lambda s: s.get("name") == "alphabeta" and s.get("variant") != "dynamic"),
    Claim("ferdist-beats-base", "the FerDist version is better than the initial ant colonies version",
          _is("aco", variant="ferdist", once_per_cycle=False),
          _is("aco", variant="base", once_per_cycle=False)),
    Claim("ferdistrival-best-aco", "the best version of ant colonies is the FerDistRival version",
          lambda s: s.get("name") == "aco" and s.get("variant") == "ferdistrival",
          lambda s: s.get("name") == "aco" and s.get("variant") != "ferdistrival"),
    Claim("alphabeta-beats-aco", "the alpha-beta controller is better than the ant colonies implemented",
          _is("alphabeta", variant="dynamic"), lambda s: s.get("name") == "aco"),
]


def compare(score: float, games: int) -> tuple[str, float, float]:
    """``(verdict, low, high)`` for a score of ``score`` points in ``games`` games."""
    if games == 0:
        return "not decided", 0.0, 1.0
    lo, hi = wilson(score, games)
    verdict = "confirmed" if lo > 0.5 else "refuted" if hi < 0.5 else "not decided"
    return verdict, lo, hi


def judge(claim: Claim, specs: list[dict], score, played) -> dict:
    """Judge ``claim`` on a round robin (``score[i, j]``: points of i against j in ``played[i, j]``)."""
    winners = [i for i, s in enumerate(specs) if claim.winners(s)]
    losers = [j for j, s in enumerate(specs) if claim.losers(s)]
    pairs = []
    for i in winners:
        for j in losers:
            if i != j and played[i][j] > 0:
                verdict, lo, hi = compare(float(score[i][j]), int(played[i][j]))
                pairs.append({"winner": i, "loser": j, "score": float(score[i][j] / played[i][j]),
                              "games": int(played[i][j]), "low": lo, "high": hi, "verdict": verdict})
    verdicts = {p["verdict"] for p in pairs}
    if not pairs:
        overall = "not measured"
    elif "refuted" in verdicts:
        overall = "refuted"
    elif verdicts == {"confirmed"}:
        overall = "confirmed"
    else:
        overall = "not decided"
    return {"claim": claim.key, "text": claim.text, "verdict": overall, "comparisons": pairs}


def judge_all(specs: list[dict], score, played, claims=THESIS_CLAIMS) -> list[dict]:
    return [judge(c, specs, score, played) for c in claims]
