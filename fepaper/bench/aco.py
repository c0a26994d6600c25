"""Benchmark of the ant colonies and their GA: ``fepaper bench aco``.

Two figures, measured in one run on whatever machine runs it:

``aco_ms_per_decision``
    Median milliseconds of one decision of the thesis's base colony (87 ants, 15
    cycles) over a fixed, seeded set of thesis-board positions (every 6th turn start of 4
    seeded random games; each timed ``repeat`` times, median per position, then the median
    over positions).
``ga_seconds_per_generation``
    Wall seconds of one GA generation at the thesis's scale: 8 offspring with the
    thesis's ``ferdistrival`` parameters, 20 games each against :data:`MCTS_OPPONENT`,
    in a process pool of every core (timed once: it is long).
"""

from __future__ import annotations

import os
import time

import numpy as np

from ..controllers import make
from ..experiments.thesis.fitness import evaluate_genomes
from ..experiments.thesis.tuning import MCTS_OPPONENT
from ..game.game import Game
from ..game.rules import Rules
from ..play.pools import worker_pool
from ..play.randomplay import random_positions

__all__ = ["bench_aco", "decision_positions"]


def decision_positions(seed: int = 2026, n_games: int = 4, every: int = 6, rules="thesis") -> list[Game]:
    """Every ``every``-th turn-start position of ``n_games`` seeded random games (thesis rules
    by default)."""
    return [Game(rules, rec) for _, rec in random_positions(rules, n_games, seed=seed)[::every]]


def bench_aco(repeat: int = 3, seed: int = 2026, games: int = 20, offspring: int = 8,
              workers: int | None = None, rules="thesis") -> dict:
    """Decision time of the thesis's colony and seconds per GA generation (see the module),
    under ``rules`` (the thesis's by default)."""
    positions = decision_positions(seed, rules=rules)
    where = str(Rules.from_spec(rules))
    colony = make({"name": "aco", "variant": "base", "seed": seed})
    colony.choose_turn(positions[0])  # compile outside the timing
    per_position, steps = [], []
    for game in positions:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            colony.choose_turn(game)
            times.append(time.perf_counter() - start)
            steps.append(colony.last.nodes)
        per_position.append(float(np.median(times)))
    decision_s = float(np.median(per_position))

    spec = make({"name": "aco", "variant": "ferdistrival"}).spec
    rules = Rules.from_spec(rules).to_dict()
    workers = workers or os.cpu_count() or 1
    with worker_pool(workers) as pool:
        evaluate_genomes([spec], MCTS_OPPONENT, rules, 2, seed, 0, pool)  # warm the workers
        start = time.perf_counter()
        fitness = evaluate_genomes([spec] * offspring, MCTS_OPPONENT, rules, games, seed, 1, pool)
        ga_s = time.perf_counter() - start
    return {
        "positions": len(positions),
        "aco_positions": f"{len(positions)} positions: every 6th turn start of 4 seeded random games "
                         f"({where} rules)",
        "aco_ms_per_decision": decision_s * 1e3,
        "aco_ms_p90": float(np.percentile(per_position, 90)) * 1e3,
        "ant_steps_per_second": float(np.sum(steps) / np.sum(per_position) / repeat) if steps else 0.0,
        "ga_seconds_per_generation": ga_s,
        "ga_games_per_generation": games * offspring,
        "ga_workers": workers,
        "ga_mean_score": float(np.mean([s for _, s in fitness])),
    }
