"""Benchmarks: speed figures measured in one run, printed as per-second rates and ratios.

Each benchmark is a function returning a dict of figures; ``fepaper bench NAME``
prints it (``--json`` prints the dict as one JSON object). Nothing here is a
test: the machine is shared and noisy, so every rate is a median over repeats.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .._core.bundles import DONE, new_budget
from .._core.turns import count_turns
from ..experiments.randomplay import random_game
from ..game.game import Game
from ..search import twin

__all__ = ["bench_positions", "bench_turns"]


def bench_positions(seed: int = 2026, per_rules: int = 16, heavy: int = 4,
                    heavy_range: tuple[int, int] = (10_000, 300_000)) -> list[tuple[str, str, int]]:
    """A fixed, seeded set of positions from random games on the thesis and standard rules.

    Returns ``(rules name, record, distinct turns)`` rows: for each rules,
    ``per_rules - heavy`` positions drawn at random from all turn-start positions
    of the random games, and ``heavy`` positions with a number of distinct turns
    in ``heavy_range`` (so the pure-Python reference still finishes in seconds).
    """
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
                n = Game(rules, record).turns().count(limit=heavy_range[1])
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


def bench_turns(repeat: int = 5, seed: int = 2026, progress: bool = False) -> dict:
    """Distinct turns per second: the count-only canonical walk, the key-set walk (count and
    enumerate) and the pure-Python reference, on the same positions."""
    rows = bench_positions(seed)
    games = [Game(rules, record) for rules, record, _ in rows]
    for g in games[:2]:  # compile outside the timing
        g.turns().count()
        _keyset_count(g)
        list(g.turns())
    total = sum(n for *_, n in rows)
    core_s = enum_s = ref_s = canonical_s = 0.0
    for game, (_, _, n) in zip(games, rows):
        assert game.turns().count() == n == _keyset_count(game)
        canonical_s += _median_seconds(lambda g=game: g.turns().count(), repeat)
        core_s += _median_seconds(lambda g=game: _keyset_count(g), repeat)
        enum_s += _median_seconds(lambda g=game: sum(1 for _ in g.turns()), max(1, repeat // 2))
        marked = frozenset(int(e) for e in np.flatnonzero(game.owner))
        ref_s += _median_seconds(lambda g=game, m=marked: twin.count_turns(g.board, m, g.ball), 1)
    core_rate, ref_rate = total / core_s, total / ref_s
    yaps = Game("standard")
    for c in YAPS_400K:
        yaps.step(c)
    yaps_s = _median_seconds(lambda: yaps.turns().count(), repeat)
    return {
        "count_only_turns_per_s": total / canonical_s,
        "count_only_over_key_set": core_rate and (total / canonical_s) / core_rate,
        "yapapersoccer_400k_turns": yaps.turns().count(),
        "yapapersoccer_400k_count_only_s": yaps_s,
        "positions": len(rows),
        "heavy_positions": sum(1 for *_, n in rows if n >= 10_000),
        "distinct_turns": int(total),
        "max_turns_in_a_position": int(max(n for *_, n in rows)),
        "core_turns_per_s": core_rate,
        "core_enumerate_turns_per_s": total / enum_s,
        "reference_turns_per_s": ref_rate,
        "ratio": core_rate / ref_rate,
        "repeat": repeat,
        "seed": seed,
    }
