"""The reproduction: every claim of the thesis that games decide, as duels stated before any
game, played under one rule set until their tests decide, and judged into claims rows.

The players are the thesis's own (§4, :mod:`~fepaper.experiments.thesis.players`): its
alpha-beta at the level and bounce limit it searched with (level 2, 15 bounces, a cap in steps),
in its four versions, and its six ant colonies as tuned by the GA of notebook 03 against that
alpha-beta. Each claim is a family of duels with its hypotheses
(:data:`~fepaper.experiments.thesis.claims.HYPOTHESES`); each duel an SPRT with alpha = beta = 0.05,
its beta divided by the number of duels of a family that refutes through Holm's correction
(:func:`~fepaper.stats.multiple.judge_family`). "The best colony" is judged on the league's
games between the thesis's five colonies by Bradley-Terry contrasts of the families' best members
(:mod:`~fepaper.stats.contrasts`); the sixth, the base colony once per cycle, is fepaper's
own addition and stays out of every family.

:func:`duels_of` lists the first reproduction's duels, :func:`more_duels_of` those of the claims
added since (on a games file of their own); :func:`judge` turns their results into rows, judging
the claims of :data:`REJUDGED` again on the games on file; :func:`run` does it all.

Examples
--------
>>> keys = [p.key for p in duels_of(COLONIES, 16)]  # the thesis's parameters stand in for tuned ones
>>> keys[:3], len(keys)
(['dynamic-vs-static', 'dynamic-vs-costs', 'dynamic-vs-nocycles'], 35)
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from concurrent.futures import Executor
from pathlib import Path
from statistics import NormalDist

from ...stats.binomial import wilson
from ...stats.contrasts import contrast, league_ratings
from ...stats.elo import elo_from_score
from ...stats.multiple import judge_family
from ...stats.scores import power_reached
from ...stats.sequential import run_sprt
from .claims import COLONY_SETS, HYPOTHESES, claim, verdict_row
from .duels import SPRT, Pairing, PairingResult, play_pairings
from .players import (
    ADDED_COLONY,
    COLONIES,
    FAMILIES,
    FUTURE_SYSTEMS,
    REDUCED_SCALE,
    THESIS_COLONIES,
    Scale,
    alphabeta,
    colonies,
    colony_sets,
    thesis_counts,
)

_Z = NormalDist()

__all__ = ["REJUDGED", "PLAYED_AS", "sprt", "ADDED_TEST", "ANY_OF", "duels_of", "more_duels_of",
           "fair_duels_of", "rejudged", "judge", "run", "controller_records", "wilson_elo",
           "MIN_LEAGUE_PAIRS"]


_LAST = "ferdistrival, once per cycle"
#: Claims judged again, on the games their duels played, under a test declared after those games
#: were played but fixed by the thesis's words alone (docs/interpretation.md, entries 91-93): the
#: hypothesis and the duels of the family. Each new SPRT stops no later than the tests that drove
#: its duels (its bounds lie inside theirs), so it reads a prefix of the games on file.
REJUDGED = {
    "last-quite-better": ("far", [f"last-vs-{label}" for label in THESIS_COLONIES if label != _LAST]),
    "cannot-win": ("better", ["dynamic-vs-ferdist", "dynamic-vs-ferdistrival"]),
}
#: A claim whose games were played under another test name: the score-zone reading of "cannot win".
PLAYED_AS = {"cannot-win-zone": "cannot-win"}
#: The test of fepaper's own addition (the base colony once per cycle against per ant): played
#: and shown among the duels, never a claims row.
ADDED_TEST = "once-improves-base"
ALPHA = BETA = 0.05
#: Fewest colour-swapped pairs per pairing of the league before its bootstrap may decide: with
#: fewer, resampling two or three pairs understates the spread and a contrast "decides" on noise.
MIN_LEAGUE_PAIRS = 8


def sprt(hypothesis: str, family: int = 1) -> SPRT:
    """The SPRT of the named hypothesis (:data:`HYPOTHESES`), its beta shared by a family of
    ``family`` duels (Holm's correction on the refuting side)."""
    h = HYPOTHESES[hypothesis]
    return SPRT(h.elo0, h.elo1, ALPHA, BETA / family)


def duels_of(tuned: Mapping[str, dict], max_games: int, league_games: int | None = None,
             scale: Scale = REDUCED_SCALE) -> list[Pairing]:
    """Every duel of the reproduction, its tests named by the claim they serve.

    ``max_games`` bounds each duel; ``league_games`` (default ``max_games``) is what each
    pairing of the colonies' league plays (no test: it feeds Bradley-Terry ratings); ``scale``
    sizes the alpha-beta players."""
    col = colonies(tuned)
    league = _even(league_games if league_games is not None else max_games)

    def ab(variant, **fields):
        return alphabeta(variant, scale, **fields)

    dynamic = ab("dynamic")
    out = [Pairing(f"dynamic-vs-{v}", dynamic, ab(v), {"dynamic-far": sprt("far", 3)}, max_games)
           for v in ("static", "costs", "nocycles")]
    out += [
        Pairing("static-vs-costs", ab("static"), ab("costs"),
                {"costs-unnecessary": sprt("little loss")}, max_games),
        Pairing("static-vs-costs-steps", ab("static"), ab("costs", costs="steps"),
                {"costs-unnecessary-steps": sprt("little loss")}, max_games),
        Pairing("static-vs-nocycles", ab("static"), ab("nocycles"),
                {"nocycles-worse": sprt("better")}, max_games),
        Pairing("capped-vs-longer", dynamic, ab("dynamic", max_nodes=scale.longer),
                {"cap-little-loss": sprt("little loss")}, max_games),
    ]
    for label in ("ferdist", "ferdistrival"):
        tests = {"two-better-than-first": sprt("better", 2)}
        if label == "ferdist":
            tests["ferdist-beats-base"] = sprt("better")
        out.append(Pairing(f"{label}-vs-base", col[label], col["base"], tests, max_games))
    out += [Pairing(f"last-vs-{label}", col[_LAST], col[label], {"last-quite-better": sprt("far", 5)},
                    max_games) for label in COLONIES if label != _LAST]
    for label in COLONIES:
        tests = {"alphabeta-beats-colonies": sprt("better", len(COLONIES))}
        if label in ("ferdist", "ferdistrival"):
            tests["cannot-win"] = sprt("cannot win", 2)
        out.append(Pairing(f"dynamic-vs-{label}", dynamic, col[label], tests, max_games))
    labels = list(COLONIES)
    out += [Pairing(f"league-{i}-{j}", col[labels[i]], col[labels[j]], {}, league)
            for i in range(len(labels)) for j in range(i + 1, len(labels))]
    return out


def _even(games: int) -> int:
    return games - games % 2


def more_duels_of(tuned: Mapping[str, dict], max_games: int) -> list[Pairing]:
    """The duels of the claims added after the first reproduction, on a games file of their
    own (the first file's sidecar binds it to its duels): each once-per-cycle version against
    its per-ant version (the thesis's two in ``once-improves``, the base colony as fepaper's
    own addition, :data:`ADDED_TEST`), and each per-ant version with the thesis's own
    parameters against its tuned spec (``thesis-parameters``)."""
    col = colonies(tuned)
    out = [Pairing(f"{label}-once-vs-per-ant", col[f"{label}, once per cycle"], col[label],
                   {"once-improves": sprt("better", 2)}, max_games) for label in ("ferdist", "ferdistrival")]
    out.append(Pairing("base-once-vs-per-ant", col[ADDED_COLONY], col["base"], {ADDED_TEST: sprt("better")},
                       max_games))
    out += [Pairing(f"thesis-vs-tuned-{label}", dict(COLONIES[label]), col[label],
                    {"thesis-parameters": sprt("little loss", 3)}, max_games)
            for label in ("base", "ferdist", "ferdistrival")]
    return out


def fair_duels_of(tuned: Mapping[str, dict], max_games: int, league_games: int | None = None,
                  scale: Scale = REDUCED_SCALE) -> list[Pairing]:
    """The duels declared for the thesis at its own scale, on a games file of their own: each
    comparison of colony versions again at each parameter set of :func:`colony_sets` (its tests
    named ``<claim>-<set>``, and a league of the five colonies per set for ``ferdistrival-best``),
    FerDistRival against FerDist (``ferdistrival-improves``, also at the GA's draws), the alpha-beta
    against the colonies with the thesis's parameters, the thesis's parameters but the heuristic
    against the tuned colonies (``thesis-parameters-tuned-heuristic``), and the MAX-MIN and rank-based
    systems against the last colony (``colonies-improvable``: either beating it confirms, so each
    runs at alpha / 2)."""
    col = colonies(tuned)
    league = _even(league_games if league_games is not None else max_games)
    out = []
    for name, c in colony_sets(tuned).items():
        tests = {label: {f"two-better-than-first-{name}": sprt("better", 2)}
                 for label in ("ferdist", "ferdistrival")}
        tests["ferdist"][f"ferdist-beats-base-{name}"] = sprt("better")
        out += [Pairing(f"{label}-vs-base@{name}", c[label], c["base"], tests[label], max_games)
                for label in ("ferdist", "ferdistrival")]
        out.append(Pairing(f"ferdistrival-vs-ferdist@{name}", c["ferdistrival"], c["ferdist"],
                           {f"ferdistrival-improves-{name}": sprt("better")}, max_games))
        out += [Pairing(f"{label}-once-vs-per-ant@{name}", c[f"{label}, once per cycle"], c[label],
                        {f"once-improves-{name}": sprt("better", 2)}, max_games)
                for label in ("ferdist", "ferdistrival")]
        out += [Pairing(f"last-vs-{label}@{name}", c[_LAST], c[label],
                        {f"last-quite-better-{name}": sprt("far", 4)}, max_games)
                for label in THESIS_COLONIES if label != _LAST]
        labels = list(COLONIES)
        kept = [labels.index(label) for label in THESIS_COLONIES]
        out += [Pairing(f"league@{name}-{i}-{j}", c[labels[i]], c[labels[j]], {}, league)
                for i in kept for j in kept if i < j]
    out.append(Pairing("ferdistrival-vs-ferdist", col["ferdistrival"], col["ferdist"],
                       {"ferdistrival-improves": sprt("better")}, max_games))
    thesis = colony_sets(tuned)["thesis-set"]
    out += [Pairing(f"dynamic-vs-{label}@thesis-set", alphabeta("dynamic", scale), thesis[label],
                    {"alphabeta-beats-colonies-thesis-set": sprt("better", len(THESIS_COLONIES))}, max_games)
            for label in THESIS_COLONIES]
    out += [Pairing(f"thesis-counts-vs-tuned-{label}", thesis_counts(label, col[label]), col[label],
                    {"thesis-parameters-tuned-heuristic": sprt("little loss", 3)}, max_games)
            for label in ("base", "ferdist", "ferdistrival")]
    h = HYPOTHESES["better"]
    out += [Pairing(f"{system}-vs-last", {**col[_LAST], "system": system}, col[_LAST],
                    {"colonies-improvable": SPRT(h.elo0, h.elo1, ALPHA / len(FUTURE_SYSTEMS), BETA)},
                    max_games)
            for system in FUTURE_SYSTEMS]
    return out


def rejudged(results: Mapping[str, PairingResult], key: str) -> dict[str, object]:
    """The verdicts of the re-judged claim ``key`` (:data:`REJUDGED`) per duel: its declared
    SPRT (beta divided by the family's size) run on each duel's pairs. A duel that stopped
    before its games reached ``max_games`` and before this test decided says so in the
    verdict's method (the games on file do not cover it)."""
    hypothesis, keys = REJUDGED[key]
    test = sprt(hypothesis, len(keys))
    out = {}
    for k in keys:
        if k not in results:
            continue
        r = results[k]
        v = run_sprt(test, r.pairs, r.pairing.max_games)
        if v.verdict == "not decided" and r.games < r.pairing.max_games:
            v = dataclasses.replace(v, method=v.method + "; the duel stopped before this test decided")
        out[k] = v
    return out


def wilson_elo(result: PairingResult, alpha: float = ALPHA) -> tuple[float, float, float]:
    """A duel's score as Elo with one-sided bounds at 1 - ``alpha`` from the Wilson interval of
    its game scores: valid at a handful of games, where the pair scores' own variance is not
    (four drawn pairs would give an interval of a few Elo).

    >>> [round(float(x)) for x in wilson_elo(PairingResult(None, [{}] * 8, [1.0] * 4, {}))]
    [0, -192, 192]
    """
    games = 2 * len(result.pairs)
    if games == 0:
        return math.nan, -math.inf, math.inf
    points = sum(result.pairs)
    low, high = wilson(points, games, _Z.inv_cdf(1 - alpha))
    return tuple(float(elo_from_score(x)) for x in (points / games, low, high))


def _family_row(key: str, hypothesis: str, verdicts: Mapping[str, object],
                results: Mapping[str, PairingResult], rules: str) -> dict:
    """A claims row from the verdicts of a claim's duels (by duel key): every duel must confirm,
    or, for the claims of :data:`ANY_OF`, one."""
    tested = [results[k] for k in verdicts]
    listed = list(verdicts.values())
    mode = "any" if key in ANY_OF else "each"
    verdict = listed[0] if len(listed) == 1 else judge_family(listed, mode, ALPHA, BETA)
    undecided = [power_reached(v.games, v.elo0, v.elo1, ALPHA) for v in listed if v.verdict == "not decided"]
    power = min(undecided) if undecided and verdict.verdict == "not decided" else math.nan
    pairs = "; ".join(f"{k}: {v.verdict}, {results[k].score:.2f} over {results[k].games}"
                      + (f" (the test read {v.games})" if v.games != results[k].games else "")
                      for k, v in verdicts.items())
    sign = -1 if mode == "any" else 1  # the duel a family shows: its weakest, or for "any" its strongest
    weakest = min(tested, key=lambda r: sign * r.score if r.pairs else math.inf)
    shown = f"estimate: {weakest.pairing.key}; " if len(tested) > 1 else ""
    out = verdict_row(claim(key), rules, verdict, HYPOTHESES[hypothesis], note=shown + pairs)
    estimate, low, high = wilson_elo(weakest)
    out.update(power=power, estimate=estimate, low=low, high=high, games=sum(v.games for v in listed),
               method=f"{verdict.method}; interval: Wilson on the game scores")
    return out


#: Each claim a duel's test decides: its hypothesis (the test's name on file is the claim's key,
#: or :data:`PLAYED_AS`'s).
PLAYED = {
    "dynamic-far": "far", "costs-unnecessary": "little loss", "costs-unnecessary-steps": "little loss",
    "nocycles-worse": "better", "cap-little-loss": "little loss", "two-better-than-first": "better",
    "cannot-win-zone": "cannot win", "once-improves": "better", "ferdist-beats-base": "better",
    "alphabeta-beats-colonies": "better", "thesis-parameters": "little loss",
    **{f"{key}-{name}": hypothesis for name in COLONY_SETS
       for key, hypothesis in (("two-better-than-first", "better"), ("ferdist-beats-base", "better"),
                               ("ferdistrival-improves", "better"), ("once-improves", "better"),
                               ("last-quite-better", "far"))},
    "ferdistrival-improves": "better", "alphabeta-beats-colonies-thesis-set": "better",
    "thesis-parameters-tuned-heuristic": "little loss", "colonies-improvable": "better",
}
#: The claims one duel of their family confirms ("a MAX-MIN or a rank-based colony"): Holm at alpha
#: for confirming, every duel refuted for refuting (:func:`~fepaper.stats.multiple.judge_family`).
ANY_OF = ("colonies-improvable",)


def judge(results: Mapping[str, PairingResult], rules: str, resamples: int = 1000) -> list[dict]:
    """The claims rows of the duels' ``results`` under rule set ``rules``: each claim of
    :data:`PLAYED` from its duels' tests, each of :data:`REJUDGED` from its declared test run
    on its duels' games, and the best colony from the league of the thesis's five colonies."""
    rows = []
    for key, hypothesis in PLAYED.items():
        test = PLAYED_AS.get(key, key)
        verdicts = {k: r.verdicts[test] for k, r in results.items() if test in r.verdicts}
        if verdicts:
            rows.append(_family_row(key, hypothesis, verdicts, results, rules))
    for key, (hypothesis, _) in REJUDGED.items():
        verdicts = rejudged(results, key)
        if verdicts:
            row = _family_row(key, hypothesis, verdicts, results, rules)
            row["method"] = f"judged again on the games on file: {row['method']}"
            rows.append(row)
    leagues = (("", "ferdistrival-best"), *((f"@{n}", f"ferdistrival-best-{n}") for n in COLONY_SETS))
    for suffix, key in leagues:
        league = {k: r for k, r in results.items() if re.fullmatch(rf"league{suffix}-\d+-\d+", k)}
        if league:
            rows.append(_best_colony(league, rules, resamples, key))
    return rows


def _best_colony(league: Mapping[str, PairingResult], rules: str, resamples: int,
                 key: str = "ferdistrival-best") -> dict:
    """"The best version of ant colonies is the FerDistRival version" (claim ``key``), on a league's
    games between the thesis's five colonies (the pairings with fepaper's added colony left out)."""
    labels = list(COLONIES)
    kept = [labels.index(label) for label in THESIS_COLONIES]
    pairs = {}
    for name, result in league.items():
        i, j = (int(x) for x in name.split("-")[-2:])
        if i in kept and j in kept:
            pairs[(kept.index(i), kept.index(j))] = result.pairs
    games = sum(2 * len(p) for p in pairs.values())  # each game once
    ratings = league_ratings(len(kept), pairs, resamples=resamples, seed=11)
    index = {name: [THESIS_COLONIES.index(m) for m in members] for name, members in FAMILIES.items()}
    h = HYPOTHESES["better"]
    contrasts = [contrast(ratings, index["ferdistrival"], index[other], h.elo0, h.elo1, ALPHA, BETA)
                 for other in ("base", "ferdist")]
    verdict = judge_family(contrasts, "each", ALPHA, BETA)
    fewest = min((len(p) for p in pairs.values()), default=0)
    note = ""
    if fewest < MIN_LEAGUE_PAIRS and verdict.verdict != "not decided":
        note = (f"the contrasts said {verdict.verdict}, but a pairing has {fewest} pairs, fewer than the "
                f"{MIN_LEAGUE_PAIRS} its bootstrap needs; ")
        verdict = dataclasses.replace(verdict, verdict="not decided")
    shown = min(contrasts, key=lambda v: v.estimate)
    elo = ", ".join(f"{label} {ratings.point[k]:+.0f}" for k, label in enumerate(THESIS_COLONIES))
    out = verdict_row(claim(key), rules, verdict,
                      f"the FerDistRival family's best rates above each other family's best: {h.text}",
                      note=(f"{note}league of the thesis's five colonies, {games} games, "
                            f"Elo (mean 0): {elo}"))
    undecided = [v.power for v in contrasts if v.verdict == "not decided"]
    out.update(estimate=shown.estimate, low=shown.low, high=shown.high, games=games,
               power=min(undecided) if undecided and verdict.verdict == "not decided" else math.nan)
    return out


def run(rules: str, rules_spec, tuned: Mapping[str, dict], max_games: int, out: str | Path | None = None,
        seed: int = 2026, executor: Executor | None = None, league_games: int | None = None,
        round_pairs: int = 4, budget: str | None = None, progress: bool = True,
        resamples: int = 1000, more_out: str | Path | None = None, fair_out: str | Path | None = None,
        scale: Scale = REDUCED_SCALE) -> tuple[list[dict], dict[str, PairingResult]]:
    """Play every duel of :func:`duels_of` under ``rules_spec`` on the games file ``out``,
    those of :func:`more_duels_of` on ``more_out`` and those of :func:`fair_duels_of` on
    ``fair_out`` (each resumable), the alpha-beta players at ``scale``, and judge them:
    ``(rows, results)``."""
    results = {}
    for k, (duels, path) in enumerate(((duels_of(tuned, max_games, league_games, scale), out),
                                       (more_duels_of(tuned, max_games), more_out),
                                       (fair_duels_of(tuned, max_games, league_games, scale), fair_out))):
        results.update(play_pairings(rules_spec, duels, seed=seed + k, out=path, executor=executor,
                                     round_pairs=round_pairs, budget=budget, progress=progress))
    return judge(results, rules, resamples), results


def controller_records(results: Mapping[str, PairingResult]) -> list[tuple[str, str]]:
    """``(moves, opening)`` of every game the duels played (for the bounces row)."""
    return [(r["moves"], r["opening"] or "") for res in results.values() for r in res.rows]
