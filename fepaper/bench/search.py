"""Search benchmarks: the thesis's dynamic alpha-beta (nodes per second, seconds per
decision by level) and the complete-turn search, on a fixed seeded set of thesis-board
positions, and best-first minimax (expansions per second with each evaluator) on CodinGame
positions. Nothing here is a test: every figure is a median over the positions (each timed
``repeat`` times, its median kept), never a total that the slowest position would decide.

The positions are the opening plus positions part-way (5 to 24 turns) into seeded
random games; random play marks the board quickly, so a few of them have the large
bounce trees that make the thesis's step-level search slow.
"""

from __future__ import annotations

import time

import numpy as np

from .._core.bitgrid import fill_masks, grid_of, many_bit_distances, many_turn_distances, new_masks
from .._core.bundles import new_budget
from .._core.tactics import new_scratch
from ..game.game import Game
from ..game.rules import Rules
from ..play.randomplay import random_game
from ..search.alphabeta import thesis_line
from ..search.bestfirst import bestfirst_search
from ..search.turnsearch import search_turns
from ..search.valuefile import DEFAULT_NET

__all__ = ["search_positions", "positions_text", "bench_search", "bench_bestfirst", "bench_turn_distances"]


def search_positions(seed: int = 2026, count: int = 8, rules="thesis") -> list[str]:
    """The records of ``count`` positions (the thesis board by default): the opening, then one
    position from each of ``count - 1`` seeded random games, 5 to 24 turns in."""
    rng = np.random.default_rng(seed)
    records = [""]
    k = 0
    while len(records) < count:
        turns = int(rng.integers(5, 25))
        game = random_game(rules, seed=[seed, k], max_turns=turns)
        k += 1
        if not game.is_over:
            records.append(game.moves)
    return records


def positions_text(count: int, rules: str = "thesis") -> str:
    """:func:`search_positions` in words, for the figures' ``positions`` entries."""
    return (f"{count} {rules} positions: the opening and one from each of {count - 1} seeded random games, "
            "5 to 24 turns in")


def _search_seconds(game: Game, level: int, cap: float) -> tuple[float, int, bool]:
    start = time.perf_counter()
    result = thesis_line(game, "dynamic", level, 15, new_budget(cap, 0, start))
    return time.perf_counter() - start, result.nodes, result.details["stopped"]


def _median_rate(samples: list[tuple[int, float]]) -> float:
    """The rate of one position over repeats: its median count over its median seconds."""
    return float(np.median([n for n, _ in samples]) / np.median([s for _, s in samples]))


