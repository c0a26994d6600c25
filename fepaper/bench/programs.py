"""Benchmark of the compiled evaluation trees: ``fepaper bench programs [--tree TREE]``.

The thesis's dynamic alpha-beta at level 2 and the turn search at depth 3, each once with its own
hand-written distance and once with an evaluation tree (:mod:`fepaper.search.programs`) compiled
into the same kernel, on :func:`~fepaper.bench.search.search_positions`. Every figure is a median
over the positions of each position's median over ``repeat`` runs (the same node cap for both
evaluations, their runs taken in turn); a ratio is the tree's rate over the distance's, per
position, then the median.
With a tree that reads ``free_attack`` or ``free_defend`` every leaf runs an A* search of the board:
the ratio says what that costs.
"""

from __future__ import annotations

import time

import numpy as np

from .._core.bundles import new_budget
from ..game.game import Game
from ..game.rules import Rules
from ..search.alphabeta import thesis_line
from ..search.programs import DISTANCE, tree_text
from ..search.turnsearch import search_turns
from .search import positions_text, search_positions

__all__ = ["bench_programs", "EXAMPLE_TREE"]

#: The tree timed when none is given: 19 nodes, height 4, reading only the features computed at the
#: ball (no A* search).
EXAMPLE_TREE = ("sub(if_then_else(lt(mobility, 2.0), add(attack, mul(2.0, traps)), attack), "
                "mul(0.5, min(bounce, sub(defend, centre))))")


def _rates(runs, repeat: int) -> list[float]:
    """One position's nodes per second under each of ``runs``, taken in turn ``repeat`` times (a
    slower spell of the machine falls on every run alike): median nodes over median seconds."""
    nodes = [[] for _ in runs]
    seconds = [[] for _ in runs]
    for _ in range(repeat):
        for run, counted, timed in zip(runs, nodes, seconds):
            start = time.perf_counter()
            counted.append(run())
            timed.append(time.perf_counter() - start)
    return [float(np.median(n) / np.median(t)) for n, t in zip(nodes, seconds)]


def bench_programs(repeat: int = 3, tree: str | None = None, seed: int = 2026, count: int = 8,
                   max_nodes: int = 1_000_000, rules="thesis") -> dict:
    """Nodes per second with ``tree`` (default :data:`EXAMPLE_TREE`) and with the hand-written
    distance, in the thesis's alpha-beta and in the turn search, and their ratios (see the module)."""
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    tree = tree_text(tree if tree is not None else EXAMPLE_TREE)
    games = [Game(rules, r) for r in search_positions(seed, count, rules)]
    for program in (None, tree):  # compile outside the timing
        thesis_line(games[0], "dynamic", 1, program=program)
        search_turns(games[0], 1, program=program)
    figures: dict = {}
    for search, runner in (
            ("alphabeta", lambda g, p: thesis_line(g, "dynamic", 2, 15, new_budget(None, max_nodes),
                                                   program=p).nodes),
            ("turnsearch", lambda g, p: search_turns(g, 3, max_nodes=max_nodes // 10, program=p).nodes)):
        plain, evolved = zip(*(_rates([lambda g=g, r=runner: r(g, None), lambda g=g, r=runner: r(g, tree)],
                                      repeat) for g in games))
        figures[f"{search}_distance_nodes_per_s"] = float(np.median(plain))
        figures[f"{search}_tree_nodes_per_s"] = float(np.median(evolved))
        figures[f"{search}_tree_over_distance"] = float(np.median(np.array(evolved) / np.array(plain)))
    return {"programs_positions": positions_text(len(games), str(Rules.from_spec(rules))),
            "tree": tree, "distance_tree": DISTANCE, **figures, "repeat": repeat, "seed": seed}
