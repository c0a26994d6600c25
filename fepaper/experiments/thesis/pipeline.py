"""The claims files of the thesis's reproduction, made from start to end: what notebook 04 runs.

For each rule set: the duels on their three resumable games files
(:func:`~fepaper.experiments.thesis.reproduction.run`), then the rows measured without a match
(:func:`measured_rows`: the §2.1 arithmetic, bounces in random games and in the duels' games,
free directions per step, the memory of notebook 02, the few ants of notebook 03, the time the
no-cycles search saves under each cycle check, the thesis's alpha-beta deciding under a minute's
steps at the thesis's stated speed and, where that cap binds, the ten times larger search, the
search's shape (nodes, ordering, useless cycles) and the A* evaluation against the plain
distance), written as one claims file with its sidecar (:func:`claims_sidecar`).

The sizes of the samples are the budget's (:class:`Samples`); the notebook picks them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ...game.game import Game
from ...play.randomplay import random_positions
from .claims import LARGER_STEPS, MINUTE_STEPS, RATIOS, RULE_SETS, SHARES
from .claimsfiles import claims_path, read_claims, write_claims
from .duels import settings_of
from .measured import (
    NOCYCLES_READINGS,
    NOCYCLES_TIMED,
    arithmetic_rows,
    bounce_row,
    bounce_runs_row,
    free_steps,
    memory_row,
    most_bounces,
    random_games,
    search_times,
    steps_rows,
    time_ratio_row,
    turn_steps,
)
from .players import Scale
from .reproduction import REJUDGED, controller_records, run, sprt
from .searchclaims import (
    THESIS_DECIDER,
    astar_rows,
    astar_times,
    cap_minute_row,
    cap_turns,
    decision_costs,
    decision_positions,
    runtime_row,
)
from .searchshape import cycle_shares, nodes_average_row, ordering_row, ordering_steps, useless_cycles_row

__all__ = ["Samples", "SAMPLE_NAMES", "rejudged_tests", "position_tests", "measured_rows", "claims_sidecar",
           "reproduce_claims"]

#: The two samples of decisions under the minute's cap: every turn start, and the costliest.
SAMPLE_NAMES = ("turn starts", f"before a turn of {THESIS_DECIDER['max_bounces']} bounces or more")


@dataclass(frozen=True)
class Samples:
    """The sizes of the samples the rows measured without a match rest on."""

    random_games: int  # random games for the free steps
    bouncing_games: int  # random games bouncing whenever they can (bounces-random)
    time_positions: int  # positions timed for the no-cycles search
    decisions: int  # turn starts of the duels' games decided under the minute's cap
    long_turns: int  # turn starts before a turn of 15 bounces or more, also decided
    cap_compared: int  # of those the cap stopped, how many the larger search decides again
    astar_positions: int  # positions searched with each evaluation (plain, A*)

    def sidecar(self) -> dict:
        """The samples as a claims file's sidecar states them."""
        return {"random games": self.random_games, "bouncing random games": self.bouncing_games,
                "timed positions": self.time_positions, "decisions": self.decisions,
                "before a turn of 15 bounces or more": self.long_turns,
                "minute's cap (steps)": MINUTE_STEPS, "larger search (steps)": LARGER_STEPS,
                "capped positions compared": self.cap_compared, "A* positions": self.astar_positions,
                "decider": THESIS_DECIDER}


def rejudged_tests() -> dict[str, dict]:
    """The claims judged again on the games on file, with the test each runs now."""
    return {key: {"duels": keys, **settings_of(sprt(h, len(keys)))} for key, (h, keys) in REJUDGED.items()}


def position_tests() -> dict[str, dict]:
    """The claims on positions with their thresholds: shares and time ratios."""
    return {**{k: {"test": "share", "event": t.event, "H0 at least": t.p0, "H1 at most": t.p1,
                   "alpha": t.alpha, "beta": t.beta} for k, t in SHARES.items()},
            **{k: {"test": "time ratio", "what": t.what, "threshold": t.threshold, "above": t.above,
                   "alpha": t.alpha, "beta": t.beta} for k, t in RATIOS.items()}}


