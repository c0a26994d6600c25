"""The Aboyne report's measurements, repeated on :class:`fepaper.games.aboyne.Aboyne` with the
reference searches of :mod:`fepaper.search.reference`.

- The branching: the first moves (:func:`first_moves`: every legal move, and the steps alone,
  as the report counts them), and the moves per position in random games and in games between
  alpha-beta players (:func:`branching_samples`, :func:`branching_summary`, by game phase, the
  games drawn at their cap apart).
- The cost of search by depth: perft, minimax and alpha-beta nodes and seconds
  (:func:`search_costs`), this machine's states per second, and minimax against alpha-beta in
  processor seconds, timed in interleaved pairs until a sequential sign test stops
  (:func:`paired_timings`).
- The heuristics compared from three fixed states, ten games per state and depth
  (:func:`duels`, :func:`duel_table`).
- The report's claims as rows with verdicts (:mod:`fepaper.experiments.reference.aboyne_claims`).

The readings where the report is silent are in ``docs/interpretation.md`` ("Aboyne").

Examples
--------
>>> first_moves()["count"], first_moves()["steps"]
(19, 17)
>>> random_record(1, 4)
'c1-c2 i9-h8 i5-h5 b6-c6'
"""

from __future__ import annotations

import itertools
import random
import time
import zlib
from collections import Counter

import numpy as np
import pandas as pd

from ...games.aboyne import HEURISTICS, N_CELLS, NAMES, Aboyne, hex_distance, report_score
from ...games.aboyne_perft import perft
from ...play.states import RandomStatePlayer, play_state
from ...search.reference import SearchStats, alphabeta, minimax
from ...stats.binomial import wilson
from ...stats.bootstrap import ratio_of_totals
from ...stats.sequential import SignSPRT

__all__ = [
    "random_record",
    "first_moves",
    "play_game",
    "branching_samples",
    "branching_summary",
    "PHASES",
    "GAMES_KEPT",
    "STATES",
    "make_states",
    "search_costs",
    "paired_timings",
    "duel",
    "duels",
    "duel_table",
    "heuristic",
    "MAX_PLIES",
]

#: Games between the searches end drawn after this many moves (docs/interpretation.md).
MAX_PLIES = 200
PHASES = ("opening", "middle game", "end game")
#: Which games a row of :func:`branching_summary` keeps: every game, the games that ended (won), the
#: games drawn at their cap.
GAMES_KEPT = ("all", "ended", "drawn at the cap")


def random_record(seed: int, plies: int) -> str:
    """The record of ``plies`` uniformly random moves from the start (fewer if the game ends)."""
    game, player = Aboyne(), RandomStatePlayer(random.Random(seed))
    play_state(game, {0: player, 1: player}, max_moves=plies)
    return game.moves


def first_moves(state: Aboyne | None = None) -> dict:
    """The moves of the side to move, as the report counts its first move.

    Returns ``count`` (every legal move), ``per_stone`` (cell -> moves) and ``breakdown`` (moves per
    stone -> how many stones), and the same for the **steps** alone (moves to an adjacent cell, the
    jumps left out: the report's "directions"): ``steps``, ``steps_per_stone``,
    ``steps_breakdown``.
    """
    state = Aboyne() if state is None else state
    stones = state.cells_of(state.player)
    per_stone = Counter({NAMES[c]: 0 for c in stones})
    steps_per_stone = Counter({NAMES[c]: 0 for c in stones})
    actions = state.legal_actions()
    for a in actions:
        origin, target = divmod(a, N_CELLS)
        per_stone[NAMES[origin]] += 1
        steps_per_stone[NAMES[origin]] += hex_distance(origin, target) == 1
    return {
        "count": len(actions),
        "per_stone": dict(per_stone),
        "breakdown": _breakdown(per_stone),
        "steps": sum(steps_per_stone.values()),
        "steps_per_stone": dict(steps_per_stone),
        "steps_breakdown": _breakdown(steps_per_stone),
    }


def _breakdown(per_stone: Counter) -> dict[int, int]:
    return dict(sorted(Counter(per_stone.values()).items(), reverse=True))


def heuristic(name: str):
    """``evaluate(state, player)`` of one of :data:`fepaper.games.aboyne.HEURISTICS`."""
    if name not in HEURISTICS:
        raise ValueError(f"unknown heuristic {name!r}; expected one of {sorted(HEURISTICS)}")
    weights = HEURISTICS[name]
    return lambda state, player: report_score(state, player, weights)


def _choose(state: Aboyne, depth: int, evaluate, rng: random.Random, algorithm: str = "alphabeta"):
    """(action, seconds, nodes): the search's best moves, one of them at random."""
    search = alphabeta if algorithm == "alphabeta" else minimax
    result = search(state, depth, state.current_player(), evaluate)
    return rng.choice(result.details["best"]), result.seconds, result.nodes


