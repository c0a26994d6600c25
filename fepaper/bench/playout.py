"""Benchmark of the compiled random playouts and of MCTS, on the thesis board.

``bench_playouts`` is what ``fepaper bench search`` reports for the playout kernel
and the MCTS controller, over stated classes of positions (``playout_positions`` in its
figures): the ``opening`` (kick-off), ``mid-game`` positions (halfway through seeded random
games, those with at most :data:`MIDGAME_MAX_TURNS` distinct turns) and ``heavy`` ones (halfway
positions with more). An MCTS figure is the median over a class's positions of each one's median
rate over ``repeat`` runs (one run from a heavy position), with the kernels compiled and one whole
search run before the clock starts (a process's first searches page in their trees' memory: from
the kick-off they ran at about 260 k iterations/s against about 400 k for the searches after them,
on the same code and machine); every search runs ``iterations`` iterations or
:data:`MCTS_CAP_SECONDS`, whichever comes first (the time limit of the controller, its tree's
allocation included), so a position whose new nodes list astronomically many turns counts as one
slow position and costs seconds, not minutes. A mid-game position with few turns can still lead to such nodes.

Examples
--------
>>> figures = bench_playouts(repeat=1, playouts=200, iterations=200)  # doctest: +SKIP
>>> sorted(figures)[:2]  # doctest: +SKIP
['mcts_heavy_iterations_per_s', 'mcts_iterations_per_s']
"""

from __future__ import annotations

import time

import numpy as np

from ..game.game import Game
from ..game.rules import Rules
from ..play.randomplay import random_game
from ..search.mcts import mcts_search
from ..search.playouts import playout_wins

__all__ = ["bench_playouts", "halfway_positions", "MIDGAME_MAX_TURNS", "MCTS_CAP_SECONDS"]

#: The most distinct turns of a ``mid-game`` position; a halfway position with more is ``heavy``.
MIDGAME_MAX_TURNS = 10_000
#: The time limit of every MCTS search of the benchmark, in seconds.
MCTS_CAP_SECONDS = 2.0


def _median(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), out


def halfway_positions(rules="thesis", seed: int = 2026, mid: int = 8, heavy: int = 3,
                      max_turns: int = MIDGAME_MAX_TURNS,
                      max_games: int = 200) -> tuple[list[Game], list[Game]]:
    """The positions halfway through seeded random games under ``rules``: the first ``mid`` with at
    most ``max_turns`` distinct turns and the first ``heavy`` with more, game after game (at most
    ``max_games`` games: fewer positions if they run out)."""
    middle, big = [], []
    for k in range(max_games):
        if len(middle) >= mid and len(big) >= heavy:
            break
        full = random_game(rules, seed=[seed, k])
        game = Game(rules, " ".join(full.history[: len(full.history) // 2]))
        if game.is_over:
            continue
        n = game.turns().count(limit=max_turns)
        if 0 <= n <= max_turns:
            if len(middle) < mid:
                middle.append(game)
        elif len(big) < heavy:
            big.append(game)
    return middle, big


def _mcts_rate(games: list[Game], iterations: int, repeat: int, seed: int) -> float:
    """The median over ``games`` of MCTS iterations per second, each search stopped at ``iterations``
    or :data:`MCTS_CAP_SECONDS` (a proven root stops early: its iterations are those run)."""
    rates = []
    for game in games:
        samples = []
        for _ in range(repeat):
            start = time.perf_counter()
            done = mcts_search(game, iterations, time_limit=MCTS_CAP_SECONDS, seed=seed).details["iterations"]
            samples.append((done, time.perf_counter() - start))
        rates.append(float(np.median([n for n, _ in samples]) / np.median([s for _, s in samples])))
    return float(np.median(rates)) if rates else float("nan")


def bench_playouts(repeat: int = 3, playouts: int = 20_000, iterations: int = 20_000, seed: int = 2026,
                   rules="thesis", mid: int = 8, heavy: int = 3) -> dict:
    """Random-playout steps per second and MCTS iterations per second on one core.

    Parameters
    ----------
    repeat : int
        Runs per figure and position (the median is reported).
    playouts : int
        Random playouts from the kick-off per run.
    iterations : int
        MCTS iterations per run at most (default spec: UCB1 c = sqrt(2), 64 children, solver;
        each run stopped at :data:`MCTS_CAP_SECONDS` too).
    seed : int
        Seeds the playouts, the searches and the positions.
    rules : str, dict or Rules
        The rules (the thesis's by default).
    mid, heavy : int
        Mid-game and heavy positions (see :func:`halfway_positions`).

    Returns
    -------
    dict
        ``playout_steps_per_s`` and ``playouts_per_s`` (from the kick-off),
        ``mean_playout_steps``, ``mcts_iterations_per_s`` (from the kick-off),
        ``mcts_midgame_iterations_per_s`` and ``mcts_heavy_iterations_per_s`` (medians over those
        positions), ``playout_positions`` (each class in words) and the parameters.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    opening = Game(rules)
    middle, big = halfway_positions(rules, seed, mid, heavy)
    playout_wins(opening, 10, seed=seed)  # compile outside the timing
    # One whole search before the clock: a process's first searches page in their trees' memory and
    # run about a third slower than the next ones (a controller's later decisions in a game).
    mcts_search(opening, iterations, time_limit=MCTS_CAP_SECONDS, seed=seed)

    seconds, (_, steps) = _median(lambda: playout_wins(opening, playouts, seed=seed), repeat)
    return {
        "playout_positions": {
            "opening": "the kick-off",
            "mid-game": f"{len(middle)} positions halfway through seeded random games, those with at most "
                        f"{MIDGAME_MAX_TURNS:,} distinct turns",
            "heavy": f"{len(big)} positions halfway through the same games with more than "
                     f"{MIDGAME_MAX_TURNS:,} distinct turns (one run each)",
            "mcts": f"each search {iterations:,} iterations or {MCTS_CAP_SECONDS:g} s, whichever comes "
                    "first"},
        "playout_steps_per_s": steps / seconds,
        "playouts_per_s": playouts / seconds,
        "mean_playout_steps": steps / playouts,
        "mcts_iterations_per_s": _mcts_rate([opening], iterations, repeat, seed),
        "mcts_midgame_iterations_per_s": _mcts_rate(middle, iterations, repeat, seed),
        "mcts_heavy_iterations_per_s": _mcts_rate(big, iterations, 1, seed),
        "rules": Rules.from_spec(rules).to_dict(),
        "playouts": playouts,
        "iterations": iterations,
        "repeat": repeat,
        "seed": seed,
    }
