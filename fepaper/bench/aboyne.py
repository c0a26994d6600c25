"""Aboyne speed figures (``fepaper bench aboyne``): the move generator (perft moves/s, random-game
moves/s) and the reference searches on it (minimax and alpha-beta states/s at depth 3 from the
Aboyne report's three fixed states, as notebook 09 uses), each a median over repeats, and the
ratio alpha-beta / minimax in seconds per search."""

from __future__ import annotations

import random
import time

import numpy as np

from ..experiments.reference.aboyne import STATES, heuristic
from ..games.aboyne import Aboyne
from ..games.aboyne_perft import perft
from ..play.states import RandomStatePlayer, play_state
from ..search.reference import alphabeta, minimax

__all__ = ["bench_aboyne"]


def _median(samples) -> float:
    return float(np.median(samples))


def bench_aboyne(repeat: int = 3, depth: int = 3) -> dict:
    """The figures; ``depth`` is the searches' depth."""
    minimax(Aboyne(), 1, 0, heuristic("report 1"))  # warm-up
    figures = {}
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        count = perft(Aboyne(), 4)
        rates.append(count / (time.perf_counter() - start))
    figures["perft 4 from the start: moves/s"] = _median(rates)
    rates = []
    for r in range(repeat):
        player, game, start = RandomStatePlayer(random.Random(r)), Aboyne(max_plies=2000), time.perf_counter()
        play_state(game, {0: player, 1: player})
        rates.append(len(game.history) / (time.perf_counter() - start))
    figures["random game: moves/s"] = _median(rates)
    ev = heuristic("report 1")
    seconds = {}
    for name, search in (("minimax", minimax), ("alpha-beta", alphabeta)):
        rates, times = [], []
        for _ in range(repeat):
            nodes = spent = 0.0
            for record in STATES.values():
                state = Aboyne(record)
                result = search(state, depth, state.current_player(), ev)
                nodes, spent = nodes + result.nodes, spent + result.seconds
            rates.append(nodes / spent)
            times.append(spent / len(STATES))
        figures[f"{name} depth {depth}: states/s"] = _median(rates)
        seconds[name] = _median(times)
        figures[f"{name} depth {depth}: seconds per search"] = seconds[name]
    figures["alpha-beta / minimax seconds"] = seconds["alpha-beta"] / seconds["minimax"]
    return figures
