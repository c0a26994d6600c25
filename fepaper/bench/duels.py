"""Benchmark of the duels at the thesis's scale over workers: ``fepaper bench duels``.

The `full` budget plays its duels with the alpha-beta players at the thesis's scale
(:data:`~fepaper.experiments.thesis.players.THESIS_SCALE`: each decision capped at the
minute's 6e8 steps). This benchmark plays the same seeded, colour-swapped games of the thesis's
dynamic alpha-beta at level 2 at that scale against the thesis's base colony at its own parameters
(87 ants, 15 cycles), under the thesis's rules, once in this process (one worker, as a notebook
with ``WORKERS = 1`` runs them) and once in a pool of every core (as the duels run at `full`),
and reports:

``games_per_s``
    Games per wall second with each number of workers (the pools' start-up and their first
    compilation are outside the timing: each run first plays two other games a worker).
``speedup``
    Wall seconds with one worker over wall seconds with every core.
``same_games``
    Whether both runs played the very same games (the moves of every game equal): the promise
    that which games are played depends only on the settings, not on the executor.

A game's length varies, so with few games a pool can wait on its longest one: the figure is the
speed-up of this batch, stated with its number of games.
"""

from __future__ import annotations

import os
import time

from ..experiments.thesis.players import THESIS_SCALE, alphabeta
from ..play.arena import match
from ..play.pools import SerialExecutor, worker_pool

__all__ = ["bench_duels", "DUEL_PLAYERS"]

#: The two players of the timed games: the thesis's best controller at the thesis's scale, and its
#: base colony at the thesis's parameters (the colonies' defaults).
DUEL_PLAYERS = (alphabeta("dynamic", THESIS_SCALE), {"name": "aco", "variant": "base"})
#: Each pair of games from a random opening of this many turns, as the duels'.
OPENING_TURNS = 4


def _timed(executor, games: int, seed: int, rules) -> tuple[float, list[str]]:
    a, b = DUEL_PLAYERS
    with executor as pool:
        match(rules, a, b, games=2 * getattr(pool, "_max_workers", 1), seed=seed + 1, executor=pool,
              progress=False, opening_turns=OPENING_TURNS)
        start = time.perf_counter()
        rows = match(rules, a, b, games=games, seed=seed, executor=pool, progress=False,
                     opening_turns=OPENING_TURNS)["rows"]
        seconds = time.perf_counter() - start
    return seconds, [row["moves"] for row in sorted(rows, key=lambda r: r["game"])]


def bench_duels(repeat: int = 1, games: int = 400, seed: int = 2026, workers: int | None = None,
                rules="thesis") -> dict:
    """Games per second of the thesis-scale duel (see the module) with one worker and with
    ``workers`` (default: every core), the speed-up, and whether both played the same games.
    ``repeat`` is accepted for the command line's sake: the batch is timed once (it is long)."""
    del repeat
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be an even integer >= 2 (colour-swapped pairs), got {games!r}")
    workers = workers or os.cpu_count() or 1
    one_s, one_moves = _timed(SerialExecutor(), games, seed, rules)
    many_s, many_moves = _timed(worker_pool(workers), games, seed, rules)
    a, b = DUEL_PLAYERS
    return {
        "games": games,
        "players": f"dynamic alpha-beta level 2 capped at {THESIS_SCALE.cap:.0e} steps a decision against "
                   f"the base colony at the thesis's parameters (87 ants, 15 cycles), {games} seeded "
                   f"colour-swapped games from random {OPENING_TURNS}-turn openings, thesis rules",
        "workers": workers,
        "seconds": {"1": one_s, str(workers): many_s},
        "games_per_s": {"1": games / one_s, str(workers): games / many_s},
        "speedup": one_s / many_s,
        "same_games": one_moves == many_moves,
    }
