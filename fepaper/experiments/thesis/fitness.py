"""The fitness of a controller spec: its games against a fixed opponent, as plain-data tasks.

:func:`evaluate_genomes` plays ``games`` games of each spec against the opponent (colours
alternate; game ``k`` of spec ``i`` in generation ``g`` is seeded from ``(seed, g, i, k)``)
in tasks of a few games on any :class:`concurrent.futures.Executor`, so the result is the
same serially, in a process pool or on dask; :func:`fitness_of` turns the results into the
fitness the genetic algorithm (:mod:`fepaper.experiments.thesis.tuning`) maximises: the mean result
(win 1, draw 0.5, loss 0) plus a small tie-break that prefers quick wins and slow losses.
"""

from __future__ import annotations

from concurrent.futures import Executor, as_completed

import numpy as np

from ...play.arena import play_game

__all__ = ["evaluate_genomes", "fitness_of"]


def _game_seed(seed: int, generation: int, individual: int, k: int) -> int:
    return int(np.random.SeedSequence([seed, generation, individual, k]).generate_state(1)[0])


def _play_games(rules: dict, spec: dict, opponent: dict,
                jobs: list[tuple[int, int, str]]) -> list[tuple[float, int]]:
    """Task: play ``spec`` against ``opponent`` for each ``(k, seed, opening)``; A is player 1 when k
    is even."""
    out = []
    for k, seed, opening in jobs:
        row = play_game(rules, spec, opponent, seed=seed, opening=opening, a_player=1 if k % 2 == 0 else 2)
        out.append((row["score_a"], row["turns"]))
    return out


def fitness_of(results: list[tuple[float, int]], tie_break: float = 0.01) -> tuple[float, float]:
    """(fitness, mean score) of ``(score, turns)`` game results: the mean score plus
    ``tie_break`` times the mean of ``(2 score - 1) * 10 / (10 + turns)``.

    The second term prefers quick wins and slow losses; against an opponent a colony cannot
    beat it is the signal: how long the colony holds out.

    >>> fitness_of([(0.0, 10), (0.0, 30)])  # two losses, the second one slower
    (-0.00375, 0.0)
    """
    score = sum(s for s, _ in results) / len(results)
    speed = sum((2 * s - 1) * 10 / (10 + t) for s, t in results) / len(results)
    return score + tie_break * speed, score


def evaluate_genomes(specs: list[dict], opponent: dict, rules: dict, games: int, seed: int, generation: int,
                     executor: Executor, tie_break: float = 0.01, chunk: int = 5,
                     bar=None, openings: list[str] | None = None) -> list[tuple[float, float]]:
    """Fitness ``(fitness, score)`` of each spec: ``games`` games against ``opponent``.

    Game ``k`` of spec ``i`` is seeded from ``(seed, generation, i, k)`` and played
    in tasks of ``chunk`` games on ``executor``; ``bar`` (anything with ``update(n)``) counts games.
    With ``openings`` (at least ``games / 2``), games ``2j`` and ``2j + 1`` start from opening ``j``
    with colours swapped, the same for every spec (common openings: the specs are compared on the
    same games); without, every game starts from the kick-off.
    """
    if openings is not None and 2 * len(openings) < games:
        raise ValueError(f"{games} games need {(games + 1) // 2} openings, got {len(openings)}")
    futures = {}
    for i, spec in enumerate(specs):
        jobs = [(k, _game_seed(seed, generation, i, k), openings[k // 2] if openings else "")
                for k in range(games)]
        for start in range(0, games, chunk):
            future = executor.submit(_play_games, rules, spec, opponent, jobs[start:start + chunk])
            futures[future] = (i, start)
    results: list[list] = [[None] * games for _ in specs]
    for future in as_completed(futures):
        i, start = futures[future]
        part = future.result()
        results[i][start:start + len(part)] = part
        if bar is not None:
            bar.update(len(part))
    return [fitness_of(r, tie_break) for r in results]
