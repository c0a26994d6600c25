"""Benchmark of the turn listing: distinct turns per second by the count-only canonical walk, the
key-set walk (count and enumerate) and the pure-Python reference, on the same positions.

Every figure is a median over the positions of one class (``positions`` in the figures says
which): ``random``, positions drawn from the turn starts of seeded random games with fewer than
10,000 distinct turns, where a listing takes micro- to milliseconds; and ``heavy``, positions with
10,000 to 100,000, where the walks' throughput shows. A rate is each position's distinct turns over
its median seconds (over ``repeat`` runs), and a ratio each position's ratio; no total over
positions, which the largest position would decide.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .._core.bundles import DONE, new_budget
from .._core.turns import count_turns
from ..game.game import Game
from ..play.randomplay import random_game
from ..search.reference import turns as twin

__all__ = ["bench_positions", "bench_turns", "HEAVY_RANGE", "YAPS_400K"]

#: The distinct turns of a ``heavy`` position: at least the first, below the second.
HEAVY_RANGE = (10_000, 100_000)


def bench_positions(seed: int = 2026, per_rules: int = 12, heavy: int = 3,
                    heavy_range: tuple[int, int] = HEAVY_RANGE) -> list[tuple[str, str, int]]:
    """A fixed, seeded set of positions from random games on the thesis and standard rules.

    Returns ``(rules name, record, distinct turns)`` rows: for each rules,
    ``per_rules - heavy`` positions drawn at random from the turn-start positions of
    the random games with fewer than ``heavy_range[0]`` distinct turns, and ``heavy``
    positions with a number of distinct turns in ``heavy_range`` (so the pure-Python
    reference still finishes in seconds).
    """
    if not 0 <= heavy <= per_rules:
        raise ValueError(f"heavy must be between 0 and per_rules ({per_rules}), got {heavy}")
    rng = np.random.default_rng(seed)
    rows = []
    for rules in ("thesis", "standard"):
        ordinary, big = [], []
        game_seed = 0
        while len(big) < heavy or len(ordinary) < 4 * per_rules:
            full = random_game(rules, seed=[seed, game_seed])
            game_seed += 1
            for t in range(len(full.history) - (1 if full.is_over else 0)):
                record = " ".join(full.history[:t])
                n = Game(rules, record).turns().count(limit=heavy_range[1] - 1)
                if n < 0:
                    continue
                (big if n >= heavy_range[0] else ordinary).append((rules, record, n))
        picks = rng.choice(len(ordinary), size=per_rules - heavy, replace=False)
        rows += [ordinary[i] for i in sorted(picks)]
        picks = rng.choice(len(big), size=heavy, replace=False)
        rows += [big[i] for i in sorted(picks)]
    return rows


def _median_seconds(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


#: YaPaperSoccer's position with more than 400,000 turns, as a step string on 8 x 10.
YAPS_400K = ("13064113570225017036575014630745741422243523574227742164435274"
             "617703502106741745431672745757134661453130361")


def _keyset_count(game: Game) -> int:
    """The count of the walk that keeps a key set of the states seen (the walk that lists turns)."""
    n, status = count_turns(game.marks.copy(), game.ball_index, game.board.arrays, game.rules.flags, 0,
                            new_budget())
    assert status == DONE
    return n + (1 if game.can_stop else 0)


def _medians(per_position: list[dict], classes: dict[str, list[int]], key: str) -> dict[str, float]:
    return {c: float(np.median([per_position[i][key] for i in rows])) for c, rows in classes.items()}


def bench_turns(repeat: int = 5, seed: int = 2026, per_rules: int = 12, heavy: int = 3,
                heavy_range: tuple[int, int] = HEAVY_RANGE) -> dict:
    """Distinct turns per second of each walk and their ratios, median per class of positions.

    Returns
    -------
    dict
        ``positions`` (each class in words), ``count_only_turns_per_s``, ``key_set_turns_per_s``,
        ``enumerate_turns_per_s``, ``reference_turns_per_s``, ``count_only_over_key_set`` and
        ``key_set_over_reference``: each ``{"random": ..., "heavy": ...}``, the median over that
        class's positions; ``median_distinct_turns`` per class; the count-only walk's seconds on
        YaPaperSoccer's position of more than 400,000 turns.
    """
    rows = bench_positions(seed, per_rules, heavy, heavy_range)
    games = [Game(rules, record) for rules, record, _ in rows]
    for g in games[:2]:  # compile outside the timing
        g.turns().count()
        _keyset_count(g)
        list(g.turns())
    per_position = []
    for game, (_, _, n) in zip(games, rows):
        assert game.turns().count() == n == _keyset_count(game)
        marked = frozenset(int(e) for e in np.flatnonzero(game.owner))
        seconds = {
            "count_only": _median_seconds(lambda g=game: g.turns().count(), repeat),
            "key_set": _median_seconds(lambda g=game: _keyset_count(g), repeat),
            "enumerate": _median_seconds(lambda g=game: sum(1 for _ in g.turns()), max(1, repeat // 2)),
            "reference": _median_seconds(lambda g=game, m=marked: twin.count_turns(g.board, m, g.ball), 1),
        }
        figures = {f"{k}_turns_per_s": n / s for k, s in seconds.items()}
        figures["count_only_over_key_set"] = seconds["key_set"] / seconds["count_only"]
        figures["key_set_over_reference"] = seconds["reference"] / seconds["key_set"]
        figures["turns"] = n
        per_position.append(figures)
    classes = {"random": [i for i, r in enumerate(rows) if r[2] < heavy_range[0]],
               "heavy": [i for i, r in enumerate(rows) if r[2] >= heavy_range[0]]}
    classes = {c: rows_ for c, rows_ in classes.items() if rows_}
    yaps = Game("standard")
    for c in YAPS_400K:
        yaps.step(c)
    yaps_s = _median_seconds(lambda: yaps.turns().count(), repeat)
    out: dict = {"positions": {
        "random": f"{len(classes.get('random', []))} turn starts of seeded random games ({per_rules - heavy} "
                  f"thesis, {per_rules - heavy} standard) with fewer than {heavy_range[0]:,} distinct turns",
        "heavy": f"{len(classes.get('heavy', []))} turn starts of those games ({heavy} a rules) with "
                 f"{heavy_range[0]:,} to {heavy_range[1]:,} distinct turns"}}
    for key in ("count_only_turns_per_s", "key_set_turns_per_s", "enumerate_turns_per_s",
                "reference_turns_per_s", "count_only_over_key_set", "key_set_over_reference"):
        out[key] = _medians(per_position, classes, key)
    out["median_distinct_turns"] = _medians(per_position, classes, "turns")
    out["yapapersoccer_400k_turns"] = yaps.turns().count()
    out["yapapersoccer_400k_count_only_s"] = yaps_s
    out["repeat"] = repeat
    out["seed"] = seed
    return out