def bench_search(repeat: int = 3, seed: int = 2026, count: int = 8, max_nodes: int = 2_000_000,
                 cap_seconds: float = 5.0, deep_positions: int = 3, rules="thesis") -> dict:
    """Speed of the alpha-beta searches on :func:`search_positions`, each figure a median over
    the positions (``search_positions`` in the figures says which).

    Returns
    -------
    dict
        ``alphabeta_nodes_per_s``: the thesis's dynamic kernel at level 2 (steps made per
        second; each search stops after ``max_nodes``), median over the positions of each
        position's median over ``repeat`` runs.
        ``dynamic_seconds_per_decision``: per level ``"1"`` to ``"4"``, the median seconds of
        one dynamic search (with the thesis's 15 bounces) from each position; levels 3 and 4
        only on the first ``deep_positions`` positions and stopped at ``cap_seconds`` (a
        stopped search counts as ``cap_seconds``, a lower bound; see ``notes``).
        ``dynamic_max_seconds_per_decision``: the slowest position, per level.
        ``turnsearch_nodes_per_s``: the complete-turn alpha-beta at depth 3 (positions per
        second; each search stops after ``max_nodes / 10``), median over the positions.

    ``rules`` (a preset name, dict or Rules; the thesis's by default) sets the positions and
    the searches, e.g. ``{"preset": "thesis", "dead_end": "stop"}`` to time the first
    version's reading.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    games = [Game(rules, r) for r in search_positions(seed, count, rules)]
    thesis_line(games[0], "dynamic", 1)  # compile outside the timing
    search_turns(games[0], 1)
    rates = []
    for game in games:
        samples = []
        for _ in range(repeat):
            start = time.perf_counter()
            n = thesis_line(game, "dynamic", 2, 15, new_budget(None, max_nodes)).nodes
            samples.append((n, time.perf_counter() - start))
        rates.append(_median_rate(samples))
    per_level: dict[str, float] = {}
    worst: dict[str, float] = {}
    notes = []
    for level in (1, 2, 3, 4):
        chosen = games if level <= 2 else games[:deep_positions]
        runs = repeat if level <= 2 else 1
        times, stopped = [], 0
        for game in chosen:
            samples = []
            for _ in range(runs):
                secs, _, aborted = _search_seconds(game, level, cap_seconds)
                stopped += aborted
                samples.append(secs)
            times.append(float(np.median(samples)))
        per_level[str(level)] = float(np.median(times))
        worst[str(level)] = float(np.max(times))
        if level > 2:
            notes.append(f"level {level}: {len(chosen)} of {len(games)} positions, one run each, "
                         f"{stopped} stopped at {cap_seconds:g} s")
        elif stopped:
            notes.append(f"level {level}: {stopped} searches stopped at {cap_seconds:g} s")
    turn_rates = []
    for game in games:
        samples = []
        for _ in range(max(1, repeat // 2)):
            result = search_turns(game, 3, max_nodes=max_nodes // 10)
            samples.append((result.nodes, result.seconds))
        turn_rates.append(_median_rate(samples))
    name = str(Rules.from_spec(rules))  # a preset's name, else the rules as JSON
    return {
        "search_positions": positions_text(len(games), name),
        "alphabeta_nodes_per_s": float(np.median(rates)),
        "dynamic_seconds_per_decision": per_level,
        "dynamic_max_seconds_per_decision": worst,
        "turnsearch_nodes_per_s": float(np.median(turn_rates)),
        "notes": "; ".join(notes),
        "repeat": repeat,
        "seed": seed,
    }


def bench_bestfirst(repeat: int = 2, seed: int = 2026, count: int = 12, iterations: int = 400,
                    net: str = DEFAULT_NET.name) -> dict:
    """Speed of best-first minimax (``bestfirst``) on :func:`search_positions` of the CodinGame
    rules (the rules its networks are fitted on), ``iterations`` expansions from each.

    Returns
    -------
    dict
        ``bestfirst_positions`` (the positions in words), ``bestfirst_net``, and
        ``bestfirst_expansions_per_s`` and ``bestfirst_evaluations_per_s``: per evaluator
        (``"distance"``, and ``"net"`` with the network ``net``, by default the shipped one),
        expansions (a node's turns listed, each new position checked for a goal in one and valued)
        and positions valued
        per second, the median over the positions of each one's median over ``repeat`` runs.
        Equal expansion rates with either evaluator mean the listing and the tactics, not the
        valuing, set the search's speed.
    """
    games = [Game("codingame", r) for r in search_positions(seed, count, "codingame")]
    expansions: dict[str, float] = {}
    evaluations: dict[str, float] = {}
    for evaluator in ("distance", "net"):
        bestfirst_search(games[0], iterations=10, evaluator=evaluator, net=net, seed=0)  # compile
        rates, value_rates = [], []
        for game in games:
            done, valued = [], []
            for _ in range(repeat):
                start = time.perf_counter()
                details = bestfirst_search(game, iterations=iterations, evaluator=evaluator, net=net,
                                           seed=0).details
                seconds = time.perf_counter() - start
                done.append((details["expansions"], seconds))
                valued.append((details["evaluations"], seconds))
            rates.append(_median_rate(done))
            value_rates.append(_median_rate(valued))
        expansions[evaluator] = float(np.median(rates))
        evaluations[evaluator] = float(np.median(value_rates))
    return {"bestfirst_positions": positions_text(len(games), "codingame"), "bestfirst_net": net,
            "bestfirst_expansions_per_s": expansions, "bestfirst_evaluations_per_s": evaluations}


def bench_turn_distances(repeat: int = 5, seed: int = 2026, count: int = 12, passes: int = 20) -> dict:
    """Turn distances per second, node by node (:func:`fepaper._core.tactics.turn_distances`)
    and on the bit grid (:func:`fepaper._core.bitgrid.bit_distances`, from masks made
    beforehand, as the search makes them from the parent's), over the positions after every
    turn (at most 400 a position) of :func:`search_positions` of the CodinGame rules: what
    best-first minimax values.

    Returns
    -------
    dict
        ``turn_distances_positions``, ``turn_distances_per_s`` (``"node_by_node"``,
        ``"bits"``: medians over ``repeat`` runs of ``passes`` passes) and
        ``turn_distances_bits_speedup`` (their ratio).
    """
    marks, balls = [], []
    for record in search_positions(seed, count, "codingame"):
        game = Game("codingame", record)
        for i, turn in enumerate(game.turns()):
            if i == 400:
                break
            child = game.copy()
            child.push(turn.steps)
            if not child.is_over:
                marks.append(child.marks.copy())
                balls.append(child.ball_index)
    board = Game("codingame").board
    marks_, balls_ = np.stack(marks), np.array(balls, np.int64)
    grid = grid_of(board)
    free = np.zeros((len(marks), 8, 2), np.uint64)
    bounce = np.zeros((len(marks), 2), np.uint64)
    for i in range(len(marks)):
        free_i, bounce_i = new_masks()
        fill_masks(marks_[i], board.arrays, grid, free_i, bounce_i)
        free[i], bounce[i] = free_i, bounce_i
    dist, queue = new_scratch(board.n_nodes)
    same = many_turn_distances(marks_, balls_, board.arrays, dist, queue, 1)
    assert same == many_bit_distances(free, bounce, balls_, grid, dist, 1)
    rates: dict[str, list[float]] = {"node_by_node": [], "bits": []}
    for _ in range(repeat):
        start = time.perf_counter()
        many_turn_distances(marks_, balls_, board.arrays, dist, queue, passes)
        rates["node_by_node"].append(passes * len(marks) / (time.perf_counter() - start))
        start = time.perf_counter()
        many_bit_distances(free, bounce, balls_, grid, dist, passes)
        rates["bits"].append(passes * len(marks) / (time.perf_counter() - start))
    per_s = {k: float(np.median(v)) for k, v in rates.items()}
    return {"turn_distances_positions": len(marks), "turn_distances_per_s": per_s,
            "turn_distances_bits_speedup": per_s["bits"] / per_s["node_by_node"]}