class _Searcher:
    """Alpha-beta with ``heuristic`` at ``depth``, ties broken by ``rng``; its decisions' seconds and
    nodes appended to ``seconds`` and ``nodes``."""

    def __init__(self, name: str, depth: int, rng: random.Random, seconds: list, nodes: list):
        self.evaluate, self.depth, self.rng = heuristic(name), depth, rng
        self.seconds, self.nodes = seconds, nodes

    def choose_action(self, state: Aboyne):
        action, s, n = _choose(state, self.depth, self.evaluate, self.rng)
        self.seconds.append(s)
        self.nodes.append(n)
        return action


def play_game(start: Aboyne, players: dict, seed, max_plies: int = MAX_PLIES) -> dict:
    """One game from ``start``; ``players[p]`` is ``None`` (uniformly random) or ``(heuristic, depth)``
    (alpha-beta with ties broken at random; it plays exactly as minimax would).

    Returns the ``record`` from ``start``, the ``winner`` (0, 1, or None if drawn at
    ``max_plies`` moves), ``branching`` (moves of the side to move at each position before the
    end) and, per player, the ``seconds`` and ``nodes`` of each of its decisions.
    """
    rng = random.Random(seed)
    state = start.clone()
    state.max_plies = len(state.history) + max_plies
    first = len(state.history)
    branching, seconds, nodes = [], {0: [], 1: []}, {0: [], 1: []}
    chosen = {p: RandomStatePlayer(rng) if players[p] is None
              else _Searcher(*players[p], rng, seconds[p], nodes[p]) for p in (0, 1)}
    play_state(state, chosen, before=lambda s: branching.append(len(s.legal_actions())))
    record = " ".join(Aboyne.action_to_string(a) for a in state.history[first:])
    return {
        "record": record,
        "winner": state.winner,
        "branching": branching,
        "seconds": seconds,
        "nodes": nodes,
    }


