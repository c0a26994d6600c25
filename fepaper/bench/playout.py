"""Benchmark of the compiled random playouts and of MCTS, on the thesis board.

``bench_playouts`` is what ``fepaper bench search`` reports for the playout kernel
and the MCTS controller. Every rate is a median over ``repeat`` runs, with the
kernels compiled before the clock starts.

Examples
--------
>>> figures = bench_playouts(repeat=1, playouts=200, iterations=200)  # doctest: +SKIP
>>> sorted(figures)[:2]  # doctest: +SKIP
['mcts_iterations_per_s', 'mcts_midgame_iterations_per_s']
"""

from __future__ import annotations

import time

import numpy as np

from ..controllers.mcts import mcts_search
from ..controllers.playouts import playout_wins
from ..experiments.randomplay import random_game
from ..game.game import Game
from ..game.rules import Rules

__all__ = ["bench_playouts"]


def _median(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), out


def bench_playouts(repeat: int = 5, playouts: int = 20_000, iterations: int = 20_000, seed: int = 2026,
                   rules="thesis") -> dict:
    """Random-playout steps per second and MCTS iterations per second on one core.

    Parameters
    ----------
    repeat : int
        Runs per figure (the median is reported).
    playouts : int
        Random playouts from the kick-off per run.
    iterations : int
        MCTS iterations per run (default spec: UCB1 c = sqrt(2), 64 children, solver).
    seed : int
        Seeds the playouts, the searches and the mid-game positions.
    rules : str, dict or Rules
        The rules (the thesis's by default).

    Returns
    -------
    dict
        ``playout_steps_per_s`` and ``playouts_per_s`` (from the kick-off),
        ``mean_playout_steps``, ``mcts_iterations_per_s`` (from the kick-off),
        ``mcts_midgame_iterations_per_s`` (over the positions halfway through four
        seeded random games) and the parameters.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    opening = Game(rules)
    full = [random_game(rules, seed=[seed, k]) for k in range(4)]
    middle = [Game(rules, " ".join(g.history[: len(g.history) // 2])) for g in full]
    playout_wins(opening, 10, seed=seed)  # compile outside the timing
    mcts_search(opening, 50, seed=seed)

    seconds, (_, steps) = _median(lambda: playout_wins(opening, playouts, seed=seed), repeat)
    mcts_s, _ = _median(lambda: mcts_search(opening, iterations, seed=seed), repeat)
    mid_s = 0.0
    mid_iterations = 0
    for game in middle:
        s, result = _median(lambda g=game: mcts_search(g, iterations, seed=seed), repeat)
        mid_s += s
        mid_iterations += result.details["iterations"]  # a proven root stops early
    return {
        "playout_steps_per_s": steps / seconds,
        "playouts_per_s": playouts / seconds,
        "mean_playout_steps": steps / playouts,
        "mcts_iterations_per_s": iterations / mcts_s,
        "mcts_midgame_iterations_per_s": mid_iterations / mid_s,
        "rules": Rules.from_spec(rules).to_dict(),
        "playouts": playouts,
        "iterations": iterations,
        "repeat": repeat,
        "seed": seed,
    }