def measured_rows(key: str, spec, results: Mapping, samples: Samples, seed: int, peak: pd.DataFrame,
                  few_ants: dict | None = None) -> tuple[list[dict], pd.DataFrame]:
    """The claims rows of rule set ``key`` (rules ``spec``) measured without a match, from the
    duels' ``results``, notebook 02's ``peak`` memory and notebook 03's ``few_ants`` row; and the
    decisions under the minute's cap (one row each, its sample named by :data:`SAMPLE_NAMES`)."""
    games = random_games(spec, samples.random_games, seed)
    rows = arithmetic_rows(key)
    bouncing = random_games(spec, samples.bouncing_games, seed, stop_probability=0.0)
    rows.append(bounce_runs_row("bounces-random", key, most_bounces(bouncing),
                                f"{samples.bouncing_games} random games of players that bounce whenever "
                                "they can"))
    records = controller_records(results)
    rows.append(bounce_row("bounces-controllers", key, turn_steps(records), "the duels' games"))
    rows += steps_rows(key, free_steps(games), f"{samples.random_games} random games")
    rows.append(memory_row(key, peak))
    if few_ants:
        rows.append({**few_ants, "rules": key})
    n = samples.time_positions
    positions = [Game(spec, record) for _, record in random_positions(spec, n, seed=seed)]
    positions = positions[:: max(1, len(positions) // n)][:n]
    times = search_times(positions, NOCYCLES_TIMED)
    rows += [time_ratio_row(key, times, seed=seed, key=reading) for reading in NOCYCLES_READINGS]
    decisions = decision_positions(records, spec, samples.decisions, seed)
    bounces = THESIS_DECIDER["max_bounces"]
    long_turns = decision_positions(records, spec, samples.long_turns, seed, min_bounces=bounces)
    searched = decisions + long_turns  # where the cap may bind: a sample of turn starts, and the costliest
    costs = decision_costs(searched, MINUTE_STEPS)
    turn_starts = costs.head(len(decisions))  # the minute's decisions at turn starts, nearest-first
    rows.append(runtime_row(key, turn_starts, "the duels' games"))
    rows.append(nodes_average_row(key, turn_starts, seed=seed))
    rows.append(ordering_row(key, ordering_steps(decisions, MINUTE_STEPS, nearest=turn_starts), seed=seed))
    rows.append(useless_cycles_row(key, cycle_shares(long_turns, seed=seed),
                                   f"turn starts before a turn of {bounces} bounces or more"))
    rows.append(cap_minute_row(key, costs, cap_turns(costs, searched, samples.cap_compared, LARGER_STEPS),
                               f"positions ({len(decisions)} turn starts and {len(long_turns)} before a turn "
                               f"of {bounces} bounces or more)"))
    rows += astar_rows(key, astar_times(positions[:samples.astar_positions]),
                       f"{min(len(positions), samples.astar_positions)} turn starts of random games",
                       seed=seed)
    named = [SAMPLE_NAMES[0]] * len(decisions) + [SAMPLE_NAMES[1]] * len(long_turns)
    costs = costs.assign(rules=key, sample=named)
    return rows, costs


def claims_sidecar(key: str, budget: str, seed: int, duel_tests: Sequence[dict], league_games: int,
                   samples: Samples) -> dict:
    """What the claims file of rule set ``key`` rests on, for its sidecar: the duels' declared
    tests (``duel_tests``, one record a test), the tests judged again, those on positions, and the
    samples."""
    return {"rules": RULE_SETS[key], "budget": budget, "seed": seed,
            "tests": {"duels": list(duel_tests), "league games per pairing": league_games,
                      "judged again": rejudged_tests(), "on positions": position_tests()},
            "samples": samples.sidecar()}


def reproduce_claims(keys: Sequence[str], tuned: Mapping, max_games: int, folder: str | Path, seed: int,
                     executor: Executor, league_games: int, round_pairs: int, budget: str, scale: Scale,
                     samples: Samples, peak: pd.DataFrame, duel_tests: Sequence[dict]
                     ) -> tuple[dict[str, pd.DataFrame], dict[str, dict], dict[str, pd.DataFrame]]:
    """Play and measure every claim under each rule set of ``keys`` and write its claims file in
    ``folder`` (games files ``04_<rules>_duels.csv``, ``_more_duels.csv`` and ``_fair_duels.csv``
    beside it, resumable). ``tuned`` is notebook 03's file (``specs``, ``few_ants``).

    Returns
    -------
    (files, played, costs)
        By rule set: the claims file read back, the duels' results, the decisions under the cap.
    """
    folder = Path(folder)
    files, played, costs = {}, {}, {}
    for key in keys:
        spec = RULE_SETS[key]
        rows, results = run(key, spec, tuned["specs"], max_games, out=folder / f"04_{key}_duels.csv",
                            seed=seed, executor=executor, league_games=league_games, round_pairs=round_pairs,
                            budget=budget, progress=False, more_out=folder / f"04_{key}_more_duels.csv",
                            fair_out=folder / f"04_{key}_fair_duels.csv", scale=scale)
        played[key] = results
        measured, costs[key] = measured_rows(key, spec, results, samples, seed, peak, tuned.get("few_ants"))
        write_claims(claims_path(folder, key), measured + rows,
                     claims_sidecar(key, budget, seed, duel_tests, league_games, samples))
        files[key] = read_claims(claims_path(folder, key))
    return files, played, costs