def branching_samples(
    n_random: int, n_search: int, depth: int = 2, seed: int = 0, random_cap: int = 2000
) -> pd.DataFrame:
    """Moves per position in ``n_random`` random games and ``n_search`` games between two alpha-beta
    players of depth ``depth`` (heuristic 1 against heuristic 2, sides alternating), from the start.
    Random games are drawn after ``random_cap`` moves, the others after :data:`MAX_PLIES`.

    Returns one row per position: ``sample`` ("random" or "alpha-beta depth d"), ``game``,
    ``ply``, ``plies`` (the game's length), ``drawn`` (the game reached its cap, no one won),
    ``phase`` (the third of the game it is in: :data:`PHASES`), ``moves``.
    """
    rows = []
    plans = [("random", {0: None, 1: None})] * n_random
    for g in range(n_search):
        pair = [("report 1", depth), ("report 2", depth)]
        plans.append((f"alpha-beta depth {depth}", {0: pair[g % 2], 1: pair[1 - g % 2]}))
    for g, (sample, players) in enumerate(plans):
        cap = random_cap if sample == "random" else MAX_PLIES
        game = play_game(Aboyne(), players, seed=seed * 100_003 + g, max_plies=cap)
        n = len(game["branching"])
        for ply, moves in enumerate(game["branching"]):
            rows.append(
                {
                    "sample": sample,
                    "game": g,
                    "ply": ply,
                    "plies": n,
                    "drawn": game["winner"] is None,
                    "phase": PHASES[min(2, 3 * ply // n)],
                    "moves": moves,
                }
            )
    return pd.DataFrame(rows, columns=["sample", "game", "ply", "plies", "drawn", "phase", "moves"])


def _bootstrap_mean(frame: pd.DataFrame, resamples: int, rng: np.random.Generator) -> tuple[float, float]:
    """A 95 % interval of the mean moves per position, resampling whole games."""
    per_game = frame.groupby("game").moves.agg(["sum", "count"]).to_numpy(dtype=float)
    if len(per_game) < 2:
        return (float("nan"), float("nan"))
    means = ratio_of_totals(per_game[:, 0], per_game[:, 1], resamples, rng)
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def branching_summary(samples: pd.DataFrame, resamples: int = 2000, seed: int = 0) -> pd.DataFrame:
    """Per sample, games kept (:data:`GAMES_KEPT`: every game, those that ended, those drawn at
    their cap) and phase ("all" too): positions, games (and how many of them were drawn at their
    cap), mean moves with a 95 % interval (bootstrap over games), standard deviation, median,
    quartiles, min and max. A selection without games gives no row."""
    rng = np.random.default_rng(seed)
    rows = []
    for sample, frame in samples.groupby("sample", sort=False):
        drawn = frame.drawn.astype(bool)
        for kept, games in zip(GAMES_KEPT, (frame, frame[~drawn], frame[drawn])):
            for phase in ("all", *PHASES):
                part = games if phase == "all" else games[games.phase == phase]
                if part.empty:
                    continue
                low, high = _bootstrap_mean(part, resamples, rng)
                m = part.moves
                rows.append(
                    {
                        "sample": sample,
                        "games kept": kept,
                        "phase": phase,
                        "positions": len(part),
                        "games": part.game.nunique(),
                        "drawn games": int(part.groupby("game").drawn.first().astype(bool).sum()),
                        "mean": m.mean(),
                        "low": low,
                        "high": high,
                        "sd": m.std(ddof=1),
                        "min": m.min(),
                        "q1": m.quantile(0.25),
                        "median": m.median(),
                        "q3": m.quantile(0.75),
                        "max": m.max(),
                    }
                )
    return pd.DataFrame(rows)


# --- the fixed states and the duels ---------------------------------------------------------

#: The three fixed states, as records from the start (:func:`make_states`): the start, and the
#: positions after 10 and 20 moves of a game between two alpha-beta players of depth 2 with
#: heuristic 1, ties broken at random (seed 3).
STATES: dict[str, str] = {
    "state 1": "",
    "state 2": "e2-e3 e8-e7 e3-e4 e7-e6 e4-e5 a5-b5 i5-h5 c7-d7 h5-h6 b6-b4",
    "state 3": (
        "e2-e3 e8-e7 e3-e4 e7-e6 e4-e5 a5-b5 i5-h5 c7-d7 h5-h6 b6-b4 d1-d2 g9-g8 f2-i5 h9-g9 d2-d1 "
        "b5-b3 a1-a2 b4-b2 i5-f2 g8-h8"
    ),
}


def make_states(seed: int = 3, at=(10, 20), depth: int = 2) -> dict[str, str]:
    """The records of :data:`STATES`, recomputed."""
    players = {0: ("report 1", depth), 1: ("report 1", depth)}
    game = play_game(Aboyne(), players, seed, max_plies=max(at))
    moves = game["record"].split()
    if len(moves) < max(at):
        raise ValueError(f"the game of seed {seed} ended after {len(moves)} moves, before {max(at)}")
    return {"state 1": "", **{f"state {k + 2}": " ".join(moves[:n]) for k, n in enumerate(at)}}


def duel(state: str, depth: int, test: int, seed: int = 0, max_plies: int = MAX_PLIES) -> dict:
    """Test ``test`` (1-based) of the report's duel from the state ``state`` (a record) at ``depth``:
    heuristic 1 plays the side to move in odd tests, heuristic 2 in even ones.

    Returns ``winner`` (1 or 2: the heuristic; 0: drawn at ``max_plies``), ``plies``, and the
    mean ``seconds_per_move`` of all decisions and of each heuristic's.
    """
    start = Aboyne(state)
    mover = start.current_player()
    first, second = ("report 1", "report 2") if test % 2 == 1 else ("report 2", "report 1")
    players = {mover: (first, depth), 1 - mover: (second, depth)}
    game = play_game(
        start, players, seed=zlib.crc32(f"{seed} {state} {depth} {test}".encode()), max_plies=max_plies
    )
    side_of = {"report 1": mover if first == "report 1" else 1 - mover}
    side_of["report 2"] = 1 - side_of["report 1"]
    winner = 0 if game["winner"] is None else (1 if game["winner"] == side_of["report 1"] else 2)
    all_seconds = game["seconds"][0] + game["seconds"][1]
    return {
        "depth": depth,
        "test": test,
        "winner": winner,
        "plies": len(game["record"].split()),
        "heuristic 1 side": ("red", "blue")[side_of["report 1"]],
        "seconds_per_move": float(np.mean(all_seconds)) if all_seconds else float("nan"),
        "seconds_per_move_h1": float(np.mean(game["seconds"][side_of["report 1"]] or [np.nan])),
        "seconds_per_move_h2": float(np.mean(game["seconds"][side_of["report 2"]] or [np.nan])),
        "record": game["record"],
    }


def duels(
    states: dict[str, str] | None = None,
    depths=(1, 2, 3),
    tests: int = 10,
    seed: int = 0,
    max_plies: int = MAX_PLIES,
    progress=None,
) -> pd.DataFrame:
    """Every test of :func:`duel` for each state and depth; ``progress(n)`` is called after each."""
    states = STATES if states is None else states
    rows = []
    for name, record in states.items():
        for depth in depths:
            for test in range(1, tests + 1):
                rows.append({"state": name, **duel(record, depth, test, seed, max_plies)})
                if progress is not None:
                    progress(1)
    return pd.DataFrame(rows)


def duel_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per state and depth: tests, wins of each heuristic, draws, heuristic 2's score (a win 1, a
    draw 1/2) with its Wilson 95 % interval, the majority winner, and the mean seconds per move."""
    out = []
    for (state, depth), part in rows.groupby(["state", "depth"], sort=True):
        n = len(part)
        w1, w2 = int((part.winner == 1).sum()), int((part.winner == 2).sum())
        draws = n - w1 - w2
        score = w2 + draws / 2
        low, high = wilson(score, n)
        out.append(
            {
                "state": state,
                "depth": depth,
                "tests": n,
                "heuristic 1 wins": w1,
                "heuristic 2 wins": w2,
                "draws": draws,
                "heuristic 2 score": score / n,
                "low": low,
                "high": high,
                "majority": "1" if w1 > w2 else "2" if w2 > w1 else "even",
                "seconds_per_move": part.seconds_per_move.mean(),
                "plies": part.plies.mean(),
            }
        )
    return pd.DataFrame(out)


# --- the cost of search by depth ------------------------------------------------------------


def search_costs(
    states: dict[str, str], depths, evaluate: str = "report 1", repeats: int = 1
) -> pd.DataFrame:
    """Minimax and alpha-beta (the reference searches, heuristic ``evaluate``) from each state at
    each depth, and perft: nodes (states visited, the root included), seconds (the best of
    ``repeats`` runs, after a warm-up) and states per second."""
    ev = heuristic(evaluate)
    minimax(Aboyne(), 1, 0, ev)  # warm-up
    rows = []
    for name, record in states.items():
        state = Aboyne(record)
        for depth in depths:
            values = {}
            for algorithm, search in (("minimax", minimax), ("alpha-beta", alphabeta)):
                best = None
                for _ in range(repeats):
                    stats = SearchStats()
                    result = search(state, depth, state.current_player(), ev, stats=stats)
                    best = result.seconds if best is None else min(best, result.seconds)
                values[algorithm] = result.value
                rows.append(
                    {
                        "state": name,
                        "depth": depth,
                        "algorithm": algorithm,
                        "nodes": result.nodes,
                        "leaves": result.details["leaves"],
                        "seconds": best,
                        "states_per_second": result.nodes / best if best else float("nan"),
                    }
                )
            if values["minimax"] != values["alpha-beta"]:
                raise AssertionError(f"minimax and alpha-beta disagree at {name}, depth {depth}: {values}")
            start = time.perf_counter()
            count = perft(state, depth)
            seconds = time.perf_counter() - start
            rows.append(
                {
                    "state": name,
                    "depth": depth,
                    "algorithm": "perft",
                    "nodes": count,
                    "leaves": count,
                    "seconds": seconds,
                    "states_per_second": count / seconds if seconds else float("nan"),
                }
            )
    return pd.DataFrame(rows)


def paired_timings(
    states: dict[str, str], depths, test: SignSPRT, evaluate: str = "report 1"
) -> pd.DataFrame:
    """Minimax against alpha-beta (the reference searches, heuristic ``evaluate``) from each state at
    each depth, in **processor** seconds (``time.process_time``: the other processes of a shared
    machine do not count), in pairs until ``test`` stops. Each pair runs both searches back to back,
    minimax first in even pairs and alpha-beta first in odd ones, so that a slow spell of the machine
    falls on both; a pair is a trial of ``test``, won when alpha-beta took longer (a pair of equal
    times is skipped). One warm-up search runs first.

    Returns one row per (state, depth, pair): ``nodes_minimax``, ``nodes_alphabeta`` (the same in
    every pair), ``cpu_minimax``, ``cpu_alphabeta``.
    """
    ev = heuristic(evaluate)
    minimax(Aboyne(), 1, 0, ev)  # warm-up
    rows = []

    def pairs(name: str, state: Aboyne, depth: int):
        player = state.current_player()
        for pair in itertools.count():
            order = ("minimax", "alpha-beta") if pair % 2 == 0 else ("alpha-beta", "minimax")
            row = {"state": name, "depth": depth, "pair": pair}
            for algorithm in order:
                search = minimax if algorithm == "minimax" else alphabeta
                start = time.process_time()
                result = search(state, depth, player, ev)
                key = algorithm.replace("-", "")
                row[f"cpu_{key}"] = time.process_time() - start
                row[f"nodes_{key}"] = result.nodes
            rows.append(row)
            if row["cpu_alphabeta"] != row["cpu_minimax"]:
                yield row["cpu_alphabeta"] > row["cpu_minimax"]

    for name, record in states.items():
        for depth in depths:
            test.run(pairs(name, Aboyne(record), depth))
    return pd.DataFrame(
        rows,
        columns=[
            "state",
            "depth",
            "pair",
            "nodes_minimax",
            "nodes_alphabeta",
            "cpu_minimax",
            "cpu_alphabeta",
        ],
    )
